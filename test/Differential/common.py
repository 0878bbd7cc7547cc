"""Imports and tables shared by the differential test's modules."""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# An empty mean is NaN in NumPy, which also warns; the oracle wants the NaN.
warnings.filterwarnings("ignore", message="Mean of empty slice")
warnings.filterwarnings("ignore", message="invalid value encountered")

try:
    import torch
    torch.set_num_threads(1)
except ImportError:  # pragma: no cover - reported when a torch case runs
    torch = None

NP_DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32,
             "i64": np.int64, "i1": np.bool_}
TORCH_DTYPES = ({"f32": torch.float32, "f64": torch.float64,
                 "i32": torch.int32, "i64": torch.int64, "i1": torch.bool}
                if torch is not None else {})
# Names stride-run may print for an element type.
DTYPE_ALIASES = {"f32": "f32", "float32": "f32", "f64": "f64",
                 "float64": "f64", "i32": "i32", "int32": "i32",
                 "i64": "i64", "int64": "i64", "i1": "i1", "bool": "i1"}
UNIT_ROUNDOFF = {"f32": 2.0 ** -24, "f64": 2.0 ** -53}

FLOAT_UNARY = ["neg", "abs", "exp", "tanh", "sigmoid"]
INT_UNARY = ["neg", "abs"]
TRANSCENDENTAL = {"exp", "tanh", "sigmoid"}
BINARY = ["add", "sub", "mul", "div", "maximum", "minimum"]
PREDICATES = ["eq", "ne", "lt", "le", "gt", "ge"]

# Reductions (the reduce mode, reductions.py): named Stride reductions.
REDUCTIONS = ["sum", "prod", "amax", "amin", "mean", "argmax", "argmin",
              "any", "all"]
# Reductions that need a non-empty reduced extent (both libraries refuse an
# empty max, min or arg-reduction).
NEEDS_ELEMENTS = {"amax", "amin", "argmax", "argmin"}
# Reductions over at most one axis.
SINGLE_AXIS = {"argmax", "argmin"}


def reduce_dtype(op, dtype):
    """The element type of reduction `op` of a `dtype` tensor (NumPy's and
    PyTorch's: integer and bool sums and products are i64, integer means
    f64, arg-reductions i64, any/all bool)."""
    isint = dtype.startswith("i")
    if op in ("sum", "prod"):
        return "i64" if isint else dtype
    if op == "mean":
        return "f64" if isint else dtype
    if op in SINGLE_AXIS:
        return "i64"
    if op in ("any", "all"):
        return "i1"
    return dtype

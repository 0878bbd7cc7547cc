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
from concurrent.futures import ThreadPoolExecutor

import numpy as np

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

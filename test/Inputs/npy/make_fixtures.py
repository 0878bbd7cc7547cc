#!/usr/bin/python3
"""Regenerates the .npy fixtures read by unittests/Runtime/NpyTest.cpp.

Run with a Python that has NumPy (Debian's /usr/bin/python3):
    /usr/bin/python3 test/Inputs/npy/make_fixtures.py
The files land next to this script. The values are chosen so the tests can
spell them out literally; if you change them, change NpyTest.cpp too.
"""
import os

import numpy as np
from numpy.lib import format as npformat

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def save(name, array, version=None):
    with open(path(name), "wb") as f:
        npformat.write_array(f, array, version=version, allow_pickle=False)


def save_raw(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def v1_header(header_text):
    """Magic, version 1.0 and a header dict padded the way NumPy pads it."""
    text = header_text.encode("latin1")
    pad = -(10 + len(text) + 1) % 64
    text += b" " * pad + b"\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text


# 2x3x4, values -3.0, -2.5, ..., 8.5 (exact in binary).
c_f32 = (np.arange(24, dtype="<f4") * 0.5 - 3).reshape(2, 3, 4)
save("c_f32.npy", c_f32)
# Same logical values, stored column-major (fortran_order: True).
save("fortran_f32.npy", np.asfortranarray(c_f32))
# 3x2 int32 stored column-major, logical value at [i, j] is 10 * i + j.
save("fortran_i32.npy",
     np.asfortranarray(np.array([[0, 1], [10, 11], [20, 21]], dtype="<i4")))

# Special values survive bit for bit.
save("f64.npy", np.array([[1.5, -2.25], [1e300, -0.0],
                          [np.inf, 5e-324]], dtype="<f8"))
save("i32.npy", np.array([-2**31, -1, 0, 1, 2**31 - 1], dtype="<i4"))
save("i64.npy", np.array([[-2**63, -1], [0, 2**63 - 1]], dtype="<i8"))
save("bool.npy", np.array([[True, False, True], [False, False, True]]))
save("scalar_f64.npy", np.array(3.25, dtype="<f8"))
save("empty_f32.npy", np.zeros((0, 3), dtype="<f4"))

# Header format versions 2.0 (4-byte header length) and 3.0 (utf8 header).
save("v2_i64.npy", np.arange(6, dtype="<i8").reshape(3, 2), version=(2, 0))
save("v3_f32.npy", np.arange(4, dtype="<f4"), version=(3, 0))

# Big-endian data: the reader byte-swaps it to the host order.
# Values -2.5, -1.5, ..., 2.5.
be = np.arange(6, dtype="<f4").reshape(2, 3) - 2.5
save("be_f32.npy", be.astype(">f4"))

# --- Malformed files -------------------------------------------------------
with open(path("c_f32.npy"), "rb") as f:
    good = f.read()
# 24 elements of 4 bytes need 96 bytes; keep 60.
save_raw("truncated.npy", good[:len(good) - 36])
save_raw("bad_magic.npy", b"NOTNPY\x01\x00" + good[8:])
# Unbalanced parenthesis in the shape tuple.
save_raw("bad_header.npy",
         v1_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3}, ")
         + bytes(24))
save("complex_c8.npy", np.array([1 + 2j, 3 - 4j], dtype="<c8"))

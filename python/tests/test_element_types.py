"""The package's dtype maps are the extension's element-type table
(include/stride/Support/ElementType.h), and each row is the NumPy dtype it
names: a kernel of that element type takes and returns arrays of it."""
import numpy as np
import pytest

from stride import _dtypes, _stride

ROWS = _stride.element_types()


def test_the_table_has_the_documented_rows():
    # docs/README.md lists these; a new row must be added there too.
    assert [row["name"] for row in ROWS] == ["f32", "f64", "i32", "i64", "i1", "i8",
                                             "i16", "ui8", "ui16", "ui32", "ui64"]


def test_python_maps_equal_the_extension_table():
    assert _dtypes.MLIR_TYPES == {np.dtype(row["numpy"]): row["name"]
                                  for row in ROWS}
    assert _dtypes.NUMPY_TYPES == {row["name"]: np.dtype(row["numpy"])
                                   for row in ROWS}
    assert _dtypes.NUMPY_NAMES == [row["numpy"] for row in ROWS]
    assert list(_dtypes.ELEMENT_TYPES) == ROWS


@pytest.mark.parametrize("row", ROWS, ids=[row["name"] for row in ROWS])
def test_each_row_is_numpys_dtype(row):
    dtype = np.dtype(row["numpy"])
    assert dtype.isnative
    assert dtype.itemsize == row["size"]
    # The .npy descr is the little-endian dtype.str ('|' for one byte).
    assert np.dtype(row["descr"]) == dtype
    assert dtype.newbyteorder("<").str == row["descr"]


@pytest.mark.parametrize("row", ROWS, ids=[row["name"] for row in ROWS])
def test_a_kernel_of_each_row_takes_and_returns_its_dtype(row):
    name, dtype = row["name"], np.dtype(row["numpy"])
    # select(c, a, s): elementwise, defined for every element type, and the
    # scalar argument goes through the kernel's scalar slot.
    t = f"tensor<5x{name}>"
    ir = f"""func.func @f(%c: tensor<5xi1>, %a: {t}, %s: {name}) -> tensor<*x{name}> {{
  %0 = stride.select %c, %a, %s : tensor<5xi1>, {t}, {name} -> tensor<*x{name}>
  return %0 : tensor<*x{name}>
}}"""
    kernel = _stride.compile(ir, "f", [((5,), (1,)), ((5,), (1,)), None])
    assert [p["dtype"] for p in kernel.inputs] == ["i1", name, name]
    assert kernel.outputs[0]["dtype"] == name
    cond = np.array([True, False, True, False, False])
    a = (np.arange(5) % 2 if dtype == np.bool_ else np.arange(5) - 2).astype(dtype)
    s = dtype.type(1)
    out = np.empty(5, dtype)
    kernel([cond, a, s], [out])
    np.testing.assert_array_equal(out, np.where(cond, a, s))
    assert out.dtype == dtype

"""stride._stride.IRBuilder, through which _codegen builds functions: ops by
their registered names and attributes, loops, slices and casts, a text that
the compiler parses, and clear errors for what cannot be built."""
import numpy as np
import pytest

from stride import _stride

F64 = ("f64", None, None)


def test_built_function_compiles_and_runs():
    b = _stride.IRBuilder("f")
    x = b.argument(("f64", (None, None), None))
    s = b.argument("f64")
    scaled, = b.op("stride.mul", [x, s], [F64])
    rows, = b.op("stride.sum", [scaled], [F64], {"axes": [1], "keepdims": True})
    column, = b.op("stride.slice", [scaled], [F64],
                   {"starts": [0, 1], "stops": [-2 ** 63, 2],
                    "steps": [-2 ** 63, -2 ** 63]})
    base = b.cast(scaled, ("f64", (4, 3), None))
    index, carried = b.begin_loop(0, 3, [base], [("f64", (4, 3), None)])
    doubled, = b.op("stride.add", [carried, carried], [F64])
    looped, = b.end_loop([doubled])
    written = b.insert_slice(column, looped, [0, 0], [4, 1], [1, 1])
    text = b.finish([rows, written], [F64, F64])
    assert "stride.sum" in text and "scf.for" in text
    a = np.random.rand(4, 3)
    kernel = _stride.compile(text, "f", [(a.shape, (3, 1)), None])
    outs = [np.empty((4, 1)), np.empty((4, 3))]
    kernel([a, 2.0], outs)
    np.testing.assert_allclose(outs[0], (2 * a).sum(1, keepdims=True))
    want = 2 * a * 8
    want[:, 0] = 2 * a[:, 1]
    np.testing.assert_allclose(outs[1], want)


def test_errors_name_what_is_wrong():
    b = _stride.IRBuilder("f")
    x = b.argument(("f32", (None,), None))
    with pytest.raises(ValueError, match="no registered op 'stride.nope'"):
        b.op("stride.nope", [x], [F64])
    with pytest.raises(IndexError, match="no value #7"):
        b.op("stride.neg", [7], [F64])
    with pytest.raises(ValueError, match="'f12' is not an element type"):
        b.argument(("f12", (3,), None))
    with pytest.raises(ValueError, match="'above' is not a comparison"):
        b.op("stride.cmp", [x, x], [("i1", None, None)],
             {"predicate": "above"})
    with pytest.raises(ValueError, match="no loop is open"):
        b.end_loop([x])
    with pytest.raises(ValueError, match="needs a base of a static type"):
        b.insert_slice(x, x, [0], [1], [1])


def test_rows_at_a_computed_index():
    """extract_at / insert_at: row i of a static base at a dynamic offset
    (the loop index), as stride.fori_loop bodies index by i; a dynamic
    base or an axis past the rank is a ValueError naming it."""
    b = _stride.IRBuilder("f")
    x = b.argument(("f64", (None, None), None))
    base = b.cast(x, ("f64", (4, 3), None))
    index, carried = b.begin_loop(1, 4, [base], [("f64", (4, 3), None)])
    before, = b.op("stride.sub", [index, b.op("stride.sign", [index],
                                               [("i64", None, None)])[0]],
                   [("i64", None, None)])
    previous = b.extract_at(carried, 0, b.cast(before, ("i64", (), None)))
    row, = b.op("stride.add", [previous, b.extract_at(carried, 0, index)],
                [F64])
    looped, = b.end_loop([b.insert_at(row, carried, 0, index)])
    text = b.finish([looped], [F64])
    a = np.random.rand(4, 3)
    kernel = _stride.compile(text, "f", [(a.shape, (3, 1))])
    out = [np.empty((4, 3))]
    kernel([a], out)
    np.testing.assert_allclose(out[0], np.cumsum(a, axis=0))
    with pytest.raises(ValueError, match="extract_at needs a base of a "
                       "static type"):
        b.extract_at(x, 0, index)
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        b.insert_at(row, base, 2, index)

"""The in-place kernel variants give the plain kernels' results (values, shapes, dtypes)
for every operand combination, writing into the first operand only when that is exact."""
import numpy as np
import pytest

from sampan.executor.passes.inplace import inplace_kernel
from sampan.ops.kernels.elementwise import RELU_CLIP_FROM
from sampan.ops.registry import OPS

_BINARY_CASES = [
    ((3, 4), "float32", (3, 4), "float32"),
    ((3, 4), "float32", (4,), "float32"),
    ((3, 4), "float32", (1, 4), "float32"),     # same rank, broadcast row
    ((1, 4), "float32", (3, 4), "float32"),     # the result is larger than x: kernel
    ((3, 4), "float32", (2, 3, 4), "float32"),  # higher rank y: kernel
    ((3, 4), "float32", (4,), "float64"),       # dtypes differ: kernel (promotes)
    ((3, 4), "int64", (3, 4), "int64"),
]


@pytest.mark.parametrize("op", ["add", "subtract", "multiply"])
@pytest.mark.parametrize("xs, xd, ys, yd", _BINARY_CASES)
def test_binary_in_place_matches_the_kernel(op, xs, xd, ys, yd):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(xs) * 5).astype(xd)
    y = (rng.standard_normal(ys) * 5).astype(yd)
    expected = OPS[op].kernel(x.copy(), y)
    got = inplace_kernel(op)(x, y)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("op", ["relu", "tanh", "exp"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_unary_in_place_matches_the_kernel(op, dtype):
    x = (np.random.default_rng(1).standard_normal((3, 5)) * 3).astype(dtype)
    expected = OPS[op].kernel(x.copy())
    got = inplace_kernel(op)(x)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    if dtype.startswith("float"):
        assert got is x  # written in place


@pytest.mark.parametrize("size", [7, RELU_CLIP_FROM - 1, RELU_CLIP_FROM, 3 * RELU_CLIP_FROM])
def test_relu_in_place_is_the_kernel_bit_for_bit_on_both_sides_of_its_clip_size(size):
    x = np.random.default_rng(2).standard_normal(size).astype("float32")
    x[:4] = [-0.0, np.nan, -np.inf, np.inf]
    expected = OPS["relu"].kernel(x.copy())
    got = inplace_kernel("relu")(x)
    assert got is x
    np.testing.assert_array_equal(got, expected)
    assert np.array_equal(np.signbit(got), np.signbit(expected))  # the sign of zero too
    np.testing.assert_array_equal(got, np.maximum(expected, 0))

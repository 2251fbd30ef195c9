"""A complex operand never narrows a float64 tensor: Paddle 3.3.1 computes float64 with a
Python complex, and complex64 with float64, in complex128 (checked with Paddle)."""
import operator

import numpy as np
import pytest

import sampan as paddle

OPS = [operator.add, operator.sub, operator.mul, operator.truediv,
       lambda a, b: operator.sub(b, a), lambda a, b: operator.truediv(b, a)]


@pytest.mark.parametrize("dtype,want", [("float64", "complex128"), ("float32", "complex64"),
                                        ("float16", "complex64"), ("int64", "complex64"),
                                        ("int32", "complex64")])
@pytest.mark.parametrize("op", OPS)
def test_python_complex_beside_a_real_tensor(dtype, want, op):
    out = op(paddle.ones([2], dtype), 1j)
    assert out.dtype == getattr(paddle, want)


def test_float64_digits_survive_a_complex_scalar():
    v = 1 + 1e-12
    out = paddle.to_tensor([v], "float64") + paddle.to_tensor([0.0], "float64") * 1j
    assert out.numpy()[0].real == v
    out = paddle.to_tensor([v], "float64") * 1j
    assert out.numpy()[0].imag == v


@pytest.mark.parametrize("a,b,want", [("complex64", "float64", "complex128"),
                                      ("float64", "complex64", "complex128"),
                                      ("complex64", "float32", "complex64"),
                                      ("complex128", "float32", "complex128")])
def test_complex_tensor_beside_a_real_tensor(a, b, want):
    x = paddle.to_tensor(np.array([1 + 1e-12], a))
    y = paddle.to_tensor(np.array([1 + 1e-12], b))
    assert (x * y).dtype == getattr(paddle, want)
    assert (x + y).dtype == getattr(paddle, want)


def test_static_program_promotes_the_same_way():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [2], "complex64")
            y = paddle.static.data("y", [2], "float64")
            out = x * y
        got = paddle.static.Executor().run(
            main, feed={"x": np.array([1j, 2], "complex64"), "y": np.array([2.0, 3.0])},
            fetch_list=[out])[0]
    finally:
        paddle.disable_static()
    assert got.dtype == np.complex128
    np.testing.assert_array_equal(got, [2j, 6])

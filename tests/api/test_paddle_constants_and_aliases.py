"""Paddle's module constants (e, inf, nan, pi, newaxis), dtype aliases (float, double, half,
cfloat, cdouble), paddle.autograd's grad-mode names and Function, and paddle.linalg's
cholesky_inverse, matrix_transpose, matmul and diagonal (values against NumPy, gradients)."""
import math

import numpy as np

import sampan as paddle
from tests.api._check import check_grad, tensor


def test_constants_and_dtype_aliases_are_paddles():
    assert (paddle.e, paddle.pi, paddle.inf) == (math.e, math.pi, math.inf)
    assert math.isnan(paddle.nan) and paddle.newaxis is None
    pairs = {paddle.float: paddle.float32, paddle.double: paddle.float64,
             paddle.half: paddle.float16, paddle.cfloat: paddle.complex64,
             paddle.cdouble: paddle.complex128}
    for alias, dtype in pairs.items():
        assert alias == dtype and paddle.zeros([1], alias).dtype == dtype
    x = paddle.ones([2, 3])
    assert x[paddle.newaxis].shape == [1, 2, 3]


def test_autograd_grad_mode_names_and_function():
    assert paddle.autograd.Function is paddle.autograd.PyLayer
    with paddle.autograd.set_grad_enabled(False):
        assert not paddle.autograd.is_grad_enabled()
        with paddle.autograd.enable_grad():
            assert paddle.autograd.is_grad_enabled()
    assert paddle.autograd.is_grad_enabled()


def test_cholesky_inverse_both_triangles_with_gradients():
    a = np.random.default_rng(2).normal(size=(2, 4, 4))
    spd = a @ np.swapaxes(a, -1, -2) + 4 * np.eye(4)
    lower = np.linalg.cholesky(spd)
    np.testing.assert_allclose(paddle.linalg.cholesky_inverse(tensor(lower)).numpy(),
                               np.linalg.inv(spd), rtol=1e-10)
    upper = np.swapaxes(lower, -1, -2).copy()
    np.testing.assert_allclose(paddle.linalg.cholesky_inverse(tensor(upper), upper=True).numpy(),
                               np.linalg.inv(spd), rtol=1e-10)
    check_grad(paddle.linalg.cholesky_inverse, np.tril(lower[0]), rtol=1e-4, atol=1e-7)


def test_matrix_transpose_matmul_and_diagonal():
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(paddle.linalg.matrix_transpose(tensor(x)).numpy(),
                                  np.swapaxes(x, -1, -2))
    np.testing.assert_array_equal(paddle.linalg.diagonal(tensor(x)).numpy(),
                                  np.diagonal(x, 0, 0, 1))
    np.testing.assert_allclose(paddle.linalg.matmul(tensor(x), tensor(x), transpose_y=True)
                               .numpy(), x @ np.swapaxes(x, -1, -2))

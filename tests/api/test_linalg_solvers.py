"""paddle.linalg.triangular_solve and cholesky_solve against NumPy: values (batched),
gradients, static mode and errors."""
import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_grad, check_static, tensor

rng = np.random.default_rng(3)
M = rng.normal(size=(4, 4)) + 4 * np.eye(4)
BM = rng.normal(size=(2, 3, 3)) + 3 * np.eye(3)
RHS = rng.normal(size=(4, 2))
BRHS = rng.normal(size=(2, 3, 5))
SPD = M @ M.T
LOWER = np.linalg.cholesky(SPD)


def _tri_ref(x, y, upper=True, transpose=False, unit=False):
    a = np.triu(x) if upper else np.tril(x)
    if unit:
        a = a * (1 - np.eye(a.shape[-1])) + np.eye(a.shape[-1])
    return np.linalg.solve(np.swapaxes(a, -1, -2) if transpose else a, y)


CASES = {
    "upper": (lambda x, y: paddle.linalg.triangular_solve(x, y), _tri_ref, [M, RHS]),
    "lower_t": (lambda x, y: paddle.linalg.triangular_solve(x, y, False, True),
                lambda x, y: _tri_ref(x, y, False, True), [M, RHS]),
    "unit_batched": (lambda x, y: paddle.linalg.triangular_solve(x, y, unitriangular=True),
                     lambda x, y: _tri_ref(x, y, unit=True), [BM, BRHS]),
    "cholesky_lower": (lambda b, u: paddle.linalg.cholesky_solve(b, u),
                       lambda b, u: np.linalg.solve(np.tril(u) @ np.tril(u).T, b),
                       [RHS, LOWER]),
    "cholesky_upper": (lambda b, u: paddle.linalg.cholesky_solve(b, u, upper=True),
                       lambda b, u: np.linalg.solve(np.triu(u).T @ np.triu(u), b),
                       [RHS, LOWER.T.copy()]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_gradients_static(name):
    """NumPy values, central-difference gradients for both inputs, the same in static mode."""
    fn, ref, arrays = CASES[name]
    np.testing.assert_allclose(fn(*[tensor(a) for a in arrays]).numpy(), ref(*arrays),
                               rtol=1e-10, atol=1e-12)
    check_grad(fn, *arrays, rtol=1e-4, atol=1e-6)
    check_static(fn, *arrays)


def test_only_the_named_triangle_is_read():
    """Entries outside the triangle neither change the result nor get a gradient."""
    x = tensor(M, grad=True)
    paddle.linalg.triangular_solve(x, tensor(RHS)).sum().backward()
    assert np.all(np.tril(x.grad.numpy(), -1) == 0)
    noisy = np.triu(M) + np.tril(rng.normal(size=(4, 4)), -1)
    np.testing.assert_allclose(paddle.linalg.triangular_solve(tensor(noisy), tensor(RHS)).numpy(),
                               _tri_ref(M, RHS))


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match="square"):
        paddle.linalg.triangular_solve(tensor(RHS), tensor(RHS))
    with pytest.raises(ValueError, match="right-hand"):
        paddle.linalg.cholesky_solve(tensor(RHS.T.copy()), tensor(LOWER))

"""paddle.linalg.lu_solve and householder_product against NumPy (and Paddle 3.3.1's values
for one example): values (batched), trans modes, central-difference gradients, static mode,
the input left unchanged, and errors."""
import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_grad, check_static, tensor

rng = np.random.default_rng(5)
A = rng.normal(size=(4, 4))
BA = rng.normal(size=(2, 3, 3))
B = rng.normal(size=(4, 2))
BB = rng.normal(size=(2, 3, 1))


def _factors(a):
    lu, pivots = paddle.linalg.lu(tensor(a))
    return lu.numpy(), pivots


@pytest.mark.parametrize("trans", ["N", "T", "C"])
@pytest.mark.parametrize("a, b", [(A, B), (BA, BB)])
def test_lu_solve_matches_numpy_and_has_gradients(a, b, trans):
    lu, pivots = _factors(a)
    system = a if trans == "N" else np.swapaxes(a, -1, -2)

    def solve(b, lu):
        return paddle.linalg.lu_solve(b, lu, pivots, trans=trans)
    np.testing.assert_allclose(solve(tensor(b), tensor(lu)).numpy(),
                               np.linalg.solve(system, b), rtol=1e-10, atol=1e-12)
    check_grad(solve, b, lu, rtol=1e-4, atol=1e-6)
    check_static(solve, b, lu)


def test_lu_solve_of_complex_matrices_with_conjugate_transpose():
    a = rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))
    b = rng.normal(size=(3, 2)) + 1j * rng.normal(size=(3, 2))
    lu, pivots = paddle.linalg.lu(tensor(a))
    got = paddle.linalg.lu_solve(tensor(b), lu, pivots, trans="C").numpy()
    np.testing.assert_allclose(got, np.linalg.solve(a.conj().T, b), rtol=1e-10)


def test_lu_solve_errors_name_the_argument():
    lu, pivots = _factors(A)
    with pytest.raises(ValueError, match="trans"):
        paddle.linalg.lu_solve(tensor(B), tensor(lu), pivots, trans="X")
    with pytest.raises(ValueError, match="'b'"):
        paddle.linalg.lu_solve(tensor(B[:3]), tensor(lu), pivots)
    with pytest.raises(ValueError, match="'pivots'"):
        paddle.linalg.lu_solve(tensor(B), tensor(lu), pivots[:2])


def _orgqr(x, tau):
    """The first N columns of H_1 ... H_K, written out with NumPy."""
    m, n = x.shape
    q = np.eye(m, dtype=x.dtype)
    for i, t in enumerate(tau):
        v = np.concatenate([np.zeros(i), [1.0], x[i + 1:, i]]).astype(x.dtype)
        q = q @ (np.eye(m) - t * np.outer(v, v.conj()))
    return q[:, :n]


def test_householder_product_matches_paddle_and_numpy_and_keeps_x():
    x = np.random.default_rng(0).standard_normal((4, 3))
    tau = np.array([1.2, 0.5, 1.7])
    given = tensor(x)
    got = paddle.linalg.householder_product(given, tensor(tau)).numpy()
    np.testing.assert_allclose(got[0], [-0.2, 1.15127903, 0.19790125], rtol=1e-7)  # Paddle
    np.testing.assert_allclose(got, _orgqr(x, tau), rtol=1e-12)
    np.testing.assert_array_equal(given.numpy(), x)  # Paddle 3.3.1 sets x's diagonal to 1


def test_householder_product_of_a_qr_factorisation_is_orthonormal_with_gradients():
    x = rng.normal(size=(2, 5, 3))
    tau = rng.uniform(0.5, 1.5, size=(2, 2))
    got = paddle.linalg.householder_product(tensor(x), tensor(tau)).numpy()
    for k in range(2):
        np.testing.assert_allclose(got[k], _orgqr(x[k], tau[k]), rtol=1e-12)
    check_grad(paddle.linalg.householder_product, x, tau, rtol=1e-4, atol=1e-6)
    check_static(paddle.linalg.householder_product, x, tau)


def test_householder_product_checks_shapes():
    with pytest.raises(ValueError, match="M >= N"):
        paddle.linalg.householder_product(tensor(rng.normal(size=(2, 3))),
                                          tensor(np.ones(1)))
    with pytest.raises(ValueError, match="batch"):
        paddle.linalg.householder_product(tensor(rng.normal(size=(2, 4, 3))),
                                          tensor(np.ones((3, 2))))

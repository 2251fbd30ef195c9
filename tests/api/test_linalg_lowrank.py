"""paddle.linalg.svd_lowrank and pca_lowrank: randomized factorizations that recover
matrices of low rank exactly (batched, wide and tall, with M), singular values against
NumPy, the gradient of the nuclear norm, seeding, and errors."""
import numpy as np
import pytest

import sampan as paddle
from tests.api._check import tensor

rng = np.random.default_rng(11)


def _low_rank(*batch, rows=9, cols=6, rank=3):
    return rng.normal(size=(*batch, rows, rank)) @ rng.normal(size=(*batch, rank, cols))


def _rebuilt(u, s, v):
    return (u.numpy() * s.numpy()[..., None, :]) @ np.swapaxes(v.numpy(), -1, -2)


@pytest.mark.parametrize("x", [_low_rank(), _low_rank(2), np.swapaxes(_low_rank(2), -1, -2)])
def test_svd_lowrank_recovers_a_low_rank_matrix(x):
    u, s, v = paddle.linalg.svd_lowrank(tensor(x), q=4)
    rows, cols = x.shape[-2:]
    assert u.shape == [*x.shape[:-2], rows, 4] and v.shape == [*x.shape[:-2], cols, 4]
    np.testing.assert_allclose(_rebuilt(u, s, v), x, atol=1e-10)
    np.testing.assert_allclose(s.numpy()[..., :3], np.linalg.svd(x, compute_uv=False)[..., :3],
                               rtol=1e-10)
    np.testing.assert_allclose(np.swapaxes(u.numpy(), -1, -2) @ u.numpy(),
                               np.broadcast_to(np.eye(4), (*x.shape[:-2], 4, 4)), atol=1e-10)


def test_svd_lowrank_of_x_minus_m():
    x = _low_rank()
    mean = rng.normal(size=(1, 6))
    u, s, v = paddle.linalg.svd_lowrank(tensor(x + mean), q=4, M=tensor(mean))
    np.testing.assert_allclose(_rebuilt(u, s, v), x, atol=1e-10)


def test_pca_lowrank_finds_the_principal_directions():
    x = _low_rank(rows=20, cols=5, rank=2) + 3.0
    u, s, v = paddle.linalg.pca_lowrank(tensor(x), q=3)
    centred = x - x.mean(0)
    np.testing.assert_allclose(s.numpy()[:2], np.linalg.svd(centred, compute_uv=False)[:2],
                               rtol=1e-10)
    np.testing.assert_allclose(_rebuilt(u, s, v), centred, atol=1e-10)
    _, s_uncentred, _ = paddle.linalg.pca_lowrank(tensor(x), q=3, center=False)
    assert s_uncentred.numpy()[0] > s.numpy()[0]  # the mean is a direction too


def test_the_nuclear_norm_gradient_is_u_v_transpose():
    x = rng.normal(size=(5, 4))
    given = tensor(x, grad=True)
    u, s, v = paddle.linalg.svd_lowrank(given, q=4)
    s.sum().backward()
    uu, _, vh = np.linalg.svd(x, full_matrices=False)
    np.testing.assert_allclose(given.grad.numpy(), uu @ vh, rtol=1e-6, atol=1e-8)


def test_paddle_seed_fixes_the_sketch_and_bad_q_raises():
    x = tensor(rng.normal(size=(7, 7)))
    paddle.seed(4)
    first = paddle.linalg.svd_lowrank(x, q=2, niter=0)[0].numpy()
    paddle.seed(4)
    np.testing.assert_array_equal(paddle.linalg.svd_lowrank(x, q=2, niter=0)[0].numpy(), first)
    with pytest.raises(ValueError, match="q must be"):
        paddle.linalg.svd_lowrank(x, q=8)
    with pytest.raises(ValueError, match="M, N"):
        paddle.linalg.pca_lowrank(tensor(np.ones(3)))

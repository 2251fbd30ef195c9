"""The compositions of tensor/more.py and tensor/random_fill.py: NumPy oracles, gradient
checks, seeded random fills, errors."""
import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_grad, check_static, tensor

RNG = np.random.default_rng(7)


def test_logspace_matches_numpy():
    got = paddle.logspace(0, 10, 5, 2)
    np.testing.assert_allclose(got.numpy(), np.logspace(0, 10, 5, base=2), rtol=1e-6)
    assert got.dtype == paddle.float32
    assert paddle.logspace(1, 3, 3, dtype="float64").numpy().tolist() == [10.0, 100.0, 1000.0]


@pytest.mark.parametrize("name, ref", [("hstack", np.hstack), ("vstack", np.vstack),
                                       ("row_stack", np.vstack), ("dstack", np.dstack),
                                       ("column_stack", np.column_stack)])
@pytest.mark.parametrize("shapes", [[(3,), (3,)], [(2, 3), (2, 3)]])
def test_stacks_match_numpy(name, ref, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    got = getattr(paddle, name)([tensor(a) for a in arrays]).numpy()
    np.testing.assert_allclose(got, ref(arrays))


def test_broadcast_tensors_and_gradient():
    a, b = RNG.standard_normal((2, 1)), RNG.standard_normal((3,))
    outs = paddle.broadcast_tensors([tensor(a), tensor(b)])
    for got, want in zip(outs, np.broadcast_arrays(a, b)):
        np.testing.assert_allclose(got.numpy(), want)
    check_grad(lambda x, y: paddle.multiply(*paddle.broadcast_tensors([x, y])), a, b)
    with pytest.raises(ValueError, match="broadcast_tensors"):
        paddle.broadcast_tensors([tensor(np.ones(2)), tensor(np.ones(3))])


def test_multiplex_scatter_nd_and_indices():
    a, b = np.array([[1.0, 2], [3, 4]]), np.array([[5.0, 6], [7, 8]])
    got = paddle.multiplex([tensor(a), tensor(b)], tensor(np.array([[1], [0]])))
    assert got.numpy().tolist() == [[5, 6], [3, 4]]
    out = paddle.scatter_nd(tensor(np.array([[1], [2], [1]])), tensor(np.array([1.0, 2, 3])), [4])
    assert out.numpy().tolist() == [0, 4, 2, 0]
    np.testing.assert_array_equal(paddle.tril_indices(4, 5, -1).numpy(),
                                  np.stack(np.tril_indices(4, -1, 5)))
    np.testing.assert_array_equal(paddle.triu_indices(3, 4, 1).numpy(),
                                  np.stack(np.triu_indices(3, 1, 4)))
    assert paddle.tril_indices(3, 3, dtype="int32").dtype == paddle.int32


def test_unique_consecutive():
    x = paddle.to_tensor([1, 1, 2, 2, 3, 1, 1, 2])
    out, inverse, counts = paddle.unique_consecutive(x, return_inverse=True, return_counts=True)
    assert out.numpy().tolist() == [1, 2, 3, 1, 2]
    assert inverse.numpy().tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    assert counts.numpy().tolist() == [2, 2, 1, 2, 1]
    rows = paddle.to_tensor([[2, 1, 3], [3, 0, 1], [2, 1, 3], [2, 1, 3]])
    assert rows.unique_consecutive(axis=0).numpy().tolist() == [[2, 1, 3], [3, 0, 1], [2, 1, 3]]


def test_polar_ldexp_values_and_gradients():
    r, theta = RNG.uniform(0.5, 2, 4), RNG.uniform(-3, 3, 4)
    np.testing.assert_allclose(paddle.polar(tensor(r), tensor(theta)).numpy(),
                               r * np.exp(1j * theta))
    check_grad(lambda a, t: paddle.real(paddle.polar(a, t)) + 2 * paddle.imag(paddle.polar(a, t)),
               r, theta)
    x, e = RNG.standard_normal(5), np.array([2, -1, 0, 3, -4])
    np.testing.assert_allclose(paddle.ldexp(tensor(x), tensor(e)).numpy(), np.ldexp(x, e))
    assert paddle.ldexp(tensor(np.array([1, 3])), tensor(np.array([1, 1]))).dtype == paddle.float32
    check_grad(lambda t: paddle.ldexp(t, tensor(e)), x)
    with pytest.raises(TypeError, match="ldexp"):
        paddle.ldexp(tensor(x), tensor(x))


def test_frexp_and_nextafter_match_numpy():
    x = np.array([0.0, 1.0, -3.5, 1e-310, np.inf, 2.0 ** -1022, 1024.0, 0.75, -7e-3, np.nan])
    mantissa, exponent = paddle.frexp(tensor(x))
    want_m, want_e = np.frexp(x)
    np.testing.assert_array_equal(mantissa.numpy(), want_m)
    np.testing.assert_array_equal(exponent.numpy(), want_e)
    y = np.array([1.0, 0.0, -np.inf, 0.0, 0.0, 0.0, 0.0, 1.0, 5.0, 1.0])
    np.testing.assert_array_equal(paddle.nextafter(tensor(x), tensor(y)).numpy(), np.nextafter(x, y))
    x32 = np.array([1, 0.5, 3e-45, -2, 1e30, 0], np.float32)
    y32 = np.array([0, 1, 0, -3, 0, -1], np.float32)
    got = paddle.nextafter(tensor(x32), tensor(y32))
    assert got.dtype == paddle.float32
    np.testing.assert_array_equal(got.numpy(), np.nextafter(x32, y32))


def test_pdist_values_gradient_and_errors():
    x = RNG.standard_normal((5, 3))
    i, j = np.triu_indices(5, 1)
    for p in (1.0, 2.0, 3.0):
        want = np.sum(np.abs(x[i] - x[j]) ** p, axis=1) ** (1 / p)
        np.testing.assert_allclose(paddle.pdist(tensor(x), p).numpy(), want, rtol=1e-10)
    check_grad(paddle.pdist, x, rtol=1e-5)
    assert paddle.pdist(tensor(np.ones((1, 3)))).shape == [0]
    with pytest.raises(ValueError, match="pdist"):
        paddle.pdist(tensor(np.ones(3)))


def test_block_diag_gradient():
    check_grad(lambda a, b: paddle.block_diag([a, b]) * 3.0, RNG.standard_normal((2, 2)),
               RNG.standard_normal((1, 3)))


def test_nanmedian():
    x = RNG.standard_normal((4, 5))
    x[RNG.random((4, 5)) < 0.3] = np.nan
    t = tensor(x)
    np.testing.assert_allclose(t.nanmedian().numpy(), np.nanmedian(x))
    np.testing.assert_allclose(paddle.nanmedian(t, 1).numpy(), np.nanmedian(x, 1))
    np.testing.assert_allclose(paddle.nanmedian(t, 0, keepdim=True).numpy(),
                               np.nanmedian(x, 0, keepdims=True))
    paper = paddle.to_tensor([[float("nan"), 2.0, 3.0], [0.0, 1.0, 2.0]])
    values, index = paper.nanmedian(1, mode="min")
    assert values.numpy().tolist() == [2.0, 1.0] and index.numpy().tolist() == [1, 1]
    assert np.isnan(paddle.to_tensor([[np.nan, np.nan]]).nanmedian(1).numpy()[0])
    with pytest.raises(ValueError, match="mode"):
        paddle.nanmedian(t, mode="max")
    check_grad(lambda a: paddle.nanmedian(a, 1), RNG.standard_normal((3, 4)))


def test_shard_index():
    label = paddle.to_tensor([[16], [1], [12]], dtype="int64")
    assert paddle.shard_index(label, 20, 2, 0).numpy().ravel().tolist() == [-1, 1, -1]
    assert paddle.shard_index(label, 20, 2, 1, ignore_value=9).numpy().ravel().tolist() == [6, 9, 2]
    with pytest.raises(ValueError, match="shard_id"):
        paddle.shard_index(label, 20, 2, 2)


def test_fill_diagonal_and_scatter_in_place():
    x = paddle.ones([4, 3]) * 2
    assert x.fill_diagonal_(1.0) is x
    assert x.numpy().tolist() == [[1, 2, 2], [2, 1, 2], [2, 2, 1], [2, 2, 2]]
    tall = np.zeros((7, 3))
    np.fill_diagonal(tall, 5.0, wrap=True)
    np.testing.assert_array_equal(paddle.zeros([7, 3]).fill_diagonal_(5.0, wrap=True).numpy(), tall)
    shifted = paddle.zeros([3, 4]).fill_diagonal_(1.0, offset=1).numpy()
    np.testing.assert_array_equal(shifted, np.eye(3, 4, 1))
    with pytest.raises(ValueError, match="fill_diagonal_"):
        paddle.zeros([2, 3, 4]).fill_diagonal_(1.0)
    y = paddle.zeros([3, 2])
    y.scatter_(paddle.to_tensor([2]), paddle.ones([1, 2]))
    assert y.numpy().tolist() == [[0, 0], [0, 0], [1, 1]]


def test_small_methods():
    x = paddle.to_tensor([1, 2])
    assert x.type_as(paddle.to_tensor([1.0])).dtype == paddle.float32
    m = paddle.to_tensor([[1.0, 1.0], [0.0, 1.0]])
    np.testing.assert_allclose(m.matrix_power(3).numpy(), [[1, 3], [0, 1]])
    assert x.data_ptr() == np.asarray(x).ctypes.data


FILLS = [("exponential_", {"lam": 2.0}, 0.5, 0.5),
         ("bernoulli_", {"p": 0.3}, 0.3, np.sqrt(0.21)),
         ("log_normal_", {"mean": 0.0, "std": 0.5}, np.exp(0.125), None),
         ("geometric_", {"probs": 0.5}, 1 / np.log(2), None),
         ("cauchy_", {"loc": 1.0, "scale": 2.0}, None, None)]


@pytest.mark.parametrize("name, kwargs, mean, std", FILLS)
def test_random_fills_are_seeded_and_have_their_moments(name, kwargs, mean, std):
    def draw():
        paddle.seed(11)
        return getattr(paddle.zeros([20000]), name)(**kwargs).numpy()
    first = draw()
    np.testing.assert_array_equal(first, draw())
    if mean is not None:
        assert abs(first.mean() - mean) < 0.05 * max(1.0, mean)
    if std is not None:
        assert abs(first.std() - std) < 0.05
    if name == "cauchy_":
        assert abs(np.median(first) - 1.0) < 0.1


def test_random_fill_refuses_a_trainable_leaf():
    w = paddle.zeros([3])
    w.stop_gradient = False
    with pytest.raises(ValueError, match="inplace"):
        w.exponential_()


def test_poisson():
    paddle.seed(3)
    rates = paddle.full([20000], 4.0)
    out = paddle.poisson(rates)
    assert out.dtype == paddle.float32 and abs(out.numpy().mean() - 4.0) < 0.1
    paddle.seed(3)
    np.testing.assert_array_equal(paddle.poisson(rates).numpy(), out.numpy())
    with pytest.raises(ValueError, match="non-negative"):
        paddle.poisson(paddle.to_tensor([-1.0]))


def test_compositions_run_in_static_mode():
    x = RNG.standard_normal((4, 3))
    check_static(paddle.pdist, x)
    check_static(lambda v: paddle.nanmedian(v, 1), x)
    check_static(lambda v: paddle.frexp(v), x)
    check_static(lambda v, w: paddle.nextafter(v, w), x, RNG.standard_normal((4, 3)))
    check_static(lambda v, w: paddle.column_stack([v, w]), x, x)

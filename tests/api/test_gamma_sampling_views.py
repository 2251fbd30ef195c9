"""gammainc / gammaincc against SciPy over wide ranges, with gradients in y and argument
errors; standard_gamma and binomial samples (seeding, moments, errors); reduce_as,
histogramdd and as_strided against NumPy, with gradients and errors."""
import numpy as np
import pytest
from scipy import special as scipy_special

import sampan as paddle
from sampan.core.errors import OpError
from tests.api._check import check_grad, check_static, tensor

rng = np.random.default_rng(23)


# ---------------------------------------------------------------- incomplete gamma

@pytest.mark.parametrize("fn, want", [(paddle.gammainc, scipy_special.gammainc),
                                      (paddle.gammaincc, scipy_special.gammaincc)])
def test_incomplete_gamma_matches_scipy_over_wide_ranges(fn, want):
    x = np.concatenate([10 ** rng.uniform(-1, 3, 3000), [0.0, 0.5, 1.0, 1e4]])
    y = np.concatenate([x[:3000] * 10 ** rng.uniform(-1.5, 1.5, 3000), [2.0, 0.0, np.inf, 1e4]])
    got = fn(tensor(x), tensor(y)).numpy()
    ref = want(x, y)
    keep = ref > 1e-280                   # relative error is meaningless below denormals
    np.testing.assert_allclose(got[keep], ref[keep], rtol=2e-11)
    np.testing.assert_allclose(got[~keep], ref[~keep], atol=1e-280)


def test_incomplete_gamma_paddle_example_and_complement():
    x = paddle.to_tensor([0.5, 0.5, 0.5, 0.5, 0.5], dtype="float32")
    y = paddle.to_tensor([0, 1, 10, 100, 1000], dtype="float32")
    lower, upper = paddle.gammainc(x, y), paddle.gammaincc(x, y)
    assert lower.dtype == paddle.float32 and lower.shape == [5]
    np.testing.assert_allclose(lower.numpy(), [0.0, 0.84270084, 0.99999225, 1.0, 1.0],
                               rtol=1e-6)
    np.testing.assert_allclose(lower.numpy() + upper.numpy(), np.ones(5), rtol=1e-6)


def test_incomplete_gamma_methods_and_inplace():
    x, y = tensor([1.0, 2.0]), tensor([1.0, 3.0])
    np.testing.assert_allclose(x.gammainc(y).numpy(), scipy_special.gammainc([1, 2], [1, 3]))
    np.testing.assert_allclose(x.gammaincc(y).numpy(), scipy_special.gammaincc([1, 2], [1, 3]))
    z = tensor([1.0, 2.0])
    assert paddle.gammainc_(z, y) is z
    np.testing.assert_allclose(z.numpy(), scipy_special.gammainc([1, 2], [1, 3]))
    before = z.numpy().copy()
    z.gammaincc_(y)
    np.testing.assert_allclose(z.numpy(), scipy_special.gammaincc(before, [1, 3]))


@pytest.mark.parametrize("fn", [paddle.gammainc, paddle.gammaincc])
def test_incomplete_gamma_gradient_in_y_only(fn):
    check_grad(fn, rng.uniform(0.3, 5.0, (3, 1)), rng.uniform(0.2, 8.0, (1, 4)), wrt=[1])
    x, y = tensor([2.0, 3.0], grad=True), tensor([1.5, 0.5], grad=True)
    fn(x, y).sum().backward()
    assert x.grad is None
    density = np.array([1.5 * np.exp(-1.5), 0.25 * np.exp(-0.5) / 2.0])
    sign = 1.0 if fn is paddle.gammainc else -1.0
    np.testing.assert_allclose(y.grad.numpy(), sign * density, rtol=1e-12)


def test_incomplete_gamma_static_mode():
    check_static(paddle.gammainc, rng.uniform(0.5, 3.0, 4), rng.uniform(0.5, 3.0, 4))
    check_static(paddle.gammaincc, rng.uniform(0.5, 3.0, 4), rng.uniform(0.5, 3.0, 4))


@pytest.mark.parametrize("fn", [paddle.gammainc, paddle.gammaincc])
def test_incomplete_gamma_errors_name_the_argument(fn):
    good = tensor([1.0])
    with pytest.raises(ValueError, match="'x'"):
        fn(tensor([-1.0]), good)
    with pytest.raises(ValueError, match="'y'"):
        fn(good, tensor([-0.5]))
    with pytest.raises(OpError, match="y"):
        fn(good, paddle.to_tensor([1], dtype="int64"))


# ---------------------------------------------------------------- reduce_as

@pytest.mark.parametrize("x_shape, target_shape", [((2, 3, 4), (3, 1)), ((2, 4), (4,)),
                                                   ((5, 1, 3), (1, 1, 3)), ((2, 3), (2, 3)),
                                                   ((3, 4), (1, 1))])
def test_reduce_as_sums_to_target(x_shape, target_shape):
    x = rng.normal(size=x_shape)
    want = x.sum(axis=tuple(range(len(x_shape) - len(target_shape))))
    want = want.sum(axis=tuple(i for i, t in enumerate(target_shape) if t == 1 != want.shape[i]),
                    keepdims=True)
    out = paddle.reduce_as(tensor(x), tensor(np.zeros(target_shape)))
    assert out.shape == list(target_shape)
    np.testing.assert_allclose(out.numpy(), want.reshape(target_shape))


def test_reduce_as_paddle_example_dtypes_and_gradient():
    x = paddle.to_tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
    out = paddle.reduce_as(x, paddle.to_tensor([1, 2, 3, 4]))
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), [6, 8, 10, 12])
    flags = paddle.to_tensor([[True, False], [True, True]])
    assert paddle.reduce_as(flags, paddle.to_tensor([1, 1])).numpy().tolist() == [2, 1]
    assert paddle.reduce_as(paddle.to_tensor([1, 2], dtype="int32"),
                            paddle.to_tensor([0, 0])).dtype == paddle.int64
    target = np.zeros((3, 1))
    check_grad(lambda a: paddle.reduce_as(a, tensor(target)), rng.normal(size=(2, 3, 4)))
    assert tensor([1.0]).reduce_as(tensor([0.0])).numpy().tolist() == [1.0]


def test_reduce_as_errors_name_target():
    with pytest.raises(ValueError, match="'target'"):
        paddle.reduce_as(tensor(np.ones(3)), tensor(np.ones((2, 3))))
    with pytest.raises(ValueError, match="'target'"):
        paddle.reduce_as(tensor(np.ones((2, 3))), tensor(np.ones(2)))


# ---------------------------------------------------------------- standard_gamma, binomial

def test_standard_gamma_is_seeded_and_has_gamma_moments():
    shapes = paddle.full([20000], 3.0, dtype="float64")
    paddle.seed(5)
    first = paddle.standard_gamma(shapes).numpy()
    paddle.seed(5)
    np.testing.assert_array_equal(shapes.standard_gamma().numpy(), first)
    assert first.dtype == np.float64 and (first > 0).all()
    assert abs(first.mean() - 3.0) < 0.05 and abs(first.var() - 3.0) < 0.15
    assert paddle.standard_gamma(paddle.to_tensor([0.0])).numpy().tolist() == [0.0]


def test_binomial_broadcasts_is_seeded_and_has_binomial_moments():
    count = paddle.to_tensor([[10], [40]], dtype="int32")
    prob = paddle.full([1, 20000], 0.25, dtype="float32")
    paddle.seed(9)
    first = paddle.binomial(count, prob)
    paddle.seed(9)
    np.testing.assert_array_equal(paddle.binomial(count, prob).numpy(), first.numpy())
    assert first.dtype == paddle.int64 and first.shape == [2, 20000]
    draws = first.numpy()
    np.testing.assert_allclose(draws.mean(axis=1), [2.5, 10.0], rtol=0.03)
    np.testing.assert_allclose(draws.var(axis=1), [1.875, 7.5], rtol=0.06)
    example = paddle.binomial(paddle.to_tensor([10.0, 50.0]), paddle.to_tensor([0.2, 0.6]))
    assert example.dtype == paddle.int64 and (example.numpy() <= [10, 50]).all()


def test_sampling_errors_name_the_argument():
    with pytest.raises(OpError, match="x: the gamma shapes must be non-negative"):
        paddle.standard_gamma(paddle.to_tensor([1.0, -2.0]))
    with pytest.raises(OpError, match="'x'"):
        paddle.standard_gamma(paddle.to_tensor([1, 2]))
    with pytest.raises(OpError, match="count: the trial counts"):
        paddle.binomial(paddle.to_tensor([-1]), paddle.to_tensor([0.5]))
    with pytest.raises(OpError, match="prob: the success probabilities"):
        paddle.binomial(paddle.to_tensor([3]), paddle.to_tensor([1.5]))
    with pytest.raises(OpError, match="'prob'"):
        paddle.binomial(paddle.to_tensor([3, 4]), paddle.to_tensor([0.1, 0.2, 0.3]))


# ---------------------------------------------------------------- histogramdd

def test_histogramdd_paddle_example():
    x = paddle.to_tensor([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0]])
    hist, edges = paddle.histogramdd(x, bins=[3, 3], weights=paddle.to_tensor([1., 2., 4., 8.]))
    np.testing.assert_array_equal(hist.numpy(), [[0, 1, 0], [2, 0, 0], [4, 0, 8]])
    assert hist.dtype == paddle.float32 and len(edges) == 2
    np.testing.assert_allclose(edges[0].numpy(), [0.0, 2 / 3, 4 / 3, 2.0], rtol=1e-6)


@pytest.mark.parametrize("kwargs", [{}, {"bins": 4, "density": True},
                                    {"bins": [2, 3, 4], "ranges": [-1, 1, -2, 2, 0, 0.5]}])
def test_histogramdd_matches_numpy(kwargs):
    points = rng.normal(size=(5, 40, 3))
    weights = rng.uniform(size=(5, 40))
    hist, edges = paddle.histogramdd(tensor(points), weights=tensor(weights), **kwargs)
    ranges = kwargs.get("ranges")
    want, want_edges = np.histogramdd(
        points.reshape(-1, 3), bins=kwargs.get("bins", 10), weights=weights.ravel(),
        density=kwargs.get("density", False),
        range=None if ranges is None else list(zip(ranges[::2], ranges[1::2])))
    np.testing.assert_allclose(hist.numpy(), want)
    for got, ref in zip(edges, want_edges):
        np.testing.assert_allclose(got.numpy(), ref)


def test_histogramdd_edge_tensors_and_errors():
    x = tensor([[0.5, 0.5], [1.5, 0.2], [2.5, 0.9]])
    hist, _ = paddle.histogramdd(x, bins=[tensor([0.0, 1.0, 3.0]), tensor([0.0, 0.5, 1.0])])
    np.testing.assert_array_equal(hist.numpy(), [[0, 1], [1, 1]])
    with pytest.raises(ValueError, match="'x'"):
        paddle.histogramdd(tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="'bins'"):
        paddle.histogramdd(x, bins=[2, 2, 2])
    with pytest.raises(ValueError, match="'bins'"):
        paddle.histogramdd(x, bins=0)
    with pytest.raises(ValueError, match="'ranges'"):
        paddle.histogramdd(x, ranges=[0.0, 1.0])
    with pytest.raises(ValueError, match="'weights'"):
        paddle.histogramdd(x, weights=tensor([1.0, 2.0]))


# ---------------------------------------------------------------- as_strided

def test_as_strided_paddle_example_and_overlapping_windows():
    x = paddle.rand([2, 4, 6], dtype="float32")
    out = paddle.as_strided(x, [8, 6], [6, 1])
    assert out.shape == [8, 6] and out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), x.numpy().reshape(8, 6))
    flat = np.arange(10.0)
    windows = tensor(flat).as_strided([4, 3], [2, 1], offset=8)  # offset in bytes
    np.testing.assert_array_equal(windows.numpy(), [[1, 2, 3], [3, 4, 5], [5, 6, 7], [7, 8, 9]])


def test_as_strided_result_is_a_copy_and_gradient_adds_overlaps():
    base = tensor(np.arange(6.0))
    out = paddle.as_strided(base, [2, 3], [1, 1])
    out[0, 0] = 100.0
    assert base.numpy()[0] == 0.0
    check_grad(lambda a: paddle.as_strided(a, [3, 2], [1, 2]), rng.normal(size=(2, 3)))
    x = tensor(np.zeros(5), grad=True)
    paddle.as_strided(x, [3, 3], [1, 1]).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 2, 3, 2, 1])


def test_as_strided_static_mode():
    check_static(lambda a: paddle.as_strided(a, [3, 2], [2, 1], 8), rng.normal(size=(7,)))


@pytest.mark.parametrize("args, arg", [(([3, 3], [3, 1]), "stride"), (([2], [1, 1]), "stride"),
                                       (([2], [-1]), "stride"), (([-2], [1]), "shape"),
                                       (([2], [1], 3), "offset"), (([2], [1], 64), "stride")])
def test_as_strided_out_of_bounds_raises_naming_the_argument(args, arg):
    with pytest.raises(OpError, match=f"'{arg}'"):
        paddle.as_strided(tensor(np.arange(8.0)), *args)

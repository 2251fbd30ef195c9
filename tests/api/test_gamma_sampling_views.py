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

"""Special functions (lgamma, digamma, polygamma, erfinv, Bessel i0/i1/i0e/i1e) over wide ranges
against math and known values; affine_grid and grid_sample against per-location loops, the
identity transform, gradients, static mode and their argument errors."""
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.nn.functional as F
from sampan.core.errors import OpError
from tests.api._check import check_grad, check_static, tensor
from tests.ops.cases.grid_sample import reference_affine_grid, reference_grid_sample
from tests.ops.cases.special import ref_bessel, ref_erfinv, ref_polygamma

rng = np.random.default_rng(17)
EULER = 0.5772156649015329
ZETA3 = 1.2020569031595942


def _values(fn, x, **kwargs):
    """fn on a float64 tensor of x, as an array."""
    return fn(tensor(np.asarray(x, np.float64)), **kwargs).numpy()


# ---------------------------------------------------------------- gamma family

def test_lgamma_matches_math_over_a_wide_range():
    x = np.concatenate([10 ** rng.uniform(-300, 300, 400), rng.uniform(0, 30, 400),
                        -rng.uniform(0, 60, 400), [0.5, 1.0, 2.0, 1e-8, 171.5, 1e6]])
    x = x[~((x < 0) & (x == np.round(x)))]
    want = np.array([math.lgamma(v) for v in x])
    got = _values(paddle.lgamma, x)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)


def test_lgamma_poles_infinities_and_integer_input():
    got = _values(paddle.lgamma, [0.0, -1.0, -3.0, np.inf, -np.inf])
    assert np.all(got == np.inf)
    out = paddle.lgamma(paddle.to_tensor([1, 2, 3, 4]))
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), [0, 0, math.log(2), math.log(6)], atol=1e-6)


def test_lgamma_paddle_example_and_gammaln_alias():
    x = paddle.to_tensor([-0.4, -0.2, 0.1, 0.3])
    np.testing.assert_allclose(paddle.lgamma(x).numpy(),
                               [1.31452441, 1.76149750, 2.25271273, 1.09579802], rtol=1e-6)
    y = paddle.arange(1.5, 4.5, 0.5)
    np.testing.assert_array_equal(paddle.gammaln(y).numpy(), paddle.lgamma(y).numpy())
    np.testing.assert_array_equal(y.gammaln().numpy(), y.lgamma().numpy())


def test_digamma_known_values():
    x = [1.0, 0.5, 2.0, -0.5, 1e6, 1e-6]
    want = [-EULER, -EULER - 2 * math.log(2), 1 - EULER, 0.03648997397857652,
            math.log(1e6) - 0.5e-6 - 1 / 12e12, -1e6 - EULER + math.pi ** 2 / 6 * 1e-6]
    np.testing.assert_allclose(_values(paddle.digamma, x), want, rtol=1e-12)


def test_digamma_reflection_holds_for_negative_arguments():
    x = -rng.uniform(0.05, 40, 200)
    x = x[np.abs(x - np.round(x)) > 0.01]
    left = _values(paddle.digamma, 1 - x) - _values(paddle.digamma, x)
    np.testing.assert_allclose(left, np.pi / np.tan(np.pi * x), rtol=1e-9, atol=1e-9)


def test_polygamma_known_values():
    one = tensor([1.0])
    np.testing.assert_allclose(paddle.polygamma(one, 1).numpy(), [math.pi ** 2 / 6], rtol=1e-14)
    np.testing.assert_allclose(paddle.polygamma(one, 2).numpy(), [-2 * ZETA3], rtol=1e-14)
    np.testing.assert_allclose(paddle.polygamma(one, 3).numpy(), [math.pi ** 4 / 15],
                               rtol=1e-14)
    np.testing.assert_allclose(paddle.polygamma(tensor([0.5, -0.5]), 1).numpy(),
                               [math.pi ** 2 / 2, math.pi ** 2 / 2 + 4], rtol=1e-13)
    data = paddle.to_tensor([2, 3, 25.5], dtype="float32")      # Paddle's documented example
    np.testing.assert_allclose(data.polygamma(1).numpy(), [0.64493412, 0.39493406, 0.03999467],
                               rtol=1e-6)
    np.testing.assert_array_equal(paddle.polygamma(data, 0).numpy(), data.digamma().numpy())


@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_polygamma_matches_the_direct_sum(n):
    x = np.concatenate([rng.uniform(0.05, 30, 30), -rng.uniform(0.1, 6, 30)])
    x = x[np.abs(x - np.round(x)) > 0.05]
    want = [ref_polygamma(v, n) for v in x]
    np.testing.assert_allclose(_values(paddle.polygamma, x, n=n), want, rtol=1e-10)


def test_gamma_family_gradients_chain():
    x = rng.uniform(0.3, 5, 6)
    check_grad(paddle.lgamma, x)
    check_grad(paddle.digamma, x)
    check_grad(lambda t: paddle.polygamma(t, 2), x, rtol=1e-4)
    t = tensor(x, grad=True)
    (g,) = paddle.grad(paddle.lgamma(t).sum(), [t], create_graph=True)
    np.testing.assert_allclose(g.numpy(), _values(paddle.digamma, x), rtol=1e-12)
    (h,) = paddle.grad(g.sum(), [t])
    np.testing.assert_allclose(h.numpy(), _values(paddle.polygamma, x, n=1), rtol=1e-12)


# ---------------------------------------------------------------- erfinv

def test_erfinv_inverts_erf_across_the_range():
    y = np.concatenate([rng.uniform(-1, 1, 500), 1 - 10 ** rng.uniform(-15, -1, 50),
                        -1 + 10 ** rng.uniform(-15, -1, 50), [0.0, 0.5, -0.5]])
    got = _values(paddle.erfinv, y)
    np.testing.assert_allclose([math.erf(v) for v in got], y, rtol=0, atol=1e-15)
    mid = y[np.abs(y) < 0.999]
    np.testing.assert_allclose(_values(paddle.erfinv, mid), [ref_erfinv(v) for v in mid],
                               rtol=1e-12, atol=1e-15)


def test_erfinv_edges_method_and_gradient():
    got = _values(paddle.erfinv, [1.0, -1.0, 1.5, -2.0, np.nan, 0.0])
    assert got[0] == np.inf and got[1] == -np.inf and np.isnan(got[2:5]).all() and got[5] == 0
    x = tensor([0.3, -0.7, 0.95], grad=True)
    out = x.erfinv()
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), math.sqrt(math.pi) / 2 * np.exp(
        out.numpy() ** 2), rtol=1e-12)
    check_grad(paddle.erfinv, [0.1, -0.5, 0.9])


# ---------------------------------------------------------------- Bessel functions

BESSEL = {"i0": (0, False), "i1": (1, False), "i0e": (0, True), "i1e": (1, True)}


@pytest.mark.parametrize("name", sorted(BESSEL))
def test_bessel_matches_the_power_series(name):
    nu, scaled = BESSEL[name]
    x = np.concatenate([rng.uniform(-40, 40, 200), [0.0, 24.999, 25.0, 25.001, -1e-9]])
    want = [ref_bessel(nu, v, scaled) for v in x]
    fn = getattr(paddle, name)
    np.testing.assert_allclose(_values(fn, x), want, rtol=1e-13, atol=1e-300)
    method = getattr(tensor(x), name)()
    np.testing.assert_array_equal(method.numpy(), _values(fn, x))


def test_bessel_paddle_examples_large_arguments_and_int_input():
    x = paddle.to_tensor([0, 1, 2, 3, 4], dtype="float32")
    np.testing.assert_allclose(paddle.i0(x).numpy(),
                               [1.0, 1.2660658, 2.2795851, 4.8807926, 11.301921], rtol=1e-6)
    np.testing.assert_allclose(paddle.i0e(x).numpy(),
                               [1.0, 0.46575961, 0.30850832, 0.24300035, 0.20700192], rtol=1e-6)
    np.testing.assert_allclose(paddle.i1e(x).numpy(),
                               [0.0, 0.20791042, 0.21526928, 0.19682673, 0.17875087], rtol=1e-6)
    big = [1e4, 1e8, np.inf]
    expansion = 1 / np.sqrt(2 * np.pi * np.array(big[:2])) * (1 + 1 / (8 * np.array(big[:2])))
    np.testing.assert_allclose(_values(paddle.i0e, big)[:2], expansion, rtol=1e-8)
    assert _values(paddle.i0e, big)[2] == 0 and _values(paddle.i0, big)[2] == np.inf
    assert _values(paddle.i1, [-800.0])[0] == -np.inf
    assert paddle.i1(paddle.to_tensor([1, 2])).dtype == paddle.float32


def test_bessel_gradients_including_zero():
    for name in BESSEL:
        check_grad(getattr(paddle, name), [-3.0, -0.4, 0.7, 2.5], rtol=1e-6)
        check_grad(getattr(paddle, name), [30.0], rtol=1e-6, atol=0)
    t = tensor([0.0], grad=True)
    paddle.i1(t).backward()
    np.testing.assert_allclose(t.grad.numpy(), [0.5])
    t = tensor([0.0], grad=True)
    paddle.i1e(t).backward()
    np.testing.assert_allclose(t.grad.numpy(), [0.5])


def test_special_functions_run_statically():
    x = rng.uniform(0.2, 0.9, (2, 3))
    for fn in (paddle.lgamma, paddle.digamma, paddle.erfinv, paddle.i0, paddle.i1e):
        check_static(fn, x, rtol=0, atol=0)
    check_static(lambda t: paddle.polygamma(t, 2), x, rtol=0, atol=0)


def test_polygamma_refuses_a_negative_order():
    with pytest.raises(OpError, match=r"polygamma\(\): argument 'n'"):
        paddle.polygamma(tensor([1.0]), -1)


# ---------------------------------------------------------------- affine_grid / grid_sample

IDENTITY_2D = np.array([[[1.0, 0, 0], [0, 1.0, 0]]] * 2)
IDENTITY_3D = np.array([[[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]]])


@pytest.mark.parametrize("align_corners", [True, False])
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_identity_theta_reproduces_the_input(mode, align_corners):
    x = rng.normal(size=(2, 3, 5, 4))
    grid = F.affine_grid(tensor(IDENTITY_2D), [2, 3, 5, 4], align_corners=align_corners)
    out = F.grid_sample(tensor(x), grid, mode=mode, align_corners=align_corners)
    np.testing.assert_allclose(out.numpy(), x, rtol=1e-12, atol=1e-12)
    x3 = rng.normal(size=(1, 2, 3, 4, 2))
    grid3 = F.affine_grid(tensor(IDENTITY_3D), [1, 2, 3, 4, 2], align_corners=align_corners)
    out3 = F.grid_sample(tensor(x3), grid3, mode=mode, align_corners=align_corners)
    np.testing.assert_allclose(out3.numpy(), x3, rtol=1e-12, atol=1e-12)


def test_defaults_match_paddle():
    x = rng.normal(size=(1, 1, 3, 3))
    grid = rng.uniform(-1, 1, (1, 2, 2, 2))
    np.testing.assert_allclose(F.grid_sample(tensor(x), tensor(grid)).numpy(),
                               reference_grid_sample(x, grid, "bilinear", "zeros", True))
    theta = rng.normal(size=(1, 2, 3))
    np.testing.assert_allclose(F.affine_grid(tensor(theta), [1, 1, 3, 2]).numpy(),
                               reference_affine_grid(theta, [1, 1, 3, 2], True))


def test_affine_grid_paddle_example_and_tensor_out_shape():
    theta = paddle.to_tensor([[[-0.7, -0.4, 0.3], [0.6, 0.5, 1.5]]], dtype="float32")
    shape = paddle.to_tensor([1, 2, 3, 3], dtype="int32")
    out = F.affine_grid(theta, shape, align_corners=False)
    assert out.shape == [1, 3, 3, 2] and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy()[0, 0], [[1.0333333, 0.76666665],
                                                   [0.5666667, 1.1666666],
                                                   [0.10000002, 1.5666667]], rtol=1e-6)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_far_outside_locations(padding_mode):
    """Locations several widths outside x: zeros read 0, border the edge, reflection folds."""
    x = rng.normal(size=(1, 2, 3, 4))
    grid = rng.uniform(-5, 5, (1, 4, 3, 2))
    for mode in ("bilinear", "nearest"):
        for align in (True, False):
            got = F.grid_sample(tensor(x), tensor(grid), mode, padding_mode, align).numpy()
            np.testing.assert_allclose(got, reference_grid_sample(x, grid, mode, padding_mode,
                                                                  align), atol=1e-12)


def test_spatial_transformer_gradients_reach_x_and_theta():
    x = rng.normal(size=(1, 2, 4, 5))
    theta = np.array([[[0.9, 0.2, 0.1], [-0.15, 1.1, -0.05]]])

    def transform(img, th):
        grid = F.affine_grid(th, [1, 2, 3, 4], align_corners=False)
        return F.grid_sample(img, grid, padding_mode="border", align_corners=False)
    check_grad(transform, x, theta, rtol=1e-5, atol=1e-8)


def test_grid_sample_runs_statically():
    x = rng.normal(size=(2, 2, 4, 3))
    theta = rng.normal(size=(2, 2, 3)) * 0.5

    def transform(img, th):
        return F.grid_sample(img, F.affine_grid(th, [2, 2, 3, 3]), padding_mode="reflection")
    check_static(transform, x, theta, rtol=0, atol=0)


@pytest.mark.parametrize("call, arg", [
    (lambda: F.grid_sample(tensor(np.zeros((2, 3, 4))), tensor(np.zeros((2, 3, 2)))), "x"),
    (lambda: F.grid_sample(tensor(np.zeros((1, 1, 3, 3))), tensor(np.zeros((1, 2, 2, 3)))),
     "grid"),
    (lambda: F.grid_sample(tensor(np.zeros((1, 1, 3, 3))), tensor(np.zeros((2, 2, 2, 2)))),
     "grid"),
    (lambda: F.grid_sample(tensor(np.zeros((1, 1, 3, 3))), tensor(np.zeros((1, 2, 2, 2))),
                           mode="bicubic"), "mode"),
    (lambda: F.grid_sample(tensor(np.zeros((1, 1, 3, 3))), tensor(np.zeros((1, 2, 2, 2))),
                           padding_mode="wrap"), "padding_mode"),
    (lambda: F.grid_sample(tensor(np.zeros((1, 1, 3, 3))),
                           tensor(np.zeros((1, 2, 2, 2), "float32"))), "grid"),
    (lambda: F.affine_grid(tensor(np.zeros((1, 3, 3))), [1, 1, 2, 2]), "theta"),
    (lambda: F.affine_grid(tensor(np.zeros((1, 2, 3))), [1, 1, 2, 2, 2]), "out_shape"),
])
def test_bad_arguments_name_the_op_and_argument(call, arg):
    with pytest.raises(OpError) as info:
        call()
    message = str(info.value)
    assert f"argument '{arg}'" in message
    assert ("grid_sample()" in message) or ("affine_grid()" in message)

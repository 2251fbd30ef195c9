"""paddle.* predicates, sign helpers, constructions, scatters and *_like creators against
NumPy: values, gradients, static mode and errors."""
import itertools

import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_grad, check_static, check_values, tensor

rng = np.random.default_rng(7)
X = rng.normal(size=(3, 4))
Y = rng.normal(size=(4,))
T = rng.normal(size=(2, 3, 4))
V = rng.normal(size=(5,))
SPECIAL = np.array([-1.5, 0.0, -0.0, 2.0, np.inf, -np.inf, np.nan])
MASK = rng.uniform(size=(3, 4)) < 0.5


def _trapz(y, x=None, dx=1.0, axis=-1):
    return np.trapz(y, x, dx, axis) if hasattr(np, "trapz") else np.trapezoid(y, x, dx, axis)


def _cumtrapz(y, x=None, axis=-1):
    y = np.moveaxis(y, axis, -1)
    width = np.diff(x) if x is not None else 1.0
    return np.moveaxis(np.cumsum((y[..., 1:] + y[..., :-1]) / 2 * width, -1), -1, axis)


def _renorm_ref(x, p, axis, max_norm):
    others = tuple(a for a in range(x.ndim) if a != axis)
    norms = np.sum(np.abs(x) ** p, others, keepdims=True) ** (1 / p)
    return x * np.where(norms > max_norm, max_norm / (norms + 1e-7), 1)


def _diag_embed_ref(v, offset):
    n = v.shape[-1] + abs(offset)
    out = np.zeros(v.shape[:-1] + (n, n))
    for idx in np.ndindex(v.shape[:-1]):
        out[idx] = np.diag(v[idx], offset)
    return out


def _masked_scatter_ref(x, mask, value):
    out = x.copy()
    mask = np.broadcast_to(mask, x.shape)
    out[mask] = value.reshape(-1)[:mask.sum()]
    return out


def _scatter_ref(x, value, where):
    out = x.copy()
    out[where] = value
    return out


def _diagonal_scatter_ref(x, y, offset):
    out = x.copy()
    rows = np.arange(y.shape[-1]) + max(-offset, 0)
    out[rows, rows + offset] = y
    return out


# (function of tensors, NumPy reference, input arrays, differentiable: True for every
# float input, or the list of inputs with a gradient)
CASES = {
    "logaddexp": (paddle.logaddexp, np.logaddexp, [X * 30, Y * 30], True),
    "logaddexp_0d": (paddle.logaddexp, np.logaddexp, [np.array(0.5), X], True),
    "copysign": (paddle.copysign, np.copysign, [X, Y], [0]),
    "copysign_zero": (paddle.copysign, np.copysign, [SPECIAL, SPECIAL[::-1].copy()], False),
    "copysign_number": (lambda x: paddle.copysign(x, -0.0), lambda x: np.copysign(x, -0.0),
                        [X], True),
    "sgn": (paddle.sgn, np.sign, [X], False),
    "sinc": (paddle.sinc, np.sinc, [np.append(X.ravel(), 0.0)], True),
    "positive": (paddle.positive, np.positive, [X], True),
    "signbit": (paddle.signbit, np.signbit, [SPECIAL], False),
    "signbit_int": (paddle.signbit, np.signbit, [np.array([-3, 0, 4])], False),
    "isneginf": (paddle.isneginf, np.isneginf, [SPECIAL], False),
    "isposinf": (paddle.isposinf, np.isposinf, [SPECIAL], False),
    "isneginf_int": (paddle.isneginf, np.isneginf, [np.array([-3, 0, 4])], False),
    "isreal": (paddle.isreal, np.isreal, [X], False),
    "isreal_complex": (paddle.isreal, np.isreal, [np.array([1 + 0j, 2j, -1 + 1j])], False),
    "isin": (lambda x, t: paddle.isin(x, t), np.isin, [np.arange(12).reshape(3, 4),
                                                       np.array([[3, 7], [11, 20]])], False),
    "isin_invert": (lambda x, t: paddle.isin(x, t, invert=True),
                    lambda x, t: np.isin(x, t, invert=True), [X, X[1]], False),
    "trapezoid": (paddle.trapezoid, _trapz, [T], True),
    "trapezoid_dx": (lambda y: paddle.trapezoid(y, dx=0.5, axis=1),
                     lambda y: _trapz(y, dx=0.5, axis=1), [T], True),
    "trapezoid_x": (lambda y, x: paddle.trapezoid(y, x, axis=0),
                    lambda y, x: _trapz(y, x, axis=0), [X, np.array([0.0, 0.5, 2.0])], True),
    "trapezoid_x_full": (lambda y, x: paddle.trapezoid(y, x), lambda y, x: _trapz(y, x),
                         [X, np.cumsum(np.abs(X), 1)], True),
    "cumulative_trapezoid": (paddle.cumulative_trapezoid, _cumtrapz, [T], True),
    "cumulative_trapezoid_x": (lambda y, x: paddle.cumulative_trapezoid(y, x, axis=0),
                               lambda y, x: _cumtrapz(y, x, axis=0),
                               [X, np.array([0.0, 0.5, 2.0])], True),
    "renorm": (lambda x: paddle.renorm(x, 2, 0, 1.5), lambda x: _renorm_ref(x, 2, 0, 1.5),
               [X], True),
    "renorm_p1": (lambda x: paddle.renorm(x, 1, -1, 2.0), lambda x: _renorm_ref(x, 1, 2, 2.0),
                  [T], True),
    "vander": (paddle.vander, np.vander, [V], True),
    "vander_inc": (lambda x: paddle.vander(x, 3, True), lambda x: np.vander(x, 3, True),
                   [V], True),
    "cartesian_prod": (lambda a, b: paddle.cartesian_prod([a, b]),
                       lambda a, b: np.array(list(itertools.product(a, b))), [Y, V], True),
    "combinations": (paddle.combinations,
                     lambda x: np.array(list(itertools.combinations(x, 2))), [V], True),
    "combinations_rep": (lambda x: paddle.combinations(x, 3, True),
                         lambda x: np.array(list(itertools.combinations_with_replacement(
                             x, 3))), [Y], True),
    "block_diag": (lambda a, b, c: paddle.block_diag([a, b, c]),
                   lambda a, b, c: _block_diag_ref([a, b, c]), [X, Y, np.array(2.0)], True),
    "diag_embed": (paddle.diag_embed, lambda v: _diag_embed_ref(v, 0), [X], True),
    "diag_embed_offset": (lambda v: paddle.diag_embed(v, -2),
                          lambda v: _diag_embed_ref(v, -2), [T], True),
    "diag_embed_dims": (lambda v: paddle.diag_embed(v, 1, 0, 2),
                        lambda v: np.moveaxis(_diag_embed_ref(v, 1), [-2, -1], [0, 2]), [X],
                        True),
    "diagflat": (lambda x: paddle.diagflat(x, 1), lambda x: np.diagflat(x, 1), [X], True),
    "take": (lambda x: paddle.take(x, tensor(np.array([[0, -1], [5, 11]]))),
             lambda x: x.ravel()[[[0, -1], [5, 11]]], [X], True),
    "take_wrap": (lambda x: paddle.take(x, tensor(np.array([-13, 14, 3])), "wrap"),
                  lambda x: np.take(x, [-13, 14, 3], mode="wrap"), [X], True),
    "take_clip": (lambda x: paddle.take(x, tensor(np.array([-13, 14, 3])), "clip"),
                  lambda x: np.take(x, [-13, 14, 3], mode="clip"), [X], True),
    "masked_scatter": (lambda x, v: paddle.masked_scatter(x, tensor(MASK), v),
                       lambda x, v: _masked_scatter_ref(x, MASK, v), [X, rng.normal(size=12)],
                       True),
    "masked_scatter_bcast": (lambda x, v: paddle.masked_scatter(x, tensor(MASK[0]), v),
                             lambda x, v: _masked_scatter_ref(x, MASK[0], v),
                             [X, rng.normal(size=(4, 3))], True),
    "select_scatter": (lambda x, v: paddle.select_scatter(x, v, 1, 2),
                       lambda x, v: _scatter_ref(x, v, (slice(None), 2)),
                       [T, rng.normal(size=(2, 4))], True),
    "slice_scatter": (lambda x, v: paddle.slice_scatter(x, v, [2], [1], [4], [2]),
                      lambda x, v: _scatter_ref(x, v, (Ellipsis, slice(1, 4, 2))),
                      [T, rng.normal(size=(2, 3, 2))], True),
    "diagonal_scatter": (lambda x, y: paddle.diagonal_scatter(x, y, 1),
                         lambda x, y: _diagonal_scatter_ref(x, y, 1), [X, Y[:3]], True),
    "diagonal_scatter_neg": (lambda x, y: paddle.diagonal_scatter(x, y, -1),
                             lambda x, y: _diagonal_scatter_ref(x, y, -1), [X, Y[:2]], True),
    "unflatten": (lambda x: paddle.unflatten(x, -1, [2, -1]), lambda x: x.reshape(2, 3, 2, 2),
                  [T], True),
    "view": (lambda x: paddle.view(x, [6, -1]), lambda x: x.reshape(6, -1), [T], True),
    "view_as": (lambda x, o: paddle.view_as(x, o), lambda x, o: x.reshape(o.shape),
                [T, np.zeros((4, 6))], [0]),
    "unfold": (lambda x: x.unfold(-1, 2, 1),
               lambda x: np.lib.stride_tricks.sliding_window_view(x, 2, -1), [T], True),
    "unfold_step": (lambda x: paddle.unfold(x, 0, 2, 2),
                    lambda x: np.moveaxis(np.stack([x[0:2], x[2:4]]), 1, -1), [V], True),
}


def _block_diag_ref(blocks):
    blocks = [np.atleast_2d(b) for b in blocks]
    out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)))
    r = c = 0
    for b in blocks:
        out[r:r + b.shape[0], c:c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients(name):
    """Each function matches NumPy; differentiable ones match central differences."""
    fn, ref, arrays, differentiable = CASES[name]
    check_values(fn, ref, arrays)
    if differentiable:
        wrt = differentiable if isinstance(differentiable, list) else [
            k for k, a in enumerate(arrays) if a.dtype.kind == "f" and a.ndim]
        check_grad(fn, *arrays, wrt=wrt)


@pytest.mark.parametrize("name", ["logaddexp", "copysign", "signbit", "isin", "sinc",
                                  "trapezoid_x", "cumulative_trapezoid", "renorm", "vander",
                                  "cartesian_prod", "combinations", "block_diag",
                                  "diag_embed_dims", "take_wrap", "masked_scatter",
                                  "slice_scatter", "diagonal_scatter", "unflatten", "unfold",
                                  "isneginf"])
def test_static_matches_eager(name):
    """The same composition runs as a static Program."""
    fn, _, arrays, _ = CASES[name]
    check_static(fn, *arrays)


def test_dtype_predicates_and_is_empty():
    """is_complex / is_floating_point / is_integer are Python bools; is_empty a bool tensor."""
    f, i, c = tensor(X), tensor(np.arange(3)), tensor(np.array([1j]))
    assert (paddle.is_floating_point(f), paddle.is_integer(f), paddle.is_complex(f)) == (
        True, False, False)
    assert (i.is_integer(), i.is_floating_point(), c.is_complex()) == (True, False, True)
    assert paddle.is_integer(tensor(np.array([True]))) is False
    assert paddle.is_empty(f).numpy().item() is False
    assert paddle.is_empty(tensor(np.zeros((2, 0)))).numpy().item() is True


def test_random_like_creators():
    """rand_like / randn_like / randint_like take x's shape and (by default) dtype."""
    x = tensor(X.astype("float32"))
    for out in (paddle.rand_like(x), paddle.randn_like(x), paddle.randint_like(x, 5)):
        assert out.shape == [3, 4] and out.dtype == paddle.float32
    assert paddle.rand_like(x, "float64").dtype == paddle.float64
    u = paddle.rand_like(tensor(np.zeros((200,)))).numpy()
    assert 0 <= u.min() and u.max() < 1
    k = paddle.randint_like(tensor(np.zeros(500, "int64")), -3, 4).numpy()
    assert k.dtype == np.int64 and set(k.tolist()) == set(range(-3, 4))
    assert paddle.randint_like(x, 2, 3, dtype="int32").numpy().tolist() == [[2] * 4] * 3


def test_view_dtype_reinterprets_bytes():
    """view(x, dtype) reinterprets memory like NumPy's view."""
    x = tensor(np.arange(4, dtype=np.int32))
    assert paddle.view(x, "float32").numpy().tobytes() == np.arange(4, dtype=np.int32).tobytes()


def test_combinations_empty_and_methods():
    """r larger than the input gives no rows; the new functions are Tensor methods."""
    assert paddle.combinations(tensor(Y), 5).shape == [0, 5]
    x = tensor(X)
    assert x.logaddexp(x).shape == [3, 4] and x.signbit().dtype == paddle.bool
    assert x.take(tensor(np.array([1]))).shape == [1] and x.diag_embed().shape == [3, 4, 4]


def test_bad_inputs_raise():
    """Clear errors for arguments Paddle refuses."""
    with pytest.raises(IndexError, match="indices must be in"):
        paddle.take(tensor(X), tensor(np.array([12])))
    with pytest.raises(ValueError, match="mode"):
        paddle.take(tensor(X), tensor(np.array([1])), "nearest")
    with pytest.raises(TypeError, match="int32 or int64"):
        paddle.take(tensor(X), tensor(np.array([1.0])))
    with pytest.raises(ValueError, match="either x or dx"):
        paddle.trapezoid(tensor(X), tensor(Y), dx=1.0)
    with pytest.raises(ValueError, match="does not broadcast"):
        paddle.select_scatter(tensor(X), tensor(Y), 1, 0)
    with pytest.raises(ValueError, match="selects"):
        paddle.masked_scatter(tensor(X), tensor(np.ones((3, 4), bool)), tensor(Y))
    with pytest.raises(ValueError, match="does not split"):
        paddle.unflatten(tensor(X), 1, [3, -1])
    with pytest.raises(ValueError, match="size"):
        tensor(X).unfold(1, 5, 1)
    with pytest.raises(ValueError, match="1-D"):
        paddle.cartesian_prod([tensor(X)])
    with pytest.raises(ValueError, match="dim1 and dim2"):
        paddle.diag_embed(tensor(X), 0, 1, 1)
    with pytest.raises(TypeError, match="bool"):
        paddle.positive(tensor(MASK))
    with pytest.raises(TypeError, match="real number"):
        paddle.signbit(tensor(MASK))


def test_slice_scatter_broadcasts_value():
    """value broadcasts to the selected slice, as in Paddle's documented example."""
    x = np.zeros((3, 9))
    got = paddle.slice_scatter(tensor(x), tensor(np.ones((3, 1))), axes=[1], starts=[2],
                               ends=[6], strides=[2]).numpy()
    want = x.copy()
    want[:, 2:6:2] = 1.0
    np.testing.assert_array_equal(got, want)


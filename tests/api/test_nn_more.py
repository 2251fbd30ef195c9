"""softmin, rrelu, dropout3d, LP pools and the gaussian NLL, multi-margin, dice and n-pair
losses against NumPy; their layers and ParameterDict."""
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F
from tests.api._check import check_grad, check_static, check_values, tensor

rng = np.random.default_rng(5)
X = rng.normal(size=(4, 5))
POS = np.abs(rng.normal(size=(2, 3, 7))) + 0.1
IMG = np.abs(rng.normal(size=(2, 2, 5, 6))) + 0.1
LABELS = np.array([1, 0, 4, 2])
VAR = np.abs(rng.normal(size=(4, 5))) + 0.2


def _softmin(x, axis=-1):
    e = np.exp(-x - np.max(-x, axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _lp_pool1d(x, p, k, s):
    n = (x.shape[-1] - k) // s + 1
    return np.stack([np.sum(x[..., i * s:i * s + k] ** p, -1) ** (1 / p) for i in range(n)], -1)


def _lp_pool2d(x, p, k):
    h, w = x.shape[2] // k, x.shape[3] // k
    windows = x[:, :, :h * k, :w * k].reshape(x.shape[0], x.shape[1], h, k, w, k)
    return np.sum(windows ** p, (3, 5)) ** (1 / p)


def _gnll(x, y, var, full=False, eps=1e-6):
    var = np.maximum(var, eps)
    loss = 0.5 * (np.log(var) + (x - y) ** 2 / var)
    return loss + 0.5 * math.log(2 * math.pi) if full else loss


def _multi_margin(x, label, p=1, margin=1.0, weight=None):
    out = []
    for row, y in zip(x, label):
        w = 1.0 if weight is None else weight[y]
        terms = [max(0.0, w * (margin - row[y] + row[j])) ** p for j in range(len(row)) if j != y]
        out.append(sum(terms) / len(row))
    return np.array(out)


def _dice(prob, label, eps=1e-5):
    onehot = np.eye(prob.shape[-1])[label[..., 0]]
    axes = tuple(range(1, prob.ndim))
    inter = (prob * onehot).sum(axes)
    return np.mean(1 - 2 * inter / (prob.sum(axes) + onehot.sum(axes) + eps))


def _npair(a, p, labels, l2_reg=0.002):
    same = (labels[:, None] == labels[None, :]).astype(float)
    targets = same / same.sum(1, keepdims=True)
    logits = a @ p.T
    logp = logits - logits.max(1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
    row_ce = -(targets * logp).sum(1, keepdims=True)
    l2 = (a ** 2).sum(1).mean() + (p ** 2).sum(1).mean()
    return 0.25 * l2_reg * l2 + (targets * row_ce).sum(0).mean()


PROB = np.exp(X[:2, :3])[..., None] * np.ones((1, 1, 4))
PROB = PROB / PROB.sum(-1, keepdims=True)
DICE_LABEL = rng.integers(0, 4, size=(2, 3, 1))
NPAIR_LABELS = np.array([1.0, 2.0, 1.0, 3.0])

# (function of tensors, NumPy reference, input arrays, inputs with a gradient)
CASES = {
    "softmin": (F.softmin, _softmin, [X], [0]),
    "softmin_axis0": (lambda x: F.softmin(x, 0), lambda x: _softmin(x, 0), [X], [0]),
    "rrelu_eval": (lambda x: F.rrelu(x, 0.1, 0.3, training=False),
                   lambda x: np.where(x >= 0, x, 0.2 * x), [X], [0]),
    "lp_pool1d": (lambda x: F.lp_pool1d(x, 2, 3, 2), lambda x: _lp_pool1d(x, 2, 3, 2), [POS],
                  [0]),
    "lp_pool1d_p3": (lambda x: F.lp_pool1d(x, 3, 2), lambda x: _lp_pool1d(x, 3, 2, 2), [POS],
                     [0]),
    "lp_pool2d": (lambda x: F.lp_pool2d(x, 2, 2), lambda x: _lp_pool2d(x, 2, 2), [IMG], [0]),
    "lp_pool2d_p1": (lambda x: F.lp_pool2d(x, 1.0, 2), lambda x: _lp_pool2d(x, 1, 2), [IMG],
                     [0]),
    "gaussian_nll": (lambda x, y, v: F.gaussian_nll_loss(x, y, v),
                     lambda x, y, v: _gnll(x, y, v).mean(), [X, X[::-1].copy(), VAR],
                     [0, 1, 2]),
    "gaussian_nll_full_sum": (lambda x, y, v: F.gaussian_nll_loss(x, y, v, True, reduction="sum"),
                              lambda x, y, v: _gnll(x, y, v, True).sum(),
                              [X, X[::-1].copy(), VAR[:, :1]], [0, 1, 2]),
    "gaussian_nll_fewer_dims": (lambda x, y, v: F.gaussian_nll_loss(x, y, v, reduction="none"),
                                lambda x, y, v: _gnll(x, y, v[:, None]),
                                [X, X[::-1].copy(), VAR[:, 0].copy()], [0, 1, 2]),
    "multi_margin": (lambda x: F.multi_margin_loss(x, tensor(LABELS)),
                     lambda x: _multi_margin(x, LABELS).mean(), [X], [0]),
    "multi_margin_p2_weight": (lambda x, w: F.multi_margin_loss(
        x, tensor(LABELS), 2, 0.5, w, "none"),
        lambda x, w: _multi_margin(x, LABELS, 2, 0.5, w), [X, np.abs(X[0]) + 0.5], [0, 1]),
    "dice": (lambda p: F.dice_loss(p, tensor(DICE_LABEL)), lambda p: _dice(p, DICE_LABEL),
             [PROB], [0]),
    "npair": (lambda a, p: F.npair_loss(a, p, tensor(NPAIR_LABELS)),
              lambda a, p: _npair(a, p, NPAIR_LABELS), [X[:, :3].copy(), X[:, 2:].copy()],
              [0, 1]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients(name):
    """Each function matches NumPy and central differences."""
    fn, ref, arrays, wrt = CASES[name]
    check_values(fn, ref, arrays)
    check_grad(fn, *arrays, wrt=wrt)


@pytest.mark.parametrize("name", ["softmin", "lp_pool1d", "lp_pool2d", "gaussian_nll",
                                  "multi_margin_p2_weight", "dice", "npair"])
def test_static_matches_eager(name):
    """The same composition runs as a static Program."""
    fn, _, arrays, _ = CASES[name]
    check_static(fn, *arrays)


def test_rrelu_training_slopes_lie_in_range():
    """Training draws one slope per negative element within [lower, upper]."""
    x = tensor(-np.ones((2000,)))
    slopes = -F.rrelu(x, 0.1, 0.3).numpy()
    assert 0.1 <= slopes.min() and slopes.max() <= 0.3 and slopes.std() > 0.03
    layer = nn.RReLU(0.1, 0.3)
    layer.eval()
    np.testing.assert_allclose(layer(x).numpy(), -0.2 * np.ones(2000))
    assert np.array_equal(layer(tensor(X.clip(0))).numpy(), X.clip(0))


def test_dropout3d_zeroes_whole_channels():
    """Each (sample, channel) volume is kept (scaled by 1/(1-p)) or zeroed as a whole."""
    x = tensor(np.ones((4, 8, 2, 3, 3)))
    out = F.dropout3d(x, 0.5).numpy()
    per_channel = out.reshape(4, 8, -1)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel.min(-1) == per_channel.max(-1)).all()
    channels_last = F.dropout3d(x, 0.5, data_format="NDHWC").numpy().reshape(4, -1, 3)
    assert (channels_last.min(1) == channels_last.max(1)).all()
    layer = nn.Dropout3D(0.5)
    layer.eval()
    assert np.array_equal(layer(x).numpy(), x.numpy())


def test_layers_match_functionals():
    """Softmin, LPPool1D/2D, GaussianNLLLoss and MultiMarginLoss call their functionals."""
    x = tensor(X)
    np.testing.assert_allclose(nn.Softmin(axis=0)(x).numpy(), _softmin(X, 0))
    np.testing.assert_allclose(nn.LPPool1D(2, 3, 2)(tensor(POS)).numpy(),
                               _lp_pool1d(POS, 2, 3, 2))
    nlc = np.swapaxes(POS, 1, 2).copy()
    np.testing.assert_allclose(nn.LPPool1D(2, 3, 2, data_format="NLC")(tensor(nlc)).numpy(),
                               np.swapaxes(_lp_pool1d(POS, 2, 3, 2), 1, 2))
    np.testing.assert_allclose(nn.LPPool2D(2, 2)(tensor(IMG)).numpy(), _lp_pool2d(IMG, 2, 2))
    np.testing.assert_allclose(nn.GaussianNLLLoss(reduction="none")(x, x, tensor(VAR)).numpy(),
                               _gnll(X, X, VAR))
    np.testing.assert_allclose(nn.MultiMarginLoss(margin=2.0)(x, tensor(LABELS)).numpy(),
                               _multi_margin(X, LABELS, margin=2.0).mean())


def test_parameter_dict():
    """ParameterDict registers parameters by key; they reach parameters() and state_dict."""
    params = nn.ParameterDict({"w": paddle.create_parameter([2, 3], "float32")})
    params["b"] = paddle.create_parameter([3], "float32")
    params.update([("c", paddle.create_parameter([1], "float32"))])
    assert list(params) == ["w", "b", "c"] and len(params) == 3 and "b" in params
    assert [p.shape for p in params.values()] == [[2, 3], [3], [1]]
    assert len(params.parameters()) == 3 and sorted(params.state_dict()) == ["b", "c", "w"]
    del params["c"]
    assert list(params.keys()) == ["w", "b"] and params["w"].shape == [2, 3]


def test_bad_inputs_raise():
    """Clear errors for arguments Paddle refuses."""
    with pytest.raises(ValueError, match="variance shape"):
        F.gaussian_nll_loss(tensor(X), tensor(X), tensor(VAR[:2]))
    with pytest.raises(ValueError, match="negative"):
        F.gaussian_nll_loss(tensor(X), tensor(X), tensor(-VAR))
    with pytest.raises(ValueError, match="p must be 1 or 2"):
        F.multi_margin_loss(tensor(X), tensor(LABELS), p=3)
    with pytest.raises(ValueError, match="same rank"):
        F.dice_loss(tensor(PROB), tensor(DICE_LABEL[..., 0]))
    with pytest.raises(ValueError, match="norm_type cannot be 0"):
        F.lp_pool2d(tensor(IMG), 0, 2)
    with pytest.raises(ValueError, match="lower <= upper"):
        F.rrelu(tensor(X), 0.5, 0.2)
    with pytest.raises(ValueError, match="5-D"):
        F.dropout3d(tensor(IMG))
    with pytest.raises(ValueError, match="reduction"):
        F.gaussian_nll_loss(tensor(X), tensor(X), tensor(VAR), reduction="avg")

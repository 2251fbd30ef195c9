"""New nn.functional functions and nn layers: NumPy values, gradients, static mode, errors."""
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F
from tests.api._check import check_grad, check_static, tensor

rng = np.random.default_rng(1)
A, B, C = (rng.normal(size=(4, 5)) for _ in range(3))
LABEL = np.array([1.0, -1.0, 1.0, -1.0])
IMG = rng.normal(size=(2, 6, 3, 3))


def _log_sigmoid(x):
    return -np.logaddexp(0, -x)


def _cos_ref(a, b, label, margin):
    cos = (a * b).sum(-1) / np.sqrt(((a * a).sum(-1) + 1e-11) * ((b * b).sum(-1) + 1e-11))
    return np.where(label == 1, 1 - cos, np.maximum(0, cos - margin)).mean()


def _pdist(a, b, p=2.0, eps=1e-6):
    return (np.abs(a - b + eps) ** p).sum(-1) ** (1 / p)


def _lrn_ref(x, size, alpha=1e-4, beta=0.75, k=1.0):
    sq = np.pad(x * x, [(0, 0), (size // 2, (size - 1) // 2)] + [(0, 0)] * (x.ndim - 2))
    sums = sum(sq[:, i:i + x.shape[1]] for i in range(size))
    return x / (k + alpha * sums / size) ** beta


def _sdpa_ref(q, k, v, mask=None, causal=False):
    q, k, v = (np.swapaxes(t, 1, 2) for t in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if causal:
        s = s + np.triu(np.full(s.shape[-2:], -np.inf), 1)
    if mask is not None:
        s = s + mask
    w = np.exp(s - s.max(-1, keepdims=True))
    return np.swapaxes((w / w.sum(-1, keepdims=True)) @ v, 1, 2)


# (function of tensors, NumPy reference of arrays, input arrays)
CASES = {
    "celu": (lambda x: F.celu(x, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x / 0.7)),
             [A]),
    "thresholded_relu": (lambda x: F.thresholded_relu(x, 0.2), lambda x: np.where(
        x > 0.2, x, 0.0), [A]),
    "maxout": (lambda x: F.maxout(x, 3), lambda x: x.reshape(2, 2, 3, 3, 3).max(2), [IMG]),
    "maxout_nhwc": (lambda x: F.maxout(x, 3, axis=-1),
                    lambda x: x.reshape(2, 6, 3, 1, 3).max(-1), [IMG]),
    "cosine_embedding_loss": (lambda a, b: F.cosine_embedding_loss(a, b, tensor(LABEL), 0.1),
                              lambda a, b: _cos_ref(a, b, LABEL, 0.1), [A, B]),
    "pairwise_distance": (lambda a, b: F.pairwise_distance(a, b, 3.0),
                          lambda a, b: _pdist(a, b, 3.0), [A, B]),
    "pairwise_distance_keepdim": (lambda a, b: F.pairwise_distance(a[0], b[0], keepdim=True),
                                  lambda a, b: _pdist(a[0], b[0])[None], [A, B]),
    "triplet_margin_loss": (lambda a, p, n: F.triplet_margin_loss(a, p, n, 0.5, swap=True),
                            lambda a, p, n: np.maximum(0, _pdist(a, p) - np.minimum(
                                _pdist(a, n), _pdist(p, n)) + 0.5).mean(), [A, B, C]),
    "multi_label_soft_margin_loss": (
        lambda x: F.multi_label_soft_margin_loss(x, tensor(A > 0), tensor(B[0] ** 2), "sum"),
        lambda x: -((A > 0) * _log_sigmoid(x) + (A <= 0) * _log_sigmoid(-x)).__mul__(
            B[0] ** 2).mean(-1).sum(), [C]),
    "poisson_nll_loss": (lambda x: F.poisson_nll_loss(x, tensor(np.abs(A) * 3), full=True),
                         lambda x: (np.exp(x) - np.abs(A) * 3 * x + np.where(
                             np.abs(A) * 3 > 1, (y := np.maximum(np.abs(A) * 3, 1)) * np.log(y)
                             - y + 0.5 * np.log(2 * np.pi * y), 0)).mean(), [C]),
    "poisson_nll_loss_rate": (lambda x: F.poisson_nll_loss(x, tensor(B), False, reduction="none"),
                              lambda x: x - B * np.log(x + 1e-8), [np.abs(A) + 0.5]),
    "bilinear": (lambda a, b, w: F.bilinear(a, b, w),
                 lambda a, b, w: np.einsum("ni,oij,nj->no", a, w, b),
                 [A, B[:, :3], rng.normal(size=(2, 5, 3))]),
    "local_response_norm": (lambda x: F.local_response_norm(x, 3, 0.1, 0.75, 2.0),
                            lambda x: _lrn_ref(x, 3, 0.1, 0.75, 2.0), [IMG]),
    "local_response_norm_even": (lambda x: F.local_response_norm(x, 4),
                                 lambda x: _lrn_ref(x, 4), [IMG[:, :, :, 0]]),
    "channel_shuffle": (lambda x: F.channel_shuffle(x, 3),
                        lambda x: x.reshape(2, 3, 2, 3, 3).swapaxes(1, 2).reshape(x.shape),
                        [IMG]),
    "zeropad2d": (lambda x: F.zeropad2d(x, [1, 0, 2, 1]),
                  lambda x: np.pad(x, [(0, 0), (0, 0), (2, 1), (1, 0)]), [IMG]),
    "sdpa": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v),
             lambda q, k, v: _sdpa_ref(q, k, v), [IMG[:, :4].reshape(2, 4, 3, 3)] * 3),
    "sdpa_causal": (lambda q, k: F.scaled_dot_product_attention(q, k, k, is_causal=True),
                    lambda q, k: _sdpa_ref(q, k, k, causal=True),
                    [IMG[:, :4].reshape(2, 4, 3, 3), IMG[:, 2:].reshape(2, 4, 3, 3)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients(name):
    """Each function matches its NumPy reference, and autograd matches central differences."""
    fn, ref, arrays = CASES[name]
    got = fn(*[tensor(a) for a in arrays]).numpy()
    np.testing.assert_allclose(got, ref(*[a.copy() for a in arrays]), rtol=1e-10, atol=1e-12)
    if name != "thresholded_relu":
        check_grad(fn, *arrays)


@pytest.mark.parametrize("name", ["cosine_embedding_loss", "triplet_margin_loss", "maxout",
                                  "local_response_norm", "channel_shuffle", "sdpa_causal",
                                  "bilinear", "poisson_nll_loss"])
def test_static_matches_eager(name):
    """The same code builds a Program that the Executor runs to the eager values."""
    fn, _, arrays = CASES[name]
    check_static(fn, *arrays)


def test_attention_masks_and_3d_inputs():
    """A float mask is added, a bool mask keeps True; [seq, heads, dim] inputs work."""
    q = IMG[:, :4].reshape(2, 4, 3, 3)
    mask = rng.normal(size=(4, 4))
    got = F.scaled_dot_product_attention(tensor(q), tensor(q), tensor(q), tensor(mask))
    np.testing.assert_allclose(got.numpy(), _sdpa_ref(q, q, q, mask), rtol=1e-10)
    keep = np.tril(np.ones((4, 4), bool))
    got = F.scaled_dot_product_attention(tensor(q), tensor(q), tensor(q), tensor(keep))
    np.testing.assert_allclose(got.numpy(), _sdpa_ref(q, q, q, causal=True), rtol=1e-10)
    single = F.scaled_dot_product_attention(tensor(q[0]), tensor(q[0]), tensor(q[0]))
    np.testing.assert_allclose(single.numpy(), _sdpa_ref(q, q, q)[0], rtol=1e-10)


def test_sequence_mask():
    """Positions before each length are set; maxlen pads or truncates."""
    lengths = tensor(np.array([[1, 3], [0, 2]]))
    assert F.sequence_mask(lengths).numpy().tolist() == [[[1, 0, 0], [1, 1, 1]],
                                                        [[0, 0, 0], [1, 1, 0]]]
    out = F.sequence_mask(tensor(np.array([2])), maxlen=4, dtype="float32")
    assert out.dtype == paddle.float32 and out.numpy().tolist() == [[1, 1, 0, 0]]


def test_alpha_dropout_keeps_selu_statistics():
    """Standard-normal input keeps mean ~0 and variance ~1; eval is the identity."""
    paddle.seed(3)
    x = tensor(rng.normal(size=(200, 200)))
    out = F.alpha_dropout(x, 0.2).numpy()
    assert abs(out.mean()) < 0.02 and abs(out.var() - 1) < 0.03
    saturated = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    a = ((0.8) * (1 + 0.2 * saturated ** 2)) ** -0.5
    assert np.isclose(np.mean(np.isclose(out, a * saturated - a * saturated * 0.2)), 0.2,
                      atol=0.01)
    layer = nn.AlphaDropout(0.2)
    layer.eval()
    assert layer(x) is x


def test_activation_layers():
    """Silu (Paddle's name; SiLU is the same class), CELU, ThresholdedReLU, Maxout."""
    x = tensor(A)
    assert nn.SiLU is nn.Silu
    np.testing.assert_allclose(nn.Silu()(x).numpy(), A / (1 + np.exp(-A)))
    np.testing.assert_allclose(nn.CELU(0.7)(x).numpy(), F.celu(x, 0.7).numpy())
    np.testing.assert_allclose(nn.ThresholdedReLU(0.2)(x).numpy(), np.where(A > 0.2, A, 0))
    assert nn.Maxout(3)(tensor(IMG)).shape == [2, 2, 3, 3]
    np.testing.assert_allclose(nn.Softmax2D()(tensor(IMG)).numpy().sum(1), np.ones((2, 3, 3)))


def test_loss_layers_match_functionals():
    """Each loss layer forwards its arguments to the functional form."""
    a, b, c, label = tensor(A), tensor(B), tensor(C), tensor(LABEL)
    sign = tensor(np.sign(B))
    pairs = [
        (nn.MarginRankingLoss(0.3)(a, b, sign), F.margin_ranking_loss(a, b, sign, 0.3)),
        (nn.HingeEmbeddingLoss(0.5, "sum")(a, sign),
         F.hinge_embedding_loss(a, sign, 0.5, "sum")),
        (nn.SoftMarginLoss("none")(a, sign), F.soft_margin_loss(a, sign, "none")),
        (nn.CosineEmbeddingLoss(0.2)(a, b, label), F.cosine_embedding_loss(a, b, label, 0.2)),
        (nn.TripletMarginLoss(p=1.0)(a, b, c), F.triplet_margin_loss(a, b, c, p=1.0)),
        (nn.MultiLabelSoftMarginLoss()(a, tensor(B > 0)),
         F.multi_label_soft_margin_loss(a, tensor(B > 0))),
        (nn.PoissonNLLLoss(full=True)(a, tensor(np.abs(B))),
         F.poisson_nll_loss(a, tensor(np.abs(B)), full=True)),
        (nn.PairwiseDistance(keepdim=True)(a, b), F.pairwise_distance(a, b, keepdim=True)),
        (nn.CosineSimilarity(axis=0)(a, b), F.cosine_similarity(a, b, axis=0)),
    ]
    for got, want in pairs:
        np.testing.assert_allclose(got.numpy(), want.numpy())


def test_shape_layers():
    """Unflatten, Pad1D/3D, ZeroPad2D, ChannelShuffle, InstanceNorm1D/3D, LRN, Bilinear."""
    x = tensor(IMG[:, :, :, 0])
    assert nn.Unflatten(1, [2, 3])(x).shape == [2, 2, 3, 3]
    assert nn.Unflatten(-1, [3, 1])(x).shape == [2, 6, 3, 1]
    np.testing.assert_allclose(nn.Pad1D([1, 2], value=5.0)(x).numpy(),
                               np.pad(IMG[:, :, :, 0], [(0, 0), (0, 0), (1, 2)],
                                      constant_values=5.0))
    assert nn.Pad1D(1, mode="reflect")(x).shape == [2, 6, 5]
    assert nn.Pad3D(1)(tensor(IMG[None])).shape == [1, 2, 8, 5, 5]
    assert nn.ZeroPad2D(1)(tensor(IMG)).shape == [2, 6, 5, 5]
    np.testing.assert_allclose(nn.ChannelShuffle(2)(tensor(IMG)).numpy(),
                               F.channel_shuffle(tensor(IMG), 2).numpy())
    norm = nn.InstanceNorm1D(6)(x).numpy()
    np.testing.assert_allclose(norm.mean(-1), 0, atol=1e-12)
    assert nn.InstanceNorm3D(2)(tensor(IMG[:, :2, None])).shape == [2, 2, 1, 3, 3]
    np.testing.assert_allclose(nn.LocalResponseNorm(3)(tensor(IMG)).numpy(), _lrn_ref(IMG, 3))
    layer = nn.Bilinear(5, 5, 2)
    assert layer.weight.shape == [2, 5, 5] and layer.bias.shape == [1, 2]
    assert layer(tensor(A.astype("float32")), tensor(B.astype("float32"))).shape == [4, 2]


def test_conv1d_transpose_layer():
    """Conv1DTranspose equals F.conv1d_transpose with its own weight and bias."""
    layer = nn.Conv1DTranspose(3, 4, 3, stride=2, padding=1, output_padding=1)
    assert layer.weight.shape == [3, 4, 3]
    x = paddle.rand([2, 3, 5])
    want = F.conv1d_transpose(x, layer.weight, layer.bias, 2, 1, 1)
    np.testing.assert_allclose(layer(x).numpy(), want.numpy())
    assert layer(x).shape == [2, 4, 10]


def test_bad_inputs_raise():
    """Clear errors for inputs Paddle refuses."""
    with pytest.raises(ValueError, match="divisible"):
        F.maxout(tensor(IMG), 4)
    with pytest.raises(ValueError, match="axis"):
        F.maxout(tensor(IMG), 2, axis=2)
    with pytest.raises(ValueError, match="divisible"):
        F.channel_shuffle(tensor(IMG), 4)
    with pytest.raises(ValueError, match="reduction"):
        F.cosine_embedding_loss(tensor(A), tensor(B), tensor(LABEL), reduction="avg")
    with pytest.raises(ValueError, match="3-D or 4-D"):
        F.scaled_dot_product_attention(tensor(A), tensor(A), tensor(A))
    with pytest.raises(ValueError, match="p must be"):
        F.alpha_dropout(tensor(A), 1.5)
    with pytest.raises(ValueError, match="at least 3 dims"):
        F.local_response_norm(tensor(A), 3)
    with pytest.raises(ValueError, match="padding needs 2"):
        nn.Pad1D([1, 2, 3])
    with pytest.raises(ZeroDivisionError):
        F.celu(tensor(A), 0.0)

"""The op table op by op: a small function per op exported at opsets 9, 13 and 18 (forms
change at 10, 11, 13 and 18) computes in onnxruntime what it computes in sampan."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn.functional as F
from sampan.static import InputSpec

from .harness import assert_same, export

R = np.random.RandomState(0)
X = R.randn(2, 3, 4).astype("float32")
POS = (R.rand(2, 3, 4) + 0.1).astype("float32")
Y = R.randn(2, 3, 4).astype("float32")
IMG = R.randn(2, 4, 6, 6).astype("float32")
I32 = R.randint(-5, 6, (3, 4)).astype("int32")
NZ = np.where(I32 == 0, 3, I32).astype("int32")
IDS = R.randint(0, 5, (2, 3)).astype("int64")
W = R.randn(5, 4).astype("float32")

CASES = {
    # activations and math
    **{name: (getattr(paddle, name), [X]) for name in (
        "abs", "tanh", "exp", "sin", "cos", "atan", "sinh", "cosh", "asinh", "erf", "sign",
        "floor", "ceil", "round", "trunc", "neg", "square", "expm1", "isnan", "isinf",
        "isfinite", "sigmoid")},
    **{name: (getattr(paddle, name), [POS]) for name in (
        "log", "sqrt", "rsqrt", "reciprocal", "log1p", "log2", "log10")},
    "acosh": (paddle.acosh, [POS + 1]),
    **{name: (getattr(F, name), [X]) for name in (
        "relu", "relu6", "silu", "mish", "softsign", "hardswish", "hardsigmoid",
        "log_sigmoid", "selu", "elu", "gelu", "leaky_relu", "softplus")},
    "gelu_tanh": (lambda x: F.gelu(x, approximate=True), [X]),
    "softplus_beta": (lambda x: F.softplus(x * 10, beta=2.0, threshold=5.0), [X]),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 0.7), [X]),
    "clip": (lambda x: paddle.clip(x, -0.3, 0.4), [X]),
    "clip_int": (lambda x: paddle.clip(x, -2, 3), [I32]),
    "scale": (lambda x: paddle.scale(x, 2.0, 0.5, bias_after_scale=False), [X]),
    "pow": (lambda x: paddle.pow(x, 3.0), [X]),
    "int_scalars": (lambda a: (paddle.pow(a, 2), paddle.pow(a, 0.5), paddle.scale(a, 1.5),
                               a * 2.5, a + 1), [np.abs(I32)]),
    "cast": (lambda x: paddle.cast(x, "int32"), [X * 3]),
    "dropout": (lambda x: F.dropout(x, 0.5, training=False), [X]),
    "dropout_downscale": (lambda x: F.dropout(x, 0.25, training=False,
                                              mode="downscale_in_infer"), [X]),
    # arithmetic, comparisons, logic
    **{name: (getattr(paddle, name), [X, Y]) for name in (
        "add", "subtract", "multiply", "divide", "maximum", "minimum", "equal", "not_equal",
        "greater_than", "less_than", "greater_equal", "less_equal", "remainder",
        "floor_divide")},
    "pow_tensors": (paddle.pow, [POS, Y]),
    "int_arithmetic": (lambda a, b: (a + b, a * b, a - b, a // b, a % b, a / b,
                                     paddle.maximum(a, b)), [I32, NZ]),
    "int_compare": (lambda a, b: (a > b, a == b, a <= b), [I32, NZ]),
    "logic": (lambda a, b: (paddle.logical_and(a > 0, b > 0), paddle.logical_or(a > 0, b > 0),
                            paddle.logical_xor(a > 0, b > 0), paddle.logical_not(a > 0),
                            paddle.bitwise_and(a > 0, b > 0)), [X, Y]),
    "where": (lambda a, b: paddle.where(a > b, a, b), [X, Y]),
    "masked_fill": (lambda a: paddle.masked_fill(a, a > 0, 7.0), [X]),
    # matmul, nn
    "matmul_t": (lambda a, b: paddle.matmul(a, b, transpose_y=True), [X, Y]),
    "matmul_tx": (lambda a, b: paddle.matmul(a, b, transpose_x=True), [X, Y]),
    "bmm": (lambda a, b: paddle.bmm(a, b.transpose([0, 2, 1])), [X, Y]),
    "linear": (lambda a, w: F.linear(a, w.T), [X, W]),
    "softmax_last": (lambda a: F.softmax(a), [X]),
    "softmax_mid": (lambda a: F.softmax(a, axis=1), [X]),
    "log_softmax": (lambda a: F.log_softmax(a, axis=-1), [X]),
    "conv_groups": (lambda a, w: F.conv2d(a, w, stride=2, padding=1, groups=2),
                    [IMG, R.randn(6, 2, 3, 3).astype("float32")]),
    "conv_depthwise": (lambda a, w: F.conv2d(a, w, padding=[1, 0, 2, 1], groups=4,
                                             dilation=2), [IMG, R.randn(4, 1, 3, 3).astype(
                                                 "float32")]),
    "conv_same": (lambda a, w: F.conv2d(a, w, stride=2, padding="SAME"),
                  [IMG, R.randn(3, 4, 3, 3).astype("float32")]),
    "conv_nhwc": (lambda a, w: F.conv2d(a, w, padding=1, data_format="NHWC"),
                  [IMG.transpose(0, 2, 3, 1).copy(), R.randn(3, 4, 3, 3).astype("float32")]),
    "conv_transpose": (lambda a, w: F.conv2d_transpose(a, w, stride=2, padding=1,
                                                       output_padding=1),
                       [IMG, R.randn(4, 3, 3, 3).astype("float32")]),
    "conv1d": (lambda a, w: F.conv1d(a, w, padding=1), [X, R.randn(2, 3, 3).astype("float32")]),
    "max_pool": (lambda a: F.max_pool2d(a, 3, 2, 1), [IMG]),
    "max_pool_ceil": (lambda a: F.max_pool2d(a, 2, 2, ceil_mode=True), [IMG[:, :, :5, :5]]),
    "max_pool_mask_unread": (lambda a: F.max_pool2d(a, 2, return_mask=True)[0], [IMG]),
    "avg_pool": (lambda a: F.avg_pool2d(a, 3, 2, 1), [IMG]),
    "avg_pool_inclusive": (lambda a: F.avg_pool2d(a, 3, 2, 1, exclusive=False), [IMG]),
    "adaptive_avg": (lambda a: F.adaptive_avg_pool2d(a, 3), [IMG]),
    "adaptive_uneven": (lambda a: (F.adaptive_avg_pool2d(a, [4, 5]),
                                   F.adaptive_max_pool2d(a, [5, 4])), [IMG]),
    "adaptive_nhwc": (lambda a: F.adaptive_avg_pool2d(a, 4, data_format="NHWC"),
                      [IMG.transpose(0, 2, 3, 1).copy()]),
    "adaptive_max_1": (lambda a: F.adaptive_max_pool2d(a, 1), [IMG]),
    "batch_norm": (lambda a, m, v: F.batch_norm(a, m, v, training=False),
                   [IMG, R.randn(4).astype("float32"), R.rand(4).astype("float32") + 0.5]),
    "batch_norm_1d": (lambda a, m, v, w: F.batch_norm(a[:, :, 0, 0], m, v, weight=w,
                                                      training=False),
                      [IMG, R.randn(4).astype("float32"), R.rand(4).astype("float32") + 0.5,
                       R.randn(4).astype("float32")]),
    "layer_norm": (lambda a, w, b: F.layer_norm(a, [4], w, b), [X, W[0], W[1]]),
    "layer_norm_2d": (lambda a: F.layer_norm(a, [3, 4]), [X]),
    "group_norm": (lambda a, w, b: F.group_norm(a, 2, weight=w, bias=b), [IMG, W[0], W[1]]),
    "embedding": (lambda i, w: F.embedding(i, w), [IDS, W]),
    "embedding_pad": (lambda i, w: F.embedding(i, w, padding_idx=2), [IDS, W]),
    "one_hot": (lambda i: F.one_hot(i, 6), [IDS]),
    # shapes and indexing
    "reshape": (lambda a: a.reshape([0, -1]), [X]),
    "transpose": (lambda a: a.transpose([2, 0, 1]), [X]),
    "flatten": (lambda a: paddle.flatten(a, 1, 2), [IMG]),
    "flatten_mid": (lambda a: paddle.flatten(a, 0, 1), [IMG]),
    "squeeze": (lambda a: paddle.squeeze(a[:, :1], 1), [X]),
    "unsqueeze": (lambda a: paddle.unsqueeze(a, [0, -1]), [X]),
    "concat": (lambda a, b: paddle.concat([a, b, a], axis=-2), [X, Y]),
    "split": (lambda a: paddle.split(a, [1, -1, 2], axis=-1), [X]),
    "split_even": (lambda a: paddle.split(a, 2, axis=2), [X]),
    "stack": (lambda a, b: paddle.stack([a, b], axis=1), [X, Y]),
    "slice": (lambda a: paddle.slice(a, [1, 2], [1, -3], [3, 100]), [X]),
    "strided_slice": (lambda a: paddle.strided_slice(a, [2], [3], [0], [-2]), [X]),
    "getitem": (lambda a: (a[0], a[:, 1:, ::2], a[..., -1], a[:, None, 2], a[::-1]), [X]),
    "getitem_tensor": (lambda a, i: a[:, i], [X, np.array([2, 0], "int64")]),
    "gather": (lambda a, i: paddle.gather(a, i, axis=1), [X, np.array([2, 0, 1, 1], "int64")]),
    "index_select": (lambda a, i: paddle.index_select(a, i, axis=2),
                     [X, np.array([3, 0], "int64")]),
    "gather_nd": (lambda a, i: paddle.gather_nd(a, i), [X, np.array([[1, 2], [0, 0]], "int64")]),
    "take_along_axis": (lambda a, i: paddle.take_along_axis(a, i, 2),
                        [X, R.randint(0, 4, (2, 3, 2)).astype("int64")]),
    # indices broadcast to arr's shape off the axis (an RNN's reversal of padded steps)
    "take_along_axis_broadcast": (lambda a, i, j: (paddle.take_along_axis(a, i, 0),
                                                   paddle.take_along_axis(a, j, 1)),
                                  [X, R.randint(0, 2, (3, 1, 1)).astype("int64"),
                                   R.randint(-3, 3, (1, 2, 1)).astype("int32")]),
    "expand": (lambda a: paddle.expand(a[:, :1], [2, 5, 4]), [X]),
    "tile": (lambda a: paddle.tile(a, [2, 1, 1, 2]), [X]),
    "flip": (lambda a: paddle.flip(a, [0, 2]), [X]),
    "tril_triu": (lambda a: (paddle.tril(a, 1), paddle.triu(a, -1)), [X]),
    "constants": (lambda a: a + paddle.arange(4, dtype="float32") + paddle.full([4], 0.5)
                  + paddle.to_tensor([1.0, 2.0, 3.0, 4.0]), [X]),
    "full_like": (lambda a: paddle.full_like(a, 3.0) + paddle.ones_like(a), [X]),
    "shape": (lambda a: paddle.shape(a) * 2, [X]),
    "numel": (lambda a: paddle.numel(a), [X]),
    "pad": (lambda a: (F.pad(a, [1, 2, 0, 1], value=0.5), F.pad(a, [1, 0, 2, 1],
                                                                 mode="reflect"),
                       F.pad(a, [1, 1, 1, 1], mode="replicate")), [IMG]),
    "pad_dynamic": (lambda a, p: (F.pad(a, p, value=0.5), F.pad(a, p, mode="reflect")),
                    [IMG, np.array([1, 0, 2, 1], "int32")]),
    "roll": (lambda a: (paddle.roll(a, [1, -2], [0, 2]), paddle.roll(a, 5)), [X]),
    "nonzero": (lambda a: paddle.nonzero(a > 0), [X]),
    "linspace_eye": (lambda a: a[0] + paddle.linspace(0, 1, 4) + paddle.eye(3, 4), [X]),
    "sort": (lambda a: (paddle.sort(a, 1), paddle.argsort(a, -1, descending=True)), [X]),
    "var_std": (lambda a: (paddle.var(a, 1), paddle.std(a, [0, 2], unbiased=False),
                           paddle.std(a)), [X]),
    "dot": (lambda a, b: (paddle.dot(a[0, 0], b[0, 0]), paddle.dot(a[0], b[0])), [X, Y]),
    "einsum": (lambda a, b: paddle.einsum("bij,bkj->bik", a, b), [X, Y]),
    "det": (lambda a: paddle.linalg.det(a[:, :, :3]), [X]),
    # reductions
    "reductions": (lambda a: (a.sum(), a.mean(axis=1), a.max(axis=[0, 2], keepdim=True),
                              a.min(-1), a.prod(0), paddle.amax(a, 1), paddle.logsumexp(a, 2)),
                   [X]),
    "sum_int": (lambda a: a.sum(axis=1), [I32]),
    "all_any": (lambda a: (paddle.all(a > -1, axis=1), paddle.any(a > 1)), [X]),
    "p_norm": (lambda a: (paddle.norm(a, 2, axis=1), paddle.norm(a, 1, axis=-1),
                          paddle.norm(a, 3.0, axis=0), paddle.norm(a, float("inf"), axis=2)),
               [X]),
    "argmax": (lambda a: (paddle.argmax(a, 1), paddle.argmin(a, -1, keepdim=True),
                          paddle.argmax(a)), [X]),
    "cumsum": (lambda a: paddle.cumsum(a, 1), [X]),
    "topk": (lambda a: tuple(paddle.topk(a, 2)), [X]),
    "topk_smallest": (lambda a: tuple(paddle.topk(a, 2, axis=1, largest=False)), [X]),
}


def _assignments(a):
    """x[...] = v in the forms setitem exports."""
    y = a * 1.0
    y[:, 0] = 5.0
    y[1:, ::2, -1] = paddle.ones([1, 2]) * 3
    y[y > 1.5] = 0.0
    y[-1, 1:-1] = a[0, :1] * 10
    y[..., 2] = a[:, :, 1]
    return y


CASES["setitem"] = (_assignments, [X])
CASES["atan2"] = (paddle.atan2, [np.array([1.0, -1.0, 0.0, 2.0, -3.0, 0.0], "float32"),
                                 np.array([0.0, 0.0, 0.0, -1.0, -2.0, 5.0], "float32")])
CASES["isclose"] = (lambda a, b: (paddle.isclose(a, a + b * 1e-6), paddle.isclose(
    a, b, rtol=0.5, equal_nan=True)), [X, Y])
CASES["scatter"] = (lambda a, i, u: (paddle.scatter(a, i, u), paddle.scatter(
    a, i, u, overwrite=False)), [W, np.array([1, 3, 1], "int64"), R.randn(3, 4).astype(
        "float32")])
CASES["meshgrid"] = (lambda a, b: paddle.meshgrid(a, b), [W[0], W[:, 1]])


@pytest.mark.parametrize("opset", [9, 13, 18])
@pytest.mark.parametrize("name", sorted(CASES))
def test_op_agrees_with_sampan(tmp_path, name, opset):
    fn, arrays = CASES[name]
    specs = [InputSpec(a.shape, str(a.dtype), f"in{k}") for k, a in enumerate(arrays)]
    _, session = export(fn, specs, tmp_path, opset=opset)
    assert_same(fn, session, arrays)

"""Cases of the nn family: convolution, pooling, normalisation, dropout, embedding, losses,
optimizer updates and random creation. References are plain loops over Paddle's formulas."""
import itertools

import numpy as np

from tests.ops.case import OpCase, distinct, positive, rand, randint


# -- window geometry of the references --------------------------------------------------

def _nchw(x, data_format):
    """x viewed as NCHW."""
    return x.transpose(0, 3, 1, 2) if data_format == "NHWC" else x


def _back(y, data_format):
    """An NCHW result in data_format."""
    return y.transpose(0, 2, 3, 1) if data_format == "NHWC" else y


def _pads(paddings, algorithm, sizes, kernels, strides):
    """[(before, after)] per spatial axis after Paddle's EXPLICIT / SAME / VALID rule."""
    if algorithm == "VALID":
        return [(0, 0), (0, 0)]
    if algorithm == "SAME":
        out = []
        for size, k, s in zip(sizes, kernels, strides):
            total = max((-(-size // s) - 1) * s + k - size, 0)
            out.append((total // 2, total - total // 2))
        return out
    p = list(paddings)
    return [(p[0], p[0]), (p[1], p[1])] if len(p) == 2 else [(p[0], p[1]), (p[2], p[3])]


def _dilations(algorithm, dilations):
    """SAME resets dilation to 1 in Paddle."""
    return (1, 1) if algorithm == "SAME" else tuple(dilations)


# -- convolution references -------------------------------------------------------------

def conv2d_ref(input, filter, strides=(1, 1), paddings=(0, 0), padding_algorithm="EXPLICIT",
               dilations=(1, 1), groups=1, data_format="NCHW"):
    """Direct loop over output positions."""
    x = _nchw(input, data_format)
    n, c, h, w = x.shape
    o, cg, kh, kw = filter.shape
    dh, dw = _dilations(padding_algorithm, dilations)
    (pt, pb), (pl, pr) = _pads(paddings, padding_algorithm, (h, w), (kh, kw), strides)
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    oh = (h + pt + pb - dh * (kh - 1) - 1) // strides[0] + 1
    ow = (w + pl + pr - dw * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow), x.dtype)
    for oc, i, j in itertools.product(range(o), range(oh), range(ow)):
        g = oc // (o // groups)
        top, left = i * strides[0], j * strides[1]
        patch = xp[:, g * cg:(g + 1) * cg, top:top + dh * (kh - 1) + 1:dh,
                   left:left + dw * (kw - 1) + 1:dw]
        out[:, oc, i, j] = (patch * filter[oc]).sum(axis=(1, 2, 3))
    return _back(out, data_format)


def conv2d_transpose_ref(x, filter, strides=(1, 1), paddings=(0, 0), output_padding=(),
                         output_size=(), padding_algorithm="EXPLICIT", groups=1,
                         dilations=(1, 1), data_format="NCHW"):
    """Scatter every input pixel times the filter into a padded output, then crop."""
    xc = _nchw(x, data_format)
    n, c, h, w = xc.shape
    _, og, kh, kw = filter.shape
    dh, dw = _dilations(padding_algorithm, dilations)
    (pt, pb), (pl, pr) = _pads(paddings, padding_algorithm, (h, w), (kh, kw), strides)
    full_h = (h - 1) * strides[0] + dh * (kh - 1) + 1
    full_w = (w - 1) * strides[1] + dw * (kw - 1) + 1
    if output_size:
        oh, ow = output_size
    else:
        extra = output_padding or (0, 0)
        oh, ow = full_h - pt - pb + extra[0], full_w - pl - pr + extra[1]
    big = np.zeros((n, og * groups, max(full_h, oh + pt + pb), max(full_w, ow + pl + pr)),
                   xc.dtype)
    for ic, i, j in itertools.product(range(c), range(h), range(w)):
        g = ic // (c // groups)
        top, left = i * strides[0], j * strides[1]
        big[:, g * og:(g + 1) * og, top:top + dh * (kh - 1) + 1:dh,
            left:left + dw * (kw - 1) + 1:dw] += xc[:, ic, i, j][:, None, None, None] * filter[ic]
    return _back(big[:, :, pt:pt + oh, pl:pl + ow], data_format)


# -- pooling reference ------------------------------------------------------------------

def pool_window(o, size, out, kernel, stride, pad, adaptive):
    """(start, end, Paddle's non-exclusive extent) of window o on one axis."""
    if adaptive:
        start, end = o * size // out, -(-(o + 1) * size // out)
        return start, end, end - start
    start = o * stride - pad
    end = min(start + kernel, size + pad)
    return max(start, 0), min(end, size), end - start


def pool2d_ref(x, kernel_size, strides, paddings, ceil_mode=False, exclusive=True,
               data_format="NCHW", pooling_type="max", global_pooling=False, adaptive=False,
               padding_algorithm="EXPLICIT"):
    """Loop over output positions with Paddle's window and divisor rules."""
    xc = _nchw(x, data_format)
    n, c, h, w = xc.shape
    kernel = (h, w) if global_pooling else tuple(kernel_size)
    pads = _pads(paddings, padding_algorithm, (h, w), kernel, strides)
    if global_pooling or adaptive:
        pads = [(0, 0), (0, 0)]
    if adaptive:
        oh, ow = kernel_size
    else:
        extra = [s - 1 if ceil_mode else 0 for s in strides]
        oh = (h - kernel[0] + sum(pads[0]) + extra[0]) // strides[0] + 1
        ow = (w - kernel[1] + sum(pads[1]) + extra[1]) // strides[1] + 1
    out = np.zeros((n, c, oh, ow), xc.dtype)
    for i, j in itertools.product(range(oh), range(ow)):
        h0, h1, eh = pool_window(i, h, oh, kernel[0], strides[0], pads[0][0], adaptive)
        w0, w1, ew = pool_window(j, w, ow, kernel[1], strides[1], pads[1][0], adaptive)
        window = xc[:, :, h0:h1, w0:w1]
        if pooling_type == "max":
            out[:, :, i, j] = window.max(axis=(2, 3))
        else:
            count = (h1 - h0) * (w1 - w0) if exclusive or adaptive else eh * ew
            out[:, :, i, j] = window.sum(axis=(2, 3)) / count
    return _back(out, data_format)


def _conv_cases():
    """conv2d and conv2d_transpose attribute variants (float64, plus one float32 value case)."""
    conv = "conv2d"
    tconv = "conv2d_transpose"
    return [
        OpCase(conv, {"input": rand(1, 2, 5, 5), "filter": rand(3, 2, 3, 3)}, ref=conv2d_ref),
        OpCase(conv, {"input": rand(2, 1, 4, 4), "filter": rand(2, 1, 3, 3)}, ref=conv2d_ref,
               name="batch2"),
        OpCase(conv, {"input": rand(1, 2, 5, 4), "filter": rand(2, 2, 2, 2)},
               {"strides": [2, 2], "paddings": [1, 1]}, ref=conv2d_ref, name="stride_pad"),
        OpCase(conv, {"input": rand(1, 1, 6, 5), "filter": rand(2, 1, 2, 3)},
               {"paddings": [1, 0, 2, 1], "dilations": [2, 1]}, ref=conv2d_ref,
               name="pad4_dilation"),
        OpCase(conv, {"input": rand(1, 4, 4, 3), "filter": rand(4, 2, 2, 2)}, {"groups": 2},
               ref=conv2d_ref, name="groups"),
        OpCase(conv, {"input": rand(1, 4, 5, 2), "filter": rand(3, 2, 2, 2)},
               {"strides": [1, 2], "paddings": [1, 0], "data_format": "NHWC"}, ref=conv2d_ref,
               name="nhwc"),
        OpCase(conv, {"input": rand(1, 2, 5, 5), "filter": rand(2, 2, 3, 3)},
               {"strides": [2, 2], "padding_algorithm": "SAME", "dilations": [2, 2]},
               ref=conv2d_ref, name="same"),
        OpCase(conv, {"input": rand(1, 2, 4, 4), "filter": rand(2, 2, 3, 3)},
               {"paddings": [1, 1], "padding_algorithm": "VALID"}, ref=conv2d_ref, name="valid"),
        OpCase(conv, {"input": rand(2, 3, 4, 4, dtype="float32"),
                      "filter": rand(2, 3, 3, 3, dtype="float32")},
               {"paddings": [1, 1]}, ref=conv2d_ref, grad=(), rtol=1e-5, atol=1e-5,
               name="float32"),
        OpCase(tconv, {"x": rand(1, 2, 3, 3), "filter": rand(2, 3, 2, 2)},
               ref=conv2d_transpose_ref),
        OpCase(tconv, {"x": rand(1, 2, 3, 3), "filter": rand(2, 2, 3, 3)},
               {"strides": [2, 2], "paddings": [1, 1], "output_padding": [1, 1]},
               ref=conv2d_transpose_ref, name="output_padding"),
        OpCase(tconv, {"x": rand(1, 1, 3, 3), "filter": rand(1, 2, 3, 3)},
               {"strides": [2, 2], "output_size": [8, 8]}, ref=conv2d_transpose_ref,
               name="output_size"),
        OpCase(tconv, {"x": rand(1, 4, 2, 3), "filter": rand(4, 1, 2, 2)},
               {"groups": 2, "dilations": [2, 2]}, ref=conv2d_transpose_ref,
               name="groups_dilation"),
        OpCase(tconv, {"x": rand(1, 3, 3, 2), "filter": rand(2, 2, 2, 2)},
               {"strides": [2, 1], "paddings": [1, 0, 0, 1], "data_format": "NHWC"},
               ref=conv2d_transpose_ref, name="nhwc_pad4"),
        OpCase(tconv, {"x": rand(1, 1, 3, 3), "filter": rand(1, 2, 3, 3)},
               {"strides": [2, 2], "padding_algorithm": "SAME"}, ref=conv2d_transpose_ref,
               name="same"),
        OpCase(tconv, {"x": rand(2, 2, 3, 3, dtype="float32"),
                       "filter": rand(2, 2, 3, 3, dtype="float32")},
               {"strides": [2, 2]}, ref=conv2d_transpose_ref, grad=(), rtol=1e-5, atol=1e-5,
               name="float32"),
    ]


def _pool_cases():
    """pool2d variants: max/avg, padding, ceil mode, exclusive, adaptive, global, NHWC, SAME."""
    def case(x, name, **attrs):
        attrs.setdefault("strides", [1, 1])
        attrs.setdefault("paddings", [0, 0])
        return OpCase("pool2d", {"x": x}, attrs, ref=pool2d_ref, name=name)
    return [
        case(distinct(1, 2, 4, 4), "max_tiles", kernel_size=[2, 2], strides=[2, 2]),
        case(distinct(1, 1, 5, 5), "max_cropped_tiles", kernel_size=[2, 2], strides=[2, 2]),
        case(distinct(1, 1, 5, 5), "max_pad", kernel_size=[3, 3], strides=[2, 2],
             paddings=[1, 1]),
        case(distinct(1, 1, 5, 5), "max_ceil", kernel_size=[2, 2], strides=[2, 2],
             ceil_mode=True),
        case(distinct(1, 4, 4, 2), "max_nhwc", kernel_size=[2, 2], data_format="NHWC"),
        case(distinct(1, 4, 6, 2), "max_nhwc_tiles", kernel_size=[2, 2], strides=[2, 2],
             data_format="NHWC"),
        case(distinct(1, 2, 3, 6), "max_one_tap_rows", kernel_size=[1, 2], strides=[1, 2]),
        case(distinct(1, 1, 5, 7), "max_gaps", kernel_size=[2, 2], strides=[3, 3]),
        case(distinct(1, 1, 5, 5), "max_same", kernel_size=[3, 3], strides=[2, 2],
             padding_algorithm="SAME"),
        case(distinct(1, 2, 5, 4), "max_adaptive", kernel_size=[3, 2], adaptive=True),
        case(distinct(1, 2, 2, 3), "max_adaptive_overlapping", kernel_size=[3, 2],
             adaptive=True),
        case(distinct(1, 1, 7, 8), "max_adaptive_large", kernel_size=[1, 2], adaptive=True),
        case(distinct(1, 2, 6, 5), "max_global", kernel_size=[1, 1], global_pooling=True),
        case(rand(1, 2, 4, 4), "avg_exclusive", kernel_size=[3, 3], strides=[2, 2],
             paddings=[1, 1], pooling_type="avg"),
        case(rand(1, 2, 4, 4), "avg_inclusive", kernel_size=[3, 3], strides=[2, 2],
             paddings=[1, 1], pooling_type="avg", exclusive=False),
        case(rand(1, 1, 5, 5), "avg_ceil_inclusive", kernel_size=[2, 2], strides=[2, 2],
             paddings=[1, 0, 0, 1], pooling_type="avg", exclusive=False, ceil_mode=True),
        case(rand(1, 1, 5, 7), "avg_adaptive", kernel_size=[2, 3], pooling_type="avg",
             adaptive=True),
        case(rand(2, 3, 3, 3), "avg_global", kernel_size=[1, 1], pooling_type="avg",
             global_pooling=True),
        case(rand(1, 3, 5, 4), "avg_adaptive_to_one", kernel_size=[1, 1], pooling_type="avg",
             adaptive=True),
        case(rand(1, 3, 4, 2), "avg_whole_window_nhwc", kernel_size=[3, 4], pooling_type="avg",
             exclusive=False, data_format="NHWC"),
        case(rand(1, 2, 1, 1), "avg_inclusive_padded_one", kernel_size=[3, 3],
             paddings=[1, 1], pooling_type="avg", exclusive=False),
        case(rand(1, 4, 4, 2), "avg_nhwc_tiles", kernel_size=[2, 2], strides=[2, 2],
             pooling_type="avg", data_format="NHWC"),
        OpCase("pool2d", {"x": rand(2, 3, 4, 4, dtype="float32")},
               {"kernel_size": [2, 2], "strides": [2, 2], "paddings": [0, 0]}, ref=pool2d_ref,
               grad=(), name="max_float32"),
    ]


# -- normalisation references -----------------------------------------------------------

def _channel_axis(ndim, data_format):
    """Channel axis of a Paddle data_format."""
    return ndim - 1 if data_format.endswith("C") else 1


def _per_channel(v, ndim, axis):
    """A [C] vector shaped to broadcast along `axis` of an ndim array."""
    shape = [1] * ndim
    shape[axis] = -1
    return v.reshape(shape)


def batch_norm_ref(x, mean, variance, scale, bias, is_test=False, momentum=0.9, epsilon=1e-5,
                   data_format="NCHW", use_global_stats=False):
    """(out, mean_out, variance_out) with biased batch variance and Paddle's momentum."""
    axis = _channel_axis(x.ndim, data_format)
    others = tuple(i for i in range(x.ndim) if i != axis)
    if is_test or use_global_stats:
        mu, var, mean_out, var_out = mean, variance, mean, variance
    else:
        mu, var = x.mean(axis=others), x.var(axis=others)
        mean_out = momentum * mean + (1 - momentum) * mu
        var_out = momentum * variance + (1 - momentum) * var
    out = (x - _per_channel(mu, x.ndim, axis)) / np.sqrt(_per_channel(var, x.ndim, axis) + epsilon)
    if scale is not None:
        out = out * _per_channel(scale, x.ndim, axis)
    if bias is not None:
        out = out + _per_channel(bias, x.ndim, axis)
    return out.astype(x.dtype), mean_out, var_out


def layer_norm_ref(x, scale, bias, epsilon=1e-5, begin_norm_axis=1):
    """(out, mean, variance) over the trailing axes."""
    rows = x.reshape(int(np.prod(x.shape[:begin_norm_axis])), -1)
    mu, var = rows.mean(axis=1), rows.var(axis=1)
    out = (rows - mu[:, None]) / np.sqrt(var[:, None] + epsilon)
    out = out * (1 if scale is None else scale) + (0 if bias is None else bias)
    return out.reshape(x.shape), mu, var


def group_norm_ref(x, scale, bias, epsilon=1e-5, groups=1, data_format="NCHW"):
    """(y, mean, variance) over channel groups of each sample."""
    xc = np.moveaxis(x, _channel_axis(x.ndim, data_format), 1)
    n, c = xc.shape[:2]
    grouped = xc.reshape(n, groups, -1)
    mu, var = grouped.mean(axis=2), grouped.var(axis=2)
    y = ((grouped - mu[..., None]) / np.sqrt(var[..., None] + epsilon)).reshape(xc.shape)
    if scale is not None:
        y = y * _per_channel(scale, y.ndim, 1)
    if bias is not None:
        y = y + _per_channel(bias, y.ndim, 1)
    return np.moveaxis(y, 1, _channel_axis(x.ndim, data_format)), mu, var


def _norm_cases():
    """batch_norm, layer_norm and group_norm variants."""
    def bn(x, c, name, affine=True, **attrs):
        inputs = {"x": x, "mean": rand(c), "variance": positive(c),
                  "scale": rand(c) if affine else None, "bias": rand(c) if affine else None}
        return OpCase("batch_norm", inputs, attrs, ref=batch_norm_ref, name=name)
    return [
        bn(rand(2, 3, 2, 2), 3, "train_nchw"),
        bn(rand(4, 3), 3, "train_2d"),
        bn(rand(2, 3, 4), 3, "train_ncl_no_affine", affine=False, data_format="NCL"),
        bn(rand(2, 2, 2, 3), 3, "train_nhwc", data_format="NHWC", momentum=0.8),
        bn(rand(2, 3, 2, 2), 3, "is_test", is_test=True),
        bn(rand(2, 3, 3), 3, "global_stats", use_global_stats=True, epsilon=1e-3),
        OpCase("batch_norm", {"x": rand(4, 3, 2, 2, dtype="float32"),
                              "mean": rand(3, dtype="float32"),
                              "variance": positive(3, dtype="float32"),
                              "scale": rand(3, dtype="float32"),
                              "bias": rand(3, dtype="float32")},
               ref=batch_norm_ref, grad=(), rtol=1e-5, atol=1e-5, name="float32"),
        OpCase("layer_norm", {"x": rand(2, 3, 4), "scale": rand(12), "bias": rand(12)},
               ref=layer_norm_ref),
        OpCase("layer_norm", {"x": rand(2, 3, 4), "scale": rand(4), "bias": rand(4)},
               {"begin_norm_axis": 2, "epsilon": 1e-3}, ref=layer_norm_ref, name="last_axis"),
        OpCase("layer_norm", {"x": rand(3, 5), "scale": None, "bias": None},
               ref=layer_norm_ref, name="no_affine"),
        OpCase("layer_norm", {"x": rand(2, 3), "scale": rand(6), "bias": None},
               {"begin_norm_axis": 0}, ref=layer_norm_ref, name="all_axes_scale_only"),
        OpCase("layer_norm", {"x": rand(4, 6, dtype="float32"), "scale": rand(6, dtype="float32"),
                              "bias": rand(6, dtype="float32")},
               ref=layer_norm_ref, grad=(), rtol=1e-5, atol=1e-5, name="float32"),
        OpCase("group_norm", {"x": rand(2, 4, 2, 2), "scale": rand(4), "bias": rand(4)},
               {"groups": 2}, ref=group_norm_ref),
        OpCase("group_norm", {"x": rand(2, 2, 2, 4), "scale": rand(4), "bias": rand(4)},
               {"groups": 2, "data_format": "NHWC"}, ref=group_norm_ref, name="nhwc"),
        OpCase("group_norm", {"x": rand(2, 6, 3), "scale": None, "bias": None},
               {"groups": 3, "epsilon": 1e-3, "data_format": "NCL"}, ref=group_norm_ref,
               name="ncl_no_affine"),
        OpCase("group_norm", {"x": rand(1, 3, 2, 2), "scale": rand(3), "bias": rand(3)},
               ref=group_norm_ref, name="one_group"),
    ]


# -- dropout, embedding -----------------------------------------------------------------

def _dropout_check(outs, inputs, attrs):
    """Random dropout: mask is 0/1 and out is x * mask, scaled in upscale_in_train mode."""
    out, mask = outs
    p = attrs.get("p", 0.5)
    assert mask.dtype == np.uint8 and set(np.unique(mask)) <= {0, 1}
    assert 0 < mask.sum() < mask.size, "a 50% mask of 60 elements kept none or all of them"
    scale = 1 / (1 - p) if attrs.get("mode", "upscale_in_train") == "upscale_in_train" else 1
    np.testing.assert_allclose(out, inputs["x"] * mask * scale, rtol=1e-6)


def dropout_ref(x, p=0.5, is_test=False, mode="upscale_in_train"):
    """Deterministic cases only: p in {0, 1} in training, or inference."""
    if is_test:
        return x if mode == "upscale_in_train" else x * (1 - p)
    return x * 0 if p == 1 else x


def embedding_ref(x, weight, padding_idx=-1):
    """weight rows at x, zero rows at padding_idx."""
    out = weight[x]
    if padding_idx != -1:
        out[x == padding_idx] = 0
    return out


def _misc_cases():
    """dropout and embedding."""
    ids = np.array([[0, 2, 4], [2, 2, 1]], dtype=np.int64)
    return [
        OpCase("dropout", {"x": rand(6, 10)}, check=_dropout_check, grad=(), static=False,
               name="train_random"),
        OpCase("dropout", {"x": rand(6, 10)}, {"p": 0.3, "mode": "downscale_in_infer"},
               check=_dropout_check, grad=(), static=False, name="train_downscale_random"),
        OpCase("dropout", {"x": rand(3, 4)}, {"p": 0.0}, ref=dropout_ref, name="p0"),
        OpCase("dropout", {"x": rand(3, 4)}, {"p": 1.0}, ref=dropout_ref, name="p1"),
        OpCase("dropout", {"x": rand(3, 4)}, {"is_test": True}, ref=dropout_ref, name="test"),
        OpCase("dropout", {"x": rand(3, 4)}, {"p": 0.3, "is_test": True,
                                              "mode": "downscale_in_infer"},
               ref=dropout_ref, name="test_downscale"),
        OpCase("embedding", {"x": ids, "weight": rand(5, 4)}, ref=embedding_ref),
        OpCase("embedding", {"x": ids, "weight": rand(5, 4)}, {"padding_idx": 2},
               ref=embedding_ref, name="padding"),
        OpCase("embedding", {"x": np.array(3, dtype=np.int32), "weight": rand(4, 3)},
               ref=embedding_ref, name="0d_int32"),
    ]


# -- loss references --------------------------------------------------------------------

def cross_entropy_with_softmax_ref(input, label, soft_label=False, use_softmax=True,
                                   numeric_stable_mode=True, ignore_index=-100, axis=-1):
    """(softmax, loss) by explicit exp / log."""
    axis %= input.ndim
    if use_softmax:
        e = np.exp(input - input.max(axis=axis, keepdims=True))
        probs = e / e.sum(axis=axis, keepdims=True)
    else:
        probs = input
    if soft_label:
        return probs, -(label * np.log(probs)).sum(axis=axis, keepdims=True)
    lab = label if label.ndim == input.ndim else np.expand_dims(label, axis)
    classes = np.arange(input.shape[axis]).reshape([-1 if i == axis else 1
                                                    for i in range(input.ndim)])
    picked = np.where(lab == classes, np.log(probs), 0).sum(axis=axis, keepdims=True)
    return probs, np.where(lab == ignore_index, 0, -picked)


def nll_loss_ref(input, label, weight, ignore_index=-100, reduction="mean"):
    """Loop over samples."""
    axis = 0 if input.ndim == 1 else 1
    moved = np.moveaxis(input, axis, -1).reshape(-1, input.shape[axis])
    labels = label.reshape(-1)
    losses, total = np.zeros(labels.size), 0.0
    for k, lab in enumerate(labels):
        if lab != ignore_index:
            wt = 1.0 if weight is None else weight[lab]
            losses[k], total = -moved[k, lab] * wt, total + wt
    if reduction == "none":
        return losses.reshape(label.shape)
    out = losses.sum()
    return out / total if reduction == "mean" and total else out


def sigmoid_ce_ref(x, label, pos_weight, normalize=False, ignore_index=-100):
    """(1 - label) * x + pos_weight * log(1 + exp(-x)), 0 at ignore_index, optionally averaged."""
    pw = 1 if pos_weight is None else pos_weight
    keep = label != ignore_index
    out = np.where(keep, (1 - label) * x + pw * np.log1p(np.exp(-x)), 0)
    return out / max(keep.sum(), 1) if normalize else out


def _soft(*shape):
    """Soft labels: positive rows summing to 1."""
    v = positive(*shape)
    return v / v.sum(axis=-1, keepdims=True)


def _loss_cases():
    """cross_entropy_with_softmax, nll_loss, sigmoid_cross_entropy_with_logits."""
    ce = "cross_entropy_with_softmax"
    ce_ref = cross_entropy_with_softmax_ref
    ignored = np.array([[1], [-100], [3], [0]], dtype=np.int64)
    return [
        OpCase(ce, {"input": rand(4, 5), "label": randint(4, 1, high=5)}, ref=ce_ref),
        OpCase(ce, {"input": rand(4, 5), "label": randint(4, high=5)}, ref=ce_ref,
               name="label_without_axis"),
        OpCase(ce, {"input": rand(4, 5), "label": ignored}, ref=ce_ref, name="ignore_index"),
        OpCase(ce, {"input": rand(3, 4), "label": _soft(3, 4)}, {"soft_label": True},
               ref=ce_ref, name="soft"),
        OpCase(ce, {"input": rand(2, 3, 4), "label": randint(2, 1, 4, high=3)}, {"axis": 1},
               ref=ce_ref, name="axis1"),
        OpCase(ce, {"input": _soft(3, 4), "label": randint(3, 1, high=4)},
               {"use_softmax": False}, ref=ce_ref, name="probabilities"),
        OpCase(ce, {"input": _soft(3, 4), "label": _soft(3, 4)},
               {"use_softmax": False, "soft_label": True}, ref=ce_ref, name="probabilities_soft"),
        OpCase(ce, {"input": rand(4, 5, dtype="float32"), "label": randint(4, 1, high=5)},
               ref=ce_ref, grad=(), rtol=1e-5, atol=1e-6, name="float32"),
        OpCase("nll_loss", {"input": rand(4, 5), "label": randint(4, high=5), "weight": None},
               ref=nll_loss_ref),
        OpCase("nll_loss", {"input": rand(4, 5), "label": randint(4, high=5),
                            "weight": positive(5)}, {"reduction": "sum"}, ref=nll_loss_ref,
               name="weight_sum"),
        OpCase("nll_loss", {"input": rand(4, 5), "label": np.array([1, -100, 3, 0]),
                            "weight": positive(5)}, {"reduction": "none"}, ref=nll_loss_ref,
               name="none_ignore"),
        OpCase("nll_loss", {"input": rand(2, 3, 2, 2), "label": randint(2, 2, 2, high=3),
                            "weight": positive(3)}, ref=nll_loss_ref, name="4d_weight_mean"),
        OpCase("nll_loss", {"input": rand(5), "label": np.array(2), "weight": None},
               ref=nll_loss_ref, name="1d"),
        OpCase("nll_loss", {"input": rand(2, 3), "label": np.array([-100, -100]),
                            "weight": None}, ref=nll_loss_ref, name="all_ignored"),
        OpCase("sigmoid_cross_entropy_with_logits",
               {"x": rand(3, 4, low=-3, high=3), "label": rand(3, 4, low=0, high=1),
                "pos_weight": None}, ref=sigmoid_ce_ref),
        OpCase("sigmoid_cross_entropy_with_logits",
               {"x": rand(3, 4, low=-3, high=3), "label": rand(3, 4, low=0, high=1),
                "pos_weight": positive(3, 4)}, ref=sigmoid_ce_ref, name="pos_weight"),
        OpCase("sigmoid_cross_entropy_with_logits",
               {"x": rand(2, 4), "label": np.array([[1, 0, -100, 1], [0, -100, 1, 1.0]]),
                "pos_weight": positive(4)}, {"normalize": True}, ref=sigmoid_ce_ref,
               name="ignore_normalize_broadcast_weight"),
    ]


# -- optimizer updates ------------------------------------------------------------------

def sgd_ref(param, learning_rate, grad):
    return param - learning_rate * grad


def momentum_ref(param, grad, velocity, learning_rate, mu, use_nesterov=False,
                 regularization_method="", regularization_coeff=0.0):
    if regularization_method == "l2_decay":
        grad = grad + regularization_coeff * param
    v = mu * velocity + grad
    return param - learning_rate * ((grad + mu * v) if use_nesterov else v), v


def adam_ref(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
             moment2_max=None, beta1=0.9, beta2=0.999, epsilon=1e-8, amsgrad=False):
    m = beta1 * moment1 + (1 - beta1) * grad
    v = beta2 * moment2 + (1 - beta2) * grad ** 2
    v_max = np.maximum(v, moment2_max) if amsgrad else np.empty(0)
    lr_t = learning_rate * np.sqrt(1 - beta2_pow) / (1 - beta1_pow)
    p = param - lr_t * m / (np.sqrt(v_max if amsgrad else v) + epsilon * np.sqrt(1 - beta2_pow))
    return p, m, v, beta1_pow * beta1, beta2_pow * beta2, v_max


def adamw_ref(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
              moment2_max=None, beta1=0.9, beta2=0.999, epsilon=1e-8, lr_ratio=1.0, coeff=0.01,
              with_decay=True, amsgrad=False):
    lr = learning_rate * lr_ratio
    if with_decay:
        param = param * (1 - lr * coeff)
    return adam_ref(param, grad, lr, moment1, moment2, beta1_pow, beta2_pow, moment2_max,
                    beta1, beta2, epsilon, amsgrad)


def rmsprop_ref(param, mean_square, grad, moment, learning_rate, mean_grad, epsilon=1e-6,
                decay=0.9, momentum=0.0, centered=False):
    ms = decay * mean_square + (1 - decay) * grad ** 2
    mg = decay * mean_grad + (1 - decay) * grad if centered else mean_grad
    mom = momentum * moment + learning_rate * grad / np.sqrt(ms - mg ** 2 * centered + epsilon)
    return param - mom, mom, ms, mg


def adagrad_ref(param, grad, moment, learning_rate, epsilon=1e-6):
    m = moment + grad ** 2
    return param - learning_rate * grad / (np.sqrt(m) + epsilon), m


def adamax_ref(param, grad, learning_rate, moment, inf_norm, beta1_pow, beta1=0.9, beta2=0.999,
               epsilon=1e-8):
    m = beta1 * moment + (1 - beta1) * grad
    u = np.maximum(beta2 * inf_norm + epsilon, np.abs(grad))
    return param - learning_rate / (1 - beta1_pow) * m / u, m, u, beta1_pow * beta1


def adadelta_ref(param, grad, avg_squared_grad, avg_squared_update, learning_rate, rho=0.95,
                 epsilon=1e-6):
    eg = rho * avg_squared_grad + (1 - rho) * grad ** 2
    delta = -np.sqrt(avg_squared_update + epsilon) / np.sqrt(eg + epsilon) * grad
    return param + learning_rate * delta, eg, rho * avg_squared_update + (1 - rho) * delta ** 2


def nadam_ref(param, grad, learning_rate, momentum_decay_pow, beta2_pow, mu_product, moment1,
              moment2, beta1=0.9, beta2=0.999, epsilon=1e-8, momentum_decay=0.004):
    d = momentum_decay_pow * 0.96
    mu = beta1 * (1 - 0.5 * d ** momentum_decay)
    mu_next = beta1 * (1 - 0.5 * (0.96 * d) ** momentum_decay)
    prod = mu_product * mu
    b2p = beta2_pow * beta2
    m = beta1 * moment1 + (1 - beta1) * grad
    v = beta2 * moment2 + (1 - beta2) * grad ** 2
    m_hat = mu_next * m / (1 - prod * mu_next) + (1 - mu) * grad / (1 - prod)
    p = param - learning_rate * m_hat / (np.sqrt(v / (1 - b2p)) + epsilon)
    return p, d, b2p, prod, m, v


def radam_ref(param, grad, learning_rate, beta1_pow, beta2_pow, rho, moment1, moment2, beta1=0.9,
              beta2=0.999, epsilon=1e-8):
    b1p, b2p = beta1_pow * beta1, beta2_pow * beta2
    t = np.round(np.log(b2p.flat[0]) / np.log(beta2))
    rho_out = t * b2p / (1 - b2p)
    m = beta1 * moment1 + (1 - beta1) * grad
    v = beta2 * moment2 + (1 - beta2) * grad ** 2
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * rho_out.flat[0]
    step = learning_rate * m / (1 - b1p)
    if rho_t > 5:
        r = np.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
        step = step * r * np.sqrt(1 - b2p) / (np.sqrt(v) + epsilon)
    return param - step, b1p, b2p, rho_out, m, v


def lamb_ref(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
             weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6, always_adapt=False):
    m = beta1 * moment1 + (1 - beta1) * grad
    v = beta2 * moment2 + (1 - beta2) * grad ** 2
    r = (m / (1 - beta1_pow)) / (np.sqrt(v / (1 - beta2_pow)) + epsilon) + weight_decay * param
    ratio = 1.0
    if weight_decay > 0 or always_adapt:
        ratio = np.linalg.norm(param) / np.linalg.norm(r)
    return param - learning_rate * ratio * r, m, v, beta1_pow * beta1, beta2_pow * beta2


def _power_state(shape, t, beta1=0.9, beta2=0.999):
    """RAdam accumulators after t steps: beta powers and rho = t*b2^t/(1-b2^t)."""
    b2p = np.full(shape, beta2 ** t)
    return {"beta1_pow": np.full(shape, beta1 ** t), "beta2_pow": b2p,
            "rho": t * b2p / (1 - b2p)}


def _optimizer_cases():
    """Each update against its hand-written formula."""
    lr = np.array(0.1)
    adam_in = {"param": rand(3, 4), "grad": rand(3, 4), "learning_rate": lr,
               "moment1": rand(3, 4), "moment2": positive(3, 4),
               "beta1_pow": np.array([0.9 ** 3]), "beta2_pow": np.array([0.999 ** 3])}
    rms_in = {"param": rand(3, 4), "mean_square": positive(3, 4), "grad": rand(3, 4),
              "moment": rand(3, 4), "learning_rate": lr, "mean_grad": rand(3, 4, low=-0.1,
                                                                               high=0.1)}
    mom_in = {"param": rand(3, 4), "grad": rand(3, 4), "velocity": rand(3, 4),
              "learning_rate": lr}
    return [
        OpCase("sgd", {"param": rand(3, 4), "learning_rate": lr, "grad": rand(3, 4)},
               ref=sgd_ref),
        OpCase("sgd", {"param": rand(5, dtype="float32"),
                       "learning_rate": np.array([0.5], dtype="float32"),
                       "grad": rand(5, dtype="float32")}, ref=sgd_ref, rtol=1e-6,
               name="float32_lr_1"),
        OpCase("momentum", mom_in, {"mu": 0.9}, ref=momentum_ref),
        OpCase("momentum", mom_in, {"mu": 0.8, "use_nesterov": True}, ref=momentum_ref,
               name="nesterov"),
        OpCase("momentum", mom_in, {"mu": 0.9, "regularization_method": "l2_decay",
                                    "regularization_coeff": 0.01}, ref=momentum_ref,
               name="l2_decay"),
        OpCase("adam", dict(adam_in, moment2_max=None), ref=adam_ref),
        OpCase("adam", dict(adam_in, moment2_max=positive(3, 4)), {"amsgrad": True},
               ref=adam_ref, name="amsgrad"),
        OpCase("adamw", dict(adam_in, moment2_max=positive(3, 4)),
               {"amsgrad": True, "coeff": 0.1}, ref=adamw_ref, name="amsgrad"),
        OpCase("adam", dict(adam_in, moment2_max=None), {"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6}, ref=adam_ref,
               name="betas"),
        OpCase("adamw", dict(adam_in, moment2_max=None), {"coeff": 0.1, "lr_ratio": 0.5},
               ref=adamw_ref),
        OpCase("adamw", dict(adam_in, moment2_max=None), {"with_decay": False}, ref=adamw_ref,
               name="no_decay"),
        OpCase("rmsprop", rms_in, ref=rmsprop_ref),
        OpCase("rmsprop", rms_in, {"centered": True, "momentum": 0.9, "decay": 0.8},
               ref=rmsprop_ref, name="centered_momentum"),
        OpCase("adagrad", {"param": rand(3, 4), "grad": rand(3, 4), "moment": positive(3, 4),
                           "learning_rate": lr}, ref=adagrad_ref),
        OpCase("adamax", {"param": rand(3, 4), "grad": rand(3, 4), "learning_rate": lr,
                          "moment": rand(3, 4), "inf_norm": positive(3, 4),
                          "beta1_pow": np.array([0.9 ** 2])}, ref=adamax_ref),
        OpCase("adadelta", {"param": rand(3, 4), "grad": rand(3, 4),
                            "avg_squared_grad": positive(3, 4),
                            "avg_squared_update": positive(3, 4), "learning_rate": lr},
               {"rho": 0.9}, ref=adadelta_ref),
        OpCase("nadam", {"param": rand(3, 4), "grad": rand(3, 4), "learning_rate": lr,
                         "momentum_decay_pow": np.full((3, 4), 0.96 ** 2),
                         "beta2_pow": np.full((3, 4), 0.999 ** 2),
                         "mu_product": np.full((3, 4), 0.8), "moment1": rand(3, 4),
                         "moment2": positive(3, 4)}, ref=nadam_ref),
        OpCase("radam", dict(_power_state((3, 4), 2), param=rand(3, 4), grad=rand(3, 4),
                             learning_rate=lr, moment1=rand(3, 4), moment2=positive(3, 4)),
               ref=radam_ref, name="momentum_phase"),
        OpCase("radam", dict(_power_state((3, 4), 10, beta2=0.9), param=rand(3, 4),
                             grad=rand(3, 4), learning_rate=lr, moment1=rand(3, 4),
                             moment2=positive(3, 4)), {"beta2": 0.9}, ref=radam_ref,
               name="rectified"),
        OpCase("lamb", adam_in, ref=lamb_ref),
        OpCase("lamb", adam_in, {"weight_decay": 0.0}, ref=lamb_ref, name="no_decay"),
        OpCase("lamb", adam_in, {"weight_decay": 0.0, "always_adapt": True}, ref=lamb_ref,
               name="always_adapt"),
    ]


# -- random creation --------------------------------------------------------------------

def _stats_check(dtype, mean, std, low=None, high=None, tolerance=0.1):
    """Check of a random output: dtype, optional range, sample mean and standard deviation."""
    def check(outs, inputs, attrs):
        out = outs[0]
        assert out.dtype == np.dtype(dtype), f"dtype {out.dtype}, expected {dtype}"
        assert out.shape == tuple(attrs["shape"]), f"shape {out.shape}"
        if low is not None:
            assert out.min() >= low and out.max() <= high, f"range [{out.min()}, {out.max()}]"
        assert abs(out.mean() - mean) < tolerance, f"mean {out.mean()}, expected {mean}"
        assert abs(out.std() - std) < tolerance, f"std {out.std()}, expected {std}"
    return check


def _seeded_check(draw):
    """Check of a seeded random op: equal to `draw(np.random.default_rng(seed))`."""
    def check(outs, inputs, attrs):
        want = draw(np.random.default_rng(attrs["seed"]), attrs)
        np.testing.assert_array_equal(outs[0], want)
    return check


def _randint_check(outs, inputs, attrs):
    """Integers in [low, high), int64 unless dtype says otherwise, every value drawn."""
    out = outs[0]
    assert out.dtype == np.dtype(attrs.get("dtype") or "int64")
    assert set(np.unique(out)) == set(range(attrs["low"], attrs["high"]))


def _randperm_check(outs, inputs, attrs):
    """A permutation of 0..n-1 in the requested dtype."""
    out = outs[0]
    assert out.dtype == np.dtype(attrs.get("dtype") or "int64")
    np.testing.assert_array_equal(np.sort(out), np.arange(attrs["n"]))


def _bernoulli_check(outs, inputs, attrs):
    """0/1 samples in x's dtype: always 0 where x = 0, always 1 where x = 1."""
    out, x = outs[0], inputs["x"]
    assert out.dtype == x.dtype and set(np.unique(out)) <= {0.0, 1.0}
    assert (out[x == 0] == 0).all() and (out[x == 1] == 1).all()


def _random_cases():
    """Statistics, ranges, dtypes and per-op seeds of the random creation ops."""
    def rcase(op, attrs, check, name=""):
        return OpCase(op, {}, attrs, check=check, static=False, name=name)
    return [
        rcase("uniform", {"shape": [4000]}, _stats_check("float32", 0.0, 2 / 12 ** 0.5, -1, 1)),
        rcase("uniform", {"shape": [50, 80], "min": 2.0, "max": 4.0, "dtype": "float64"},
              _stats_check("float64", 3.0, 2 / 12 ** 0.5, 2, 4), name="range_float64"),
        rcase("uniform", {"shape": [3, 4], "seed": 7},
              _seeded_check(lambda g, a: g.uniform(-1.0, 1.0, size=(3, 4)).astype("float32")),
              name="seed"),
        rcase("gaussian", {"shape": [4000], "mean": 1.0, "std": 2.0},
              _stats_check("float32", 1.0, 2.0, tolerance=0.15)),
        rcase("gaussian", {"shape": [2, 3], "seed": 11, "dtype": "float64"},
              _seeded_check(lambda g, a: g.normal(0.0, 1.0, size=(2, 3))), name="seed_float64"),
        rcase("truncated_gaussian_random", {"shape": [4000], "mean": 1.0, "std": 0.5,
                                            "a": 0.0, "b": 2.0},
              _stats_check("float32", 1.0, 0.44, low=0.0, high=2.0, tolerance=0.05)),
        rcase("truncated_gaussian_random", {"shape": [3000], "dtype": "float64"},
              _stats_check("float64", 0.0, 0.88, low=-2.0, high=2.0, tolerance=0.08),
              name="default_bounds_float64"),
        rcase("randint", {"low": -2, "high": 3, "shape": [200]}, _randint_check),
        rcase("randint", {"low": 0, "high": 4, "shape": [10, 20], "dtype": "int32"},
              _randint_check, name="int32"),
        rcase("randperm", {"n": 17}, _randperm_check),
        rcase("randperm", {"n": 9, "dtype": "float32"}, _randperm_check, name="float32"),
        OpCase("bernoulli", {"x": np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.3]])},
               check=_bernoulli_check, static=False),
    ]


CASES = (_conv_cases() + _pool_cases() + _norm_cases() + _misc_cases() + _loss_cases()
         + _optimizer_cases() + _random_cases())

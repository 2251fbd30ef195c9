"""Emitters of the layers' ops: matmul, convolutions, pooling, normalisations, softmax,
embedding, one_hot."""
import numpy as np

from ...ops.infer_meta.nn_geometry import (adaptive_bounds, channel_last, flat_paddings,
                                           resolve_paddings)
from .graph import Unexpressible
from .table import emits


def _last_two_swapped(rank):
    return list(range(rank - 2)) + [rank - 1, rank - 2]


@emits("matmul", "bmm", "mv")
def matmul(g, op):
    """MatMul, with `transpose_x/y` as Transposes of the last two dims."""
    operands = []
    for slot, flag in (("x", "transpose_x"), ("y", "transpose_y")):
        slot = slot if slot in op.inputs else "vec"
        value, rank = g.arg(op, slot), len(g.shape_of(op, slot))
        if op.attrs.get(flag) and rank >= 2:
            value = g.node("Transpose", [value], perm=_last_two_swapped(rank))
        operands.append(value)
    g.node("MatMul", operands, g.result(op))


def _to_channels_first(g, x, rank):
    return g.node("Transpose", [x], perm=[0, rank - 1] + list(range(1, rank - 1)))


def _to_channels_last(g, x, rank, out):
    return g.node("Transpose", [x], out, perm=[0] + list(range(2, rank)) + [1])


def _layout_wrapped(g, op, x_slot, build):
    """Run `build(x) -> value` on channels-first data, transposing NHWC-like in and out."""
    rank = len(g.shape_of(op, x_slot))
    if not channel_last(op.attrs.get("data_format", "NCHW")):
        g.node("Identity", [build(g.arg(op, x_slot))], g.result(op))
        return
    x = _to_channels_first(g, g.arg(op, x_slot), rank)
    _to_channels_last(g, build(x), rank, g.result(op))


def _onnx_pads(pairs):
    """Paddle's (before, after) per axis -> ONNX's all befores then all afters."""
    return list(pairs[0::2]) + list(pairs[1::2])


def _window_pads(g, op, kernel, in_hw, dilations):
    """(pads, auto_pad) of a convolution or pooling op's padding attributes."""
    algorithm = op.attrs.get("padding_algorithm", "EXPLICIT")
    nd = len(kernel)
    if algorithm == "SAME" and any(s < 0 for s in in_hw):
        return None, "SAME_UPPER"
    pairs, _ = resolve_paddings(op.attrs["paddings"], algorithm, in_hw, kernel,
                                op.attrs["strides"], dilations or (1,) * nd)
    return _onnx_pads(flat_paddings(pairs, nd)), None


def _spatial(g, op, slot):
    shape = g.shape_of(op, slot)
    return shape[1:-1] if channel_last(op.attrs.get("data_format", "NCHW")) else shape[2:]


@emits("conv2d", "conv3d")
def conv(g, op):
    filt = g.shape_of(op, "filter")
    kernel = filt[2:]
    in_hw = _spatial(g, op, "input")
    pads, auto_pad = _window_pads(g, op, kernel, in_hw, op.attrs["dilations"])
    dilations = [1] * len(kernel) if op.attrs.get("padding_algorithm") == "SAME" else list(
        op.attrs["dilations"])
    w = g.arg(op, "filter")
    _layout_wrapped(g, op, "input", lambda x: g.node(
        "Conv", [x, w], kernel_shape=list(kernel), strides=list(op.attrs["strides"]),
        pads=pads, auto_pad=auto_pad, dilations=dilations, group=int(op.attrs["groups"])))


@emits("conv2d_transpose", "conv3d_transpose")
def conv_transpose(g, op):
    kernel = g.shape_of(op, "filter")[2:]
    if op.attrs.get("output_size"):
        raise Unexpressible("output_size is not supported (use output_padding)")
    if op.attrs.get("padding_algorithm", "EXPLICIT") != "EXPLICIT":
        raise Unexpressible("SAME / VALID padding of a transposed convolution")
    pads = _onnx_pads(flat_paddings(op.attrs["paddings"], len(kernel)))
    w = g.arg(op, "filter")
    _layout_wrapped(g, op, "x", lambda x: g.node(
        "ConvTranspose", [x, w], kernel_shape=list(kernel), strides=list(op.attrs["strides"]),
        pads=pads, dilations=list(op.attrs["dilations"]), group=int(op.attrs["groups"]),
        output_padding=list(op.attrs["output_padding"]) or None))


@emits("pool2d", "pool3d")
def pool(g, op):
    attrs = op.attrs
    is_max = attrs["pooling_type"] == "max"
    in_hw = _spatial(g, op, "x")
    if attrs["global_pooling"] or (attrs["adaptive"] and all(k == 1 for k in
                                                              attrs["kernel_size"])):
        onnx_op = "GlobalMaxPool" if is_max else "GlobalAveragePool"
        _layout_wrapped(g, op, "x", lambda x: g.node(onnx_op, [x]))
        return
    if attrs["adaptive"]:
        _adaptive(g, op, in_hw, list(attrs["kernel_size"]), is_max)
        return
    kernel, strides = list(attrs["kernel_size"]), list(attrs["strides"])
    pads, auto_pad = _window_pads(g, op, kernel, in_hw, None)
    if attrs["ceil_mode"]:
        g.require(10, "ceil_mode of pooling")
    extra = {} if is_max else {"count_include_pad": 0 if attrs["exclusive"] else 1}
    _layout_wrapped(g, op, "x", lambda x: g.node(
        "MaxPool" if is_max else "AveragePool", [x], kernel_shape=kernel, strides=strides,
        pads=pads, auto_pad=auto_pad, ceil_mode=1 if attrs["ceil_mode"] else None, **extra))


def _adaptive(g, op, in_hw, out_hw, is_max):
    """Adaptive pooling over known input sizes: one plain pooling when each is a multiple
    of its output size (all windows alike), else axis by axis (pooling over rectangular
    windows is separable): averages as a MatMul with a constant averaging matrix, maxima
    as a ReduceMax per window, concatenated."""
    if any(size < 0 for size in in_hw):
        raise Unexpressible(f"adaptive pooling from spatial size {list(in_hw)} (unknown "
                            f"sizes) to {list(out_hw)}")
    if all(size % out == 0 for size, out in zip(in_hw, out_hw)):
        kernel = [size // out for size, out in zip(in_hw, out_hw)]
        _layout_wrapped(g, op, "x", lambda x: g.node(
            "MaxPool" if is_max else "AveragePool", [x], kernel_shape=kernel, strides=kernel))
        return
    dtype = g.dtype_of(op)
    _layout_wrapped(g, op, "x", lambda x: _adaptive_by_axis(g, x, in_hw, out_hw, is_max,
                                                             dtype))


def _adaptive_by_axis(g, x, in_hw, out_hw, is_max, dtype):
    rank = 2 + len(in_hw)
    for axis, size, out in zip(range(2, rank), in_hw, out_hw):
        bounds = [adaptive_bounds(i, size, out) for i in range(out)]
        if is_max:
            x = g.node("Concat", [g.with_axes("ReduceMax", [g.slice(x, [start], [end], [axis])],
                                              [axis], 18, keepdims=1)
                                  for start, end in bounds], axis=axis)
            continue
        matrix = np.zeros([size, out], dtype)
        for i, (start, end) in enumerate(bounds):
            matrix[start:end, i] = 1.0 / (end - start)
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        moved = g.node("Transpose", [x], perm=perm)
        x = g.node("Transpose", [g.node("MatMul", [moved, g.const(matrix)])], perm=perm)
    return x


def _channel_const(g, op, slot, fill, channels):
    if op.inputs.get(slot):
        return g.arg(op, slot)
    if channels < 0:
        raise Unexpressible(f"no {slot} and an unknown channel count")
    return g.const(np.full([channels], fill), g.dtype_of(op))


@emits("batch_norm")
def batch_norm(g, op):
    """Inference BatchNormalization with the running statistics."""
    attrs = op.attrs
    if not (attrs.get("is_test") or attrs.get("use_global_stats")):
        raise Unexpressible("batch_norm in training mode (batch statistics)")
    g.refuse_read(op, ("mean_out", "variance_out", "saved_mean", "saved_variance"))
    layout = attrs.get("data_format", "NCHW")
    shape = g.shape_of(op)
    channels = shape[-1] if channel_last(layout) and len(shape) > 2 else shape[1]
    scale = _channel_const(g, op, "scale", 1.0, channels)
    bias = _channel_const(g, op, "bias", 0.0, channels)
    mean, variance = g.arg(op, "mean"), g.arg(op, "variance")
    wrapped = op if len(shape) > 2 else _Viewed(op, data_format="NCHW")  # channels at 1
    _layout_wrapped(g, wrapped, "x", lambda x: g.node(
        "BatchNormalization", [x, scale, bias, mean, variance],
        epsilon=float(attrs["epsilon"]), momentum=float(attrs["momentum"])))


class _Viewed:
    """An op seen with some attributes replaced (to reuse another op's emitter)."""

    def __init__(self, op, **attrs):
        self.inputs, self.outputs, self.type = op.inputs, op.outputs, op.type
        self.origin = op.origin
        self.attrs = dict(op.attrs, **attrs)


@emits("max_pool2d_with_index", "max_pool3d_with_index")
def max_pool_with_index(g, op):
    """Max pooling whose mask output nobody reads."""
    g.refuse_read(op, ("mask",))
    pool(g, _Viewed(op, pooling_type="max", exclusive=True, data_format="NCHW",
                    padding_algorithm="EXPLICIT"))


@emits("layer_norm")
def layer_norm(g, op):
    """LayerNormalization from opset 17, else the mean / variance computation."""
    g.refuse_read(op, ("mean", "variance"))
    shape = g.shape_of(op)
    axis = op.attrs["begin_norm_axis"] % len(shape)
    normalized = shape[axis:]
    eps = float(op.attrs["epsilon"])
    affine = {}
    for slot in ("scale", "bias"):
        if op.inputs.get(slot):
            value = g.arg(op, slot)
            if len(normalized) > 1:
                if any(d < 0 for d in normalized):
                    raise Unexpressible("normalised dims of unknown size")
                value = g.node("Reshape", [value, g.ints(normalized)])
            affine[slot] = value
    x = g.arg(op)
    if g.opset >= 17:
        scale = affine.get("scale") or g.const(np.ones(normalized), g.dtype_of(op))
        inputs = [x, scale] + ([affine["bias"]] if "bias" in affine else [])
        g.node("LayerNormalization", inputs, g.result(op), axis=axis, epsilon=eps)
        return
    axes = list(range(axis, len(shape)))
    mean = g.with_axes("ReduceMean", [x], axes, 18, keepdims=1)
    centred = g.node("Sub", [x, mean])
    variance = g.with_axes("ReduceMean", [g.node("Mul", [centred, centred])], axes, 18,
                           keepdims=1)
    std = g.node("Sqrt", [g.node("Add", [variance, g.scalar_like(eps, op.inputs["x"][0])])])
    y = g.node("Div", [centred, std])
    if "scale" in affine:
        y = g.node("Mul", [y, affine["scale"]])
    if "bias" in affine:
        y = g.node("Add", [y, affine["bias"]])
    g.node("Identity", [y], g.result(op))


@emits("group_norm")
def group_norm(g, op):
    """Per-group normalisation: reshape to [N, groups, -1], normalise, reshape back."""
    g.refuse_read(op, ("mean", "variance"))
    if channel_last(op.attrs.get("data_format", "NCHW")):
        raise Unexpressible("channels-last group_norm")
    shape = g.shape_of(op)
    if any(d < 0 for d in shape[1:]):
        raise Unexpressible("group_norm needs known sizes after the batch dim")
    x, groups = g.arg(op), int(op.attrs["groups"])
    grouped = g.node("Reshape", [x, g.ints([0, groups, -1])])
    mean = g.with_axes("ReduceMean", [grouped], [2], 18, keepdims=1)
    centred = g.node("Sub", [grouped, mean])
    variance = g.with_axes("ReduceMean", [g.node("Mul", [centred, centred])], [2], 18,
                           keepdims=1)
    eps = g.scalar_like(float(op.attrs["epsilon"]), op.inputs["x"][0])
    y = g.node("Div", [centred, g.node("Sqrt", [g.node("Add", [variance, eps])])])
    y = g.node("Reshape", [y, g.ints([0] + list(shape[1:]))])
    per_channel = [1, shape[1]] + [1] * (len(shape) - 2)
    for slot, combine in (("scale", "Mul"), ("bias", "Add")):
        if op.inputs.get(slot):
            y = g.node(combine, [y, g.node("Reshape", [g.arg(op, slot), g.ints(per_channel)])])
    g.node("Identity", [y], g.result(op, "y"))


@emits("softmax", "log_softmax")
def softmax(g, op):
    """Softmax / LogSoftmax; before opset 13 ONNX softmaxes a 2-D flattening, which equals
    the per-axis softmax only over the last axis."""
    rank = len(g.shape_of(op))
    axis = op.attrs["axis"] % max(rank, 1)
    if axis != rank - 1:
        g.require(13, "softmax over an axis other than the last")
    onnx_op = "Softmax" if op.type == "softmax" else "LogSoftmax"
    g.node(onnx_op, [g.arg(op)], g.result(op), axis=axis)


@emits("embedding")
def embedding(g, op):
    """Gather of weight rows; ids equal to padding_idx give zero rows."""
    ids = g.arg(op)
    rows = g.node("Gather", [g.arg(op, "weight"), ids], axis=0)
    pad = op.attrs.get("padding_idx", -1)
    if pad is None or pad < 0:
        g.node("Identity", [rows], g.result(op))
        return
    g.require(9, "Where")
    hit = g.node("Equal", [ids, g.scalar_like(pad, op.inputs["x"][0])])
    hit = g.with_axes("Unsqueeze", [hit], [len(g.shape_of(op))], 13)
    zero = g.scalar_like(0, op.inputs["weight"][0])
    g.node("Where", [hit, zero, rows], g.result(op))


@emits("one_hot")
def one_hot(g, op):
    g.require(9, "OneHot")
    dtype = g.dtype_of(op, "out", outputs=True)
    depth = g.ints([op.attrs["num_classes"]])
    g.node("OneHot", [g.arg(op), depth, g.const([0, 1], dtype)], g.result(op), axis=-1)


@emits("dot")
def dot(g, op):
    """Sum of the products over the last axis (1-D: a scalar; 2-D: one per row)."""
    rank = len(g.shape_of(op))
    product = g.node("Mul", [g.arg(op), g.arg(op, "y")])
    g.with_axes("ReduceSum", [product], [rank - 1], 13, g.result(op), keepdims=0)


@emits("einsum")
def einsum(g, op):
    g.require(12, "Einsum")
    g.node("Einsum", g.args(op, "operands"), g.result(op), equation=op.attrs["equation"])


@emits("det")
def det(g, op):
    g.require(11, "Det")
    g.node("Det", [g.arg(op)], g.result(op))

"""Emitters of reductions, arg-reductions, cumulative sums and top-k."""
import numpy as np

from .graph import Unexpressible
from .table import emits

# sampan op -> (ONNX op, opset from which its axes are an input)
_REDUCE = {"sum": ("ReduceSum", 13), "mean": ("ReduceMean", 18), "max": ("ReduceMax", 18),
           "min": ("ReduceMin", 18), "amax": ("ReduceMax", 18), "amin": ("ReduceMin", 18),
           "prod": ("ReduceProd", 18), "logsumexp": ("ReduceLogSumExp", 18)}


def _axes(op, rank):
    """The reduced axes (None: all) of an op's `axis` attribute."""
    axis = op.attrs.get("axis")
    if axis is None or (isinstance(axis, (list, tuple)) and not axis):
        return None
    axis = [axis] if isinstance(axis, int) else axis
    return sorted({a % rank for a in axis}) if rank else None


@emits(*_REDUCE)
def reduce(g, op):
    onnx_op, since = _REDUCE[op.type]
    x, out_type = g.arg(op), g.dtype_of(op, "out", outputs=True)
    if g.dtype_of(op) != out_type:
        x = g.cast(x, out_type)
    axes = _axes(op, len(g.shape_of(op)))
    keep = int(bool(op.attrs.get("keepdim")))
    g.with_axes(onnx_op, [x], axes, since, g.result(op), keepdims=keep)


@emits("all", "any")
def all_any(g, op):
    """ReduceMin / ReduceMax over the values as floats (ONNX reduces no bools)."""
    onnx_op = "ReduceMin" if op.type == "all" else "ReduceMax"
    as_float = g.cast(g.arg(op), "float32")
    axes = _axes(op, len(g.shape_of(op)))
    reduced = g.with_axes(onnx_op, [as_float], axes, 18, keepdims=int(bool(
        op.attrs.get("keepdim"))))
    g.cast(reduced, "bool", g.result(op))


@emits("p_norm")
def p_norm(g, op):
    """ReduceL1 / ReduceL2, max |x| for p = inf, else (sum |x|^p)^(1/p)."""
    a = op.attrs
    x, rank = g.arg(op), len(g.shape_of(op))
    if a.get("asvector"):
        x, axes = g.node("Reshape", [x, g.ints([-1])]), [0]
    else:
        axes = [a["axis"] % rank]
    keep = int(bool(a.get("keepdim")))
    p = float(a["porder"])
    out = g.result(op)
    if p in (1.0, 2.0):
        g.with_axes("ReduceL1" if p == 1.0 else "ReduceL2", [x], axes, 18, out, keepdims=keep)
    elif p == float("inf"):
        g.with_axes("ReduceMax", [g.node("Abs", [x])], axes, 18, out, keepdims=keep)
    else:
        name = op.inputs["x"][0]
        powered = g.node("Pow", [g.node("Abs", [x]), g.scalar_like(p, name)])
        total = g.with_axes("ReduceSum", [powered], axes, 13, keepdims=keep)
        g.node("Pow", [total, g.scalar_like(1.0 / p, name)], out)


@emits("argmax", "argmin")
def arg_reduce(g, op):
    x, axis = g.arg(op), op.attrs.get("axis")
    keep = int(bool(op.attrs.get("keepdim")))
    if axis is None:
        x, axis, keep = g.node("Reshape", [x, g.ints([-1])]), 0, 0
    onnx_op = "ArgMax" if op.type == "argmax" else "ArgMin"
    index = g.node(onnx_op, [x], axis=int(axis) % max(len(g.shape_of(op)), 1), keepdims=keep)
    g.cast(index, g.dtype_of(op, "out", outputs=True), g.result(op))


@emits("cumsum")
def cumsum(g, op):
    g.require(11, "CumSum")
    x, axis = g.arg(op), op.attrs.get("axis")
    if axis is None or axis == -1 and not g.shape_of(op):
        x, axis = g.node("Reshape", [x, g.ints([-1])]), 0
    g.node("CumSum", [x, g.const(int(axis), "int64")], g.result(op))


@emits("topk")
def topk(g, op):
    a = op.attrs
    g.require(10, "TopK with k as an input")
    if not (a.get("largest", True) and a.get("sorted", True)):
        g.require(11, "TopK largest / sorted attributes")
    extra = {"largest": int(a.get("largest", True)), "sorted": int(a.get("sorted", True))} \
        if g.opset >= 11 else {}
    rank = len(g.shape_of(op))
    values, indices = g.define(op.outputs["out"][0]), g.state.fresh("topk_indices")
    g.node("TopK", [g.arg(op), g.ints([int(a["k"])])], outputs=[values, indices],
           axis=int(a.get("axis", -1)) % rank, **extra)
    g.cast(indices, g.dtype_of(op, "indices", outputs=True), g.define(op.outputs["indices"][0]))


@emits("sort", "argsort")
def sort(g, op):
    """TopK over the whole (known) axis: descending is largest-first."""
    g.require(11, "TopK largest / sorted attributes")
    shape = g.shape_of(op)
    axis = op.attrs["axis"] % max(len(shape), 1)
    if shape[axis] < 0:
        raise Unexpressible(f"sorting along axis {axis} of unknown size")
    values, indices = g.state.fresh("sorted"), g.state.fresh("sort_indices")
    g.node("TopK", [g.arg(op), g.ints([shape[axis]])], outputs=[values, indices], axis=axis,
           largest=int(bool(op.attrs["descending"])), sorted=1)
    if op.type == "sort":
        g.node("Identity", [values], g.result(op))
    g.node("Identity", [indices], g.result(op, "indices"))


@emits("var", "std")
def variance(g, op):
    """Mean squared deviation over the axes, times n / (n - 1) when unbiased (the count
    n from the known sizes of the reduced dims)."""
    shape = g.shape_of(op)
    axes = _axes(op, len(shape)) or list(range(len(shape)))
    count = int(np.prod([shape[a] for a in axes]))
    if any(shape[a] < 0 for a in axes):
        raise Unexpressible("variance over dims of unknown size")
    x, name = g.arg(op), op.inputs["x"][0]
    keep = int(bool(op.attrs.get("keepdim")))
    centred = g.node("Sub", [x, g.with_axes("ReduceMean", [x], axes, 18, keepdims=1)])
    total = g.with_axes("ReduceSum", [g.node("Mul", [centred, centred])], axes, 13,
                        keepdims=keep)
    divisor = count - 1 if op.attrs.get("unbiased") else count
    value = g.node("Div", [total, g.scalar_like(float(max(divisor, 0)), name)])
    g.node("Sqrt" if op.type == "std" else "Identity", [value], g.result(op))

"""Emitters of shape ops: reshape, transpose, flatten, squeeze, unsqueeze, concat, split,
stack, slices, flip, expand, tile, pad, roll, constants and shapes."""
import numpy as np
from onnx import numpy_helper

from ...ops.infer_meta.manipulation import _pad_widths
from .graph import Unexpressible
from .table import emits

END = np.iinfo(np.int64).max           # a slice bound past either end
BEFORE_START = np.iinfo(np.int64).min



def axis_of(axis, rank):
    """`axis` counted from the front."""
    return axis % rank if rank else 0


@emits("reshape")
def reshape(g, op):
    shape = [int(d) for d in op.attrs["shape"]]
    g.node("Reshape", [g.arg(op), g.ints(shape)], g.result(op))


@emits("reshape_dynamic")
def reshape_dynamic(g, op):
    g.node("Reshape", [g.arg(op), g.cast(g.arg(op, "shape"), "int64")], g.result(op))


@emits("transpose")
def transpose(g, op):
    g.node("Transpose", [g.arg(op)], g.result(op), perm=[int(p) for p in op.attrs["perm"]])


def run_time_dims(g, x, start, stop):
    """x's run-time dims [start, stop) as a 1-D int64 value."""
    return g.slice(g.node("Shape", [x]), [start], [stop], [0])


@emits("flatten")
def flatten(g, op):
    """Reshape to [dims before, -1, dims after] (the dims after taken at run time when
    unknown)."""
    shape = g.shape_of(op)
    rank = max(len(shape), 1)
    start, stop = axis_of(op.attrs["start_axis"], rank), axis_of(op.attrs["stop_axis"], rank)
    tail = list(shape[stop + 1:])
    x = g.arg(op)
    if all(d >= 0 for d in tail):
        target = g.ints([0] * start + [-1] + tail)
    else:
        parts = [g.ints([0] * start + [-1]), run_time_dims(g, x, stop + 1, len(shape))]
        target = g.node("Concat", parts, axis=0)
    g.node("Reshape", [x, target], g.result(op))


@emits("squeeze")
def squeeze(g, op):
    """Squeeze the axes sampan's rule drops: named axes of size 1 or unknown (assumed 1),
    or every size-1 axis when none is named."""
    shape = g.shape_of(op)
    rank = len(shape)
    named = [axis_of(a, rank) for a in op.attrs["axis"]]
    axes = sorted({a for a in named if shape[a] in (1, -1)} if named else
                  {i for i, d in enumerate(shape) if d == 1})
    if not axes:
        g.node("Identity", [g.arg(op)], g.result(op))
        return
    g.with_axes("Squeeze", [g.arg(op)], axes, 13, g.result(op))


def _inserted_axes(rank, axes):
    """Final positions of the size-1 dims Paddle's unsqueeze inserts one at a time."""
    dims = ["x"] * rank
    for axis in axes:
        dims.insert(axis if axis >= 0 else len(dims) + 1 + axis, "new")
    return [i for i, d in enumerate(dims) if d == "new"]


@emits("unsqueeze")
def unsqueeze(g, op):
    axes = _inserted_axes(len(g.shape_of(op)), [int(a) for a in op.attrs["axis"]])
    g.with_axes("Unsqueeze", [g.arg(op)], axes, 13, g.result(op))


@emits("concat")
def concat(g, op):
    rank = len(g.shape_of(op, "out", outputs=True))
    g.node("Concat", g.args(op), g.result(op), axis=axis_of(op.attrs["axis"], rank))


@emits("stack")
def stack(g, op):
    rank = len(g.shape_of(op, "out", outputs=True))
    axis = axis_of(op.attrs["axis"], rank)
    parts = [g.with_axes("Unsqueeze", [x], [axis], 13) for x in g.args(op)]
    g.node("Concat", parts, g.result(op), axis=axis)


@emits("split")
def split(g, op):
    shape = g.shape_of(op)
    axis = axis_of(op.attrs["axis"], len(shape))
    sizes = [int(s) for s in op.attrs["sections"]]
    if -1 in sizes:
        if shape[axis] < 0:
            raise Unexpressible("a -1 section along a dim of unknown size")
        sizes[sizes.index(-1)] = shape[axis] - sum(s for s in sizes if s != -1)
    outs = [g.define(n) for n in op.outputs["out"]]
    if g.opset >= 13:
        g.node("Split", [g.arg(op), g.ints(sizes)], outputs=outs, axis=axis)
    else:
        g.node("Split", [g.arg(op)], outputs=outs, axis=axis, split=sizes)


@emits("slice")
def slice_(g, op):
    a = op.attrs
    g.slice(g.arg(op, "input"), a["starts"], a["ends"], a["axes"], out=g.result(op))


@emits("strided_slice")
def strided_slice(g, op):
    a = op.attrs
    g.slice(g.arg(op), a["starts"], a["ends"], a["axes"], a["strides"], out=g.result(op))


@emits("flip")
def flip(g, op):
    rank = len(g.shape_of(op))
    axes = [axis_of(a, rank) for a in op.attrs["axis"]]
    n = len(axes)
    g.slice(g.arg(op), [-1] * n, [BEFORE_START] * n, axes, [-1] * n, out=g.result(op))


@emits("expand")
def expand(g, op):
    """Expand (broadcast); a -1 in the shape keeps x's dim, which broadcasting against 1
    does."""
    g.require(8, "Expand")
    shape = [1 if int(d) == -1 else int(d) for d in op.attrs["shape"]]
    g.node("Expand", [g.arg(op), g.ints(shape)], g.result(op))


@emits("tile")
def tile(g, op):
    """Tile; x gains leading size-1 dims when more repeats than dims are given."""
    repeats = [int(r) for r in op.attrs["repeat_times"]]
    x, rank = g.arg(op), len(g.shape_of(op))
    if len(repeats) > rank:
        x = g.with_axes("Unsqueeze", [x], list(range(len(repeats) - rank)), 13)
    repeats = [1] * (rank - len(repeats)) + repeats
    g.node("Tile", [x, g.ints(repeats)], g.result(op))


@emits("full")
def full(g, op):
    dtype = g.dtype_of(op, "out", outputs=True)
    value = np.full([int(d) for d in op.attrs["shape"]], op.attrs["fill_value"], dtype)
    g.node("Identity", [g.const(value)], g.result(op))


@emits("assign_value")
def assign_value(g, op):
    dtype = g.dtype_of(op, "out", outputs=True)
    value = np.asarray(op.attrs["values"], dtype).reshape([int(d) for d in op.attrs["shape"]])
    g.node("Identity", [g.const(value)], g.result(op))


@emits("arange")
def arange(g, op):
    a = op.attrs
    dtype = g.dtype_of(op, "out", outputs=True)
    g.node("Identity", [g.const(np.arange(a["start"], a["end"], a["step"]).astype(dtype))],
           g.result(op))


def _fill_of_shape(g, shape, value, dtype, out):
    g.require(9, "ConstantOfShape")
    return g.node("ConstantOfShape", [shape], out, value=numpy_helper.from_array(
        np.full([1], value, dtype)))


@emits("full_like")
def full_like(g, op):
    dtype = g.dtype_of(op, "out", outputs=True)
    _fill_of_shape(g, g.node("Shape", [g.arg(op)]), op.attrs["fill_value"], dtype,
                   g.result(op))


@emits("full_dynamic")
def full_dynamic(g, op):
    dtype = g.dtype_of(op, "out", outputs=True)
    shape = g.cast(g.arg(op, "shape"), "int64")
    _fill_of_shape(g, shape, op.attrs["fill_value"], dtype, g.result(op))


@emits("shape")
def shape(g, op):
    value = g.node("Shape", [g.arg(op, "input")])
    g.cast(value, g.dtype_of(op, "out", outputs=True), g.result(op))


@emits("numel")
def numel(g, op):
    g.cast(g.node("Size", [g.arg(op)]), g.dtype_of(op, "out", outputs=True), g.result(op))


@emits("tril", "triu")
def triangle(g, op):
    g.require(14, "Trilu")
    g.node("Trilu", [g.arg(op), g.const(int(op.attrs["diagonal"]), "int64")],
           g.result(op), upper=int(op.type == "triu"))


@emits("masked_fill")
def masked_fill(g, op):
    g.require(9, "Where")
    value = g.arg(op, "value")
    if g.dtype_of(op, "value") != g.dtype_of(op):
        value = g.cast(value, g.dtype_of(op))
    if len(g.shape_of(op, "value")):
        value = g.node("Reshape", [value, g.ints([])])
    g.node("Where", [g.arg(op, "mask"), value, g.arg(op)], g.result(op))


def _pad_mode(g, mode):
    """ONNX's Pad mode: replicate is `edge`, circular is `wrap` (opset 19)."""
    if mode == "circular":
        g.require(19, "circular padding")
    return {"constant": "constant", "reflect": "reflect", "replicate": "edge",
            "circular": "wrap"}[mode]


def _pad(g, op, pads):
    """Pad x by `pads` (ONNX order: befores then afters; a list, or an int64 value)."""
    a = op.attrs
    mode, x, out = _pad_mode(g, a["mode"]), g.arg(op), g.result(op)
    if g.opset < 11:
        g.node("Pad", [x], out, pads=pads, mode=mode, value=float(a["value"]))
        return
    inputs = [x, g.ints(pads) if isinstance(pads, list) else pads]
    if mode == "constant":
        inputs.append(g.scalar_like(a["value"], op.inputs["x"][0]))
    g.node("Pad", inputs, out, mode=mode)


@emits("pad")
def pad(g, op):
    """Pad with the per-dim widths sampan's pad computes."""
    a = op.attrs
    widths = _pad_widths(len(g.shape_of(op)), a["paddings"], a["mode"], a["data_format"])
    _pad(g, op, [w[0] for w in widths] + [w[1] for w in widths])


@emits("pad_dynamic")
def pad_dynamic(g, op):
    """Pad by sizes held in a tensor: the tensor's entries gathered into ONNX's order (which
    dim each pair pads follows from their count, as for `pad`)."""
    g.require(11, "Pad with the sizes as an input")
    count = g.shape_of(op, "paddings")[0]
    if count < 0:
        raise Unexpressible("a paddings tensor of unknown length")
    a = op.attrs
    # entry k + 1 of [0, paddings...] for paddings[k]; 0 (no padding) for other dims
    widths = _pad_widths(len(g.shape_of(op)), list(range(1, count + 1)), a["mode"],
                         a["data_format"])
    sizes = g.node("Concat", [g.ints([0]), g.cast(g.arg(op, "paddings"), "int64")], axis=0)
    order = [w[0] for w in widths] + [w[1] for w in widths]
    _pad(g, op, g.node("Gather", [sizes, g.ints(order)], axis=0))


@emits("roll")
def roll(g, op):
    """Each rolled axis as two slices concatenated (sizes must be known); no axis rolls
    the flattened tensor."""
    shape = g.shape_of(op)
    x, axes, shifts = g.arg(op), list(op.attrs["axis"]), list(op.attrs["shifts"])
    flat = not axes
    if flat:
        if any(d < 0 for d in shape):
            raise Unexpressible("rolling the flattened tensor needs its shape known")
        x, axes, sizes = g.node("Reshape", [x, g.ints([-1])]), [0], [int(np.prod(shape))]
    else:
        axes = [axis_of(a, len(shape)) for a in axes]
        sizes = [shape[a] for a in axes]
    for axis, shift, size in zip(axes, shifts, sizes):
        if size < 0:
            raise Unexpressible(f"rolling axis {axis} of unknown size")
        cut = size - shift % size
        if cut % size:
            x = g.node("Concat", [g.slice(x, [cut], [END], [axis]),
                                  g.slice(x, [0], [cut], [axis])], axis=axis)
    if flat:
        x = g.node("Reshape", [x, g.ints(shape)])
    g.node("Identity", [x], g.result(op))


@emits("nonzero")
def nonzero(g, op):
    """[count, rank] int64 coordinates (ONNX's NonZero gives them transposed)."""
    g.require(9, "NonZero")
    g.node("Transpose", [g.node("NonZero", [g.arg(op)])], g.result(op), perm=[1, 0])


@emits("linspace", "eye")
def constant_sequence(g, op):
    """Constants computed at export: their attributes fix every value."""
    a, dtype = op.attrs, g.dtype_of(op, "out", outputs=True)
    if op.type == "linspace":
        value = np.linspace(a["start"], a["stop"], int(a["num"]))
    else:
        columns = a["num_columns"] if a["num_columns"] not in (None, -1) else a["num_rows"]
        value = np.eye(int(a["num_rows"]), int(columns))
    g.node("Identity", [g.const(value.astype(dtype))], g.result(op))


@emits("meshgrid")
def meshgrid(g, op):
    """Each 1-D input reshaped along its own axis and expanded to the grid's shape."""
    inputs = g.args(op)
    count = len(inputs)
    sizes = g.node("Concat", [g.node("Shape", [v]) for v in inputs], axis=0)
    for k, (value, name) in enumerate(zip(inputs, op.outputs["out"])):
        along = g.node("Reshape", [value, g.ints([1] * k + [-1] + [1] * (count - k - 1))])
        g.node("Expand", [along, sizes], g.define(name))

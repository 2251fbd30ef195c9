"""Emitters of indexing ops: `x[...]` and `x[...] = v`, gathers and scatters."""

from .graph import Unexpressible
from .ops_shape import BEFORE_START, END, axis_of, run_time_dims
from .table import emits


def _index_items(index, rank):
    """The index items with `...` replaced by full slices."""
    used = sum(1 for item in index if item[0] not in ("none", "ellipsis"))
    out = []
    for item in index:
        if item[0] == "ellipsis":
            out += [("slice", None, None, None)] * (rank - used)
        else:
            out.append(item)
    return out


def _slice_bounds(item):
    """(start, stop, step) of a slice item, Nones filled in for ONNX Slice."""
    _, start, stop, step = item
    step = 1 if step is None else step
    if start is None:
        start = 0 if step > 0 else -1
    if stop is None:
        stop = END if step > 0 else BEFORE_START
    return start, stop, step


@emits("getitem")
def getitem(g, op):
    """x[...] with ints, slices, None, `...` and at most one integer tensor (a Gather)."""
    rank = len(g.shape_of(op))
    items = _index_items(op.attrs["index"], rank)
    tensors = list(op.inputs.get("indices") or [])
    if len(tensors) > 1 or (tensors and any(i[0] == "int" for i in items)):
        raise Unexpressible("indexing with several tensors, or tensors and ints together")
    bounds, drop, new_axes, gather = [], [], [], None
    axis = out_pos = 0
    for item in items:
        kind = item[0]
        if kind == "none":
            new_axes.append(out_pos)
            out_pos += 1
            continue
        if kind == "int":
            stop = item[1] + 1 if item[1] != -1 else END
            bounds.append((axis, item[1], stop, 1))
            drop.append(axis)
        elif kind == "slice":
            start, stop, step = _slice_bounds(item)
            if (start, stop, step) != (0, END, 1):
                bounds.append((axis, start, stop, step))
            out_pos += 1
        else:
            gather = (axis, tensors[0])
            out_pos += len(g.var(tensors[0])._shape)
        axis += 1
    x = g.arg(op)
    if bounds:
        axes, starts, stops, steps = zip(*bounds)
        x = g.slice(x, starts, stops, axes, steps)
    if gather is not None:
        index = g.var(gather[1])
        if index.dtype.name not in ("int32", "int64"):
            raise Unexpressible(f"indexing with a {index.dtype.name} tensor")
        x = g.node("Gather", [x, g.value(gather[1])], axis=gather[0])
    if drop:
        x = g.with_axes("Squeeze", [x], drop, 13)
    if new_axes:
        x = g.with_axes("Unsqueeze", [x], new_axes, 13)
    g.node("Identity", [x], g.result(op))


@emits("gather", "index_select")
def gather(g, op):
    rank = len(g.shape_of(op))
    g.node("Gather", [g.arg(op), g.arg(op, "index")], g.result(op),
           axis=axis_of(int(op.attrs.get("axis", 0)), rank))


@emits("gather_nd")
def gather_nd(g, op):
    g.require(11, "GatherND")
    g.node("GatherND", [g.arg(op), g.arg(op, "index")], g.result(op))


@emits("take_along_axis")
def take_along_axis(g, op):
    """GatherElements on the indices broadcast to arr's shape off the axis, as sampan's
    kernel broadcasts them (GatherElements itself gives an index-shaped result)."""
    g.require(11, "GatherElements")
    arr_shape, index_shape = g.shape_of(op, "arr"), g.shape_of(op, "indices")
    axis = axis_of(op.attrs["axis"], len(arr_shape))
    arr, indices = g.arg(op, "arr"), g.arg(op, "indices")
    if not _same_off_axis(arr_shape, index_shape, axis):
        indices = g.node("Expand", [indices, _along_shape(g, arr, indices, axis,
                                                           len(arr_shape))])
    g.node("GatherElements", [arr, indices], g.result(op), axis=axis)


def _same_off_axis(a, b, axis):
    """Whether static shapes `a` and `b` are known and equal except along `axis`."""
    return all(x == y and x >= 0 for k, (x, y) in enumerate(zip(a, b)) if k != axis)


def _along_shape(g, arr, indices, axis, rank):
    """arr's run-time shape with indices' size along `axis` (1-D int64)."""
    parts = [run_time_dims(g, indices, axis, axis + 1)]
    if axis > 0:
        parts.insert(0, run_time_dims(g, arr, 0, axis))
    if axis + 1 < rank:
        parts.append(run_time_dims(g, arr, axis + 1, rank))
    return g.node("Concat", parts, axis=0)


def _clamped(g, n, value, default):
    """A slice bound of Python semantics as a run-time int64 scalar in [0, n]."""
    if value is None:
        return n if default == "end" else g.const(0, "int64")
    if value >= 0:
        return g.node("Min", [g.const(value, "int64"), n])
    return g.node("Max", [g.node("Add", [n, g.const(value, "int64")]), g.const(0, "int64")])


def _selected(g, x, axis, item):
    """Bool vector over the positions of `axis` that index item `item` selects."""
    n = g.node("Gather", [g.node("Shape", [x]), g.const(axis, "int64")])
    pos = g.node("Range", [g.const(0, "int64"), n, g.const(1, "int64")])
    if item[0] == "int":
        target = g.const(item[1], "int64")
        if item[1] < 0:
            target = g.node("Add", [n, target])
        return g.node("Equal", [pos, target])
    _, start, stop, step = item
    step = 1 if step is None else step
    if step < 0:
        raise Unexpressible("x[...] = v with a negative slice step")
    low, high = _clamped(g, n, start, "start"), _clamped(g, n, stop, "end")
    inside = g.node("And", [g.node("Not", [g.node("Less", [pos, low])]),
                            g.node("Less", [pos, high])])
    if step != 1:
        offset = g.node("Mod", [g.node("Sub", [pos, low]), g.const(step, "int64")])
        inside = g.node("And", [inside, g.node("Equal", [offset, g.const(0, "int64")])])
    return inside


@emits("setitem")
def setitem(g, op):
    """x[index] = value for ints and slices of positive step (a run-time mask per indexed
    axis; a one-element value is written by Where, others by ScatterND in row-major order
    of the selected region), or a bool mask of x's rank with a one-element value."""
    g.require(12, "Min / Max of int64 bounds")
    shape = g.shape_of(op)
    rank = len(shape)
    x, value = g.arg(op), g.arg(op, "value")
    if g.dtype_of(op, "value") != g.dtype_of(op):
        value = g.cast(value, g.dtype_of(op))
    scalar = all(d == 1 for d in g.shape_of(op, "value"))
    if scalar:
        value = g.node("Reshape", [value, g.ints([])])
    items = _index_items(op.attrs["index"], rank)
    if any(item[0] == "tensor" for item in items):
        mask = op.inputs["indices"][0]
        if not (len(items) == 1 and scalar and g.var(mask).dtype.name == "bool"
                and len(g.var(mask)._shape) == rank):
            raise Unexpressible("x[tensor] = v is supported for one bool mask of x's rank "
                                "and a one-element value")
        g.node("Where", [g.value(mask), value, x], g.result(op))
        return
    if any(item[0] == "none" for item in items):
        raise Unexpressible("x[..., None, ...] = v")
    masks, counts = None, []
    for axis, item in enumerate(items + [("slice", None, None, None)] * (rank - len(items))):
        if item == ("slice", None, None, None):
            counts.append(run_time_dims(g, x, axis, axis + 1))
            continue
        chosen = _selected(g, x, axis, item)
        if item[0] != "int":
            counts.append(g.with_axes("ReduceSum", [g.cast(chosen, "int64")], [0], 13,
                                      keepdims=1))
        along = g.node("Reshape", [chosen, g.ints([1] * axis + [-1] + [1] * (rank - axis - 1))])
        masks = along if masks is None else g.node("And", [masks, along])
    if masks is None:
        masks = g.const(True, "bool")
    if scalar:
        g.node("Where", [masks, value, x], g.result(op))
        return
    full = g.node("Expand", [masks, g.node("Shape", [x])])
    where = g.node("Transpose", [g.node("NonZero", [full])], perm=[1, 0])
    region = g.node("Concat", counts, axis=0) if counts else g.ints([])
    updates = g.node("Reshape", [g.node("Expand", [value, region]), g.ints([-1])])
    g.node("ScatterND", [x, where, updates], g.result(op))


@emits("scatter")
def scatter(g, op):
    """Rows `index` of x set to updates (ScatterND), or with overwrite false zeroed and
    then summed from every update aimed at them (ScatterND's add reduction, opset 16)."""
    g.require(11, "ScatterND")
    rows = g.with_axes("Unsqueeze", [g.arg(op, "index")], [len(g.shape_of(op, "index"))], 13)
    rows = g.cast(rows, "int64")
    x, updates = g.arg(op), g.arg(op, "updates")
    if op.attrs["overwrite"]:
        g.node("ScatterND", [x, rows, updates], g.result(op))
        return
    g.require(16, "ScatterND with reduction='add'")
    zeros = g.node("Mul", [updates, g.scalar_like(0, op.inputs["updates"][0])])
    cleared = g.node("ScatterND", [x, rows, zeros])
    g.node("ScatterND", [cleared, rows, updates], g.result(op), reduction="add")

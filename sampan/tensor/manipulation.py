"""Shape functions whose Paddle signature differs from the op they call, plus axis moves,
splits, repeats and index updates composed from registry ops."""
import functools
import numbers

import numpy as np

from ..core import dtype as dtypes
from ..core.dispatch import current_mode
from ..ops._generated import api
from ..ops.indexing_methods import take_range
from .axes import axes_in_range, axis_in_range

__all__ = ["split", "chunk", "unbind", "expand_as", "broadcast_to", "gather", "flatten",
           "squeeze", "unsqueeze", "reshape", "transpose", "t", "tolist", "swapaxes",
           "swapdims", "rot90", "tensor_split", "vsplit", "hsplit", "dsplit", "atleast_1d",
           "atleast_2d", "atleast_3d", "repeat_interleave", "index_add", "index_fill",
           "unflatten", "view", "view_as", "unfold", "meshgrid", "expand", "tile", "slice",
           "strided_slice"]
# has_symbolic_size, size_tensor and sizes_as_list are helpers for other tensor modules.

flatten = api.flatten
squeeze = api.squeeze
unsqueeze = api.unsqueeze
transpose = api.transpose


def _is_size(value):
    """An int, or an integer tensor holding one value (a size given as a tensor)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return True
    # a NumPy array (whose dtype has no is_integer) is a whole shape, not one size
    return (getattr(getattr(value, "dtype", None), "is_integer", False)
            and all(d == 1 for d in value.shape))


def sizes_as_list(param, leading=1):
    """Decorator for Paddle 3's variadic sizes: after `leading` positional arguments, a run
    of sizes becomes the list `param` (`x.reshape(2, 3)` is `x.reshape([2, 3])`,
    `paddle.zeros(2, 3)` is `paddle.zeros([2, 3])`); `size=` is an alias of `param`."""
    def decorate(fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            if "size" in kwargs and param not in kwargs:
                kwargs[param] = kwargs.pop("size")
            head, rest = args[:leading], args[leading:]
            count = 0
            while count < len(rest) and _is_size(rest[count]):
                count += 1
            if count:
                args = head + (list(rest[:count]),) + rest[count:]
            return fn(*args, **kwargs)
        return call
    return decorate


def has_symbolic_size(sizes):
    """True when a size list holds a static Variable (a size known only at run time)."""
    return isinstance(sizes, (list, tuple)) and any(getattr(s, "symbolic_size", False)
                                                   for s in sizes)


def size_tensor(sizes):
    """A 1-D int64 tensor of `sizes` (ints and 0-d/1-element integer tensors)."""
    parts = [api.reshape(api.cast(s, "int64"), [1]) if hasattr(s, "dtype")
             else api.full([1], int(s), "int64") for s in sizes]
    return api.concat(parts, 0)


@sizes_as_list("shape")
def reshape(x, shape, name=None):
    """x with a new shape (0 copies a dim, one -1 is inferred); entries may be tensors,
    and so may the whole shape (a 1-D integer tensor, read when the Program runs)."""
    if has_symbolic_size(shape):
        return api.reshape_dynamic(x, size_tensor(shape))
    if getattr(shape, "symbolic_size", False):
        return api.reshape_dynamic(x, shape)
    return api.reshape(x, shape)


def meshgrid(*args, **kwargs):
    """Coordinate grids ("ij" indexing) of 1-D tensors passed as arguments or as one list."""
    tensors = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    return api.meshgrid(list(tensors))


def _dim(x, axis):
    """Length of `axis` of x (a Tensor or Variable)."""
    return x.shape[axis]


def split(x, num_or_sections, axis=0, name=None):
    """Split into `num_or_sections` equal parts, or parts of the listed sizes (-1 once)."""
    axis = int(axis.item() if hasattr(axis, "item") else axis)
    if isinstance(num_or_sections, numbers.Integral):
        size = _dim(x, axis)
        if size >= 0 and size % num_or_sections:
            raise ValueError(f"split: dimension {axis} of size {size} is not divisible into "
                             f"{num_or_sections} equal parts")
        sections = [size // num_or_sections if size >= 0 else -1] * num_or_sections
        if size < 0:
            raise ValueError("split into equal parts needs a known dimension size")
    elif has_symbolic_size(num_or_sections):
        return _split_at_run_time(x, list(num_or_sections), axis % len(x.shape))
    else:
        sections = [int(s) for s in num_or_sections]
    return api.split(x, sections, axis)


def _split_at_run_time(x, sections, axis):
    """Parts of x along axis whose sizes may be static Variables (one -1 takes what the
    others leave): consecutive run-time ranges."""
    listed = sum(s for s in sections if not _is_keep(s))
    sections = [_size_of(x, axis) - listed if _is_keep(s) else s for s in sections]
    parts, start = [], 0
    for size in sections:
        parts.append(take_range(x, axis, start, start + size))
        start = start + size
    return parts


def chunk(x, chunks, axis=0, name=None):
    """Split into `chunks` equal parts along `axis`."""
    return split(x, chunks, axis)


def unbind(input, axis=0):  # noqa: A002 - Paddle's name
    """Slices of `input` along `axis`, each without that dimension."""
    n = _dim(input, axis)
    return [api.squeeze(p, [axis]) for p in api.split(input, [1] * n, axis)]


def expand_as(x, y, name=None):
    """x broadcast to y's shape (read at run time when some of y's dims are unknown while
    building)."""
    if -1 in y.shape:
        return _broadcast_at_run_time(x, api.shape(y))
    return api.expand(x, y.shape)


def broadcast_to(x, shape, name=None):
    """x broadcast to `shape` (sizes may be static Variables, as in `expand`)."""
    return expand(x, shape)


def gather(x, index, axis=None, name=None):
    """Rows (or slices along `axis`) of x picked by `index`."""
    return api.gather(x, index, 0 if axis is None else axis)


def t(input, name=None):  # noqa: A002
    """Transpose of a tensor with at most 2 dimensions."""
    if len(input.shape) < 2:
        return input
    if len(input.shape) > 2:
        raise ValueError(f"t() expects a tensor with at most 2 dims, got shape {input.shape}")
    return api.transpose(input, [1, 0])


def tolist(x):
    """The tensor's values as nested lists."""
    return x.tolist()


# ---------------------------------------------------------------- axis moves and splits

def swapaxes(x, axis0, axis1=None, name=None):
    """x with axes axis0 and axis1 exchanged; swapaxes(x, perm) is transpose(x, perm)."""
    if axis1 is None:
        return api.transpose(x, list(axis0))
    perm = list(range(len(x.shape)))
    perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
    return api.transpose(x, perm)


swapdims = swapaxes


def rot90(x, k=1, axes=(0, 1), name=None):
    """x rotated by k·90° in the plane of `axes` (from the first axis towards the second)."""
    ndim = len(x.shape)
    axes = axes_in_range(axes, ndim, "rot90", "axes") if ndim >= 2 else list(axes)
    if ndim < 2 or len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"rot90: axes must name two different dims of a tensor with at "
                         f"least 2 dims, got axes={list(axes)} for shape {list(x.shape)}")
    k %= 4
    if k == 0:
        return api.assign(x)
    if k == 2:
        return api.flip(x, axes)
    swapped = swapaxes(x, axes[0], axes[1])
    return api.flip(swapped, [axes[0]]) if k == 1 else swapaxes(api.flip(x, [axes[0]]),
                                                                axes[0], axes[1])


def tensor_split(x, num_or_indices, axis=0, name=None):
    """Split along axis into n nearly equal parts (the first size % n one longer), or at
    the listed indices."""
    size = _dim(x, axis)
    if isinstance(num_or_indices, numbers.Integral):
        n = int(num_or_indices)
        if n < 1:
            raise ValueError(f"tensor_split: the number of sections must be >= 1, got {n}")
        sizes = [size // n + (1 if i < size % n else 0) for i in range(n)]
        bounds = [sum(sizes[:i]) for i in range(n + 1)]
    else:
        bounds = [0] + [min(max(int(i) + (size if i < 0 else 0), 0), size)
                        for i in num_or_indices] + [size]
    return [api.slice(x, [axis], [start], [max(start, end)])
            for start, end in zip(bounds, bounds[1:])]


def _split_along(x, num_or_indices, axis, min_ndim, fn):
    """tensor_split on `axis` after checking x has at least min_ndim dims."""
    if len(x.shape) < min_ndim:
        raise ValueError(f"{fn} needs a tensor with at least {min_ndim} dims, got shape "
                         f"{list(x.shape)}")
    return tensor_split(x, num_or_indices, axis)


def vsplit(x, num_or_indices, name=None):
    """tensor_split along axis 0 of a tensor with at least 2 dims."""
    return _split_along(x, num_or_indices, 0, 2, "vsplit")


def hsplit(x, num_or_indices, name=None):
    """tensor_split along axis 1 (axis 0 of a 1-D tensor)."""
    return _split_along(x, num_or_indices, 1 if len(x.shape) > 1 else 0, 1, "hsplit")


def dsplit(x, num_or_indices, name=None):
    """tensor_split along axis 2 of a tensor with at least 3 dims."""
    return _split_along(x, num_or_indices, 2, 3, "dsplit")


def _at_least(inputs, shape_of):
    """Each input reshaped by shape_of(shape); one tensor for one input, else a list."""
    from .creation import to_tensor
    outs = []
    for x in inputs:
        x = x if hasattr(x, "shape") and hasattr(x, "dtype") else to_tensor(x)
        new = shape_of(list(x.shape))
        outs.append(x if new == list(x.shape) else api.reshape(x, new))
    return outs[0] if len(outs) == 1 else outs


def atleast_1d(*inputs, name=None):
    """Inputs with at least one dim (0-d becomes [1])."""
    return _at_least(inputs, lambda s: s or [1])


def atleast_2d(*inputs, name=None):
    """Inputs with at least two dims ([n] becomes [1, n])."""
    return _at_least(inputs, lambda s: ([1] * (2 - len(s)) + s) if len(s) < 2 else s)


def atleast_3d(*inputs, name=None):
    """Inputs with at least three dims ([n] -> [1, n, 1], [m, n] -> [m, n, 1])."""
    return _at_least(inputs, lambda s: {0: [1, 1, 1], 1: [1] + s + [1], 2: s + [1]}.get(
        len(s), s))


# ---------------------------------------------------------------- repeats and index updates

def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    """Each element (or slice along axis) repeated `repeats` times (an int or one count per
    element); axis None works on the flattened x. `output_size`, a hint in Paddle, is
    checked against the result's length when given."""
    if axis is None:
        x, axis = api.reshape(x, [-1]), 0
    size = _dim(x, axis)
    counts = repeats.numpy() if hasattr(repeats, "numpy") else repeats
    counts = np.broadcast_to(np.asarray(counts, dtype=np.int64).reshape(-1), [size])
    if counts.min(initial=0) < 0:
        raise ValueError(f"repeat_interleave: repeats must be >= 0, got {counts.tolist()}")
    if output_size is not None and output_size != counts.sum():
        raise ValueError(f"repeat_interleave: argument 'output_size' is {output_size}, but "
                         f"the repeats add up to {counts.sum()}")
    from .creation import to_tensor
    return api.index_select(x, to_tensor(np.repeat(np.arange(size), counts)), axis)


def _along(mask, ndim, axis):
    """A 1-D tensor reshaped to broadcast along `axis` of an ndim tensor."""
    shape = [1] * ndim
    shape[axis] = -1
    return api.reshape(mask, shape)


def index_add(x, index, axis, value, alpha=1, name=None):
    """x with alpha * value's slices along axis added at the positions `index` (repeats add
    up)."""
    axis = axis_in_range(axis, len(x.shape), "index_add")
    if alpha != 1:
        value = api.multiply(value, alpha)
    selector = api.one_hot(index, _dim(x, axis))
    moved = api.transpose(value, _to_last(len(x.shape), axis))
    added = api.matmul(moved, api.cast(selector, x.dtype))
    return api.add(x, api.transpose(added, _from_last(len(x.shape), axis)))


def index_fill(x, index, axis, value, name=None):
    """x with every slice along axis at the positions `index` set to value."""
    axis = axis_in_range(axis, len(x.shape), "index_fill")
    hits = api.sum(api.one_hot(index, _dim(x, axis)), [0])
    mask = _along(api.greater_than(hits, api.full_like(hits, 0)), len(x.shape), axis)
    fill = value if hasattr(value, "shape") else api.full([], value, x.dtype)
    return api.where(mask, api.cast(fill, x.dtype), x)


def _to_last(ndim, axis):
    return [a for a in range(ndim) if a != axis] + [axis]


def _from_last(ndim, axis):
    return list(range(axis)) + [ndim - 1] + list(range(axis, ndim - 1))


# ---------------------------------------------------------------- shape views

def unflatten(x, axis, shape, name=None):
    """x with dim `axis` split into `shape` (whose product must equal it; one -1 is
    inferred)."""
    axis = axis_in_range(axis, len(x.shape), "unflatten")
    shape = [int(s) for s in (shape.numpy() if hasattr(shape, "numpy") else shape)]
    known = int(np.prod([s for s in shape if s != -1]))
    size = x.shape[axis]
    if size >= 0 and (shape.count(-1) > 1 or (-1 not in shape and known != size)
                      or (-1 in shape and (known == 0 or size % known))):
        raise ValueError(f"unflatten: shape {shape} does not split dim {axis} of size {size}")
    # 0 copies x's dim at the same position, so only the leading dims may use it
    return api.reshape(x, [0] * axis + shape + list(x.shape[axis + 1:]))


@sizes_as_list("shape_or_dtype")
def view(x, shape_or_dtype=None, name=None, dtype=None):
    """x with a new shape (a list or tuple, as reshape) or, given a dtype, x's bytes
    reinterpreted as that dtype (eager only; the last dim scales by the size ratio)."""
    shape_or_dtype = dtype if shape_or_dtype is None else shape_or_dtype
    if isinstance(shape_or_dtype, (list, tuple)) or hasattr(shape_or_dtype, "shape"):
        return reshape(x, shape_or_dtype)
    from .creation import to_tensor
    if current_mode().is_static:
        raise NotImplementedError("view(x, dtype) reinterprets memory and works eagerly only")
    return to_tensor(x.numpy().view(dtypes.to_dtype(shape_or_dtype).np))


@sizes_as_list("shape")
def expand(x, shape, name=None):
    """x broadcast to `shape` (-1 keeps a dim); sizes may also be passed one by one, and
    may be static Variables (sizes known only at run time)."""
    if has_symbolic_size(shape):
        return _broadcast_at_run_time(x, size_tensor(_kept_sizes(x, shape)))
    return api.expand(x, shape)


def _is_keep(size):
    """True for expand's -1 (keep x's size): a Python int, not a run-time size."""
    return isinstance(size, numbers.Integral) and size == -1


def _size_of(x, axis):
    """x's size along axis: an int when known while building, else a 0-d run-time tensor."""
    size = x.shape[axis]
    return size if size >= 0 else api.shape(x)[axis]


def _kept_sizes(x, shape):
    """expand's target sizes with each -1 replaced by x's size (aligned from the right)."""
    lead = len(shape) - len(x.shape)
    return [_size_of(x, i - lead) if _is_keep(s) else s for i, s in enumerate(shape)]


def _broadcast_at_run_time(x, sizes):
    """x broadcast to the sizes held by the 1-D int64 tensor `sizes`: x plus zeros of those
    sizes (the add's gradient sums back to x's shape)."""
    zeros = api.full_dynamic(sizes, 0, x.dtype)
    if x.dtype == dtypes.bool_:
        return api.logical_or(x, zeros)
    return api.add(x, zeros)


@sizes_as_list("repeat_times")
def tile(x, repeat_times, name=None):
    """x repeated `repeat_times[i]` times along each dim; counts may be passed one by one,
    and may be static Variables (counts known only at run time)."""
    if has_symbolic_size(repeat_times):
        return _tile_at_run_time(x, list(repeat_times))
    return api.tile(x, repeat_times)


def _tile_at_run_time(x, repeats):
    """tile with run-time counts: a size-1 dim before each dim of x, broadcast to the
    counts, then each (count, size) pair merged into one dim."""
    rank = max(len(repeats), len(x.shape))
    repeats = [1] * (rank - len(repeats)) + repeats
    if rank > len(x.shape):
        x = api.unsqueeze(x, list(range(rank - len(x.shape))))
    spread = api.unsqueeze(x, [2 * i for i in range(rank)])
    pairs = [size for count in repeats for size in (count, -1)]
    tiled = expand(spread, pairs)
    return api.reshape_dynamic(tiled, size_tensor(repeats) * api.shape(x))


def view_as(x, other, name=None):
    """x reshaped to other's shape."""
    return api.reshape(x, list(other.shape))


def unfold(x, axis, size, step, name=None):
    """Windows of `size` elements taken every `step` along axis: that dim becomes the
    window count and a new last dim of length size holds each window."""
    axis = axis_in_range(axis, len(x.shape), "unfold")
    length = x.shape[axis] if x.shape else 1
    if size < 0 or size > length or step <= 0:
        raise ValueError(f"unfold: need 0 <= size <= {length} and step > 0 along axis {axis},"
                         f" got size={size}, step={step}")
    starts = np.arange(0, length - size + 1, step)
    index = (starts[:, None] + np.arange(size)[None, :]).reshape(-1)
    from .creation import to_tensor
    picked = api.index_select(x if x.shape else api.reshape(x, [1]), to_tensor(index), axis)
    shape = list(x.shape[:axis]) + [len(starts), size] + list(x.shape[axis + 1:])
    windows = api.reshape(picked, shape)
    perm = [d for d in range(len(shape)) if d != axis + 1] + [axis + 1]
    return api.transpose(windows, perm)


# These two shadow the builtin `slice` in this module: use builtins.slice here if needed.
def slice(input, axes, starts, ends, name=None):  # noqa: A001,A002 - Paddle's names
    """input[starts:ends] along each of axes; a bound may be a static Variable, read when
    the Program runs (as an attribute it would have stood for -1, the last index)."""
    if has_symbolic_size(starts) or has_symbolic_size(ends):
        return _slice_at_run_time(input, axes, starts, ends, [1] * len(axes))
    return api.slice(input, axes, starts, ends)


def strided_slice(x, axes, starts, ends, strides, name=None):
    """x[starts:ends:strides] along each of axes; bounds may be static Variables, as in slice."""
    if has_symbolic_size(starts) or has_symbolic_size(ends):
        return _slice_at_run_time(x, axes, starts, ends, strides)
    return api.strided_slice(x, axes, starts, ends, strides)


def _slice_at_run_time(x, axes, starts, ends, strides):
    """x sliced axis by axis with bounds known only when the Program runs."""
    for axis, start, end, step in zip(axes, starts, ends, strides):
        x = take_range(x, int(axis), start, end, int(step))
    return x

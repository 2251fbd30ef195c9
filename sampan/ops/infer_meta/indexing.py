"""Shape/dtype rules of the indexing ops (slice, gather, scatter, masks, getitem/setitem)."""
from ...core.dtype import bool_, int32, int64
from ...core.errors import InvalidArgument
from ..meta import MetaTensor
from .elementwise import broadcast_shapes
from .manipulation import _axis, _distinct_axes, _merge_dim

__all__ = ["slice_axes", "strided_slice", "gather", "index_select", "gather_nd", "scatter",
           "scatter_nd_add", "scatter_nd_add_grad", "masked_fill", "masked_select", "getitem",
           "setitem"]


def _int_index(index, arg="index"):
    """Refuse an index tensor that is not int32/int64."""
    if index.dtype is not int64 and index.dtype is not int32:
        raise InvalidArgument(arg, f"expects an int32 or int64 tensor, got {index.dtype.name}",
                              "dtype")


def _bool_mask(mask, arg="mask"):
    """Refuse a mask tensor that is not bool."""
    if mask.dtype is not bool_:
        raise InvalidArgument(arg, f"expects a bool tensor, got {mask.dtype.name}", "dtype")


def _check_fits(got, expected, arg, what):
    """Refuse a shape that does not match `expected` (-1 matches anything)."""
    if len(got) != len(expected) or None in map(_merge_dim, got, expected):
        raise InvalidArgument(arg, f"has shape {list(got)} but {what} requires "
                                   f"{list(expected)}")


def _sliced_dim(dim, start, stop, step):
    """Length of Python's dim[start:stop:step] (out-of-range bounds clamp), -1 if unknown."""
    return -1 if dim == -1 else len(range(*slice(start, stop, step).indices(dim)))


def _sliced(x, axes, starts, ends, strides):
    """Meta of x sliced along `axes` with Python slice semantics."""
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise InvalidArgument("axes", f"axes {list(axes)}, starts {list(starts)} and ends "
                                      f"{list(ends)} (and strides) need one entry per axis")
    if 0 in strides:
        raise InvalidArgument("strides", f"strides must not be 0, got {list(strides)}")
    shape = list(x.shape)
    for axis, start, stop, step in zip(_distinct_axes(axes, x.ndim, "axes"), starts, ends,
                                       strides):
        shape[axis] = _sliced_dim(shape[axis], start, stop, step)
    return MetaTensor(shape, x.dtype)


def slice_axes(input, axes, starts, ends):
    """Paddle slice: negative bounds count from the end, out-of-range bounds clamp."""
    return _sliced(input, axes, starts, ends, (1,) * len(axes))


def strided_slice(x, axes, starts, ends, strides):
    """Paddle strided_slice: Python slicing with a step per axis."""
    return _sliced(x, axes, starts, ends, strides)


def _gathered_dims(index, allow_0d):
    """Dims a gather index puts in place of the axis: () for 0-D, (n,) for [n] or [n, 1]."""
    _int_index(index)
    shape = index.shape
    if len(shape) == 1 or (allow_0d and not shape):
        return shape
    if len(shape) == 2 and shape[1] in (1, -1):
        return shape[:1]
    raise InvalidArgument("index", f"expects a {'0-D or ' if allow_0d else ''}1-D index "
                                   f"(or [n, 1]), got shape {list(shape)}")


def _take(x, index, axis, allow_0d):
    """Meta of x with the dim at `axis` replaced by the index's dims."""
    at = _axis(axis, x.ndim)
    dims = _gathered_dims(index, allow_0d)
    return MetaTensor(x.shape[:at] + dims + x.shape[at + 1:], x.dtype)


def gather(x, index, axis):
    """x's slices at `index` along `axis`; a 0-D index drops the axis."""
    return _take(x, index, axis, True)


def index_select(x, index, axis):
    """x's slices at a 1-D `index` along `axis`."""
    return _take(x, index, axis, False)


def _nd_depth(x, index):
    """How many leading dims of x the last dim of an N-D index addresses."""
    _int_index(index)
    depth = index.shape[-1] if index.ndim else 0
    if not 1 <= depth <= x.ndim:
        raise InvalidArgument("index", f"index of shape {list(index.shape)} must end in a known "
                                       f"dim in [1, {x.ndim}] to address x of shape "
                                       f"{list(x.shape)}")
    return depth


def gather_nd(x, index):
    """x at the coordinates in index's last dim: index.shape[:-1] + x.shape[depth:]."""
    depth = _nd_depth(x, index)
    return MetaTensor(index.shape[:-1] + x.shape[depth:], x.dtype)


def _same_dtype_as_x(x, updates):
    """Refuse updates whose dtype differs from x's."""
    if updates.dtype is not x.dtype:
        raise InvalidArgument("updates", f"dtype {updates.dtype.name} differs from x's "
                                         f"{x.dtype.name}", "dtype")


def scatter(x, index, updates, overwrite):
    """Like x; updates must be index.shape (0-D or [n]) + x.shape[1:]."""
    if not x.ndim:
        raise InvalidArgument("x", "scatter needs a tensor of at least 1 dim, got a 0-D tensor")
    _same_dtype_as_x(x, updates)
    expected = _gathered_dims(index, True) + x.shape[1:]
    _check_fits(updates.shape, expected, "updates", f"an index of shape {list(index.shape)} "
                                                    f"into x of shape {list(x.shape)}")
    return MetaTensor(x.shape, x.dtype)


def scatter_nd_add(x, index, updates):
    """Like x; updates must be index.shape[:-1] + x.shape[depth:]."""
    _same_dtype_as_x(x, updates)
    expected = gather_nd(x, index).shape
    _check_fits(updates.shape, expected, "updates", f"an index of shape {list(index.shape)} "
                                                    f"into x of shape {list(x.shape)}")
    return MetaTensor(x.shape, x.dtype)


def scatter_nd_add_grad(index, out_grad):
    """x_grad like out_grad, updates_grad gathered from it."""
    return MetaTensor(out_grad.shape, out_grad.dtype), gather_nd(out_grad, index)


def masked_fill(x, mask, value):
    """x and mask broadcast; value must hold one element."""
    _bool_mask(mask)
    if any(d not in (1, -1) for d in value.shape):
        raise InvalidArgument("value", f"expects a single value, got shape {list(value.shape)}")
    return MetaTensor(broadcast_shapes(x.shape, mask.shape, "mask"), x.dtype)


def masked_select(x, mask):
    """1-D, as many elements as the (broadcast) mask selects: unknown until run."""
    _bool_mask(mask)
    broadcast_shapes(x.shape, mask.shape, "mask")
    return MetaTensor((-1,), x.dtype)


def _index_items(index, indices):
    """Pair each index spec item with its tensor meta (None for the others), checking dtypes."""
    tensors = iter(indices)
    items = []
    for item in index:
        kind = item[0]
        if kind == "tensor":
            meta = next(tensors, None)
            if meta is None:
                raise InvalidArgument("indices", f"index {list(index)} takes more tensors "
                                                 f"than the {len(indices)} given")
            if meta.dtype is not bool_ and not meta.dtype.is_integer:
                raise InvalidArgument("indices", f"index tensors must be integer or bool, "
                                                 f"got {meta.dtype.name}", "dtype")
            items.append((kind, item, meta))
        elif kind in ("slice", "int", "none", "ellipsis"):
            items.append((kind, item, None))
        else:
            raise InvalidArgument("index", f"unknown index item {item!r}")
    return items


def _dims_used(kind, meta):
    """How many dims of x an index item consumes."""
    if kind == "tensor":
        return meta.ndim if meta.dtype is bool_ else 1
    return 1 if kind in ("slice", "int", "full") else 0


def _expand_ellipsis(items, ndim):
    """Items with full slices for the dims the ellipsis (explicit or implied at the end) spans.

    The ellipsis item itself stays: even when it spans no dim it separates advanced indexes.
    """
    used = sum(_dims_used(kind, meta) for kind, _, meta in items)
    ellipses = [i for i, (kind, _, _) in enumerate(items) if kind == "ellipsis"]
    if len(ellipses) > 1 or used > ndim:
        raise InvalidArgument("index", f"too many indices ({used} dims, "
                                       f"{len(ellipses)} ellipses) for a {ndim}-D tensor")
    at = ellipses[0] + 1 if ellipses else len(items)
    return items[:at] + [("full", None, None)] * (ndim - used) + items[at:]


def _int_in_range(value, dim, axis):
    """Refuse an integer index outside [-dim, dim) of a known dim."""
    if dim != -1 and not -dim <= value < dim:
        raise InvalidArgument("index", f"index {value} is out of range for axis {axis} "
                                       f"of size {dim}", kind="index")


def _advanced_shape(meta, dims):
    """Broadcast contribution of one advanced index: its shape, or (-1,) for a bool mask."""
    if meta.dtype is not bool_:
        return meta.shape
    _check_fits(meta.shape, dims, "indices", f"a mask over dims of size {list(dims)}")
    return (-1,)


def _getitem_shape(shape, index, indices):
    """Shape of x[index] by NumPy's basic and advanced indexing rules (-1 where unknown)."""
    items = _index_items(index, indices)
    has_tensor = any(kind == "tensor" for kind, _, _ in items)
    advanced, out, adv_items, adv_at, dim = [], [], [], None, 0
    for pos, (kind, item, meta) in enumerate(_expand_ellipsis(items, len(shape))):
        used = _dims_used(kind, meta)
        if kind == "int":
            _int_in_range(item[1], shape[dim], dim)
        if kind == "tensor" or (kind == "int" and has_tensor):
            adv_at = len(out) if adv_at is None else adv_at
            adv_items.append(pos)
            advanced.append(() if kind == "int" else _advanced_shape(meta, shape[dim:dim + used]))
        elif kind == "slice":
            out.append(_sliced_dim(shape[dim], *item[1:4]))
        elif kind == "none":
            out.append(1)
        elif kind == "full":
            out.append(shape[dim])
        dim += used
    if not advanced:
        return tuple(out)
    adv_shape = ()
    for part in advanced:
        adv_shape = broadcast_shapes(adv_shape, part, "indices", "another index")
    if adv_items[-1] - adv_items[0] != len(adv_items) - 1:
        adv_at = 0
    return tuple(out[:adv_at]) + adv_shape + tuple(out[adv_at:])


def getitem(x, indices, index):
    """x[index] for a JSON index spec (slices, ints, None, Ellipsis, int or bool tensors)."""
    return MetaTensor(_getitem_shape(x.shape, index, indices), x.dtype)


def setitem(x, value, indices, index):
    """Like x; value must broadcast to the shape of x[index]."""
    target = _getitem_shape(x.shape, index, indices)
    if not _assignable(value.shape, target):
        raise InvalidArgument("value", f"shape {list(value.shape)} cannot be assigned to "
                                       f"x[index] of shape {list(target)}")
    return MetaTensor(x.shape, x.dtype)


def _assignable(value_shape, target):
    """True when a value of value_shape broadcasts to target without changing it."""
    extra = value_shape[:max(len(value_shape) - len(target), 0)]
    if any(d not in (1, -1) for d in extra):
        return False
    return all(v in (1, -1, t) or t == -1 for v, t in zip(value_shape[::-1], target[::-1]))

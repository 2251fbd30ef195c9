"""Reading and writing through flat positions: take, masked_scatter, the *_scatter family
(select, slice, diagonal) and index_put.

The *_scatter functions embed `value` at the positions a view of x would cover. Those
positions depend only on x's shape, so they are found with NumPy on an array of flat
indices (np.take, basic slicing, np.diagonal: the same views Paddle's index, slice and
diagonal produce) and applied as gather + where, which keeps gradients for x and value.
"""
import numpy as np

from ..core.dispatch import current_mode
from ..ops._generated import api
from .creation import to_tensor

__all__ = ["take", "masked_scatter", "select_scatter", "slice_scatter", "diagonal_scatter",
           "index_put"]


def _check_index_range(index, size):
    """Eagerly refuse indices outside [-size, size) (mode 'raise')."""
    if current_mode().is_static:
        return
    values = index.numpy()
    if values.size and (values.min() < -size or values.max() >= size):
        raise IndexError(f"take: indices must be in [{-size}, {size}) for x with {size} "
                         f"elements, got values in [{values.min()}, {values.max()}]")


def take(x, index, mode="raise", name=None):
    """Elements of the flattened x at `index` (shaped like index). Out-of-range indices
    raise ('raise', negatives count from the end), wrap around ('wrap') or are clipped to
    [0, size - 1] ('clip')."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    if index.dtype.np.kind not in "iu":
        raise TypeError(f"take: index must be int32 or int64, got {index.dtype}")
    flat = api.reshape(x, [-1])
    size = flat.shape[0]
    if mode == "raise":
        _check_index_range(index, size)
        index = api.where(api.less_than(index, api.full_like(index, 0)),
                          api.scale(index, 1.0, float(size)), index)
    elif mode == "wrap":
        index = api.remainder(index, api.full_like(index, size))
    else:
        index = api.clip(index, 0, size - 1)
    return api.reshape(api.gather(flat, api.reshape(index, [-1]), 0), list(index.shape))


def masked_scatter(x, mask, value, name=None):
    """x with the positions where mask (broadcast to x) is True filled, in row-major
    order, by consecutive elements of value."""
    mask = api.expand(mask, list(x.shape)) if list(mask.shape) != list(x.shape) else mask
    flat_mask = api.reshape(mask, [-1])
    if not current_mode().is_static:
        needed = int(flat_mask.numpy().sum())
        if needed > int(np.prod(value.shape)):
            raise ValueError(f"masked_scatter: mask selects {needed} elements but value "
                             f"{value.shape} has only {int(np.prod(value.shape))}")
    order = api.cumsum(api.cast(flat_mask, "int64"), 0)
    source = api.clip(api.scale(order, 1.0, -1.0), 0, None)
    picked = api.gather(api.reshape(value, [-1]), source, 0)
    return api.where(mask, api.reshape(picked, list(x.shape)), x)


def _embed(x, value, positions, fn):
    """x with `value` written at the flat `positions` (an array shaped like the view);
    `value` broadcasts to that shape, as in Paddle."""
    if list(positions.shape) != list(value.shape):
        try:
            np.broadcast_shapes(tuple(value.shape), positions.shape)
        except ValueError:
            raise ValueError(f"{fn}: value of shape {value.shape} does not broadcast to "
                             f"{list(positions.shape)} (the selected part of x "
                             f"{x.shape})") from None
        value = api.expand(value, list(positions.shape))
    size = int(np.prod(x.shape))
    source = np.zeros(size, np.int64)
    source[positions.reshape(-1)] = np.arange(positions.size)
    hit = np.zeros(size, bool)
    hit[positions.reshape(-1)] = True
    if value.dtype is not x.dtype:
        value = api.cast(value, x.dtype)
    picked = api.gather(api.reshape(value, [-1]), to_tensor(source), 0)
    return api.where(to_tensor(hit.reshape(x.shape)), api.reshape(picked, list(x.shape)), x)


def _flat_positions(x):
    return np.arange(int(np.prod(x.shape)), dtype=np.int64).reshape(x.shape)


def select_scatter(x, values, axis, index, name=None):
    """x with its slice at `index` along axis replaced by values (x's shape without axis)."""
    return _embed(x, values, np.take(_flat_positions(x), index, axis), "select_scatter")


def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """x with the strided slice (axes, starts, ends, strides) replaced by value."""
    window = [slice(None)] * len(x.shape)
    for axis, start, end, stride in zip(axes, starts, ends, strides):
        window[axis] = slice(start, end, stride)
    return _embed(x, value, _flat_positions(x)[tuple(window)], "slice_scatter")


def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """x with diagonal `offset` of its (axis1, axis2) planes replaced by y (laid out like
    paddle.diagonal's result: the diagonal on the last axis)."""
    positions = np.diagonal(_flat_positions(x), offset, axis1, axis2)
    return _embed(x, y, positions, "diagonal_scatter")


def _check_indices(x, indices):
    """indices: a non-empty tuple of int or bool tensors indexing x's leading dims."""
    if not isinstance(indices, (list, tuple)) or not indices:
        raise TypeError(f"index_put: indices must be a non-empty tuple of tensors, got "
                        f"{type(indices).__name__}")
    dims = sum(len(i.shape) if i.dtype.np.kind == "b" else 1 for i in indices)
    if dims > len(x.shape):
        raise IndexError(f"index_put: {len(indices)} index tensors address {dims} dims of "
                         f"x with shape {x.shape}")
    for i in indices:
        if i.dtype.np.kind not in "biu":
            raise TypeError(f"index_put: index tensors must be int32, int64 or bool, got "
                            f"{i.dtype.name}")


def _coordinates(x, indices):
    """[..., k] int64 coordinates of the elements indices select (bool masks expanded to
    the coordinates of their True entries, negative ints counted from the end)."""
    columns = []
    for i in indices:
        if i.dtype.np.kind == "b":
            found = api.nonzero(i)
            columns.extend(found[:, d] for d in range(len(i.shape)))
        else:
            columns.append(api.cast(i, "int64"))
    shape = list(np.broadcast_shapes(*[tuple(c.shape) for c in columns]))
    fixed = []
    for dim, c in enumerate(columns):
        size = api.full_like(c, x.shape[dim])
        c = api.where(api.less_than(c, api.full_like(c, 0)), api.add(c, size), c)
        fixed.append(c if list(c.shape) == shape else api.expand(c, shape))
    return api.stack(fixed, -1)


def index_put(x, indices, value, accumulate=False, name=None):
    """A copy of x with x[indices] = value, or x[indices] += value when `accumulate` (then
    repeated positions add up). indices is a tuple of int or bool tensors indexing x's
    leading dims together (NumPy's advanced indexing); value broadcasts to the selection.

    Example: ``paddle.index_put(paddle.zeros([3, 3]), (paddle.to_tensor([0, 1]),
    paddle.to_tensor([2, 0])), paddle.to_tensor(1.0))`` sets x[0, 2] and x[1, 0].
    """
    _check_indices(x, indices)
    if not accumulate:
        return api.setitem(x, value, list(indices), (("tensor",),) * len(indices))
    coords = _coordinates(x, indices)
    target = list(coords.shape[:-1]) + list(x.shape[coords.shape[-1]:])
    value = value if value.dtype is x.dtype else api.cast(value, x.dtype)
    if list(value.shape) != target:
        value = api.expand(value, target)
    return api.scatter_nd_add(x, coords, value)

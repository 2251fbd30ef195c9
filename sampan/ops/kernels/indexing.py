"""NumPy kernels of the indexing ops (slice, gather, scatter, masks, getitem/setitem).

Gradients of ops whose indices may repeat accumulate with np.add.at.
"""
import numpy as np

from .elementwise import _sum_to

_INDEX_ITEMS = {
    "slice": lambda item, tensors: slice(item[1], item[2], item[3]),
    "int": lambda item, tensors: item[1],
    "none": lambda item, tensors: None,
    "ellipsis": lambda item, tensors: Ellipsis,
    "tensor": lambda item, tensors: next(tensors),
}


def _axis_slices(ndim, axes, starts, ends, strides):
    """Index tuple slicing `axes` by Python rules (bounds clamp, negatives count from the end)."""
    index = [slice(None)] * ndim
    for axis, start, stop, step in zip(axes, starts, ends, strides):
        index[axis] = slice(start, stop, step)
    return tuple(index)


def _scatter_into_zeros(like, index, grad):
    """Zeros shaped like `like` with `grad` written at `index` (no position repeats)."""
    out = np.zeros_like(like)
    out[index] = grad
    return out


def slice_axes(input, axes, starts, ends):
    """View of input sliced along `axes` (Paddle slice)."""
    return input[_axis_slices(input.ndim, axes, starts, ends, (None,) * len(axes))]


def slice_axes_grad(input, out_grad, axes, starts, ends):
    """out_grad placed back in the sliced region of zeros."""
    index = _axis_slices(input.ndim, axes, starts, ends, (None,) * len(axes))
    return _scatter_into_zeros(input, index, out_grad)


def strided_slice(x, axes, starts, ends, strides):
    """View of x sliced along `axes` with a step each."""
    return x[_axis_slices(x.ndim, axes, starts, ends, strides)]


def strided_slice_grad(x, out_grad, axes, starts, ends, strides):
    """out_grad placed back at the strided positions of zeros."""
    return _scatter_into_zeros(x, _axis_slices(x.ndim, axes, starts, ends, strides), out_grad)


def _flat_gather_index(index):
    """An [n, 1] gather index read as [n] (Paddle accepts both)."""
    return index.reshape(-1) if index.ndim == 2 else index


def gather(x, index, axis):
    """x's slices at `index` along `axis` (gather and index_select)."""
    return np.take(x, _flat_gather_index(index), axis=axis)


def gather_grad(x, index, out_grad, axis):
    """out_grad summed into zeros at `index` along `axis` (repeats accumulate)."""
    grad = np.zeros_like(x)
    np.add.at(grad, (slice(None),) * (axis % x.ndim) + (_flat_gather_index(index),), out_grad)
    return grad


def _coordinates(index):
    """The tuple of per-dim index arrays held in the last dim of an N-D index."""
    return tuple(np.moveaxis(index, -1, 0))


def gather_nd(x, index):
    """x at the coordinates in index's last dim."""
    return x[_coordinates(index)]


def gather_nd_grad(x, index, out_grad):
    """out_grad summed into zeros at the coordinates (repeats accumulate)."""
    grad = np.zeros_like(x)
    np.add.at(grad, _coordinates(index), out_grad)
    return grad


def _scatter_rows(x, index, updates):
    """The 1-D row index and updates reshaped to one update row per index entry."""
    rows = index.reshape(-1)
    return rows, updates.reshape(rows.shape + x.shape[1:])


def scatter(x, index, updates, overwrite):
    """Copy of x with rows `index` set to updates (last write wins), or, with overwrite
    False, zeroed and then summed from every update aimed at them (Paddle)."""
    rows, updates = _scatter_rows(x, index, updates)
    out = x.copy()
    if overwrite:
        out[rows] = updates
    else:
        out[rows] = 0
        np.add.at(out, rows, updates)
    return out


def _last_writes(rows, size):
    """Mask of the entries of `rows` whose write survives when rows repeat (the last one)."""
    order = np.arange(rows.size)
    owner = np.empty(size, np.intp)
    owner[rows] = order
    return owner[rows] == order


def scatter_grad(index, updates, out_grad, overwrite):
    """x_grad: out_grad with the scattered rows zeroed; updates_grad: out_grad's rows at
    index (only for the surviving write of a repeated row when overwriting)."""
    rows, _ = _scatter_rows(out_grad, index, updates)
    x_grad = out_grad.copy()
    x_grad[rows] = 0
    updates_grad = out_grad[rows]
    if overwrite:
        updates_grad[~_last_writes(rows, out_grad.shape[0])] = 0
    return x_grad, updates_grad.reshape(updates.shape)


def scatter_nd_add(x, index, updates):
    """Copy of x with updates summed in at the coordinates (repeats accumulate)."""
    out = x.copy()
    np.add.at(out, _coordinates(index), updates)
    return out


def scatter_nd_add_grad(index, out_grad):
    """x_grad is out_grad itself; updates_grad gathers it at the coordinates."""
    return out_grad, out_grad[_coordinates(index)]


def masked_fill(x, mask, value):
    """x (broadcast with mask) with value where mask is true."""
    return np.where(mask, value.astype(x.dtype, copy=False).reshape(()), x)


def masked_fill_grad(x, mask, value, out_grad):
    """x_grad: out_grad where mask is false; value_grad: out_grad summed where it is true."""
    x_grad = _sum_to(np.where(mask, 0, out_grad), x.shape)
    value_grad = np.asarray(out_grad.sum(where=mask), dtype=value.dtype).reshape(value.shape)
    return x_grad, value_grad


def _broadcast_pair(x, mask):
    """x and mask broadcast to their common shape (no copies when they already agree)."""
    if x.shape == mask.shape:
        return x, mask
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape), np.broadcast_to(mask, shape)


def masked_select(x, mask):
    """1-D array of the elements of x (broadcast with mask) where mask is true."""
    x, mask = _broadcast_pair(x, mask)
    return x[mask]


def masked_select_grad(x, mask, out_grad):
    """out_grad written back at the selected positions, summed down to x's shape."""
    x_full, mask = _broadcast_pair(x, mask)
    grad = np.zeros(x_full.shape, out_grad.dtype)
    grad[mask] = out_grad
    return _sum_to(grad, x.shape)


def _index_tuple(index, indices):
    """The NumPy index tuple of a JSON index spec, taking tensors from `indices` in order."""
    tensors = iter(indices)
    return tuple(_INDEX_ITEMS[item[0]](item, tensors) for item in index)


def getitem(x, indices, index):
    """x[index] by NumPy basic and advanced indexing."""
    return np.asarray(x[_index_tuple(index, indices)])


def getitem_grad(x, indices, out_grad, index):
    """out_grad scattered back to x[index] in zeros (repeated tensor indices accumulate)."""
    where = _index_tuple(index, indices)
    if not indices:
        return _scatter_into_zeros(x, where, out_grad)
    grad = np.zeros_like(x)
    np.add.at(grad, where, out_grad)
    return grad


def setitem(x, value, indices, index):
    """Copy of x with x[index] = value (broadcast and cast to x's dtype; leading size-1
    dims of value beyond the target's rank are dropped, as Paddle does: x[3] = t[1])."""
    out = x.copy()
    where = _index_tuple(index, indices)
    value = np.asarray(value)
    extra = value.ndim - np.ndim(out[where])
    if extra > 0 and all(d == 1 for d in value.shape[:extra]):
        value = value.reshape(value.shape[extra:])
    out[where] = value
    return out


def setitem_grad(value, indices, out_grad, index):
    """x_grad: out_grad with the assigned region zeroed; value_grad: out_grad[index] summed
    down to value's shape."""
    where = _index_tuple(index, indices)
    x_grad = out_grad.copy()
    x_grad[where] = 0
    value_grad = _sum_to(np.asarray(out_grad[where]), value.shape)
    return x_grad, value_grad.astype(value.dtype, copy=False)

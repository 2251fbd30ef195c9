"""NumPy kernels of the manipulation and creation ops (reshape, concat, pad, arange, ...).

Shape-only ops return NumPy views of their input; nothing mutates arrays in place, so
sharing memory is safe.
"""
import numpy as np

from ...core.errors import InvalidArgument
from ..infer_meta.manipulation import (_flatten_shape, _pad_widths, _split_sizes,
                                       _unsqueeze_shape)
from ..infer_meta.manipulation import arange as _arange_meta
from ..infer_meta.manipulation import eye as _eye_meta
from ..infer_meta.manipulation import linspace as _linspace_meta
from .elementwise import _sum_to

_NUMPY_PAD_MODES = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def reshape(x, shape):
    """View of x with a new shape; 0 copies x's dim, -1 is inferred (Paddle)."""
    if 0 in shape:
        shape = tuple(x.shape[i] if d == 0 else d for i, d in enumerate(shape))
    return x.reshape(shape)


def reshape_grad(x, out_grad):
    """out_grad reshaped back to x's shape (the gradient of every reshape-like op)."""
    return out_grad.reshape(x.shape)


def transpose(x, perm):
    """View of x with axes permuted."""
    return x.transpose(perm)


def transpose_grad(out_grad, perm):
    """out_grad permuted back by the inverse of perm."""
    return out_grad.transpose(np.argsort([p % out_grad.ndim for p in perm]))


def squeeze(x, axis):
    """View of x without size-1 dims (all, or those of `axis`; other named dims stay)."""
    if not axis or not x.ndim:
        return x.squeeze()
    shape = x.shape
    return x.squeeze(tuple({a % x.ndim for a in axis if shape[a] == 1}))


def unsqueeze(x, axis):
    """View of x with size-1 dims inserted at `axis`, in order."""
    return x.reshape(_unsqueeze_shape(x.shape, axis))


def flatten(x, start_axis, stop_axis):
    """View of x with dims start_axis..stop_axis merged."""
    return x.reshape(_flatten_shape(x.shape, start_axis, stop_axis))


def concat(x, axis):
    """Arrays joined along `axis`."""
    return np.concatenate(x, axis=axis)


def _cut(x, sizes, axis):
    """Views of x along `axis`, one per size (basic slicing: np.split's Python layers cost
    several times more on small arrays)."""
    index = [slice(None)] * x.ndim
    axis %= x.ndim
    pieces, start = [], 0
    for size in sizes:
        index[axis] = slice(start, start + size)
        pieces.append(x[tuple(index)])
        start += size
    return pieces


def concat_grad(x, out_grad, axis):
    """out_grad cut into pieces shaped like the inputs."""
    return _cut(out_grad, [part.shape[axis % out_grad.ndim] for part in x], axis)


def stack(x, axis):
    """Arrays of one shape stacked along a new axis (np.array builds axis 0 in C)."""
    if axis == 0 and x:
        return np.array(x)
    return np.stack(x, axis=axis)


def stack_grad(x, out_grad, axis):
    """out_grad unstacked along `axis` into one piece (a view, 0-D included) per input."""
    moved = np.moveaxis(out_grad, axis, 0)
    return [moved[i, ...] for i in range(len(x))]


def split(x, sections, axis):
    """Views of x along `axis` with the given sizes (one -1 inferred)."""
    return _cut(x, _split_sizes(x.shape[axis], sections), axis)


def _expanded_shape(x_shape, shape):
    """expand's target with each -1 replaced by x's matching dim."""
    if -1 not in shape:
        return shape
    lead = len(shape) - len(x_shape)
    return tuple(x_shape[i - lead] if d == -1 else d for i, d in enumerate(shape))


def expand(x, shape):
    """Read-only broadcast view of x at `shape` (-1 keeps x's dim)."""
    return np.broadcast_to(x, _expanded_shape(x.shape, shape))


def expand_grad(x, out_grad):
    """out_grad summed over the broadcast dims."""
    return _sum_to(out_grad, x.shape)


def expand_double_grad(out_grad, x_grad_grad):
    """x_grad_grad broadcast back to out_grad's shape (expand_grad is a sum)."""
    return np.broadcast_to(x_grad_grad, out_grad.shape)


def tile(x, repeat_times):
    """x repeated along each dim (np.tile pads the shorter of shape and reps with 1s)."""
    return np.tile(x, repeat_times)


def tile_grad(x, out_grad, repeat_times):
    """out_grad summed over the tile copies: view it as (rep0, dim0, rep1, dim1, ...)."""
    ndim = out_grad.ndim
    dims = (1,) * (ndim - x.ndim) + x.shape
    reps = (1,) * (ndim - len(repeat_times)) + tuple(repeat_times)
    paired = out_grad.reshape([n for pair in zip(reps, dims) for n in pair])
    return paired.sum(axis=tuple(range(0, 2 * ndim, 2))).reshape(x.shape)


def flip(x, axis):
    """View of x reversed along `axis` (also its own gradient)."""
    return np.flip(x, axis)


def roll(x, shifts, axis):
    """x shifted circularly along `axis`; axis [] rolls the flattened tensor."""
    return np.roll(x, shifts, axis) if axis else np.roll(x, shifts[0])


def roll_grad(out_grad, shifts, axis):
    """out_grad rolled back by the opposite shifts."""
    return roll(out_grad, tuple(-s for s in shifts), axis)


def tril(x, diagonal):
    """Lower triangle of the last two dims (also its own gradient)."""
    return np.tril(x, diagonal)


def triu(x, diagonal):
    """Upper triangle of the last two dims (also its own gradient)."""
    return np.triu(x, diagonal)


def pad(x, paddings, mode, value, data_format):
    """x padded as Paddle's F.pad (dims chosen by `_pad_widths`): constant, reflect,
    replicate or circular."""
    widths = _pad_widths(x.ndim, paddings, mode, data_format)
    if mode == "constant":
        return np.pad(x, widths, constant_values=value)
    return np.pad(x, widths, mode=_NUMPY_PAD_MODES[mode])


def pad_zero_fill(x, paddings, mode, data_format):
    """pad with value 0: the gradient of pad_grad (padding is linear in x)."""
    return pad(x, paddings, mode, 0.0, data_format)


def _take_adjoint(grad, source, size, axis):
    """Adjoint of taking `source` positions along `axis`: sum grad into `size` slots."""
    moved = np.moveaxis(grad, axis, 0)
    total = np.zeros((size,) + moved.shape[1:], grad.dtype)
    np.add.at(total, source, moved)
    return np.moveaxis(total, 0, axis)


def pad_grad(x, out_grad, paddings, mode, data_format):
    """Constant: the interior of out_grad; other modes also fold the borders back onto the
    positions they copied (found by padding an arange with the same mode)."""
    widths = _pad_widths(x.ndim, paddings, mode, data_format)
    if mode == "constant":
        return out_grad[tuple(slice(b, b + n) for (b, _), n in zip(widths, x.shape))]
    grad = out_grad
    for axis, (width, size) in enumerate(zip(widths, x.shape)):
        if width != (0, 0):
            source = np.pad(np.arange(size), width, mode=_NUMPY_PAD_MODES[mode])
            grad = _take_adjoint(grad, source, size, axis)
    return grad


def one_hot(x, num_classes):
    """float32 one-hot rows for integer class ids in [0, num_classes)."""
    if x.size and (x.min() < 0 or x.max() >= num_classes):
        raise InvalidArgument("x", f"class ids must lie in [0, {num_classes}), got values in "
                                   f"[{x.min()}, {x.max()}]")
    out = np.zeros(x.shape + (num_classes,), np.float32)
    np.put_along_axis(out, x[..., None], 1.0, axis=-1)
    return out


def shape_of(input):
    """int64 vector of input's dims."""
    return np.array(input.shape, dtype=np.int64)


def numel(x):
    """int64 0-D element count."""
    return np.array(x.size, dtype=np.int64)


def arange(start, end, step, dtype):
    """start + step * i for i < ceil((end - start) / step), in the dtype infer_meta picks."""
    meta = _arange_meta(start, end, step, dtype)
    return (start + step * np.arange(meta.shape[0])).astype(meta.dtype.np, copy=False)


def linspace(start, stop, num, dtype):
    """`num` evenly spaced values from start to stop inclusive."""
    meta = _linspace_meta(start, stop, num, dtype)
    return np.linspace(start, stop, num).astype(meta.dtype.np, copy=False)


def eye(num_rows, num_columns, dtype):
    """Identity matrix (num_columns -1 means square)."""
    meta = _eye_meta(num_rows, num_columns, dtype)
    return np.eye(*meta.shape, dtype=meta.dtype.np)


def meshgrid(x):
    """Read-only "ij" grids broadcast from 0-D or 1-D inputs."""
    return list(np.meshgrid(*x, indexing="ij", copy=False))


def meshgrid_grad(x, out_grad):
    """Each grid's gradient summed over every axis but its own."""
    axes = range(len(x))
    return [grad.sum(axis=tuple(a for a in axes if a != i)).reshape(x[i].shape)
            for i, grad in enumerate(out_grad)]

"""NumPy kernels of the extra indexing ops: nonzero, unique, take/put along an axis and the
im2col / col2im pair behind nn.functional.unfold and fold."""
import numpy as np

from .elementwise import _sum_to

__all__ = ["nonzero", "unique", "take_along_axis", "take_along_axis_grad", "put_along_axis",
           "put_along_axis_grad", "im2col", "im2col_grad", "col2im", "col2im_grad"]


def nonzero(x):
    """int64 coordinates of the nonzero elements, one row each."""
    return np.argwhere(x).astype(np.int64).reshape(-1, x.ndim)


def unique(x, axis, dtype):
    """Sorted unique values (or slices), first indices, inverse indices and counts."""
    np_axis = axis[0] if axis else None
    out, index, inverse, counts = np.unique(x, True, True, True, axis=np_axis)
    ints = dtype.np
    return (out, index.astype(ints), inverse.reshape(-1).astype(ints), counts.astype(ints))


# ---------------------------------------------------------------- along an axis

def _full_index(indices, axis):
    """A fancy index picking indices[..] along `axis` and the own position elsewhere."""
    grids = list(np.ogrid[tuple(slice(n) for n in indices.shape)])
    grids[axis] = indices
    return tuple(grids)


def _spread(arr, indices, axis):
    """indices broadcast to arr's shape except along axis, negatives wrapped, and the axis."""
    axis %= arr.ndim
    shape = list(arr.shape)
    shape[axis] = indices.shape[axis]
    idx = np.broadcast_to(indices, shape)
    return np.where(idx < 0, idx + arr.shape[axis], idx), axis


def take_along_axis(arr, indices, axis):
    """arr's elements at indices along axis."""
    idx, axis = _spread(arr, indices, axis)
    return arr[_full_index(idx, axis)]


def take_along_axis_grad(arr, indices, out_grad, axis):
    """Gradient of take_along_axis: out_grad accumulated at the picked positions."""
    idx, axis = _spread(arr, indices, axis)
    grad = np.zeros_like(arr)
    np.add.at(grad, _full_index(idx, axis), out_grad)
    return grad


_REDUCERS = {"assign": None, "add": np.add, "mul": np.multiply, "multiply": np.multiply,
             "amin": np.minimum, "amax": np.maximum}


def put_along_axis(arr, indices, values, axis, reduce):
    """arr with values assigned, added or multiplied at indices along axis."""
    if reduce not in _REDUCERS:
        raise ValueError(f"put_along_axis: reduce must be one of {sorted(_REDUCERS)}, "
                         f"got {reduce!r}")
    idx, axis = _spread(arr, indices, axis)
    where = _full_index(idx, axis)
    vals = np.broadcast_to(values, idx.shape).astype(arr.dtype, copy=False)
    out = arr.copy()
    if _REDUCERS[reduce] is None:
        out[where] = vals
    else:
        _REDUCERS[reduce].at(out, where, vals)
    return out


def put_along_axis_grad(arr, indices, values, out_grad, axis, reduce):
    """Gradients of put_along_axis for reduce "assign" (written cells lose theirs) or "add"."""
    if reduce not in ("assign", "add"):
        raise NotImplementedError(f"put_along_axis has no gradient for reduce={reduce!r}")
    idx, axis = _spread(arr, indices, axis)
    where = _full_index(idx, axis)
    arr_grad = out_grad.copy()
    if reduce == "assign":
        arr_grad[where] = 0
    values_grad = _sum_to(out_grad[where], values.shape)
    return arr_grad, values_grad.astype(values.dtype, copy=False)


# ---------------------------------------------------------------- im2col / col2im

def _windows(hw, kernel_sizes, strides, paddings, dilations):
    """Output grid (oh, ow) of the sliding windows over a padded image of size hw."""
    top, left, bottom, right = paddings
    sizes = (hw[0] + top + bottom, hw[1] + left + right)
    return tuple((s - (d * (k - 1) + 1)) // st + 1
                 for s, k, st, d in zip(sizes, kernel_sizes, strides, dilations))


def _blocks(kernel_sizes, strides, dilations, grid):
    """(i, j, slice pair) of every kernel offset: the padded-image cells it visits."""
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = kernel_sizes, strides, dilations, grid
    for i in range(kh):
        for j in range(kw):
            yield i, j, (slice(i * dh, i * dh + sh * (oh - 1) + 1, sh),
                         slice(j * dw, j * dw + sw * (ow - 1) + 1, sw))


def im2col(x, kernel_sizes, strides, paddings, dilations):
    """Columns [N, C*kh*kw, oh*ow] of the kernel-sized blocks of the padded NCHW x."""
    n, c, h, w = x.shape
    top, left, bottom, right = paddings
    padded = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    grid = _windows((h, w), kernel_sizes, strides, paddings, dilations)
    cols = np.empty((n, c) + tuple(kernel_sizes) + grid, x.dtype)
    for i, j, (rows, columns) in _blocks(kernel_sizes, strides, dilations, grid):
        cols[:, :, i, j] = padded[:, :, rows, columns]
    return cols.reshape(n, c * kernel_sizes[0] * kernel_sizes[1], grid[0] * grid[1])


def col2im(x, output_sizes, kernel_sizes, strides, paddings, dilations):
    """Columns [N, C*kh*kw, L] summed into the NCHW image of output_sizes (im2col's adjoint)."""
    kh, kw = kernel_sizes
    h, w = output_sizes
    top, left, bottom, right = paddings
    grid = _windows((h, w), kernel_sizes, strides, paddings, dilations)
    n, c = x.shape[0], x.shape[1] // (kh * kw)
    cols = x.reshape((n, c, kh, kw) + grid)
    padded = np.zeros((n, c, h + top + bottom, w + left + right), x.dtype)
    for i, j, (rows, columns) in _blocks(kernel_sizes, strides, dilations, grid):
        padded[:, :, rows, columns] += cols[:, :, i, j]
    return padded[:, :, top:top + h, left:left + w].copy()


def im2col_grad(x, out_grad, kernel_sizes, strides, paddings, dilations):
    """Gradient of im2col: col2im of out_grad."""
    return col2im(out_grad, x.shape[2:], kernel_sizes, strides, paddings, dilations)


def col2im_grad(x, out_grad, kernel_sizes, strides, paddings, dilations):
    """Gradient of col2im: im2col of out_grad."""
    return im2col(out_grad, kernel_sizes, strides, paddings, dilations)

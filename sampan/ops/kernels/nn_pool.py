"""Pooling kernels over 2 or 3 spatial dims (the pool2d / pool3d ops, max pooling with
indices, max unpooling) with Paddle's padding, ceil and adaptive rules.

Average pooling (every variant) is a product with small [out, in] averaging matrices, one
per spatial axis; global averages are one matrix-vector product. Max pooling of small regular windows is separable: the maximum along
the last axis of each window row, then of those along the previous axis, and so on, each
a loop over that axis's taps (strided slices of the -inf padded input), so a 2x2 window
costs two whole-array operations; its gradient runs the same passes backwards. Adaptive
and large windows, and max pooling with indices, are gathered through per-axis tap tables
(the input index each window reads at each tap) and reduced at once.
"""
import math

import numpy as np

from ..infer_meta.nn_geometry import adaptive_bounds, channel_last, pool_geometry

__all__ = ["pool", "pool_grad", "max_pool_with_index", "max_pool_with_index_grad", "unpool",
           "unpool_grad"]

TAP_LOOP_LIMIT = 25
"""Regular windows with at most this many taps are max-pooled axis by axis, tap by tap."""


def _to_nchw(x, data_format):
    """A view of x with channels first (NCHW / NCDHW)."""
    return np.moveaxis(x, -1, 1) if channel_last(data_format) else x


def _from_nchw(x, data_format):
    """A channels-first result in the caller's layout, contiguous."""
    return np.ascontiguousarray(np.moveaxis(x, 1, -1) if channel_last(data_format) else x)


def _axis_bounds(size, out, kernel, stride, pad, adaptive):
    """Per window on one axis: (start, end) clipped to the input, and Paddle's divisor extent
    for non-exclusive averaging (the window clipped to [-pad, size + pad))."""
    positions = np.arange(out)
    if adaptive:
        starts, ends = adaptive_bounds(positions, size, out)
        return starts, ends, ends - starts
    starts = positions * stride - pad
    extent = np.minimum(starts + kernel, size + pad) - starts
    return np.maximum(starts, 0), np.minimum(starts + kernel, size), extent


def _apply_per_axis(x, mats):
    """x with matrix mats[i] ([out, in]) applied along spatial axis i of a channels-first
    array: one matmul per axis (in 2-D, left @ image @ right.T for every image)."""
    # explicit sizes throughout (no -1), so an empty batch reshapes too
    *lead, last = x.shape
    x = (x.reshape(int(np.prod(lead)), last) @ mats[-1].T).reshape(*lead, mats[-1].shape[0])
    for axis in range(x.ndim - 2, 1, -1):
        shape = x.shape
        flat = x.reshape(int(np.prod(shape[:axis])), shape[axis], int(np.prod(shape[axis + 1:])))
        x = (mats[axis - 2] @ flat).reshape(shape[:axis] + (mats[axis - 2].shape[0],)
                                            + shape[axis + 1:])
    return x


def _spatial_mean(x):
    """Mean over the spatial axes of a channels-first float array, kept as size-1 axes: one
    matrix-vector product with ones in whichever memory order x has (channels-last memory
    included), over ten times faster than np.mean over trailing axes."""
    n, c = x.shape[:2]
    size = math.prod(x.shape[2:])
    ones = np.ones(size, x.dtype)
    last = x.transpose(0, *range(2, x.ndim), 1)  # channels-last view
    if last.flags.c_contiguous:
        sums = ones @ last.reshape(n, size, c)
    else:
        sums = x.reshape(n, c, size) @ ones
    sums /= size
    return sums.reshape(n, c, *(1,) * (x.ndim - 2))


class _Windows:
    """The pooling windows of one pooling call on a channels-first input."""

    def __init__(self, shape_nchw, kernel_size, strides, paddings, ceil_mode, global_pooling,
                 adaptive, padding_algorithm):
        self.in_hw = shape_nchw[2:]
        self.kernel_hw, self.pads, self.out_hw = pool_geometry(
            self.in_hw, kernel_size, strides, paddings, padding_algorithm, ceil_mode,
            global_pooling, adaptive)
        self.strides = strides
        self.adaptive = adaptive
        self.nd = len(self.in_hw)
        self.bounds = [_axis_bounds(self.in_hw[i], self.out_hw[i], self.kernel_hw[i], strides[i],
                                    self.pads[2 * i], adaptive) for i in range(self.nd)]

    def averaging_matrices(self, exclusive, dtype):
        """[out, in] matrices, one per axis, whose product along each axis is the average
        (in 2-D, avg_pool(x) = A_h @ x @ A_w.T per image)."""
        mats = []
        for (starts, ends, extent), size in zip(self.bounds, self.in_hw):
            divisor = ends - starts if exclusive or self.adaptive else extent
            inside = (np.arange(size) >= starts[:, None]) & (np.arange(size) < ends[:, None])
            mats.append((inside / np.maximum(divisor, 1)[:, None]).astype(dtype))
        return mats

    def padding(self):
        """(before, after) per axis, flat, that puts every tap of every window inside."""
        if self.adaptive:
            return (0,) * (2 * self.nd)
        pads = []
        for i, (o, s, k) in enumerate(zip(self.out_hw, self.strides, self.kernel_hw)):
            before = self.pads[2 * i]
            pads += [before, max((o - 1) * s + k - self.in_hw[i] - before, 0)]
        return tuple(pads)

    def padded(self, x, fill):
        """x padded by padding() with `fill` (x itself when no padding is needed)."""
        pads = self.padding()
        if not any(pads):
            return x
        sizes = tuple(size + pads[2 * i] + pads[2 * i + 1] for i, size in enumerate(self.in_hw))
        out = np.full(x.shape[:2] + sizes, fill, x.dtype)
        out[self._inner(pads)] = x
        return out

    def _inner(self, pads):
        """Index of the input region of a padded() array."""
        return (slice(None),) * 2 + tuple(slice(pads[2 * i], pads[2 * i] + size)
                                          for i, size in enumerate(self.in_hw))

    def tap_table(self, axis):
        """[out, taps] index (in padded() coordinates) each window reads at each tap; an
        adaptive window shorter than the table repeats its last index, which changes
        neither its maximum nor the first position of that maximum."""
        if not self.adaptive:
            starts = np.arange(self.out_hw[axis]) * self.strides[axis]
            return starts[:, None] + np.arange(self.kernel_hw[axis])
        starts, ends, _ = self.bounds[axis]
        taps = int((ends - starts).max())
        return np.minimum(starts[:, None] + np.arange(taps), ends[:, None] - 1)

    def loops_over_taps(self):
        """True when max pooling goes tap by tap: regular windows of few taps."""
        return not self.adaptive and int(np.prod(self.kernel_hw)) <= TAP_LOOP_LIMIT

    def axis_taps(self, axis):
        """Index (a strided slice of a channels-first array's spatial axis) of every tap of
        the regular windows along that axis, in tap order."""
        kernel, count, stride = (self.kernel_hw[axis - 2], self.out_hw[axis - 2],
                                 self.strides[axis - 2])
        lead = (slice(None),) * axis
        return [lead + (slice(t, t + (count - 1) * stride + 1, stride),) for t in range(kernel)]

    def tiles(self, axis, size):
        """True when the windows along `axis` cover an array of that size exactly once."""
        i = axis - 2
        return self.strides[i] == self.kernel_hw[i] and self.out_hw[i] * self.strides[i] == size

    def gather(self, xp):
        """All windows of a padded() array: [N, C, *out, taps] in row-major tap order."""
        index = []
        for i in range(self.nd):
            table = self.tap_table(i)
            shape = [1] * (2 * self.nd)
            shape[i], shape[self.nd + i] = table.shape
            index.append(table.reshape(shape))
        windows = xp[(slice(None),) * 2 + tuple(index)]
        return windows.reshape(windows.shape[:2 + self.nd]
                               + (int(np.prod(windows.shape[2 + self.nd:])),))

    def tap_position(self, tap):
        """Spatial index (padded() coordinates), per axis, of tap number tap[n, c, *out] of
        each window."""
        tables = [self.tap_table(i) for i in range(self.nd)]
        per_axis = np.unravel_index(tap, [t.shape[1] for t in tables])
        position = []
        for i, (table, taps) in enumerate(zip(tables, per_axis)):
            shape = [1] * tap.ndim
            shape[2 + i] = -1
            position.append(table[np.arange(table.shape[0]).reshape(shape), taps])
        return position

    def crop(self, xp):
        """The input region of a padded() array."""
        return xp[self._inner(self.padding())]


def _max_along(a, axis, windows):
    """Maxima of the regular windows along one spatial axis of an NCHW array (copied)."""
    taps = windows.axis_taps(axis)
    if len(taps) == 1:
        return a[taps[0]].copy()
    out = np.maximum(a[taps[0]], a[taps[1]])
    for index in taps[2:]:
        np.maximum(out, a[index], out=out)
    return out


def _max_grad_along(a, m, m_grad, axis, windows):
    """Gradient with respect to a of m = _max_along(a, axis): each window's gradient goes to
    its first tap equal to the maximum. Windows that tile the axis write their taps'
    shares straight into the result; overlapping ones add them up."""
    taps = windows.axis_taps(axis)
    if windows.tiles(axis, a.shape[axis]):
        grad = np.empty(a.shape, m_grad.dtype)
        _split_by_first_max(a, m, m_grad, taps, [grad[index] for index in taps])
        return grad
    grad = np.zeros(a.shape, m_grad.dtype)
    shares = np.empty((len(taps),) + m_grad.shape, m_grad.dtype)
    _split_by_first_max(a, m, m_grad, taps, shares)
    for index, share in zip(taps, shares):
        grad[index] += share
    return grad


def _split_by_first_max(a, m, m_grad, taps, shares):
    """Fill shares[t] with the part of m_grad whose window has its first maximum at tap t
    (what no earlier tap keeps passes on; the last tap keeps the rest)."""
    remaining = m_grad
    if len(taps) == 1:
        shares[0][...] = m_grad
    for t, index in enumerate(taps[:-1]):
        # compare a contiguous copy: numpy compares strided float slices ~3x slower
        missed = np.ascontiguousarray(a[index]) != m
        np.multiply(remaining, missed, out=shares[t + 1])
        np.subtract(remaining, shares[t + 1], out=shares[t])
        remaining = shares[t + 1]


def _partial_maxima(xp, windows, last=None):
    """[xp, max along the last axis, then along the one before, ...]: one entry per pass;
    `last`, when given, is the final entry (the pooled output, already known)."""
    stages = [xp]
    axes = range(xp.ndim - 1, 1, -1)
    for axis in axes[:-1] if last is not None else axes:
        stages.append(_max_along(stages[-1], axis, windows))
    return stages + ([last] if last is not None else [])


def _max_pool(xp, windows):
    """Window maxima of a -inf padded channels-first array."""
    if not windows.loops_over_taps():
        return windows.gather(xp).max(axis=-1)
    return _partial_maxima(xp, windows)[-1]


def _max_pool_grad(xp, out, out_grad, windows):
    """out_grad sent to the first tap (row-major) of each window that equals its maximum:
    the first slice along the first axis holding the maximum, then the first along the
    next axis inside it, and so on (the passes of _partial_maxima, backwards)."""
    if not windows.loops_over_taps():
        return windows.crop(_gathered_max_grad(xp, out_grad, windows))
    stages = _partial_maxima(xp, windows, out)
    grad = out_grad
    for k in range(len(stages) - 2, -1, -1):
        grad = _max_grad_along(stages[k], stages[k + 1], grad, xp.ndim - 1 - k, windows)
    return windows.crop(grad)


def _first_max_positions(xp, windows):
    """(window maxima, flat padded-array index of each window's first maximum)."""
    gathered = windows.gather(xp)
    first = gathered.argmax(axis=-1)
    out = np.take_along_axis(gathered, first[..., None], axis=-1)[..., 0]
    lead = [np.arange(size).reshape((-1,) + (1,) * (first.ndim - 1 - k))
            for k, size in enumerate(first.shape[:2])]
    flat = np.ravel_multi_index(tuple(lead) + tuple(windows.tap_position(first)), xp.shape)
    return out, flat


def _gathered_max_grad(xp, out_grad, windows):
    """Max-pool gradient of large windows: out_grad summed at each window's argmax."""
    _, flat = _first_max_positions(xp, windows)
    summed = np.bincount(flat.ravel(), weights=out_grad.ravel(), minlength=xp.size)
    return summed.reshape(xp.shape).astype(out_grad.dtype, copy=False)


def pool(x, kernel_size, strides, paddings, ceil_mode, exclusive, data_format, pooling_type,
         global_pooling, adaptive, padding_algorithm):
    """Max or average pooling over the spatial axes (Paddle's pool2d / pool3d)."""
    xc = _to_nchw(x, data_format)
    if (pooling_type != "max" and xc.dtype.kind == "f" and xc.size
            and (global_pooling or (adaptive and all(k == 1 for k in kernel_size)))):
        return _from_nchw(_spatial_mean(xc), data_format)  # one window over everything
    windows = _Windows(xc.shape, kernel_size, strides, paddings, ceil_mode, global_pooling,
                       adaptive, padding_algorithm)
    if pooling_type == "max":
        out = _max_pool(windows.padded(xc, -np.inf), windows)
    else:
        out = _apply_per_axis(xc, windows.averaging_matrices(exclusive, x.dtype))
    return _from_nchw(out, data_format)


def pool_grad(x, out, out_grad, kernel_size, strides, paddings, ceil_mode, exclusive,
              data_format, pooling_type, global_pooling, adaptive, padding_algorithm):
    """Gradient of pool: to each window's first maximum (max) or spread evenly (avg)."""
    xc = _to_nchw(x, data_format)
    gc = _to_nchw(out_grad, data_format)
    windows = _Windows(xc.shape, kernel_size, strides, paddings, ceil_mode, global_pooling,
                       adaptive, padding_algorithm)
    if pooling_type == "max":
        grad = _max_pool_grad(windows.padded(xc, -np.inf), _to_nchw(out, data_format), gc, windows)
    else:
        mats = windows.averaging_matrices(exclusive, x.dtype)
        grad = _apply_per_axis(gc, [m.T for m in mats])
    return _from_nchw(grad, data_format)


def max_pool_with_index(x, kernel_size, strides, paddings, global_pooling, adaptive, ceil_mode):
    """Max pooling of a channels-first input and, per window, the flat index into its
    image's spatial axes (H*W or D*H*W) of the first maximum in row-major order (int32)."""
    windows = _Windows(x.shape, kernel_size, strides, paddings, ceil_mode, global_pooling,
                       adaptive, "EXPLICIT")
    xp = windows.padded(x, -np.inf)
    out, flat = _first_max_positions(xp, windows)
    position = np.unravel_index(flat, xp.shape)[2:]
    pads = windows.padding()
    unpadded = tuple(p - pads[2 * i] for i, p in enumerate(position))
    return out, np.ravel_multi_index(unpadded, windows.in_hw).astype(np.int32)


def _per_image(a):
    """a as [N*C, spatial size]."""
    return a.reshape(a.shape[0] * a.shape[1], int(np.prod(a.shape[2:])))


def max_pool_with_index_grad(x, mask, out_grad):
    """Gradient of max_pool_with_index: out_grad summed at each window's mask position."""
    grad = np.zeros(_per_image(x).shape, out_grad.dtype)
    rows = np.arange(grad.shape[0])[:, None]
    np.add.at(grad, (rows, _per_image(mask)), _per_image(out_grad))
    return grad.reshape(x.shape)


def unpool(x, indices, ksize, strides, paddings, output_size, data_format):
    """Max unpooling: zeros of spatial size output_size with x[n, c, i] written at flat
    position indices[n, c, i] of image (n, c)."""
    out = np.zeros((x.shape[0] * x.shape[1], int(np.prod(output_size))), x.dtype)
    rows = np.arange(out.shape[0])[:, None]
    out[rows, _per_image(indices)] = _per_image(x)
    return out.reshape(x.shape[:2] + tuple(output_size))


def unpool_grad(x, indices, out_grad):
    """Gradient of unpool: out_grad read back at each input's position."""
    return np.take_along_axis(_per_image(out_grad), _per_image(indices), axis=1).reshape(x.shape)

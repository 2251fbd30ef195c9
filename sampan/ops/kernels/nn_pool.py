"""pool2d and pool2d_grad: max / average pooling with Paddle's padding, ceil, adaptive rules.

Average pooling (every variant) is a product with two small [out, in] averaging
matrices, one per spatial axis. Max pooling of small regular windows is separable: the
maximum along W of each window row, then the maximum of those along H, each a loop over
that axis's taps (strided slices of the -inf padded input), so a 2x2 window costs two
whole-array operations; its gradient runs the same two passes backwards. Adaptive and
large windows are gathered through per-axis tap tables (the input index each window
reads at each tap) and reduced at once.
"""
import numpy as np

from ..infer_meta.nn_geometry import adaptive_bounds, pool_geometry

__all__ = ["pool2d", "pool2d_grad"]

TAP_LOOP_LIMIT = 25
"""Regular windows with at most this many taps are max-pooled axis by axis, tap by tap."""


def _to_nchw(x, data_format):
    """A view of x in NCHW."""
    return x.transpose(0, 3, 1, 2) if data_format == "NHWC" else x


def _from_nchw(x, data_format):
    """An NCHW result in the caller's layout, contiguous."""
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1) if data_format == "NHWC" else x)


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


def _sandwich(x, left, right):
    """left @ image @ right.T for every [H, W] image of an NCHW array (two matmuls)."""
    n, c, _, w = x.shape
    half = (x.reshape(-1, w) @ right.T).reshape(n * c, -1, right.shape[0])
    return (left @ half).reshape(n, c, left.shape[0], right.shape[0])


class _Windows:
    """The pooling windows of one pool2d call on an NCHW input."""

    def __init__(self, shape_nchw, kernel_size, strides, paddings, ceil_mode, global_pooling,
                 adaptive, padding_algorithm):
        self.in_hw = shape_nchw[2:]
        self.kernel_hw, self.pads, self.out_hw = pool_geometry(
            self.in_hw, kernel_size, strides, paddings, padding_algorithm, ceil_mode,
            global_pooling, adaptive)
        self.strides = strides
        self.adaptive = adaptive
        self.bounds = [_axis_bounds(self.in_hw[i], self.out_hw[i], self.kernel_hw[i], strides[i],
                                    self.pads[2 * i], adaptive) for i in range(2)]

    def averaging_matrices(self, exclusive, dtype):
        """[out, in] matrices A_h, A_w with avg_pool(x) = A_h @ x @ A_w.T per image."""
        mats = []
        for (starts, ends, extent), size in zip(self.bounds, self.in_hw):
            divisor = ends - starts if exclusive or self.adaptive else extent
            inside = (np.arange(size) >= starts[:, None]) & (np.arange(size) < ends[:, None])
            mats.append((inside / np.maximum(divisor, 1)[:, None]).astype(dtype))
        return mats

    def padding(self):
        """(top, bottom, left, right) that puts every tap of every window inside the array."""
        if self.adaptive:
            return (0, 0, 0, 0)
        needed = [(o - 1) * s + k for o, s, k in zip(self.out_hw, self.strides, self.kernel_hw)]
        top, left = self.pads[0], self.pads[2]
        return (top, max(needed[0] - self.in_hw[0] - top, 0),
                left, max(needed[1] - self.in_hw[1] - left, 0))

    def padded(self, x, fill):
        """x padded by padding() with `fill` (x itself when no padding is needed)."""
        top, bottom, left, right = self.padding()
        if not any((top, bottom, left, right)):
            return x
        h, w = self.in_hw
        out = np.full(x.shape[:2] + (h + top + bottom, w + left + right), fill, x.dtype)
        out[:, :, top:top + h, left:left + w] = x
        return out

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
        return not self.adaptive and self.kernel_hw[0] * self.kernel_hw[1] <= TAP_LOOP_LIMIT

    def axis_taps(self, axis):
        """Index (a strided slice of an NCHW array's spatial axis 2 or 3) of every tap of the
        regular windows along that axis, in tap order."""
        kernel, count, stride = (self.kernel_hw[axis - 2], self.out_hw[axis - 2],
                                 self.strides[axis - 2])
        lead = (slice(None),) * axis
        return [lead + (slice(t, t + (count - 1) * stride + 1, stride),) for t in range(kernel)]

    def tiles(self, axis, size):
        """True when the windows along `axis` cover an array of that size exactly once."""
        i = axis - 2
        return self.strides[i] == self.kernel_hw[i] and self.out_hw[i] * self.strides[i] == size

    def gather(self, xp):
        """All windows of a padded() array: [N, C, OH, OW, taps] in row-major tap order."""
        rows, cols = self.tap_table(0), self.tap_table(1)
        windows = xp[:, :, rows[:, None, :, None], cols[None, :, None, :]]
        return windows.reshape(windows.shape[:4] + (-1,))

    def tap_position(self, tap):
        """NCHW index (padded() coordinates) of tap number tap[n, c, oh, ow] of each window."""
        rows, cols = self.tap_table(0), self.tap_table(1)
        n, c = tap.shape[:2]
        return (np.arange(n)[:, None, None, None], np.arange(c)[None, :, None, None],
                rows[np.arange(rows.shape[0])[:, None], tap // cols.shape[1]],
                cols[np.arange(cols.shape[0]), tap % cols.shape[1]])

    def crop(self, xp):
        """The input region of a padded() array."""
        top, _, left, _ = self.padding()
        return xp[:, :, top:top + self.in_hw[0], left:left + self.in_hw[1]]


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


def _max_pool(xp, windows):
    """Window maxima of a -inf padded NCHW array."""
    if not windows.loops_over_taps():
        return windows.gather(xp).max(axis=-1)
    return _max_along(_max_along(xp, 3, windows), 2, windows)


def _max_pool_grad(xp, out, out_grad, windows):
    """out_grad sent to the first tap (row-major) of each window that equals its maximum:
    the first row holding the maximum (H pass), then the first column in it (W pass)."""
    if not windows.loops_over_taps():
        return windows.crop(_gathered_max_grad(xp, out_grad, windows))
    row_max = _max_along(xp, 3, windows)
    row_grad = _max_grad_along(row_max, out, out_grad, 2, windows)
    return windows.crop(_max_grad_along(xp, row_max, row_grad, 3, windows))


def _gathered_max_grad(xp, out_grad, windows):
    """Max-pool gradient of large windows: out_grad summed at each window's argmax."""
    first = windows.gather(xp).argmax(axis=-1)
    flat = np.ravel_multi_index(windows.tap_position(first), xp.shape)
    summed = np.bincount(flat.ravel(), weights=out_grad.ravel(), minlength=xp.size)
    return summed.reshape(xp.shape).astype(out_grad.dtype, copy=False)


def pool2d(x, kernel_size, strides, paddings, ceil_mode, exclusive, data_format, pooling_type,
           global_pooling, adaptive, padding_algorithm):
    """Max or average pooling over H and W (Paddle's pool2d)."""
    xc = _to_nchw(x, data_format)
    windows = _Windows(xc.shape, kernel_size, strides, paddings, ceil_mode, global_pooling,
                       adaptive, padding_algorithm)
    if pooling_type == "max":
        out = _max_pool(windows.padded(xc, -np.inf), windows)
    else:
        mat_h, mat_w = windows.averaging_matrices(exclusive, x.dtype)
        out = _sandwich(xc, mat_h, mat_w)
    return _from_nchw(out, data_format)


def pool2d_grad(x, out, out_grad, kernel_size, strides, paddings, ceil_mode, exclusive,
                data_format, pooling_type, global_pooling, adaptive, padding_algorithm):
    """Gradient of pool2d: to each window's first maximum (max) or spread evenly (avg)."""
    xc = _to_nchw(x, data_format)
    gc = _to_nchw(out_grad, data_format)
    windows = _Windows(xc.shape, kernel_size, strides, paddings, ceil_mode, global_pooling,
                       adaptive, padding_algorithm)
    if pooling_type == "max":
        grad = _max_pool_grad(windows.padded(xc, -np.inf), _to_nchw(out, data_format), gc, windows)
    else:
        mat_h, mat_w = windows.averaging_matrices(exclusive, x.dtype)
        grad = _sandwich(gc, mat_h.T, mat_w.T)
    return _from_nchw(grad, data_format)

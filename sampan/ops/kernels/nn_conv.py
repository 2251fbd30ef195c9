"""Convolution kernels over 2 or 3 spatial dims: conv, conv_transpose and their gradients
(im2col + matmul), shared by the conv2d and conv3d ops.

Internally images use the C...N layout (channels, spatial axes, batch; CHWN in 2-D): the
block a kernel tap sees is then made of long contiguous runs, which makes the im2col /
col2im copies cheap, and every product is one (grouped) matmul over C*prod(kernel).
Measured faster here than einsum over sliding windows for the LeNet shapes.

The im2col columns are a strided view of the padded input (no copy). Products read them
a band of output rows (along the first spatial axis) at a time, copied into a contiguous
block small enough to stay in cache: one product over all columns is several times slower
with OpenBLAS on these thin matrices, and the whole copy (25x the input for a 5x5 kernel)
would stream through memory.
"""
import functools
import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..infer_meta.nn_geometry import (channel_last, conv_output_hw, conv_transpose_output_hw,
                                      resolve_paddings, split_layout)
from .nn_conv_channels_last import (depthwise_conv, is_depthwise, is_pointwise, pointwise_conv,
                                     stride_phases)

__all__ = ["conv", "conv_grad", "conv_transpose", "conv_transpose_grad"]

_BAND_BYTES = 512 * 1024
"""Size of the column block copied per band of output rows (fits in a core's L2 cache)."""


def _to_cn(x, data_format, pads=None):
    """x as a fresh contiguous C...N array (never a view of x: the columns saved for the
    backward are a view of it), zero-padded by pads (before, after per spatial axis)."""
    nd = x.ndim - 2
    spatial = tuple(range(1, nd + 1)) if channel_last(data_format) else tuple(range(2, nd + 2))
    xt = x.transpose((x.ndim - 1 if channel_last(data_format) else 1,) + spatial + (0,))
    if not pads or not any(pads):
        return xt.copy()
    out = np.zeros((xt.shape[0], *(xt.shape[1 + i] + pads[2 * i] + pads[2 * i + 1]
                                   for i in range(nd)), xt.shape[-1]), x.dtype)
    out[_inner(pads, xt.shape[1:-1])] = xt
    return out


def _from_cn(x, data_format):
    """A C...N array back in the caller's layout, contiguous."""
    nd = x.ndim - 2
    if channel_last(data_format):
        return np.ascontiguousarray(x.transpose((nd + 1,) + tuple(range(1, nd + 1)) + (0,)))
    return np.ascontiguousarray(x.transpose((nd + 1, 0) + tuple(range(1, nd + 1))))


def _inner(pads, sizes):
    """Index of the unpadded region of a padded C...N array."""
    return (slice(None),) + tuple(slice(pads[2 * i], pads[2 * i] + size)
                                  for i, size in enumerate(sizes))


def _padded_sizes(sizes, pads):
    """Spatial sizes after padding."""
    return tuple(size + pads[2 * i] + pads[2 * i + 1] for i, size in enumerate(sizes))


def _tap_block(taps, out_sizes, strides, dilations):
    """Index of the padded-input block a kernel tap reads for all output positions."""
    return (slice(None),) + tuple(
        slice(t * d, t * d + (o - 1) * s + 1, s)
        for t, o, s, d in zip(taps, out_sizes, strides, dilations))


def _im2col(xp, kernel, out_sizes, strides, dilations):
    """Columns [C, *kernel, *out, N] of a padded C...N input: a read-only strided view."""
    steps = xp.strides
    spatial = steps[1:-1]
    shape = (xp.shape[0], *kernel, *out_sizes, xp.shape[-1])
    strided = (steps[0], *(st * d for st, d in zip(spatial, dilations)),
               *(st * s for st, s in zip(spatial, strides)), steps[-1])
    return as_strided(xp, shape, strided, writeable=False)


def _band_axis(cols):
    """Axis of im2col columns holding the first output spatial axis."""
    return 1 + (cols.ndim - 2) // 2


def _bands(cols):
    """Slices of output rows whose column block fits in _BAND_BYTES."""
    axis = _band_axis(cols)
    rows = cols.shape[axis]
    per_row = cols[(slice(None),) * axis + (0,)].nbytes
    step = max(1, min(rows, _BAND_BYTES // max(per_row, 1)))
    return [slice(start, start + step) for start in range(0, rows, step)]


def _band_matrix(cols, band, groups):
    """The columns of one band of output rows as a contiguous [G, C/G*prod(kernel), positions]."""
    axis = _band_axis(cols)
    block = np.ascontiguousarray(cols[(slice(None),) * axis + (band,)])
    # explicit sizes (no -1), so an empty batch reshapes too
    rows, positions = int(np.prod(block.shape[:axis])), int(np.prod(block.shape[axis:]))
    return block.reshape(groups, rows // groups, positions)


def _col2im(cols, padded_sizes, strides, dilations):
    """Adjoint of _im2col: sum columns [C, *kernel, *out, N] onto a padded C...N array."""
    nd = len(padded_sizes)
    kernel, out_sizes = cols.shape[1:1 + nd], cols.shape[1 + nd:1 + 2 * nd]
    xp = np.zeros((cols.shape[0], *padded_sizes, cols.shape[-1]), cols.dtype)
    for taps in itertools.product(*map(range, kernel)):
        xp[_tap_block(taps, out_sizes, strides, dilations)] += cols[(slice(None),) + taps]
    return xp


def _filter_matrices(filt, groups):
    """Filter [O, Cg, *kernel] as one [O/G, Cg*prod(kernel)] matrix per group."""
    return filt.reshape(groups, filt.shape[0] // groups, -1)


def _conv_cols(cols, filt, groups):
    """Convolution from im2col columns [C, *kernel, *out, N]: [O, *out, N]."""
    o, out_n = filt.shape[0], cols.shape[_band_axis(cols):]
    mats = _filter_matrices(filt, groups)
    out = np.empty((groups, o // groups, out_n[0], int(np.prod(out_n[1:]))),
                   np.result_type(filt, cols))
    for band in _bands(cols):
        rows = out[:, :, band]
        np.matmul(mats, _band_matrix(cols, band, groups),
                  out=rows.reshape(rows.shape[:2] + (int(np.prod(rows.shape[2:])),)))
    return out.reshape((o,) + out_n)


def _conv_cn(xp, filt, groups, out_sizes, strides, dilations):
    """Convolution of a padded C...N input with filter [O, Cg, *kernel]: [O, *out, N]."""
    return _conv_cols(_im2col(xp, filt.shape[2:], out_sizes, strides, dilations), filt, groups)


def _filter_grad_cn(xp, dy, filter_shape, groups, strides, dilations):
    """Gradient of the filter from a padded C...N input and a C...N output gradient."""
    cols = _im2col(xp, filter_shape[2:], dy.shape[1:-1], strides, dilations)
    return _filter_grad_cols(cols, dy, filter_shape, groups)


def _filter_grad_cols(cols, dy, filter_shape, groups):
    """Gradient of the filter from im2col columns and a C...N output gradient."""
    per_group = filter_shape[0] // groups
    # accumulated transposed, [G, Cg*prod(k), O/G]: ~1.6x faster in OpenBLAS than [G, O/G, ...]
    grad_t = np.zeros((groups, int(np.prod(filter_shape[1:])), per_group), np.result_type(dy, cols))
    for band in _bands(cols):
        dy_band = dy[:, band].reshape(groups, per_group, -1)
        grad_t += _band_matrix(cols, band, groups) @ np.swapaxes(dy_band, -1, -2)
    return np.swapaxes(grad_t, -1, -2).reshape(filter_shape)


def _input_grad_cn(dy, filt, groups, padded_sizes, strides, dilations):
    """Gradient of the padded C...N input from a C...N output gradient (a transposed
    convolution)."""
    o, cg = filt.shape[:2]
    cols = _filter_matrices(filt, groups).transpose(0, 2, 1) @ dy.reshape(groups, o // groups, -1)
    return _col2im(cols.reshape(groups * cg, *filt.shape[2:], *dy.shape[1:]), padded_sizes,
                   strides, dilations)


def _conv_setup(x_shape, filt, strides, paddings, padding_algorithm, dilations, data_format):
    """(spatial sizes of x, paddings as 2 values per axis, effective dilations)."""
    in_hw = split_layout(x_shape, data_format)[2]
    pads, dils = resolve_paddings(paddings, padding_algorithm, in_hw, filt.shape[2:], strides,
                                  dilations)
    return in_hw, pads, dils


def _pointwise(input, filter):
    """A 1x1 (x1), stride-1, unpadded, ungrouped channels-first convolution: one matmul of
    the filter with the input's [C, positions] rows, no im2col or layout copies."""
    n, c = input.shape[:2]
    rows = input.reshape(n, c, -1)
    out = np.matmul(filter.reshape(filter.shape[0], c), rows[0] if n == 1 else rows)
    return out.reshape((n, filter.shape[0]) + input.shape[2:])


@functools.lru_cache(maxsize=4096)
def _forward_geometry(x_shape, kernel_hw, strides, paddings, padding_algorithm, dilations,
                      data_format):
    """(paddings as 2 values per axis, effective dilations, output spatial sizes) of a
    convolution: a function of shapes and attributes only, so computed once per signature
    (it was a third of a small convolution's time)."""
    in_hw = split_layout(x_shape, data_format)[2]
    pads, dils = resolve_paddings(paddings, padding_algorithm, in_hw, kernel_hw, strides,
                                  dilations)
    out_hw = conv_output_hw(in_hw, kernel_hw, strides, paddings, padding_algorithm, dilations)
    return pads, dils, out_hw


def conv(input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format,
         *, need=(True, True)):
    """Grouped, strided, dilated cross-correlation; filter [O, C/groups, *kernel]. Also
    returns the im2col columns (a view of the padded input) for the backward to read.
    Without the columns (inference), depthwise and channels-last 1x1 convolutions take the
    channels-last paths of nn_conv_channels_last, and strided ones copy their columns from
    the input split by stride phase."""
    pads, dils, out_hw = _forward_geometry(input.shape, filter.shape[2:], tuple(strides),
                                           tuple(paddings), padding_algorithm,
                                           tuple(dilations), data_format)
    if not need[1]:
        out = _inference_conv(input, filter, strides, pads, dils, out_hw, groups, data_format)
        if out is not None:
            return out, None
    cols = _im2col(_to_cn(input, data_format, pads), filter.shape[2:], out_hw, strides, dils)
    out = _from_cn(_conv_cols(cols, filter, groups), data_format)
    return out, (cols if need[1] else None)


def _inference_conv(input, filter, strides, pads, dils, out_hw, groups, data_format):
    """The convolution by a path that keeps no columns (1x1 as one matmul, depthwise in
    channels-last memory), or None when none applies."""
    if is_pointwise(input, filter, strides, pads, groups, data_format):
        return pointwise_conv(input, filter, data_format)
    if (groups == 1 and not channel_last(data_format) and all(k == 1 for k in filter.shape[2:])
            and all(s == 1 for s in strides) and not any(pads)):
        return _pointwise(input, filter)
    if is_depthwise(input, filter, groups, dils, data_format):
        return depthwise_conv(input, filter, strides, pads, out_hw, data_format)
    if (groups == 1 and input.ndim == 4 and any(s > 1 for s in strides)
            and all(d == 1 for d in dils)):
        return _strided_conv(input, filter, strides, pads, out_hw, data_format)
    return None


def _strided_conv(input, filter, strides, pads, out_hw, data_format):
    """A strided, undilated 2-D convolution whose columns are copied from the padded C...N
    input split by stride phase: each kernel tap then reads contiguous runs of one phase
    (whole output rows), where the strided im2col view gathers element by element (about
    2x faster for a 3-channel stride-2 stem). One matmul per band of output rows."""
    cn = input.transpose((3, 1, 2, 0) if channel_last(data_format) else (1, 2, 3, 0))
    phases = stride_phases(cn, pads, strides, out_hw, filter.shape[2:])  # [sh, sw, C, Hq, Wq, N]
    (sh, sw), (kh, kw), (oh, ow) = strides, filter.shape[2:], out_hw
    c, n, o = cn.shape[0], cn.shape[-1], filter.shape[0]
    mat = filter.reshape(o, c * kh * kw)
    out = np.empty((o, oh, ow, n), np.result_type(filter, input))
    per_row = c * kh * kw * ow * n * phases.itemsize
    step = max(1, min(oh, _BAND_BYTES // max(per_row, 1)))
    for top in range(0, oh, step):
        rows = min(step, oh - top)
        block = np.empty((c, kh, kw, rows, ow, n), phases.dtype)
        for u in range(kh):
            for v in range(kw):
                first, left = top + u // sh, v // sw
                block[:, u, v] = phases[u % sh, v % sw, :, first:first + rows, left:left + ow]
        np.matmul(mat, block.reshape(c * kh * kw, rows * ow * n),
                  out=out[:, top:top + rows].reshape(o, rows * ow * n))
    return _from_cn(out, data_format)


def conv_grad(input, filter, columns, out_grad, strides, paddings, padding_algorithm,
              dilations, groups, data_format, *, need=(True, True)):
    """Gradients of conv with respect to input and filter (None where not `need`ed)."""
    in_hw, pads, dils = _conv_setup(input.shape, filter, strides, paddings, padding_algorithm,
                                    dilations, data_format)
    dy = _to_cn(out_grad, data_format)
    filter_grad = _filter_grad_cols(columns, dy, filter.shape, groups) if need[1] else None
    if not need[0]:
        return None, filter_grad
    dxp = _input_grad_cn(dy, filter, groups, _padded_sizes(in_hw, pads), strides, dils)
    return _from_cn(dxp[_inner(pads, in_hw)], data_format), filter_grad


def conv_transpose(x, filter, strides, paddings, output_padding, output_size, padding_algorithm,
                   groups, dilations, data_format):
    """Transposed convolution (the input-gradient of conv); filter [C, O/groups, *kernel]."""
    in_hw, pads, dils = _conv_setup(x.shape, filter, strides, paddings, padding_algorithm,
                                    dilations, data_format)
    out_hw = conv_transpose_output_hw(in_hw, filter.shape[2:], strides, paddings, padding_algorithm,
                                      dilations, output_padding, output_size)
    outp = _input_grad_cn(_to_cn(x, data_format), filter, groups, _padded_sizes(out_hw, pads),
                          strides, dils)
    return _from_cn(outp[_inner(pads, out_hw)], data_format)


def conv_transpose_grad(x, filter, out_grad, strides, paddings, output_padding, output_size,
                        padding_algorithm, groups, dilations, data_format):
    """Gradients of conv_transpose: x_grad is conv of out_grad; filter_grad swaps roles."""
    in_hw, pads, dils = _conv_setup(x.shape, filter, strides, paddings, padding_algorithm,
                                    dilations, data_format)
    dyp = _to_cn(out_grad, data_format, pads)
    x_grad = _conv_cn(dyp, filter, groups, in_hw, strides, dils)
    filter_grad = _filter_grad_cn(dyp, _to_cn(x, data_format), filter.shape, groups, strides,
                                  dils)
    return _from_cn(x_grad, data_format), filter_grad

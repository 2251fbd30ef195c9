"""Convolution kernels: conv2d, conv2d_transpose and their gradients (im2col + matmul).

Internally images use the CHWN layout (channels, height, width, batch): the block a
kernel tap sees is then made of long contiguous runs, which makes the im2col / col2im
copies cheap, and every product is one (grouped) matmul over C*kh*kw. Measured faster
here than einsum over sliding windows for the LeNet shapes.

The im2col columns are a strided view of the padded input (no copy). Products read them
a band of output rows at a time, copied into a contiguous block small enough to stay in
cache: one product over all columns is several times slower with OpenBLAS on these thin
matrices, and the whole copy (25x the input for a 5x5 kernel) would stream through memory.
"""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..infer_meta.nn_geometry import (conv_output_hw, conv_transpose_output_hw,
                                      resolve_paddings, split_layout)

__all__ = ["conv2d", "conv2d_grad", "conv2d_transpose", "conv2d_transpose_grad"]

_TO_CHWN = {"NCHW": (1, 2, 3, 0), "NHWC": (3, 1, 2, 0)}
_FROM_CHWN = {"NCHW": (3, 0, 1, 2), "NHWC": (3, 1, 2, 0)}
_NO_PADDING = (0, 0, 0, 0)
_BAND_BYTES = 512 * 1024
"""Size of the column block copied per band of output rows (fits in a core's L2 cache)."""


def _to_chwn(x, data_format, pads=_NO_PADDING):
    """x as a fresh contiguous CHWN array (never a view of x: the columns saved for the
    backward are a view of it), zero-padded by (top, bottom, left, right)."""
    xt = x.transpose(_TO_CHWN[data_format])
    if not any(pads):
        return xt.copy()
    c, h, w, n = xt.shape
    out = np.zeros((c, h + pads[0] + pads[1], w + pads[2] + pads[3], n), x.dtype)
    out[:, pads[0]:pads[0] + h, pads[2]:pads[2] + w] = xt
    return out


def _from_chwn(x, data_format):
    """A CHWN array back in the caller's layout, contiguous."""
    return np.ascontiguousarray(x.transpose(_FROM_CHWN[data_format]))


def _crop(xp, pads, hw):
    """The unpadded [C, H, W, N] part of a padded CHWN array."""
    return xp[:, pads[0]:pads[0] + hw[0], pads[2]:pads[2] + hw[1]]


def _tap_block(i, j, out_hw, strides, dilations):
    """Index of the padded-input block kernel tap (i, j) reads for all output positions."""
    top, left = i * dilations[0], j * dilations[1]
    return (slice(None),
            slice(top, top + (out_hw[0] - 1) * strides[0] + 1, strides[0]),
            slice(left, left + (out_hw[1] - 1) * strides[1] + 1, strides[1]))


def _im2col(xp, kernel_hw, out_hw, strides, dilations):
    """Columns [C, kh, kw, Ho, Wo, N] of a padded CHWN input: a read-only strided view."""
    sc, sh, sw, sn = xp.strides
    shape = (xp.shape[0], *kernel_hw, *out_hw, xp.shape[3])
    steps = (sc, sh * dilations[0], sw * dilations[1], sh * strides[0], sw * strides[1], sn)
    return as_strided(xp, shape, steps, writeable=False)


def _bands(cols):
    """Slices of output rows whose column block fits in _BAND_BYTES."""
    rows = cols.shape[3]
    per_row = cols[:, :, :, 0].nbytes
    step = max(1, min(rows, _BAND_BYTES // per_row))
    return [slice(start, start + step) for start in range(0, rows, step)]


def _band_matrix(cols, band, groups):
    """The columns of one band of output rows as a contiguous [G, C/G*kh*kw, positions]."""
    block = np.ascontiguousarray(cols[:, :, :, band])
    return block.reshape(groups, -1, block[0, 0, 0].size)


def _col2im(cols, padded_hw, strides, dilations):
    """Adjoint of _im2col: sum columns [C, kh, kw, Ho, Wo, N] onto a padded CHWN array."""
    c, kh, kw, oh, ow, n = cols.shape
    xp = np.zeros((c, *padded_hw, n), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            xp[_tap_block(i, j, (oh, ow), strides, dilations)] += cols[:, i, j]
    return xp


def _filter_matrices(filt, groups):
    """Filter [O, Cg, kh, kw] as one [O/G, Cg*kh*kw] matrix per group."""
    return filt.reshape(groups, filt.shape[0] // groups, -1)


def _conv_cols(cols, filt, groups):
    """Convolution from im2col columns [C, kh, kw, Ho, Wo, N]: [O, Ho, Wo, N]."""
    o, (ho, wo, n) = filt.shape[0], cols.shape[3:]
    mats = _filter_matrices(filt, groups)
    out = np.empty((groups, o // groups, ho, wo * n), np.result_type(filt, cols))
    for band in _bands(cols):
        rows = out[:, :, band]
        np.matmul(mats, _band_matrix(cols, band, groups),
                  out=rows.reshape(rows.shape[:2] + (-1,)))
    return out.reshape(o, ho, wo, n)


def _conv_chwn(xp, filt, groups, out_hw, strides, dilations):
    """Convolution of a padded CHWN input with filter [O, Cg, kh, kw]: [O, Ho, Wo, N]."""
    return _conv_cols(_im2col(xp, filt.shape[2:], out_hw, strides, dilations), filt, groups)


def _filter_grad_chwn(xp, dy, filter_shape, groups, strides, dilations):
    """Gradient of the filter from a padded CHWN input and a CHWN output gradient."""
    cols = _im2col(xp, filter_shape[2:], dy.shape[1:3], strides, dilations)
    return _filter_grad_cols(cols, dy, filter_shape, groups)


def _filter_grad_cols(cols, dy, filter_shape, groups):
    """Gradient of the filter from im2col columns and a CHWN output gradient."""
    per_group = filter_shape[0] // groups
    # accumulated transposed, [G, Cg*kh*kw, O/G]: ~1.6x faster in OpenBLAS than [G, O/G, ...]
    grad_t = np.zeros((groups, int(np.prod(filter_shape[1:])), per_group), np.result_type(dy, cols))
    for band in _bands(cols):
        dy_band = dy[:, band].reshape(groups, per_group, -1)
        grad_t += _band_matrix(cols, band, groups) @ np.swapaxes(dy_band, -1, -2)
    return np.swapaxes(grad_t, -1, -2).reshape(filter_shape)


def _input_grad_chwn(dy, filt, groups, padded_hw, strides, dilations):
    """Gradient of the padded CHWN input from a CHWN output gradient (a transposed convolution)."""
    o, cg, kh, kw = filt.shape
    cols = _filter_matrices(filt, groups).transpose(0, 2, 1) @ dy.reshape(groups, o // groups, -1)
    return _col2im(cols.reshape(groups * cg, kh, kw, *dy.shape[1:]), padded_hw, strides, dilations)


def _conv_setup(x_shape, filt, strides, paddings, padding_algorithm, dilations, data_format):
    """(spatial size of x, paddings as 4 values, effective dilations)."""
    in_hw = split_layout(x_shape, data_format)[2]
    pads, dils = resolve_paddings(paddings, padding_algorithm, in_hw, filt.shape[2:], strides,
                                  dilations)
    return in_hw, pads, dils


def conv2d(input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format,
           *, need=(True, True)):
    """Grouped, strided, dilated 2-D cross-correlation; filter [O, C/groups, kh, kw]. Also
    returns the im2col columns (a view of the padded input) for the backward to read."""
    in_hw, pads, dils = _conv_setup(input.shape, filter, strides, paddings, padding_algorithm,
                                    dilations, data_format)
    out_hw = conv_output_hw(in_hw, filter.shape[2:], strides, paddings, padding_algorithm,
                            dilations)
    cols = _im2col(_to_chwn(input, data_format, pads), filter.shape[2:], out_hw, strides, dils)
    out = _from_chwn(_conv_cols(cols, filter, groups), data_format)
    return out, (cols if need[1] else None)


def conv2d_grad(input, filter, columns, out_grad, strides, paddings, padding_algorithm,
                dilations, groups, data_format, *, need=(True, True)):
    """Gradients of conv2d with respect to input and filter (None where not `need`ed)."""
    in_hw, pads, dils = _conv_setup(input.shape, filter, strides, paddings, padding_algorithm,
                                    dilations, data_format)
    dy = _to_chwn(out_grad, data_format)
    filter_grad = _filter_grad_cols(columns, dy, filter.shape, groups) if need[1] else None
    if not need[0]:
        return None, filter_grad
    padded_hw = (in_hw[0] + pads[0] + pads[1], in_hw[1] + pads[2] + pads[3])
    dxp = _input_grad_chwn(dy, filter, groups, padded_hw, strides, dils)
    return _from_chwn(_crop(dxp, pads, in_hw), data_format), filter_grad


def conv2d_transpose(x, filter, strides, paddings, output_padding, output_size, padding_algorithm,
                     groups, dilations, data_format):
    """Transposed 2-D convolution (the input-gradient of conv2d); filter [C, O/groups, kh, kw]."""
    in_hw, pads, dils = _conv_setup(x.shape, filter, strides, paddings, padding_algorithm,
                                    dilations, data_format)
    out_hw = conv_transpose_output_hw(in_hw, filter.shape[2:], strides, paddings, padding_algorithm,
                                      dilations, output_padding, output_size)
    padded_hw = (out_hw[0] + pads[0] + pads[1], out_hw[1] + pads[2] + pads[3])
    outp = _input_grad_chwn(_to_chwn(x, data_format), filter, groups, padded_hw, strides, dils)
    return _from_chwn(_crop(outp, pads, out_hw), data_format)


def conv2d_transpose_grad(x, filter, out_grad, strides, paddings, output_padding, output_size,
                          padding_algorithm, groups, dilations, data_format):
    """Gradients of conv2d_transpose: x_grad is conv2d of out_grad; filter_grad swaps roles."""
    in_hw, pads, dils = _conv_setup(x.shape, filter, strides, paddings, padding_algorithm,
                                    dilations, data_format)
    dyp = _to_chwn(out_grad, data_format, pads)
    x_grad = _conv_chwn(dyp, filter, groups, in_hw, strides, dils)
    filter_grad = _filter_grad_chwn(dyp, _to_chwn(x, data_format), filter.shape, groups, strides,
                                    dils)
    return _from_chwn(x_grad, data_format), filter_grad

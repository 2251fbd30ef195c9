"""Forward-only 2-D convolutions computed in channels-last memory (NHWC): depthwise
convolutions and 1x1 (pointwise) convolutions, the bulk of mobile networks at inference.

A depthwise convolution is a per-channel weighted sum of kernel taps, which no matmul
expresses; in channels-last memory one output row of all channels, [W_out * C], is a
contiguous run of the (phase-split) padded input, so the whole convolution is one
`einsum` per stride phase over long contiguous runs: NumPy's fused multiply-accumulate loop,
with no im2col copy and no temporaries (about 3x faster than the im2col grouped matmul on
MobileNetV3's shapes).

Outputs keep channels-last memory: for an NCHW caller they are NCHW-shaped transposed
views of an NHWC array. Elementwise ops keep that memory order (NumPy's order "K"), so the
next depthwise or pointwise convolution reads it without a transposing copy. Only the
forward is here: training keeps the im2col path, whose columns the backward reads.
"""
import numpy as np

from ..infer_meta.nn_geometry import channel_last

__all__ = ["is_depthwise", "depthwise_conv", "is_pointwise", "pointwise_conv",
           "stride_phases"]


def _nhwc(x, data_format):
    """x as an NHWC-shaped array (a view)."""
    return x if channel_last(data_format) else x.transpose(0, 2, 3, 1)


def _caller_layout(out, data_format):
    """An NHWC result in the caller's layout: a view, so the memory stays channels-last."""
    return out if channel_last(data_format) else out.transpose(0, 3, 1, 2)


def is_depthwise(x, filter, groups, dilations, data_format):
    """Whether conv(x, filter) is a 2-D depthwise convolution (one filter per channel,
    no dilation) that depthwise_conv computes."""
    channels = x.shape[-1 if channel_last(data_format) else 1]
    return (x.ndim == 4 and groups == channels == filter.shape[0] and filter.shape[1] == 1
            and all(d == 1 for d in dilations) and x.shape[0] > 0)


def stride_phases(x, pads, strides, out_hw, kernel):
    """The zero-padded NHWC input split by stride phase: [sh, sw, N, Hq, Wq, C], where
    phase (a, b) holds padded rows a, a + sh, ... and columns b, b + sw, ... (one phase,
    the padded input itself, at stride 1). Only axes 1 and 2 are spatial: a C...N input
    [C, H, W, N] gives [sh, sw, C, Hq, Wq, N]."""
    n, h, w, c = x.shape
    (sh, sw), (top, left) = strides, (pads[0], pads[2])
    # rows a phase must hold: those the taps read for every output row
    hq = max(-(-(h + pads[0] + pads[1]) // sh), (kernel[0] - 1) // sh + out_hw[0])
    wq = max(-(-(w + pads[2] + pads[3]) // sw), (kernel[1] - 1) // sw + out_hw[1])
    phases = np.zeros((sh, sw, n, hq, wq, c), x.dtype)
    for a in range(sh):
        first_row = max(0, -(-(top - a) // sh))  # first phase row inside x
        for b in range(sw):
            first_col = max(0, -(-(left - b) // sw))
            src = x[:, a + sh * first_row - top::sh, b + sw * first_col - left::sw]
            rows, cols = min(src.shape[1], hq - first_row), min(src.shape[2], wq - first_col)
            phases[a, b, :, first_row:first_row + rows, first_col:first_col + cols] = \
                src[:, :rows, :cols]
    return phases


_LONG_RUN = 256
"""Channel counts from which one pixel's channels alone make einsum's inner loop long
enough; below, each tap's weights are repeated along the output row to lengthen it."""


def _tap_sums(phases, filter, strides, out_hw):
    """(window, weights, einsum subscripts) per stride phase (a, b): the window holds, for
    each output pixel and each kernel tap (u * sh + a, v * sw + b), the input it reads
    (phase rows i + u, columns j + v), the weights the taps' filter values."""
    (ho, wo), (n, c) = out_hw, (phases.shape[2], phases.shape[-1])
    step_n, step_h, step_w, step_c = phases.strides[2:]
    weights = filter[:, 0].transpose(1, 2, 0)  # [kh, kw, c]
    if c < _LONG_RUN:
        # repeated along the output row (one copy): einsum then runs over rows [wo * c]
        kh, kw = weights.shape[:2]
        weights = np.broadcast_to(weights[:, :, None, :], (kh, kw, wo, c)).reshape(
            kh, kw, wo * c)
    else:
        weights = np.ascontiguousarray(weights)
    for a in range(strides[0]):
        for b in range(strides[1]):
            taps = weights[a::strides[0], b::strides[1]]
            if c < _LONG_RUN:
                shape, steps = (wo * c,), (step_c,)
                subscripts = "nhuvq,uvq->nhq"
            else:
                shape, steps = (wo, c), (step_w, step_c)
                subscripts = "nhuvwc,uvc->nhwc"
            # a strided view of phase (a, b) (np.ndarray: ~10x cheaper than as_strided)
            window = np.ndarray((n, ho, *taps.shape[:2], *shape), phases.dtype, phases,
                                a * phases.strides[0] + b * phases.strides[1],
                                (step_n, step_h, step_h, step_w, *steps))
            yield window, taps, subscripts


def depthwise_conv(x, filter, strides, pads, out_hw, data_format):
    """Depthwise convolution of x with filter [C, 1, kh, kw]; pads (top, bottom, left,
    right). Returns the output in x's layout with channels-last memory."""
    xt = _nhwc(x, data_format)
    n, c = xt.shape[0], xt.shape[-1]
    phases = stride_phases(xt, pads, strides, out_hw, filter.shape[2:])
    out = None
    for window, taps, subscripts in _tap_sums(phases, filter, strides, out_hw):
        if out is None:
            out = np.einsum(subscripts, window, taps)
        else:
            out += np.einsum(subscripts, window, taps)
    return _caller_layout(out.reshape(n, *out_hw, c), data_format)


def is_pointwise(x, filter, strides, pads, groups, data_format):
    """Whether conv(x, filter) is an ungrouped 1x1, stride-1, unpadded 2-D convolution whose
    input already has channels-last memory (pointwise_conv then needs no copy)."""
    return (x.ndim == 4 and groups == 1 and filter.shape[2:] == (1, 1)
            and all(s == 1 for s in strides) and not any(pads)
            and _nhwc(x, data_format).flags.c_contiguous)


def pointwise_conv(x, filter, data_format):
    """1x1 convolution of channels-last memory: one matmul [N*H*W, C] @ [C, O], the output
    in x's layout with channels-last memory."""
    xt = _nhwc(x, data_format)
    n, h, w, c = xt.shape
    o = filter.shape[0]
    out = xt.reshape(n * h * w, c) @ filter.reshape(o, c).T
    return _caller_layout(out.reshape(n, h, w, o), data_format)

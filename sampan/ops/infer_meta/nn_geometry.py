"""Window arithmetic shared by the conv/pool infer_meta rules and kernels (Paddle's formulas).

Sizes may be -1 (unknown at graph-build time); every function propagates it.
"""
from ...core.errors import InvalidArgument

__all__ = ["LAYOUTS", "PADDING_ALGORITHMS", "split_layout", "join_layout", "channel_last",
           "flat_paddings", "resolve_paddings", "window_count", "conv_output_hw",
           "conv_transpose_output_hw", "pool_geometry", "adaptive_bounds"]

LAYOUTS = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}
"""Accepted data formats per number of spatial dims."""
PADDING_ALGORITHMS = ("EXPLICIT", "SAME", "VALID")


def channel_last(data_format):
    """True for NHWC / NDHWC / NLC."""
    return data_format.endswith("C")


def split_layout(shape, data_format):
    """(N, C, spatial sizes) of a shape in a channel-first or channel-last layout."""
    if channel_last(data_format):
        return shape[0], shape[-1], tuple(shape[1:-1])
    return shape[0], shape[1], tuple(shape[2:])


def join_layout(n, c, spatial, data_format):
    """The shape with batch n, channels c and the given spatial sizes in the given layout."""
    if channel_last(data_format):
        return (n, *spatial, c)
    return (n, c, *spatial)


def flat_paddings(paddings, nd):
    """Paddle's [before_0, after_0, before_1, after_1, ...] from nd or 2*nd values."""
    if len(paddings) == nd:
        return tuple(p for p in paddings for _ in range(2))
    if len(paddings) == 2 * nd:
        return tuple(paddings)
    raise InvalidArgument("paddings", f"expected {nd} or {2 * nd} values, got {list(paddings)}")


def resolve_paddings(paddings, algorithm, in_hw, kernel_hw, strides, dilations):
    """(paddings as 2 values per axis, dilations) after Paddle's EXPLICIT / SAME / VALID rule.

    SAME pads so that out = ceil(in / stride) and resets dilation to 1, like Paddle;
    an unknown (-1) size gets padding 0 (its output size is unknown anyway).
    """
    nd = len(in_hw)
    if algorithm == "VALID":
        return (0,) * (2 * nd), tuple(dilations)
    if algorithm != "SAME":
        return flat_paddings(paddings, nd), tuple(dilations)
    pads = []
    for size, kernel, stride in zip(in_hw, kernel_hw, strides):
        total = 0
        if size >= 0 and kernel >= 0:
            total = max((-(-size // stride) - 1) * stride + kernel - size, 0)
        pads += [total // 2, total - total // 2]
    return tuple(pads), (1,) * nd


def window_count(size, extent, pad_before, pad_after, stride, ceil_mode=False):
    """How many windows of `extent` fit along a padded axis (0 when none; -1 when unknown)."""
    if size < 0 or extent < 0:
        return -1
    span = size + pad_before + pad_after - extent
    if span < 0:
        return 0
    return (span + (stride - 1 if ceil_mode else 0)) // stride + 1


def _check_positive_output(out_hw, in_hw, kernel_hw, what, detail):
    """Raise when a spatial output size computed from known sizes is not positive."""
    known = [o for o, size, k in zip(out_hw, in_hw, kernel_hw) if size >= 0 and k >= 0]
    if any(o < 1 for o in known):
        raise InvalidArgument("input", f"{what} output size would be {list(out_hw)}: {detail}")


def _extent(kernel, dilation):
    """Span of a dilated kernel along one axis (-1 when unknown)."""
    return -1 if kernel < 0 else dilation * (kernel - 1) + 1


def conv_output_hw(in_hw, kernel_hw, strides, paddings, algorithm, dilations):
    """Spatial output size of a convolution, checked to be positive."""
    pads, dils = resolve_paddings(paddings, algorithm, in_hw, kernel_hw, strides, dilations)
    extents = [_extent(k, d) for k, d in zip(kernel_hw, dils)]
    out = tuple(window_count(in_hw[i], extents[i], pads[2 * i], pads[2 * i + 1], strides[i])
                for i in range(len(in_hw)))
    _check_positive_output(out, in_hw, kernel_hw, "conv",
                           f"input spatial size {list(in_hw)}, kernel {list(kernel_hw)}, "
                           f"paddings {list(pads)}, dilations {list(dils)}, "
                           f"strides {list(strides)}")
    return out


def conv_transpose_output_hw(in_hw, kernel_hw, strides, paddings, algorithm, dilations,
                             output_padding, output_size):
    """Spatial output size of a transposed convolution, with Paddle's checks of output_size /
    output_padding."""
    pads, dils = resolve_paddings(paddings, algorithm, in_hw, kernel_hw, strides, dilations)
    out = []
    for i in range(len(in_hw)):
        size, extent = in_hw[i], _extent(kernel_hw[i], dils[i])
        base = -1
        if size >= 0 and extent >= 0:
            base = (size - 1) * strides[i] - pads[2 * i] - pads[2 * i + 1] + extent
        out.append(_transpose_extra(base, i, strides[i], dils[i], output_padding, output_size))
    _check_positive_output(out, in_hw, kernel_hw, "conv_transpose",
                           f"input spatial size {list(in_hw)}, kernel {list(kernel_hw)}, "
                           f"paddings {list(pads)}, strides {list(strides)}")
    return tuple(out)


def _transpose_extra(base, axis, stride, dilation, output_padding, output_size):
    """Apply output_size (must lie in [base, base + stride)) or output_padding to one axis."""
    if output_size:
        wanted = output_size[axis]
        if base >= 0 and not base <= wanted < base + stride:
            raise InvalidArgument("output_size", f"output_size {list(output_size)} must lie in "
                                                 f"[{base}, {base + stride}) on spatial axis "
                                                 f"{axis}")
        return wanted
    if output_padding:
        extra = output_padding[axis]
        if not 0 <= extra < max(stride, dilation):
            raise InvalidArgument("output_padding", f"output_padding {list(output_padding)} "
                                                    f"must be in [0, max(stride {stride}, "
                                                    f"dilation {dilation})) on axis {axis}")
        return -1 if base < 0 else base + extra
    return base


def pool_geometry(in_hw, kernel_size, strides, paddings, algorithm, ceil_mode, global_pooling,
                  adaptive):
    """(kernel sizes, paddings as 2 values per axis, output sizes) of pooling, following
    Paddle's UpdatePadding."""
    nd = len(in_hw)
    kernel_hw = tuple(in_hw) if global_pooling else tuple(kernel_size)
    pads, _ = resolve_paddings(paddings, algorithm, in_hw, kernel_hw, strides, (1,) * nd)
    if global_pooling or adaptive:
        pads = (0,) * (2 * nd)
    if adaptive:
        return kernel_hw, pads, tuple(kernel_size)
    out = tuple(window_count(in_hw[i], kernel_hw[i], pads[2 * i], pads[2 * i + 1], strides[i],
                             ceil_mode) for i in range(nd))
    _check_positive_output(out, in_hw, kernel_hw, "pool",
                           f"input spatial size {list(in_hw)}, kernel {list(kernel_hw)}, "
                           f"paddings {list(pads)}, strides {list(strides)}, "
                           f"ceil_mode {ceil_mode}")
    return kernel_hw, pads, out


def adaptive_bounds(out_index, in_size, out_size):
    """[start, end) of adaptive window `out_index`: floor(i*in/out) to ceil((i+1)*in/out)."""
    return (out_index * in_size) // out_size, -(-((out_index + 1) * in_size) // out_size)

"""Pooling: Paddle's functional signatures over the registry's pool2d / pool3d ops, max
pooling with indices (`return_mask=True`) and max unpooling."""
from ...ops._generated import api
from .conv import ntuple, padding_spec

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool2d",
           "adaptive_max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "fractional_max_pool2d", "fractional_max_pool3d"]

_POOL_OPS = {2: api.pool2d, 3: api.pool3d}
_WITH_INDEX_OPS = {2: api.max_pool2d_with_index, 3: api.max_pool3d_with_index}
_UNPOOL_OPS = {2: api.unpool, 3: api.unpool3d}
_FRACTIONAL_OPS = {2: api.fractional_max_pool2d, 3: api.fractional_max_pool3d}


def _windows(nd, kernel_size, stride, padding, data_format):
    """(kernel, strides, padding_algorithm, paddings) as the pool ops take them."""
    algorithm, pads = padding_spec(padding, data_format)
    kernel = ntuple(kernel_size, nd)
    return kernel, kernel if stride is None else ntuple(stride, nd), algorithm, pads


def _pool(x, kind, nd, kernel_size, stride, padding, ceil_mode, exclusive, data_format):
    """Max or average pooling over nd spatial dims."""
    kernel, strides, algorithm, pads = _windows(nd, kernel_size, stride, padding, data_format)
    return _POOL_OPS[nd](x, kernel, strides, pads, ceil_mode, exclusive, data_format, kind,
                         False, False, algorithm)


def _max_pool(x, nd, kernel_size, stride, padding, return_mask, ceil_mode, data_format):
    """Max pooling, with the (out, mask) pair when return_mask (channels-first only)."""
    if not return_mask:
        return _pool(x, "max", nd, kernel_size, stride, padding, ceil_mode, True, data_format)
    if data_format.endswith("C"):
        raise ValueError(f"return_mask=True needs a channels-first data_format, got "
                         f"{data_format!r} (as in Paddle)")
    kernel, strides, algorithm, pads = _windows(nd, kernel_size, stride, padding, data_format)
    if algorithm != "EXPLICIT":
        raise ValueError(f"return_mask=True needs numeric padding, got {padding!r}")
    return _WITH_INDEX_OPS[nd](x, kernel, strides, pads, False, False, ceil_mode)


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """Maximum over each window (padding never wins). With return_mask, returns
    (out, mask): mask holds, per window, the flat index into H*W of its input image of the
    window's first maximum (int32), as F.max_unpool2d takes it."""
    return _max_pool(x, 2, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    """3-D max pooling over [N, C, D, H, W] (or NDHWC); return_mask as in max_pool2d, the
    index flat over D*H*W."""
    return _max_pool(x, 3, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


def _avg_pool(x, nd, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
              data_format):
    """Average pooling; divisor_override divides every window's sum by that number."""
    if not divisor_override:
        return _pool(x, "avg", nd, kernel_size, stride, padding, ceil_mode, exclusive,
                     data_format)
    out = _pool(x, "avg", nd, kernel_size, stride, padding, ceil_mode, False, data_format)
    size = 1
    for k in ntuple(kernel_size, nd):
        size *= k
    return api.scale(out, size / divisor_override)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """Mean over each window; `exclusive` leaves padded cells out of the count."""
    return _avg_pool(x, 2, kernel_size, stride, padding, ceil_mode, exclusive,
                     divisor_override, data_format)


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    """3-D average pooling over [N, C, D, H, W] (or NDHWC)."""
    return _avg_pool(x, 3, kernel_size, stride, padding, ceil_mode, exclusive,
                     divisor_override, data_format)


def _output_sizes(x, nd, output_size, data_format):
    """Adaptive output sizes; None keeps that axis's input size."""
    sizes = [output_size] * nd if isinstance(output_size, int) else list(output_size)
    spatial = x.shape[1:-1] if data_format.endswith("C") else x.shape[2:]
    return [s if o is None else int(o) for o, s in zip(sizes, spatial)]


def _adaptive(x, kind, nd, output_size, data_format, return_mask=False):
    """Adaptive pooling: bins [floor(i·n/o), ceil((i+1)·n/o)) per spatial axis."""
    sizes = _output_sizes(x, nd, output_size, data_format)
    if return_mask:
        return _WITH_INDEX_OPS[nd](x, sizes, [1] * nd, [0] * nd, False, True, False)
    return _POOL_OPS[nd](x, sizes, [1] * nd, [0] * nd, False, True, data_format, kind, False,
                         True)


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """Average pooling to a fixed output size."""
    return _adaptive(x, "avg", 2, output_size, data_format)


def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """3-D average pooling to a fixed output size."""
    return _adaptive(x, "avg", 3, output_size, data_format)


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """Max pooling to a fixed output size (NCHW); with return_mask also the flat indices."""
    return _adaptive(x, "max", 2, output_size, "NCHW", return_mask)


def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """3-D max pooling to a fixed output size (NCDHW); with return_mask also the indices."""
    return _adaptive(x, "max", 3, output_size, "NCDHW", return_mask)


def _one(value):
    """The single value of an int or a 1-sequence."""
    return value[0] if isinstance(value, (list, tuple)) else value


def _squeezed(out):
    """A [N, C, 1, L] result (or an (out, mask) pair of them) back to [N, C, L]."""
    if isinstance(out, (tuple, list)):
        return tuple(api.squeeze(t, [2]) for t in out)
    return api.squeeze(out, [2])


def _one_d(fn, x, kernel_size, stride, padding, **kwargs):
    """Run a 2-D pool on [N, C, 1, L]."""
    pad = padding if isinstance(padding, str) else (0, _one(padding))
    stride = None if stride is None else (1, _one(stride))
    return _squeezed(fn(api.unsqueeze(x, [2]), (1, _one(kernel_size)), stride, pad, **kwargs))


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    """1-D max pooling over [N, C, L]; with return_mask also the indices into L."""
    return _one_d(max_pool2d, x, kernel_size, stride, padding, return_mask=return_mask,
                  ceil_mode=ceil_mode)


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
               name=None):
    """1-D average pooling over [N, C, L]."""
    return _one_d(avg_pool2d, x, kernel_size, stride, padding, ceil_mode=ceil_mode,
                  exclusive=exclusive)


def _unpool_sizes(x, nd, kernel, strides, pads, output_size):
    """Paddle's unpool output size: (in - 1)·stride - 2·pad + kernel per axis, or
    output_size (spatial, or with N and C first) when it lies within a stride of that."""
    default = [(x.shape[2 + i] - 1) * strides[i] - 2 * pads[i] + kernel[i] for i in range(nd)]
    if output_size is None:
        return default
    sizes = [int(s) for s in list(output_size)[-nd:]]
    for size, base, stride in zip(sizes, default, strides):
        if not base - stride < size < base + stride:
            raise ValueError(f"invalid output_size {list(output_size)}: each size must lie "
                             f"strictly between {[b - s for b, s in zip(default, strides)]} "
                             f"and {[b + s for b, s in zip(default, strides)]}")
    return sizes


def _max_unpool(x, indices, nd, kernel_size, stride, padding, data_format, output_size):
    """Max unpooling over nd spatial dims (channels-first only, as in Paddle)."""
    if data_format.endswith("C"):
        raise ValueError(f"max_unpool supports only channels-first data, got {data_format!r}")
    kernel = ntuple(kernel_size, nd)
    strides = kernel if stride is None else ntuple(stride, nd)
    pads = ntuple(padding, nd)
    sizes = _unpool_sizes(x, nd, kernel, strides, pads, output_size)
    return _UNPOOL_OPS[nd](x, indices, kernel, strides, pads, sizes, data_format)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    """Inverse of max_pool2d(return_mask=True): each value of x goes to the flat H*W
    position `indices` gives; the rest of the output is 0.

    Example: ``out, mask = F.max_pool2d(x, 2, return_mask=True);
    F.max_unpool2d(out, mask, 2)`` has x's shape.
    """
    return _max_unpool(x, indices, 2, kernel_size, stride, padding, data_format, output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    """Inverse of max_pool3d(return_mask=True) over [N, C, D, H, W]."""
    return _max_unpool(x, indices, 3, kernel_size, stride, padding, data_format, output_size)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    """Inverse of max_pool1d(return_mask=True) over [N, C, L]."""
    if data_format != "NCL":
        raise ValueError(f"max_unpool1d supports only 'NCL', got {data_format!r}")
    size = None if output_size is None else [1, list(output_size)[-1]]
    out = max_unpool2d(api.unsqueeze(x, [2]), api.unsqueeze(indices, [2]),
                       (1, _one(kernel_size)), None if stride is None else (1, _one(stride)),
                       (0, _one(padding)), "NCHW", size)
    return api.squeeze(out, [2])


def _fractional(x, nd, output_size, kernel_size, random_u, return_mask):
    """Fractional max pooling over nd spatial axes (None in output_size: the input's size)."""
    if len(x.shape) != nd + 2:
        raise ValueError(f"fractional_max_pool{nd}d: x must be {nd + 2}-D, got shape "
                         f"{list(x.shape)}")
    if random_u is not None and not 0 < random_u < 1:
        raise ValueError(f"fractional_max_pool{nd}d: random_u must be a float in (0, 1), "
                         f"got {random_u}")
    sizes = _output_sizes(x, nd, output_size, "NCHW")
    kernel = [0] * nd if kernel_size is None else list(ntuple(kernel_size, nd))
    out, mask = _FRACTIONAL_OPS[nd](x, sizes, kernel, float(random_u or 0.0))
    return (out, mask) if return_mask else out


def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """Fractional max pooling of [N, C, H, W] to output_size (Graham 2015).

    Along each axis of size n pooled to o, window i starts at ceil(alpha * (i + u) - 1)
    (shifted so the first starts at 0). Without kernel_size the windows tile the axis
    (alpha = n / o, sizes floor(alpha) or ceil(alpha)); with it they are kernel_size long
    and may overlap (alpha = (n - k) / (o - 1)). random_u is the offset u in (0, 1); None
    draws one per call from the global generator (`paddle.seed` repeats it). With
    return_mask, also the flat H*W index of each window's first maximum (int32).

    Example: ``F.fractional_max_pool2d(paddle.rand([2, 3, 32, 32]), output_size=3)`` has
    shape [2, 3, 3, 3].
    """
    return _fractional(x, 2, output_size, kernel_size, random_u, return_mask)


def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """Fractional max pooling of [N, C, D, H, W] to output_size, as fractional_max_pool2d;
    the mask is flat over D*H*W."""
    return _fractional(x, 3, output_size, kernel_size, random_u, return_mask)

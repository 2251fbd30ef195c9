"""Convolutions: Paddle's functional signatures over the registry's conv2d / conv3d ops."""
from ...ops._generated import api

__all__ = ["conv1d", "conv2d", "conv2d_transpose", "conv3d", "conv3d_transpose"]


def ntuple(value, n):
    """An int or an n-sequence as an n-list of ints."""
    if isinstance(value, int):
        return [value] * n
    return [int(v) for v in value]


def _pair(value):
    """An int or a 2-sequence as a 2-list of ints."""
    return ntuple(value, 2)


def padding_spec(padding, data_format="NCHW"):
    """(padding_algorithm, paddings) from Paddle's forms: int, one per spatial axis, a
    (before, after) pair per axis flat, per-dim pairs including batch/channel, or
    "SAME"/"VALID"."""
    nd = len(data_format) - 2
    if isinstance(padding, str):
        return padding.upper(), [0] * nd
    if isinstance(padding, int):
        return "EXPLICIT", [padding] * nd
    padding = list(padding)
    if isinstance(padding[0], (list, tuple)):
        spatial = padding[1:-1] if data_format.endswith("C") else padding[2:]
        return "EXPLICIT", [int(v) for pair in spatial for v in pair]
    return "EXPLICIT", [int(v) for v in padding]


def _add_channel_bias(out, bias, data_format):
    if bias is None:
        return out
    if data_format.endswith("C"):
        return api.add(out, bias)
    return api.add(out, api.reshape(bias, [1, -1] + [1] * (len(out.shape) - 2)))


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCHW", name=None):
    """2-D convolution; weight [out_channels, in_channels/groups, kh, kw]."""
    algorithm, pads = padding_spec(padding, data_format)
    out = api.conv2d(x, weight, _pair(stride), pads, algorithm, _pair(dilation), groups,
                     data_format)
    return _add_channel_bias(out, bias, data_format)


def _one(value):
    return value[0] if isinstance(value, (list, tuple)) else value


def _padding_1d(padding):
    """conv1d padding (int, [p], [left, right] or a string) as conv2d padding."""
    if isinstance(padding, str):
        return padding
    pads = [padding] if isinstance(padding, int) else list(padding)
    return [0, 0] + pads * (3 - len(pads))


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCL", name=None):
    """1-D convolution (conv2d on a height-1 image); weight [out, in/groups, k]."""
    if data_format == "NLC":
        x = api.transpose(x, [0, 2, 1])
    out = conv2d(api.unsqueeze(x, [2]), api.unsqueeze(weight, [2]), bias,
                 (1, _one(stride)), _padding_1d(padding), (1, _one(dilation)), groups)
    out = api.squeeze(out, [2])
    return api.transpose(out, [0, 2, 1]) if data_format == "NLC" else out


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0,
                     dilation=1, groups=1, output_size=None, data_format="NCHW", name=None):
    """Transposed 2-D convolution; weight [in_channels, out_channels/groups, kh, kw]."""
    algorithm, pads = padding_spec(padding, data_format)
    extra = _pair(output_padding) if output_padding else []
    size = [] if output_size is None else _pair(output_size)
    out = api.conv2d_transpose(x, weight, _pair(stride), pads, extra, size, algorithm, groups,
                               _pair(dilation), data_format)
    return _add_channel_bias(out, bias, data_format)


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCDHW", name=None):
    """3-D convolution; weight [out_channels, in_channels/groups, kd, kh, kw].

    Example: ``F.conv3d(x, w, stride=2, padding=1)`` with x [N, C, D, H, W].
    """
    algorithm, pads = padding_spec(padding, data_format)
    out = api.conv3d(x, weight, ntuple(stride, 3), pads, algorithm, ntuple(dilation, 3), groups,
                     data_format)
    return _add_channel_bias(out, bias, data_format)


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    """Transposed 3-D convolution; weight [in_channels, out_channels/groups, kd, kh, kw].
    output_size (or output_padding) picks among the sizes a strided input could map to."""
    algorithm, pads = padding_spec(padding, data_format)
    extra = ntuple(output_padding, 3) if output_padding else []
    size = [] if output_size is None else ntuple(output_size, 3)[-3:]
    out = api.conv3d_transpose(x, weight, ntuple(stride, 3), pads, extra, size, algorithm,
                               groups, ntuple(dilation, 3), data_format)
    return _add_channel_bias(out, bias, data_format)

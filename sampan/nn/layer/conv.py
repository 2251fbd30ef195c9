"""Conv1D, Conv2D, Conv3D, Conv1DTranspose, Conv2DTranspose, Conv3DTranspose."""
import math

from .. import functional as F
from .. import initializer as init
from ._device import check_cpu_device
from .layers import Layer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose"]


_DATA_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _tuple(value, n):
    return (value,) * n if isinstance(value, int) else tuple(value)


def _padding_fields(padding, dims, data_format):
    """Paddle's `_padding_algorithm` and `_updated_padding` for a conv's `padding`."""
    if isinstance(padding, str):
        return padding.upper(), [0] * dims
    if isinstance(padding, int):
        return "EXPLICIT", [padding] * dims
    if padding and not isinstance(padding[0], int):  # a pair per dim, batch and channel too
        spatial = padding[2:] if data_format[1] == "C" else padding[1:-1]
        padding = [q for pair in spatial for q in pair]
    flat = [int(p) for p in padding]
    if len(flat) == 2 * dims and flat[0::2] == flat[1::2]:
        flat = flat[0::2]  # symmetric before/after pairs: one amount per dim
    return "EXPLICIT", flat


class _ConvNd(Layer):
    """Shared setup: weight layout, Paddle's default init (Normal, std sqrt(2/fan_in), for
    convolutions; XavierUniform for transposed ones)."""

    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, weight_attr=None, bias_attr=None, data_format="NCHW",
                 output_padding=0, dtype=None):
        super().__init__()
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        if data_format not in _DATA_FORMATS[self._dims]:
            raise ValueError(f"{type(self).__name__}: data_format must be one of "
                             f"{_DATA_FORMATS[self._dims]}, got {data_format!r}")
        self._in_channels, self._out_channels = in_channels, out_channels
        # the settings under Paddle's attribute names (model-zoo code reads them)
        self._kernel_size = list(_tuple(kernel_size, self._dims))
        self._stride = list(_tuple(stride, self._dims))
        self._dilation = list(_tuple(dilation, self._dims))
        self._padding, self._groups, self._data_format = padding, groups, data_format
        self._output_padding = self.output_padding = output_padding
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._channel_dim = 1 if data_format[1] == "C" else self._dims + 1
        self._padding_algorithm, self._updated_padding = _padding_fields(padding, self._dims, data_format)
        depthwise = (not self._transposed and groups == in_channels != 1
                     and out_channels % in_channels == 0)
        self._op_type = f"{'depthwise_' if depthwise else ''}conv{self._dims}d"
        self._use_cudnn, self._device = False, None
        self._padding_mode = "zeros"
        lead = ([in_channels, out_channels // groups] if self._transposed
                else [out_channels, in_channels // groups])
        shape = lead + list(self._kernel_size)
        fan_in = in_channels * math.prod(self._kernel_size)
        # Paddle: Normal(0, sqrt(2 / fan_in)) for convolutions, the Xavier default when
        # transposed
        default = None if self._transposed else init.Normal(0.0, math.sqrt(2.0 / fan_in))
        self.weight = self.create_parameter(shape, weight_attr, dtype, default_initializer=default)
        self.bias = self.create_parameter([out_channels], bias_attr, dtype, is_bias=True)

    def extra_repr(self):
        """Paddle's summary: channels and kernel, the settings that differ from their
        defaults, then the data format."""
        ones = [1] * self._dims
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={list(self._kernel_size)}"
        for name, value, default in (
                ("stride", list(_tuple(self._stride, self._dims)), ones),
                ("padding", self._padding, 0),
                ("padding_mode", self._padding_mode, "zeros"),
                ("output_padding", self._output_padding, 0),
                ("dilation", list(_tuple(self._dilation, self._dims)), ones),
                ("groups", self._groups, 1)):
            if value != default:
                text += f", {name}={value}"
        return text + f", data_format={self._data_format}"


_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _pad_amounts(padding, dims):
    """F.pad amounts (last spatial dim first, before/after) for a conv's numeric padding."""
    if isinstance(padding, str):
        raise ValueError(f"padding={padding!r} cannot be combined with a padding_mode other "
                         f"than 'zeros'; give the padding as numbers")
    if isinstance(padding, int):
        per_dim = [(padding, padding)] * dims
    elif len(padding) == dims:
        per_dim = [(int(p), int(p)) for p in padding]
    elif len(padding) == 2 * dims:
        per_dim = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(dims)]
    else:
        raise ValueError(f"padding {padding!r} does not fit a {dims}-D convolution")
    return [amount for before_after in reversed(per_dim) for amount in before_after]


class Conv2D(_ConvNd):
    """2-D convolution; weight [out_channels, in_channels/groups, kh, kw]. A padding_mode
    other than 'zeros' pads the input first (reflect, replicate or circular); bias=False
    leaves the bias out like bias_attr=False."""

    _fn = staticmethod(F.conv2d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, *, bias=True, padding_mode="zeros", device=None,
                 dtype=None, weight_attr=None, bias_attr=None, data_format="NCHW"):
        check_cpu_device(device, type(self).__name__)
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, got "
                             f"{padding_mode!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, weight_attr, bias_attr if bias else False, data_format,
                         dtype=dtype)
        self._padding_mode = padding_mode
        self._conv_padding = padding
        if padding_mode != "zeros":
            self._pre_pad = _pad_amounts(padding, self._dims)
            self._conv_padding = 0

    def _padded(self, x):
        """x padded by padding_mode when it is not 'zeros' (the conv then pads nothing)."""
        if self._padding_mode == "zeros":
            return x
        return F.pad(x, self._pre_pad, mode=self._padding_mode, data_format=self._data_format)

    def forward(self, x):
        return type(self)._fn(self._padded(x), self.weight, self.bias, self._stride,
                              self._conv_padding, self._dilation, self._groups,
                              self._data_format)


class Conv1D(Conv2D):
    """1-D convolution over [N, C, L]; weight [out_channels, in_channels/groups, k]."""

    _dims = 1
    _fn = staticmethod(F.conv1d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, *, bias=True, padding_mode="zeros", device=None,
                 dtype=None, weight_attr=None, bias_attr=None, data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias=bias, padding_mode=padding_mode, device=device,
                         dtype=dtype, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)


class Conv3D(Conv2D):
    """3-D convolution over [N, C, D, H, W] (or NDHWC); weight
    [out_channels, in_channels/groups, kd, kh, kw]."""

    _dims = 3
    _fn = staticmethod(F.conv3d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, *, bias=True, padding_mode="zeros", device=None,
                 dtype=None, weight_attr=None, bias_attr=None, data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias=bias, padding_mode=padding_mode, device=device,
                         dtype=dtype, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)


class Conv2DTranspose(_ConvNd):
    """Transposed 2-D convolution; weight [in_channels, out_channels/groups, kh, kw]. As in
    Paddle, dilation comes before groups here (Conv1DTranspose has them the other way)."""

    _transposed = True
    _fn = staticmethod(F.conv2d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, weight_attr, bias_attr, data_format, output_padding)

    def forward(self, x, output_size=None):
        return type(self)._fn(x, self.weight, self.bias, stride=self._stride,
                              padding=self._padding, output_padding=self._output_padding,
                              dilation=self._dilation, groups=self._groups,
                              output_size=output_size, data_format=self._data_format)


class Conv1DTranspose(Conv2DTranspose):
    """Transposed 1-D convolution over [N, C, L]; weight [in_channels, out_channels/groups, k]."""

    _dims = 1
    _fn = staticmethod(F.conv1d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, dilation, groups, weight_attr, bias_attr, data_format)


class Conv3DTranspose(Conv2DTranspose):
    """Transposed 3-D convolution over [N, C, D, H, W] (or NDHWC); weight
    [in_channels, out_channels/groups, kd, kh, kw]."""

    _dims = 3
    _fn = staticmethod(F.conv3d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding,
                         output_padding, dilation, groups, weight_attr, bias_attr, data_format)

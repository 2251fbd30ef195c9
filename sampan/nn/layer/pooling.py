"""Pooling layers (1-D, 2-D, 3-D; max, average, adaptive, power-average) and max unpooling.

Each layer keeps its settings as attributes under Paddle's names (`ksize`, `_output_size`,
`_data_format`, ...: model-zoo code reads and sometimes rewrites them), and `forward` reads
them back, so a changed attribute takes effect."""
from .. import functional as F
from ..functional import extra as FX
from .layers import Layer

__all__ = ["MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
           "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
           "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "LPPool1D", "LPPool2D",
           "MaxUnPool1D", "MaxUnPool2D", "MaxUnPool3D", "FractionalMaxPool2D",
           "FractionalMaxPool3D"]

# Paddle's attribute for a functional keyword, per naming family (a keyword not listed
# keeps its own name)
_WINDOW_ND = {"kernel_size": "ksize", "divisor_override": "divisor"}
_FRACTIONAL_ND = {"output_size": "_output_size", "kernel_size": "_kernel_size",
                  "random_u": "_random_u", "return_mask": "_return_mask", "name": "_name"}
_ADAPTIVE_ND = {"output_size": "_output_size", "data_format": "_data_format",
                "return_mask": "_return_mask", "name": "_name"}


class _Pool(Layer):
    """Stores the functional keywords as attributes (renamed by `_names`) and calls
    `_fn(x, *extra, **keywords)`; the summary shows the `_shown` ones, as Paddle's does."""

    _fn = None
    _shown = ("kernel_size", "stride", "padding")
    _names = {}

    def __init__(self, name=None, **kwargs):
        super().__init__()
        self._keywords = tuple(kwargs)
        for key, value in kwargs.items():
            setattr(self, self._names.get(key, key), value)
        setattr(self, self._names.get("name", "name"), name)

    @property
    def _kwargs(self):
        """The functional keywords, read from the attributes."""
        return {k: getattr(self, self._names.get(k, k)) for k in self._keywords}

    def forward(self, x, *extra):
        return type(self)._fn(x, *extra, **self._kwargs)

    def extra_repr(self):
        kwargs = self._kwargs
        return ", ".join(f"{k}={kwargs[k]}" for k in self._shown)


class MaxPool2D(_Pool):
    """Max pooling over 2-D windows."""

    _fn = staticmethod(F.max_pool2d)
    _names = _WINDOW_ND

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__(name=name, kernel_size=kernel_size, stride=stride, padding=padding,
                         return_mask=return_mask, ceil_mode=ceil_mode, data_format=data_format)


class AvgPool2D(_Pool):
    """Average pooling over 2-D windows."""

    _fn = staticmethod(F.avg_pool2d)
    _names = _WINDOW_ND

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCHW", name=None):
        super().__init__(name=name, kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, exclusive=exclusive,
                         divisor_override=divisor_override, data_format=data_format)


class AdaptiveAvgPool2D(_Pool):
    """Average pooling to a fixed output size."""

    _fn = staticmethod(F.adaptive_avg_pool2d)
    _shown = ("output_size",)
    _names = _ADAPTIVE_ND

    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__(name=name, output_size=output_size, data_format=data_format)


class AdaptiveMaxPool2D(_Pool):
    """Max pooling to a fixed output size."""

    _fn = staticmethod(F.adaptive_max_pool2d)
    _shown = ("output_size", "return_mask")
    _names = _ADAPTIVE_ND

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(name=name, output_size=output_size, return_mask=return_mask)


class MaxPool1D(_Pool):
    """Max pooling over [N, C, L]."""

    _fn = staticmethod(F.max_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 name=None):
        super().__init__(name=name, kernel_size=kernel_size, stride=stride, padding=padding,
                         return_mask=return_mask, ceil_mode=ceil_mode)


class AvgPool1D(_Pool):
    """Average pooling over [N, C, L]."""

    _fn = staticmethod(F.avg_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
                 name=None):
        super().__init__(name=name, kernel_size=kernel_size, stride=stride, padding=padding,
                         exclusive=exclusive, ceil_mode=ceil_mode)


class MaxPool3D(_Pool):
    """Max pooling over 3-D windows; with return_mask, forward returns (out, mask)."""

    _fn = staticmethod(F.max_pool3d)
    _names = _WINDOW_ND

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCDHW", name=None):
        super().__init__(name=name, kernel_size=kernel_size, stride=stride, padding=padding,
                         return_mask=return_mask, ceil_mode=ceil_mode, data_format=data_format)


class AvgPool3D(_Pool):
    """Average pooling over 3-D windows."""

    _fn = staticmethod(F.avg_pool3d)
    _names = _WINDOW_ND

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCDHW", name=None):
        super().__init__(name=name, kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, exclusive=exclusive,
                         divisor_override=divisor_override, data_format=data_format)


class AdaptiveAvgPool3D(_Pool):
    """3-D average pooling to a fixed output size."""

    _fn = staticmethod(F.adaptive_avg_pool3d)
    _shown = ("output_size",)
    _names = _ADAPTIVE_ND

    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__(name=name, output_size=output_size, data_format=data_format)


class AdaptiveMaxPool3D(_Pool):
    """3-D max pooling to a fixed output size."""

    _fn = staticmethod(F.adaptive_max_pool3d)
    _shown = ("output_size", "return_mask")
    _names = _ADAPTIVE_ND

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(name=name, output_size=output_size, return_mask=return_mask)


class _Unpool(_Pool):
    """Max unpooling: forward(x, indices); the summary shows output_size, as Paddle's does."""

    _shown = ("output_size",)
    _names = _WINDOW_ND

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
        super().__init__(name=name, kernel_size=kernel_size, stride=stride, padding=padding,
                         data_format=data_format, output_size=output_size)

    def forward(self, x, indices):
        return super().forward(x, indices)


class MaxUnPool1D(_Unpool):
    """Inverse of MaxPool1D(return_mask=True): forward(x, indices)."""

    _fn = staticmethod(F.max_unpool1d)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class MaxUnPool2D(_Unpool):
    """Inverse of MaxPool2D(return_mask=True): forward(x, indices)."""

    _fn = staticmethod(F.max_unpool2d)


class MaxUnPool3D(_Unpool):
    """Inverse of MaxPool3D(return_mask=True): forward(x, indices)."""

    _fn = staticmethod(F.max_unpool3d)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class AdaptiveAvgPool1D(_Pool):
    """Average pooling of [N, C, L] to a fixed output length."""

    _fn = staticmethod(FX.adaptive_avg_pool1d)
    _shown = ("output_size",)

    def __init__(self, output_size, name=None):
        super().__init__(name=name, output_size=output_size)


class AdaptiveMaxPool1D(_Pool):
    """Max pooling of [N, C, L] to a fixed output length."""

    _fn = staticmethod(FX.adaptive_max_pool1d)
    _shown = ("output_size", "return_mask")

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(name=name, output_size=output_size, return_mask=return_mask)


class LPPool1D(_Pool):
    """Power-average pooling over [N, C, L] (stride None: the kernel size)."""

    _fn = staticmethod(FX.lp_pool1d)
    _shown = ("norm_type", "kernel_size", "stride", "padding")

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCL", name=None):
        super().__init__(name=name, norm_type=float(norm_type), kernel_size=kernel_size,
                         stride=stride, padding=padding, ceil_mode=ceil_mode,
                         data_format=data_format)


class LPPool2D(LPPool1D):
    """Power-average pooling over 2-D windows (stride defaults to the kernel size, which
    the layer stores, as Paddle's does)."""

    _fn = staticmethod(FX.lp_pool2d)
    _names = _WINDOW_ND

    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__(norm_type, kernel_size, kernel_size if stride is None else stride,
                         padding, ceil_mode, data_format, name)


class FractionalMaxPool2D(_Pool):
    """Fractional max pooling of [N, C, H, W] to output_size (see
    F.fractional_max_pool2d); random_u None draws a new offset at each call."""

    _fn = staticmethod(F.fractional_max_pool2d)
    _shown = ("output_size", "return_mask")
    _names = _FRACTIONAL_ND

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False,
                 name=None):
        super().__init__(name=name, output_size=output_size, kernel_size=kernel_size,
                         random_u=random_u, return_mask=return_mask)


class FractionalMaxPool3D(FractionalMaxPool2D):
    """Fractional max pooling of [N, C, D, H, W] to output_size (see
    F.fractional_max_pool3d)."""

    _fn = staticmethod(F.fractional_max_pool3d)

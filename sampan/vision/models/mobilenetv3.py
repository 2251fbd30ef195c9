"""MobileNetV3 Small and Large."""
import functools

from ... import nn
from ..ops import ConvNormActivation
from ._base import make_divisible, pool_and_classify, scaled_model_function

__all__ = ["MobileNetV3Small", "MobileNetV3Large", "mobilenet_v3_small", "mobilenet_v3_large"]


class SqueezeExcitation(nn.Layer):
    """Squeeze-and-excitation: scale channels by `scale_activation(fc2(act(fc1(pool(x)))))`."""

    def __init__(self, input_channels, squeeze_channels, activation=nn.ReLU,
                 scale_activation=nn.Sigmoid):
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2D(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def forward(self, input):
        scale = self.activation(self.fc1(self.avgpool(input)))
        return self.scale_activation(self.fc2(scale)) * input


_ACTIVATIONS = {None: None, "relu": nn.ReLU, "hardswish": nn.Hardswish}


class InvertedResidualConfig:
    """One block of the table: channels (scaled and rounded to multiples of 8), kernel size,
    squeeze-and-excitation, activation ("relu", "hardswish" or None) and stride."""

    def __init__(self, in_channels, kernel, expanded_channels, out_channels, use_se,
                 activation, stride, scale=1.0):
        if activation not in _ACTIVATIONS:
            raise RuntimeError(f"The activation function is not supported: {activation}")
        self.in_channels = self.adjust_channels(in_channels, scale)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, scale)
        self.out_channels = self.adjust_channels(out_channels, scale)
        self.use_se = use_se
        self.activation_layer = _ACTIVATIONS[activation]
        self.stride = stride

    @staticmethod
    def adjust_channels(channels, scale=1.0):
        return make_divisible(channels * scale, 8)


class InvertedResidual(nn.Layer):
    """1x1 expansion (when channels grow), depthwise conv, optional squeeze-and-excitation,
    1x1 linear projection, with a shortcut when the shape is kept."""

    def __init__(self, in_channels, expanded_channels, out_channels, filter_size, stride,
                 use_se, activation_layer, norm_layer):
        super().__init__()
        self.use_res_connect = stride == 1 and in_channels == out_channels
        self.use_se = use_se
        self.expand = in_channels != expanded_channels
        block = functools.partial(ConvNormActivation, norm_layer=norm_layer)
        if self.expand:
            self.expand_conv = block(in_channels, expanded_channels, kernel_size=1, padding=0,
                                     activation_layer=activation_layer)
        self.bottleneck_conv = block(expanded_channels, expanded_channels, filter_size, stride,
                                     padding=(filter_size - 1) // 2, groups=expanded_channels,
                                     activation_layer=activation_layer)
        if use_se:
            self.mid_se = SqueezeExcitation(expanded_channels,
                                            make_divisible(expanded_channels // 4),
                                            scale_activation=nn.Hardsigmoid)
        self.linear_conv = block(expanded_channels, out_channels, kernel_size=1, padding=0,
                                 activation_layer=None)

    def forward(self, x):
        y = self.expand_conv(x) if self.expand else x
        y = self.bottleneck_conv(y)
        if self.use_se:
            y = self.mid_se(y)
        y = self.linear_conv(y)
        return x + y if self.use_res_connect else y


class MobileNetV3(nn.Layer):
    """MobileNetV3 from "Searching for MobileNetV3", built from a block table.

    Args:
        config (list[InvertedResidualConfig]): the blocks.
        last_channel (int): width of the classifier's hidden layer.
        scale (float): channel multiplier the table was built with (default 1.0).
        num_classes (int): outputs of the classifier; <= 0 leaves it out (default 1000).
        with_pool (bool): global average pooling before the classifier (default True).
    """

    def __init__(self, config, last_channel, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.config, self.scale, self.last_channel = config, scale, last_channel
        self.num_classes, self.with_pool = num_classes, with_pool
        self.firstconv_in_channels = config[0].in_channels
        self.lastconv_in_channels = config[-1].in_channels
        self.lastconv_out_channels = self.lastconv_in_channels * 6
        norm_layer = functools.partial(nn.BatchNorm2D, epsilon=0.001, momentum=0.99)
        self.conv = ConvNormActivation(3, self.firstconv_in_channels, 3, stride=2, padding=1,
                                       activation_layer=nn.Hardswish, norm_layer=norm_layer)
        self.blocks = nn.Sequential(*[
            InvertedResidual(c.in_channels, c.expanded_channels, c.out_channels, c.kernel,
                             c.stride, c.use_se, c.activation_layer, norm_layer)
            for c in config])
        self.lastconv = ConvNormActivation(self.lastconv_in_channels,
                                           self.lastconv_out_channels, 1, padding=0,
                                           norm_layer=norm_layer,
                                           activation_layer=nn.Hardswish)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(self.lastconv_out_channels, last_channel), nn.Hardswish(),
                nn.Dropout(p=0.2), nn.Linear(last_channel, num_classes))

    def forward(self, x):
        x = self.lastconv(self.blocks(self.conv(x)))
        return pool_and_classify(self, x, classifier="classifier")


# in, kernel, expanded, out, squeeze-excite, activation, stride
_SMALL = [(16, 3, 16, 16, True, "relu", 2), (16, 3, 72, 24, False, "relu", 2),
          (24, 3, 88, 24, False, "relu", 1), (24, 5, 96, 40, True, "hardswish", 2),
          (40, 5, 240, 40, True, "hardswish", 1), (40, 5, 240, 40, True, "hardswish", 1),
          (40, 5, 120, 48, True, "hardswish", 1), (48, 5, 144, 48, True, "hardswish", 1),
          (48, 5, 288, 96, True, "hardswish", 2), (96, 5, 576, 96, True, "hardswish", 1),
          (96, 5, 576, 96, True, "hardswish", 1)]
_LARGE = [(16, 3, 16, 16, False, "relu", 1), (16, 3, 64, 24, False, "relu", 2),
          (24, 3, 72, 24, False, "relu", 1), (24, 5, 72, 40, True, "relu", 2),
          (40, 5, 120, 40, True, "relu", 1), (40, 5, 120, 40, True, "relu", 1),
          (40, 3, 240, 80, False, "hardswish", 2), (80, 3, 200, 80, False, "hardswish", 1),
          (80, 3, 184, 80, False, "hardswish", 1), (80, 3, 184, 80, False, "hardswish", 1),
          (80, 3, 480, 112, True, "hardswish", 1), (112, 3, 672, 112, True, "hardswish", 1),
          (112, 5, 672, 160, True, "hardswish", 2), (160, 5, 960, 160, True, "hardswish", 1),
          (160, 5, 960, 160, True, "hardswish", 1)]


class _FromTable(MobileNetV3):
    """A MobileNetV3 built from the class's block table `_table` and hidden width `_last`."""

    _table, _last = (), 0

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        config = [InvertedResidualConfig(*row, scale) for row in self._table]
        super().__init__(config, make_divisible(self._last * scale, 8), scale=scale,
                         num_classes=num_classes, with_pool=with_pool)


class MobileNetV3Small(_FromTable):
    """MobileNetV3 Small.

    Args:
        scale (float): channel multiplier (default 1.0).
        num_classes (int): outputs of the classifier; <= 0 leaves it out (default 1000).
        with_pool (bool): global average pooling before the classifier (default True).

    Example:
        >>> MobileNetV3Small(num_classes=10)(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    _table, _last = _SMALL, 1024


class MobileNetV3Large(_FromTable):
    """MobileNetV3 Large (arguments as MobileNetV3Small)."""

    _table, _last = _LARGE, 1280


mobilenet_v3_small = scaled_model_function("mobilenet_v3_small", MobileNetV3Small,
                                           "MobileNetV3 Small", "mobilenet_v3_small_x")
mobilenet_v3_large = scaled_model_function("mobilenet_v3_large", MobileNetV3Large,
                                           "MobileNetV3 Large", "mobilenet_v3_large_x")

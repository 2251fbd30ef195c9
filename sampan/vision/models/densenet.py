"""DenseNet 121/161/169/201/264."""
import math

from ... import nn
from ... import tensor as T
from ._base import model_function, pool_and_classify, uniform_attr

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201",
           "densenet264"]


def _conv(num_channels, num_filters, filter_size, stride, pad, groups):
    return nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad,
                     groups=groups, bias_attr=False)


class BNACConvLayer(nn.Layer):
    """BatchNorm + activation, then a bias-free Conv2D."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = _conv(num_channels, num_filters, filter_size, stride, pad, groups)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class ConvBNLayer(nn.Layer):
    """A bias-free Conv2D, then BatchNorm + activation."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._conv = _conv(num_channels, num_filters, filter_size, stride, pad, groups)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


class DenseLayer(nn.Layer):
    """Bottleneck (1x1 to bn_size * growth_rate) then 3x3 to growth_rate channels, appended
    to the input's channels."""

    def __init__(self, num_channels, growth_rate, bn_size, dropout):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, pad=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return T.concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    """`num_layers` DenseLayers in sequence, named `{name}_1`, `{name}_2`, ..."""

    def __init__(self, num_channels, num_layers, bn_size, growth_rate, dropout, name=None):
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = [
            self.add_sublayer(f"{name}_{i + 1}", DenseLayer(num_channels + i * growth_rate,
                                                            growth_rate, bn_size, dropout))
            for i in range(num_layers)]

    def forward(self, input):
        for layer in self.dense_layer_func:
            input = layer(input)
        return input


class TransitionLayer(nn.Layer):
    """BN-ReLU-1x1 conv to `num_output_features`, then 2x2 average pooling."""

    def __init__(self, num_channels, num_output_features):
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


# layers: (initial features, growth rate, dense layers per block)
_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]),
          169: (64, 32, [6, 12, 32, 32]), 201: (64, 32, [6, 12, 48, 32]),
          264: (64, 32, [6, 12, 64, 48])}


class DenseNet(nn.Layer):
    """DenseNet from "Densely Connected Convolutional Networks".

    Args:
        layers (int): 121, 161, 169, 201 or 264 (default 121).
        bn_size (int): bottleneck width as a multiple of the growth rate (default 4).
        dropout (float): dropout after each dense layer (default 0.0).
        num_classes (int): outputs of the fc layer; <= 0 leaves it out (default 1000).
        with_pool (bool): global average pooling before the fc layer (default True).

    Example:
        >>> DenseNet(121, num_classes=10)(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True):
        super().__init__()
        if layers not in _SPECS:
            raise ValueError(f"supported layers are {sorted(_SPECS)} but input layer is "
                             f"{layers}")
        self.num_classes, self.with_pool = num_classes, with_pool
        num_features, growth_rate, self.block_config = _SPECS[layers]
        self.conv1_func = ConvBNLayer(3, num_features, 7, stride=2, pad=3)
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._stages = []
        for i, num_layers in enumerate(self.block_config):
            self._stages.append(self.add_sublayer(f"db_conv_{i + 2}", DenseBlock(
                num_features, num_layers, bn_size, growth_rate, dropout, name=f"conv{i + 2}")))
            num_features += num_layers * growth_rate
            if i != len(self.block_config) - 1:
                self._stages.append(self.add_sublayer(
                    f"tr_conv{i + 2}_blk", TransitionLayer(num_features, num_features // 2)))
                num_features //= 2
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.out = nn.Linear(num_features, num_classes,
                                 weight_attr=uniform_attr(1.0 / math.sqrt(num_features)))

    def forward(self, input):
        x = self.pool2d_max(self.conv1_func(input))
        for stage in self._stages:
            x = stage(x)
        return pool_and_classify(self, self.batch_norm(x), "pool2d_avg", "out")


densenet121, densenet161, densenet169, densenet201, densenet264 = (
    model_function(f"densenet{n}", DenseNet, f"DenseNet {n}-layer model", layers=n)
    for n in (121, 161, 169, 201, 264))

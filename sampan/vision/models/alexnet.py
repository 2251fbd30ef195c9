"""AlexNet."""
import math

from ... import nn
from ... import tensor as T
from ...nn import functional as F
from ._base import model_function, uniform_attr

__all__ = ["AlexNet", "alexnet"]


def _conv(in_channels, out_channels, kernel_size, stride, padding, bound=None, groups=1):
    """A Conv2D initialised uniformly on ±bound (default 1/sqrt(fan_in)), weight and bias
    alike."""
    if bound is None:
        bound = 1.0 / math.sqrt(in_channels * kernel_size * kernel_size)
    return nn.Conv2D(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                     groups=groups, weight_attr=uniform_attr(bound), bias_attr=uniform_attr(bound))


class ConvPoolLayer(nn.Layer):
    """Conv2D (uniform on ±stdv, default 1/sqrt(fan_in)), ReLU (when act == "relu"), then a
    3x3 stride-2 max pool."""

    def __init__(self, input_channels, output_channels, filter_size, stride, padding, stdv=None,
                 groups=1, act=None):
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        self._conv = _conv(input_channels, output_channels, filter_size, stride, padding,
                           stdv, groups)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet from "ImageNet Classification with Deep Convolutional Neural Networks"
    (3x224x224 inputs when num_classes > 0: the first fc layer takes 256x6x6 features).

    Args:
        num_classes (int): outputs of the last fc layer; <= 0 leaves the fc layers out
            (default 1000).

    Example:
        >>> AlexNet(num_classes=0)(paddle.rand([1, 3, 64, 64])).shape
        [1, 256, 1, 1]
    """

    def __init__(self, num_classes=1000):
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, act="relu")
        self._conv3 = _conv(192, 384, 3, 1, 1)
        self._conv4 = _conv(384, 256, 3, 1, 1)
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, act="relu")
        if num_classes > 0:
            bound = 1.0 / math.sqrt(256 * 6 * 6)
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = self._linear(256 * 6 * 6, 4096, bound)
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = self._linear(4096, 4096, bound)
            self._fc8 = self._linear(4096, num_classes, bound)

    @staticmethod
    def _linear(in_features, out_features, bound):
        return nn.Linear(in_features, out_features, weight_attr=uniform_attr(bound),
                         bias_attr=uniform_attr(bound))

    def forward(self, inputs):
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv4(F.relu(self._conv3(x))))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = F.relu(self._fc6(self._drop1(T.flatten(x, 1))))
            x = self._fc8(F.relu(self._fc7(self._drop2(x))))
        return x


alexnet = model_function("alexnet", AlexNet, "AlexNet model")

"""SqueezeNet 1.0 and 1.1."""
from ... import nn
from ... import tensor as T
from ...nn import functional as F
from ._base import model_function

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]


class MakeFireConv(nn.Layer):
    """Conv2D then ReLU."""

    def __init__(self, input_channels, output_channels, filter_size, padding=0):
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding)

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    """A fire module: a 1x1 squeeze, then 1x1 and 3x3 expansions concatenated."""

    def __init__(self, input_channels, squeeze_channels, expand1x1_channels,
                 expand3x3_channels):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return T.concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


# per version: first conv (out channels, kernel, stride, padding), the fire modules after
# which the max pool runs again
_STEM = {"1.0": ((96, 7, 2, 0), (3, 7)), "1.1": ((64, 3, 2, 1), (2, 4))}
_FIRES = [(16, 64), (16, 64), (32, 128), (32, 128), (48, 192), (48, 192), (64, 256), (64, 256)]


class SqueezeNet(nn.Layer):
    """SqueezeNet from "SqueezeNet: AlexNet-level accuracy with 50x fewer parameters and
    <0.5MB model size".

    Args:
        version (str): "1.0" or "1.1".
        num_classes (int): output channels of the last 1x1 conv; <= 0 leaves it out
            (default 1000).
        with_pool (bool): ReLU and global average pooling at the end (default True).

    Example:
        >>> SqueezeNet("1.1", num_classes=10)(paddle.rand([1, 3, 64, 64])).shape
        [1, 10]
    """

    def __init__(self, version, num_classes=1000, with_pool=True):
        super().__init__()
        if version not in _STEM:
            raise ValueError(f"supported versions are {list(_STEM)} but input version is "
                             f"{version}")
        self.version, self.num_classes, self.with_pool = version, num_classes, with_pool
        (channels, kernel, stride, padding), self._pool_after = _STEM[version]
        self._conv = nn.Conv2D(3, channels, kernel, stride=stride, padding=padding)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        for i, (squeeze, expand) in enumerate(_FIRES, start=1):
            setattr(self, f"_conv{i}", MakeFire(channels, squeeze, expand, expand))
            channels = 2 * expand
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        if num_classes > 0:
            self._conv9 = nn.Conv2D(512, num_classes, 1)
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        for i in range(1, len(_FIRES) + 1):
            x = getattr(self, f"_conv{i}")(x)
            if i in self._pool_after:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = T.squeeze(self._avg_pool(F.relu(x)), axis=[2, 3])
        return x


squeezenet1_0 = model_function("squeezenet1_0", SqueezeNet, "SqueezeNet v1.0 model",
                               version="1.0")
squeezenet1_1 = model_function("squeezenet1_1", SqueezeNet, "SqueezeNet v1.1 model",
                               version="1.1")

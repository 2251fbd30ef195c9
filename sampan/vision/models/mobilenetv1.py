"""MobileNetV1."""
from ... import nn
from ..ops import ConvNormActivation
from ._base import pool_and_classify, scaled_model_function

__all__ = ["MobileNetV1", "mobilenet_v1"]


class DepthwiseSeparable(nn.Layer):
    """A 3x3 depthwise conv-BN-ReLU, then a 1x1 pointwise conv-BN-ReLU."""

    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        self._depthwise_conv = ConvNormActivation(
            in_channels, int(out_channels1 * scale), kernel_size=3, stride=stride, padding=1,
            groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(
            int(out_channels1 * scale), int(out_channels2 * scale), kernel_size=1, stride=1,
            padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (sublayer name, input channels, depthwise channels, output channels, stride); the
# depthwise convolution has as many groups as channels.
_BLOCKS = ([("conv2_1", 32, 32, 64, 1), ("conv2_2", 64, 64, 128, 2),
            ("conv3_1", 128, 128, 128, 1), ("conv3_2", 128, 128, 256, 2),
            ("conv4_1", 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 2)]
           + [(f"conv5_{i}", 512, 512, 512, 1) for i in range(1, 6)]
           + [("conv5_6", 512, 512, 1024, 2), ("conv6", 1024, 1024, 1024, 1)])


class MobileNetV1(nn.Layer):
    """MobileNetV1 from "MobileNets: Efficient Convolutional Neural Networks for Mobile Vision
    Applications".

    Args:
        scale (float): channel multiplier (default 1.0).
        num_classes (int): outputs of the fc layer; <= 0 leaves it out (default 1000).
        with_pool (bool): global average pooling before the fc layer (default True).

    Example:
        >>> MobileNetV1(scale=0.25, num_classes=10)(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        self.conv1 = ConvNormActivation(3, int(32 * scale), kernel_size=3, stride=2, padding=1)
        self.dwsl = [self.add_sublayer(name, DepthwiseSeparable(int(cin * scale), mid, out,
                                                                  mid, stride, scale))
                     for name, cin, mid, out, stride in _BLOCKS]
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        return pool_and_classify(self, x, pool="pool2d_avg")


mobilenet_v1 = scaled_model_function("mobilenet_v1", MobileNetV1, "MobileNetV1",
                                     "mobilenetv1_")

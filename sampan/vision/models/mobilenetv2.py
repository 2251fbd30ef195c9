"""MobileNetV2."""
from ... import nn
from ..ops import ConvNormActivation
from ._base import make_divisible, pool_and_classify, scaled_model_function

__all__ = ["MobileNetV2", "mobilenet_v2"]


def _conv_bn_relu6(in_planes, out_planes, kernel_size=3, stride=1, groups=1):
    """Paddle's ConvBNReLU: conv (no bias, "same" padding), BatchNorm2D, ReLU6."""
    return ConvNormActivation(in_planes, out_planes, kernel_size, stride, groups=groups,
                              activation_layer=nn.ReLU6)


class InvertedResidual(nn.Layer):
    """1x1 expansion (unless expand_ratio is 1), 3x3 depthwise, 1x1 linear projection, with a
    shortcut when the shape is kept."""

    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=nn.BatchNorm2D):
        super().__init__()
        if stride not in (1, 2):
            raise ValueError(f"InvertedResidual stride must be 1 or 2, got {stride}")
        self.stride = stride
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = [_conv_bn_relu6(inp, hidden_dim, kernel_size=1)] if expand_ratio != 1 else []
        layers += [_conv_bn_relu6(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
                   nn.Conv2D(hidden_dim, oup, 1, 1, 0, bias_attr=False), norm_layer(oup)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


# (expansion t, output channels c, repeats n, first stride s)
_SETTINGS = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1],
             [6, 160, 3, 2], [6, 320, 1, 1]]


class MobileNetV2(nn.Layer):
    """MobileNetV2 from "MobileNetV2: Inverted Residuals and Linear Bottlenecks".

    Args:
        scale (float): channel multiplier (default 1.0).
        num_classes (int): outputs of the classifier; <= 0 leaves it out (default 1000).
        with_pool (bool): global average pooling before the classifier (default True).

    Example:
        >>> MobileNetV2(scale=0.5, num_classes=10)(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes, self.with_pool = num_classes, with_pool
        input_channel = make_divisible(32 * scale, 8)
        self.last_channel = make_divisible(1280 * max(1.0, scale), 8)
        features = [_conv_bn_relu6(3, input_channel, stride=2)]
        for t, c, n, s in _SETTINGS:
            output_channel = make_divisible(c * scale, 8)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel,
                                                 s if i == 0 else 1, expand_ratio=t))
                input_channel = output_channel
        features.append(_conv_bn_relu6(input_channel, self.last_channel, kernel_size=1))
        self.features = nn.Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(nn.Dropout(0.2),
                                            nn.Linear(self.last_channel, num_classes))

    def forward(self, x):
        return pool_and_classify(self, self.features(x), "pool2d_avg", "classifier")


mobilenet_v2 = scaled_model_function("mobilenet_v2", MobileNetV2, "MobileNetV2",
                                     "mobilenetv2_")

"""GoogLeNet (Inception v1) with its two auxiliary classifiers."""
from ... import nn
from ... import tensor as T
from ...nn import functional as F
from ._base import model_function, uniform_attr

__all__ = ["GoogLeNet", "googlenet"]


def xavier(channels, filter_size):
    """Uniform initialisation on ±sqrt(3 / (filter_size² · channels))."""
    return uniform_attr((3.0 / (filter_size ** 2 * channels)) ** 0.5)


class ConvLayer(nn.Layer):
    """A bias-free Conv2D with "same" padding."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, groups=1):
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride,
                               padding=(filter_size - 1) // 2, groups=groups, bias_attr=False)

    def forward(self, inputs):
        return self._conv(inputs)


class Inception(nn.Layer):
    """1x1, 1x1->3x3, 1x1->5x5 and maxpool->1x1 branches, concatenated, then ReLU."""

    def __init__(self, input_channels, output_channels, filter1, filter3R, filter3, filter5R,
                 filter5, proj):
        super().__init__()
        self._conv1 = ConvLayer(input_channels, filter1, 1)
        self._conv3r = ConvLayer(input_channels, filter3R, 1)
        self._conv3 = ConvLayer(filter3R, filter3, 3)
        self._conv5r = ConvLayer(input_channels, filter5R, 1)
        self._conv5 = ConvLayer(filter5R, filter5, 5)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=1, padding=1)
        self._convprj = ConvLayer(input_channels, proj, 1)

    def forward(self, inputs):
        branches = [self._conv1(inputs), self._conv3(self._conv3r(inputs)),
                    self._conv5(self._conv5r(inputs)), self._convprj(self._pool(inputs))]
        return F.relu(T.concat(branches, axis=1))


# name: input channels, 1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool projection
_INCEPTIONS = {"3a": (192, 64, 96, 128, 16, 32, 32), "3b": (256, 128, 128, 192, 32, 96, 64),
               "4a": (480, 192, 96, 208, 16, 48, 64), "4b": (512, 160, 112, 224, 24, 64, 64),
               "4c": (512, 128, 128, 256, 24, 64, 64), "4d": (512, 112, 144, 288, 32, 64, 64),
               "4e": (528, 256, 160, 320, 32, 128, 128),
               "5a": (832, 256, 160, 320, 32, 128, 128),
               "5b": (832, 384, 192, 384, 48, 128, 128)}


class GoogLeNet(nn.Layer):
    """GoogLeNet from "Going Deeper with Convolutions"; returns the main output and the two
    auxiliary outputs (from inception 4a and 4d). With num_classes > 0 the auxiliary heads
    need 3x224x224-sized inputs (their fc layers take 128x3x3 features).

    Args:
        num_classes (int): outputs of each head; <= 0 leaves the heads out (default 1000).
        with_pool (bool): pooling before the heads (default True).

    Example:
        >>> out, aux1, aux2 = GoogLeNet(num_classes=10)(paddle.rand([1, 3, 224, 224]))
    """

    def __init__(self, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes, self.with_pool = num_classes, with_pool
        self._conv = ConvLayer(3, 64, 7, 2)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2)
        self._conv_1 = ConvLayer(64, 64, 1)
        self._conv_2 = ConvLayer(64, 192, 3)
        for name, (cin, *filters) in _INCEPTIONS.items():
            setattr(self, f"_ince{name}", Inception(cin, cin, *filters))
        if with_pool:
            self._pool_5 = nn.AdaptiveAvgPool2D(1)
            self._pool_o1 = nn.AvgPool2D(kernel_size=5, stride=3)
            self._pool_o2 = nn.AvgPool2D(kernel_size=5, stride=3)
        if num_classes > 0:
            self._drop = nn.Dropout(p=0.4, mode="downscale_in_infer")
            self._fc_out = nn.Linear(1024, num_classes, weight_attr=xavier(1024, 1))
            for i, channels in ((1, 512), (2, 528)):
                setattr(self, f"_conv_o{i}", ConvLayer(channels, 128, 1))
                setattr(self, f"_fc_o{i}", nn.Linear(1152, 1024, weight_attr=xavier(2048, 1)))
                setattr(self, f"_drop_o{i}", nn.Dropout(p=0.7, mode="downscale_in_infer"))
                setattr(self, f"_out{i}", nn.Linear(1024, num_classes,
                                                    weight_attr=xavier(1024, 1)))

    def _stages(self, x, names):
        for name in names:
            x = getattr(self, f"_ince{name}")(x)
        return x

    def _aux(self, x, i):
        """Auxiliary head i (Paddle applies ReLU after the first one's fc layer only)."""
        x = getattr(self, f"_fc_o{i}")(T.flatten(getattr(self, f"_conv_o{i}")(x), 1))
        x = F.relu(x) if i == 1 else x
        return getattr(self, f"_out{i}")(getattr(self, f"_drop_o{i}")(x))

    def forward(self, inputs):
        x = self._pool(self._conv_2(self._conv_1(self._pool(self._conv(inputs)))))
        x = self._pool(self._stages(x, ["3a", "3b"]))
        out1 = self._ince4a(x)
        out2 = self._stages(out1, ["4b", "4c", "4d"])
        out = self._stages(self._pool(self._ince4e(out2)), ["5a", "5b"])
        if self.with_pool:
            out, out1, out2 = self._pool_5(out), self._pool_o1(out1), self._pool_o2(out2)
        if self.num_classes > 0:
            out = self._fc_out(T.squeeze(self._drop(out), axis=[2, 3]))
            out1, out2 = self._aux(out1, 1), self._aux(out2, 2)
        return out, out1, out2


googlenet = model_function("googlenet", GoogLeNet, "GoogLeNet (Inception v1) model")

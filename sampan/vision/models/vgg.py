"""VGG 11/13/16/19, with or without batch norm."""
from ... import nn
from ._base import check_pretrained, pool_and_classify

__all__ = ["VGG", "make_layers", "vgg11", "vgg13", "vgg16", "vgg19"]


class VGG(nn.Layer):
    """VGG from "Very Deep Convolutional Networks For Large-Scale Image Recognition".

    Args:
        features (nn.Layer): the convolutional part, e.g. from `make_layers(cfg)`.
        num_classes (int): outputs of the last fc layer; <= 0 leaves the three fc layers out
            (default 1000).
        with_pool (bool): adaptive average pooling to 7x7 before the fc layers (default True).

    Example:
        >>> model = VGG(make_layers([64, 'M', 128, 'M']), num_classes=0)
    """

    def __init__(self, features, num_classes=1000, with_pool=True):
        super().__init__()
        self.features = features
        self.num_classes, self.with_pool = num_classes, with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, num_classes))

    def forward(self, x):
        return pool_and_classify(self, self.features(x), classifier="classifier")


def make_layers(cfg, batch_norm=False):
    """VGG's convolutional stack: an int is a 3x3 conv (+ BatchNorm2D) + ReLU with that many
    output channels, 'M' a 2x2 max pool."""
    layers, in_channels = [], 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2D(in_channels, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2D(v))
        layers.append(nn.ReLU())
        in_channels = v
    return nn.Sequential(*layers)


_CFGS = {
    11: [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    13: [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    16: [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M",
         512, 512, 512, "M"],
    19: [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M",
         512, 512, 512, 512, "M"],
}


def _vgg_function(depth):
    def make(pretrained=False, batch_norm=False, **kwargs):
        check_pretrained(f"vgg{depth}" + ("_bn" if batch_norm else ""), pretrained)
        return VGG(make_layers(_CFGS[depth], batch_norm=batch_norm), **kwargs)

    make.__name__ = make.__qualname__ = f"vgg{depth}"
    make.__doc__ = (f"VGG {depth}-layer model.\n\n"
                    f"Args:\n"
                    f"    pretrained (bool): must be False: sampan cannot download Paddle's "
                    f"weights.\n"
                    f"    batch_norm (bool): a BatchNorm2D after every convolution "
                    f"(default False).\n"
                    f"    **kwargs: num_classes, with_pool (see VGG).\n\n"
                    f"Example:\n    >>> model = vgg{depth}(batch_norm=True, num_classes=10)\n")
    return make


vgg11, vgg13, vgg16, vgg19 = (_vgg_function(depth) for depth in (11, 13, 16, 19))

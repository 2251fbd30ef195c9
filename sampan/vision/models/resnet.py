"""ResNet, ResNeXt and Wide ResNet (Paddle's layer names, so state_dict keys match)."""
from ... import nn
from ._base import model_function, pool_and_classify

__all__ = ["ResNet", "BasicBlock", "BottleneckBlock", "resnet18", "resnet34", "resnet50",
           "resnet101", "resnet152", "resnext50_32x4d", "resnext50_64x4d", "resnext101_32x4d",
           "resnext101_64x4d", "resnext152_32x4d", "resnext152_64x4d", "wide_resnet50_2",
           "wide_resnet101_2"]


class _Residual(nn.Layer):
    """`relu(body(x) + shortcut(x))`; the shortcut is `downsample` or the identity."""

    def _join(self, out, x):
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class BasicBlock(_Residual):
    """Two 3x3 conv-BN layers with a shortcut (ResNet-18/34)."""

    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64,
                 dilation=1, norm_layer=None):
        super().__init__()
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        norm_layer = norm_layer or nn.BatchNorm2D
        self.conv1 = nn.Conv2D(inplanes, planes, 3, padding=1, stride=stride, bias_attr=False)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2D(planes, planes, 3, padding=1, bias_attr=False)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        return self._join(self.bn2(self.conv2(out)), x)


class BottleneckBlock(_Residual):
    """1x1 reduce, 3x3 (grouped) and 1x1 expand conv-BN layers with a shortcut
    (ResNet-50 and deeper, ResNeXt, Wide ResNet)."""

    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64,
                 dilation=1, norm_layer=None):
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = nn.Conv2D(inplanes, width, 1, bias_attr=False)
        self.bn1 = norm_layer(width)
        self.conv2 = nn.Conv2D(width, width, 3, padding=dilation, stride=stride, groups=groups,
                               dilation=dilation, bias_attr=False)
        self.bn2 = norm_layer(width)
        self.conv3 = nn.Conv2D(width, planes * self.expansion, 1, bias_attr=False)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        return self._join(self.bn3(self.conv3(out)), x)


_BLOCKS_PER_STAGE = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3],
                     152: [3, 8, 36, 3]}


class ResNet(nn.Layer):
    """ResNet from "Deep Residual Learning for Image Recognition".

    Args:
        block (BasicBlock|BottleneckBlock): the residual block.
        depth (int): 18, 34, 50, 101 or 152 (default 50).
        width (int): base width per convolution group (default 64; 128 for Wide ResNet).
        num_classes (int): outputs of the last fc layer; <= 0 leaves the fc layer out
            (default 1000).
        with_pool (bool): global average pooling before the fc layer (default True).
        groups (int): convolution groups in each block (default 1; 32 or 64 for ResNeXt).

    Example:
        >>> model = ResNet(BasicBlock, 18, num_classes=10)
        >>> model(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, block, depth=50, width=64, num_classes=1000, with_pool=True, groups=1):
        super().__init__()
        if depth not in _BLOCKS_PER_STAGE:
            raise ValueError(f"ResNet depth must be one of {sorted(_BLOCKS_PER_STAGE)}, "
                             f"got {depth}")
        layers = _BLOCKS_PER_STAGE[depth]
        self.groups, self.base_width = groups, width
        self.num_classes, self.with_pool = num_classes, with_pool
        self._norm_layer = nn.BatchNorm2D
        self.inplanes, self.dilation = 64, 1
        self.conv1 = nn.Conv2D(3, self.inplanes, kernel_size=7, stride=2, padding=3,
                               bias_attr=False)
        self.bn1 = self._norm_layer(self.inplanes)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2D(self.inplanes, planes * block.expansion, 1, stride=stride,
                          bias_attr=False),
                self._norm_layer(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample, self.groups,
                        self.base_width, previous_dilation, self._norm_layer)]
        self.inplanes = planes * block.expansion
        layers += [block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                         norm_layer=self._norm_layer) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return pool_and_classify(self, x)


def _variant(arch, block, depth, title, **fixed):
    return model_function(arch, ResNet, title, block=block, depth=depth, **fixed)


resnet18 = _variant("resnet18", BasicBlock, 18, "ResNet 18-layer model")
resnet34 = _variant("resnet34", BasicBlock, 34, "ResNet 34-layer model")
resnet50 = _variant("resnet50", BottleneckBlock, 50, "ResNet 50-layer model")
resnet101 = _variant("resnet101", BottleneckBlock, 101, "ResNet 101-layer model")
resnet152 = _variant("resnet152", BottleneckBlock, 152, "ResNet 152-layer model")
resnext50_32x4d = _variant("resnext50_32x4d", BottleneckBlock, 50, "ResNeXt-50 32x4d model",
                           groups=32, width=4)
resnext50_64x4d = _variant("resnext50_64x4d", BottleneckBlock, 50, "ResNeXt-50 64x4d model",
                           groups=64, width=4)
resnext101_32x4d = _variant("resnext101_32x4d", BottleneckBlock, 101,
                            "ResNeXt-101 32x4d model", groups=32, width=4)
resnext101_64x4d = _variant("resnext101_64x4d", BottleneckBlock, 101,
                            "ResNeXt-101 64x4d model", groups=64, width=4)
resnext152_32x4d = _variant("resnext152_32x4d", BottleneckBlock, 152,
                            "ResNeXt-152 32x4d model", groups=32, width=4)
resnext152_64x4d = _variant("resnext152_64x4d", BottleneckBlock, 152,
                            "ResNeXt-152 64x4d model", groups=64, width=4)
wide_resnet50_2 = _variant("wide_resnet50_2", BottleneckBlock, 50, "Wide ResNet-50-2 model",
                           width=128)
wide_resnet101_2 = _variant("wide_resnet101_2", BottleneckBlock, 101,
                            "Wide ResNet-101-2 model", width=128)

"""ShuffleNetV2."""
import functools

from ... import nn
from ... import tensor as T
from ...nn import functional as F
from ..ops import ConvNormActivation
from ._base import model_function, pool_and_classify

__all__ = ["ShuffleNetV2", "shufflenet_v2_x0_25", "shufflenet_v2_x0_33", "shufflenet_v2_x0_5",
           "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0",
           "shufflenet_v2_swish"]

_ACTIVATIONS = {"relu": nn.ReLU, "swish": nn.Swish, None: None}


def create_activation_layer(act):
    """The activation Layer class for "relu", "swish" or None."""
    if act not in _ACTIVATIONS:
        raise RuntimeError(f"The activation function is not supported: {act}")
    return _ACTIVATIONS[act]


def _branch(layer, in_channels, out_channels, stride, activation_layer, names):
    """Register on `layer` a 1x1 pointwise, a 3x3 depthwise (no activation) and a 1x1 linear
    conv-BN block under `names` (a 1x1 only when names[0] is not None); return their order."""
    unit = functools.partial(ConvNormActivation, padding=0, stride=1, kernel_size=1,
                             activation_layer=activation_layer)
    pw, dw, linear = names
    blocks = []
    if pw is not None:
        blocks.append(layer.add_sublayer(pw, unit(in_channels, out_channels)))
        in_channels = out_channels
    blocks.append(layer.add_sublayer(dw, ConvNormActivation(
        in_channels, in_channels, 3, stride, padding=1, groups=in_channels,
        activation_layer=None)))
    blocks.append(layer.add_sublayer(linear, unit(in_channels, out_channels)))
    return blocks


def _run(blocks, x):
    for block in blocks:
        x = block(x)
    return x


class InvertedResidual(nn.Layer):
    """Split the channels in two, transform the second half, concatenate, shuffle."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        self._blocks = _branch(self, in_channels // 2, out_channels // 2, stride,
                               activation_layer, ("_conv_pw", "_conv_dw", "_conv_linear"))

    def forward(self, inputs):
        half = inputs.shape[1] // 2
        x1, x2 = T.split(inputs, num_or_sections=[half, half], axis=1)
        return F.channel_shuffle(T.concat([x1, _run(self._blocks, x2)], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """Downsampling unit: two strided branches over the whole input, concatenated and
    shuffled."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        self._branch1 = _branch(self, in_channels, out_channels // 2, stride,
                                activation_layer, (None, "_conv_dw_1", "_conv_linear_1"))
        self._branch2 = _branch(self, in_channels, out_channels // 2, stride,
                                activation_layer, ("_conv_pw_2", "_conv_dw_2",
                                                   "_conv_linear_2"))

    def forward(self, inputs):
        out = T.concat([_run(self._branch1, inputs), _run(self._branch2, inputs)], axis=1)
        return F.channel_shuffle(out, 2)


_STAGE_CHANNELS = {0.25: [24, 24, 48, 96, 512], 0.33: [24, 32, 64, 128, 512],
                   0.5: [24, 48, 96, 192, 1024], 1.0: [24, 116, 232, 464, 1024],
                   1.5: [24, 176, 352, 704, 1024], 2.0: [24, 224, 488, 976, 2048]}
_STAGE_REPEATS = [4, 8, 4]


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2 from "ShuffleNet V2: Practical Guidelines for Efficient CNN Architecture
    Design".

    Args:
        scale (float): 0.25, 0.33, 0.5, 1.0, 1.5 or 2.0 (default 1.0).
        act (str): "relu" or "swish" (default "relu").
        num_classes (int): outputs of the fc layer; <= 0 leaves it out (default 1000).
        with_pool (bool): global average pooling before the fc layer (default True).

    Example:
        >>> ShuffleNetV2(scale=0.25, num_classes=10)(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        if scale not in _STAGE_CHANNELS:
            raise NotImplementedError(f"This scale size:[{scale}] is not implemented!")
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        channels = _STAGE_CHANNELS[scale]
        activation_layer = create_activation_layer(act)
        self._conv1 = ConvNormActivation(3, channels[0], 3, stride=2, padding=1,
                                         activation_layer=activation_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate(_STAGE_REPEATS):
            cin, cout = channels[stage], channels[stage + 1]
            for i in range(repeats):
                block = (InvertedResidualDS(cin, cout, 2, activation_layer) if i == 0
                         else InvertedResidual(cout, cout, 1, activation_layer))
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = ConvNormActivation(channels[-2], channels[-1], 1, padding=0,
                                             activation_layer=activation_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs):
        x = _run(self._block_list, self._max_pool(self._conv1(inputs)))
        return pool_and_classify(self, self._last_conv(x), "_pool2d_avg", "_fc")


(shufflenet_v2_x0_25, shufflenet_v2_x0_33, shufflenet_v2_x0_5, shufflenet_v2_x1_0,
 shufflenet_v2_x1_5, shufflenet_v2_x2_0) = (
    model_function(f"shufflenet_v2_{tag}", ShuffleNetV2, f"ShuffleNetV2 with {scale}x channels",
                   scale=scale)
    for tag, scale in (("x0_25", 0.25), ("x0_33", 0.33), ("x0_5", 0.5), ("x1_0", 1.0),
                       ("x1_5", 1.5), ("x2_0", 2.0)))
shufflenet_v2_swish = model_function("shufflenet_v2_swish", ShuffleNetV2,
                                     "ShuffleNetV2 with swish activations", scale=1.0,
                                     act="swish")

"""Layers carry the attributes Paddle's set in their constructors (model-zoo code reads
`_output_size`, `_data_format`, `ksize`, `_kernel_size`, ...), with Paddle's values, and a
pooling layer reads them back when it runs. paddle_layer_vars.json was recorded from
Paddle 3.3.1 by tools/paddle_reference/layer_vars.py."""
import json
import pathlib

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn

PADDLE_VARS = json.loads((pathlib.Path(__file__).parent / "paddle_layer_vars.json").read_text())

# sampan keeps `_use_global_stats=None` for the legacy BatchNorm (docs/compatibility.md)
CASES = {
    "AdaptiveAvgPool1D": lambda: nn.AdaptiveAvgPool1D(2),
    "AdaptiveAvgPool2D": lambda: nn.AdaptiveAvgPool2D(2),
    "AdaptiveAvgPool3D": lambda: nn.AdaptiveAvgPool3D(2),
    "AdaptiveMaxPool1D": lambda: nn.AdaptiveMaxPool1D(2),
    "AdaptiveMaxPool2D": lambda: nn.AdaptiveMaxPool2D(2),
    "AdaptiveMaxPool3D": lambda: nn.AdaptiveMaxPool3D(2),
    "AvgPool1D": lambda: nn.AvgPool1D(2), "AvgPool2D": lambda: nn.AvgPool2D(2),
    "AvgPool3D": lambda: nn.AvgPool3D(2), "MaxPool1D": lambda: nn.MaxPool1D(2),
    "MaxPool2D": lambda: nn.MaxPool2D(2), "MaxPool3D": lambda: nn.MaxPool3D(2),
    "MaxUnPool1D": lambda: nn.MaxUnPool1D(2), "MaxUnPool2D": lambda: nn.MaxUnPool2D(2),
    "MaxUnPool3D": lambda: nn.MaxUnPool3D(2), "LPPool1D": lambda: nn.LPPool1D(2, 2),
    "LPPool2D": lambda: nn.LPPool2D(2, 2),
    "Conv1D": lambda: nn.Conv1D(2, 4, 3), "Conv2D": lambda: nn.Conv2D(2, 4, 3),
    "Conv3D": lambda: nn.Conv3D(2, 4, 3), "Conv1DTranspose": lambda: nn.Conv1DTranspose(2, 4, 3),
    "Conv2DTranspose": lambda: nn.Conv2DTranspose(2, 4, 3),
    "Conv3DTranspose": lambda: nn.Conv3DTranspose(2, 4, 3),
    "DepthwiseConv2D": lambda: nn.Conv2D(4, 8, 3, groups=4, padding=[1, 1, 1, 1]),
    "BatchNorm1D": lambda: nn.BatchNorm1D(4), "BatchNorm2D": lambda: nn.BatchNorm2D(4),
    "BatchNorm3D": lambda: nn.BatchNorm3D(4), "SyncBatchNorm": lambda: nn.SyncBatchNorm(4),
    "InstanceNorm1D": lambda: nn.InstanceNorm1D(4), "InstanceNorm2D": lambda: nn.InstanceNorm2D(4),
    "InstanceNorm3D": lambda: nn.InstanceNorm3D(4), "LayerNorm": lambda: nn.LayerNorm(4),
    "GroupNorm": lambda: nn.GroupNorm(2, 4), "LocalResponseNorm": lambda: nn.LocalResponseNorm(3),
    "SpectralNorm": lambda: nn.SpectralNorm([4, 4]), "Linear": lambda: nn.Linear(2, 3),
    "Embedding": lambda: nn.Embedding(5, 3), "Dropout": lambda: nn.Dropout(0.5),
    "Dropout2D": lambda: nn.Dropout2D(), "Upsample": lambda: nn.Upsample(scale_factor=2),
    "Pad2D": lambda: nn.Pad2D(1), "ZeroPad2D": lambda: nn.ZeroPad2D(1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_has_paddles_attributes_with_paddles_values(name):
    layer = CASES[name]()
    ours = {k: "<tensor>" if hasattr(v, "shape") else repr(v) for k, v in vars(layer).items()}
    expected = PADDLE_VARS[name]
    missing = sorted(set(expected) - set(ours))
    assert not missing, f"{name} lacks Paddle's attributes {missing}"
    differ = {k: (expected[k], ours[k]) for k in expected if expected[k] != ours[k]}
    assert not differ, f"{name}: (Paddle, sampan) values differ: {differ}"


def test_every_recorded_layer_is_checked():
    assert set(CASES) == set(PADDLE_VARS)


def test_changed_pool_attribute_takes_effect():
    x = paddle.to_tensor(np.arange(2 * 3 * 6 * 6, dtype="float32").reshape(2, 3, 6, 6))
    pool = nn.AdaptiveAvgPool2D(1)
    pool._output_size = 2
    np.testing.assert_allclose(pool(x).numpy(),
                               x.numpy().reshape(2, 3, 2, 3, 2, 3).mean(axis=(3, 5)))
    maxpool = nn.MaxPool2D(2)
    maxpool.ksize, maxpool.stride = 3, 3
    assert maxpool(x).shape == [2, 3, 2, 2]


def test_conv_padding_fields_follow_paddle():
    same = nn.Conv2D(2, 2, 3, padding="same")
    assert (same._padding_algorithm, same._updated_padding) == ("SAME", [0, 0])
    pairs = nn.Conv2D(2, 2, 3, padding=[1, 2, 1, 2])
    assert pairs._updated_padding == [1, 2, 1, 2]
    assert nn.Conv2D(2, 4, 3, data_format="NHWC")._channel_dim == 3
    nested = nn.Conv2D(2, 2, 3, padding=[[0, 0], [0, 0], [1, 1], [2, 2]])
    assert nested._updated_padding == [1, 2]


@pytest.mark.parametrize("make", [lambda: nn.ReLU(True), lambda: nn.ReLU("relu_a"),
                                  lambda: nn.LeakyReLU(0.2, "leaky"),
                                  lambda: nn.Softmax(-1, name="soft")])
def test_activation_takes_name_positionally_after_its_arguments(make):
    layer = make()
    assert layer._name in (True, "relu_a", "leaky", "soft")
    x = paddle.to_tensor([[-1.0, 2.0]])
    assert layer(x).shape == [1, 2]


def test_activation_rejects_extra_or_repeated_arguments():
    with pytest.raises(TypeError, match=r"ReLU\(\) takes the arguments \['name'\]"):
        nn.ReLU(True, 1)
    with pytest.raises(TypeError, match="multiple values for \\['negative_slope'\\]"):
        nn.LeakyReLU(0.2, negative_slope=0.3)

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

from .layer_cases import layer_cases

PADDLE_VARS = json.loads((pathlib.Path(__file__).parent / "paddle_layer_vars.json").read_text())

# sampan keeps `_use_global_stats=None` for the legacy BatchNorm (docs/compatibility.md)
CASES = layer_cases(nn)


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

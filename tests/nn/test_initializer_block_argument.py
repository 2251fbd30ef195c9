"""Model-zoo initialisation as PaddleSeg writes it, `init(param, param.block)`: an eager
parameter reports the default main Program's global block, as Paddle's does, and the
initializer fills it."""
import numpy as np

import sampan as paddle
from sampan import nn


def test_eager_parameter_block_is_the_default_global_block():
    layer = nn.Linear(3, 2)
    assert layer.weight.block is paddle.static.default_main_program().global_block()
    assert paddle.ones([1]).block is layer.weight.block


def test_initializer_called_with_the_block_fills_the_parameter():
    layer = nn.Conv2D(2, 4, 3)
    nn.initializer.Constant(0.25)(layer.weight, layer.weight.block)
    np.testing.assert_array_equal(layer.weight.numpy(), np.full([4, 2, 3, 3], 0.25))
    paddle.seed(1)
    nn.initializer.KaimingNormal()(layer.weight, layer.weight.block)
    std = np.sqrt(2.0 / (2 * 3 * 3))
    assert abs(layer.weight.numpy().std() - std) < 0.5 * std

"""A loaded layer checks each new input signature once; later calls with the same class,
shape and dtype run at once, and any other input is still checked."""
import os

import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.static import InputSpec


@pytest.fixture
def loaded(tmp_path):
    paddle.seed(0)
    net = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3))
    prefix = os.path.join(tmp_path, "mlp")
    paddle.jit.save(net, prefix, input_spec=[InputSpec([None, 6], "float32", "x")])
    return net, paddle.jit.load(prefix)


def test_repeated_calls_match_the_layer_and_new_inputs_are_still_checked(loaded):
    net, layer = loaded
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((4, 6)).astype("float32"))
    with paddle.no_grad():
        for _ in range(3):  # the first call checks, the others take the known signature
            np.testing.assert_allclose(layer(x).numpy(), net(x).numpy(), rtol=1e-6)
        other_batch = paddle.to_tensor(np.ones((2, 6), "float32"))
        np.testing.assert_allclose(layer(other_batch).numpy(), net(other_batch).numpy(),
                                   rtol=1e-6)
        with pytest.raises(TypeError, match="dtype"):
            layer(paddle.to_tensor(np.ones((4, 6), "float64")))
        with pytest.raises(ValueError, match="shape"):
            layer(paddle.to_tensor(np.ones((4, 6, 1), "float32")))
        with pytest.raises(TypeError, match="input tensor"):
            layer(x, x)
        # an array is converted and checked like a Tensor
        np.testing.assert_allclose(layer(np.ones((4, 6), "float32")).numpy(),
                                   net(paddle.ones([4, 6])).numpy(), rtol=1e-6)


def test_a_known_signature_still_records_gradients(loaded):
    net, layer = loaded
    x = paddle.to_tensor(np.ones((4, 6), "float32"))
    with paddle.no_grad():
        layer(x)
    layer(x).sum().backward()
    net(x).sum().backward()
    for p, q in zip(layer.parameters(), net.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5)

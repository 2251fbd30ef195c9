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


def test_an_input_reshaped_in_place_is_checked_again(loaded):
    _, layer = loaded
    x = paddle.to_tensor(np.ones((4, 6), "float32"))
    with paddle.no_grad():
        layer(x)
        x.reshape_([4, 6, 1])
        with pytest.raises(ValueError, match=r"expected shape \[-1, 6\]"):
            layer(x)
        x.reshape_([2, 12])
        with pytest.raises(ValueError, match="dimension 1"):
            layer(x)


def test_calls_without_gradients_see_parameters_replaced_or_updated_in_place(loaded):
    net, layer = loaded
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((3, 6)).astype("float32"))
    rng = np.random.default_rng(2)
    with paddle.no_grad():
        np.testing.assert_allclose(layer(x).numpy(), net(x).numpy(), rtol=1e-6)
        for p, q in zip(layer.parameters(), net.parameters()):  # replaced arrays
            value = rng.standard_normal(p.shape).astype("float32")
            p.set_value(value)
            q.set_value(value)
        np.testing.assert_allclose(layer(x).numpy(), net(x).numpy(), rtol=1e-6)
        for p, q in zip(layer.parameters(), net.parameters()):  # the same arrays, new data
            p._data *= 2
            q._data *= 2
        np.testing.assert_allclose(layer(x).numpy(), net(x).numpy(), rtol=1e-6)
    layer.set_state_dict(net.state_dict())
    with paddle.no_grad():
        np.testing.assert_allclose(layer(x).numpy(), net(x).numpy(), rtol=1e-6)

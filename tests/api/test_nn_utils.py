"""nn.utils: clip_grad_value_, vector_to_parameters, weight_norm / remove_weight_norm and
spectral_norm against NumPy formulas."""
import numpy as np
import pytest

import sampan as paddle
from sampan.nn.utils import (clip_grad_value_, parameters_to_vector, remove_weight_norm,
                             spectral_norm, vector_to_parameters, weight_norm)
from tests.api._check import numeric_grad, tensor

rng = np.random.default_rng(11)


def _np_weight_norm(v, g, dim):
    if dim is None:
        return g * v / (np.sqrt(np.sum(v ** 2)) + 1e-12)
    axes = tuple(a for a in range(v.ndim) if a != dim)
    shape = [1] * v.ndim
    shape[dim] = -1
    return g.reshape(shape) * v / np.sqrt(np.sum(v ** 2, axes, keepdims=True))


def test_clip_grad_value_clips_in_place_and_skips_missing_grads():
    layer = paddle.nn.Linear(3, 2)
    (layer(tensor(rng.normal(size=(4, 3)) * 10).astype("float32")).sum() * 5).backward()
    before = layer.weight.grad.numpy()
    clip_grad_value_(layer.parameters(), 0.5)
    np.testing.assert_allclose(layer.weight.grad.numpy(), np.clip(before, -0.5, 0.5))
    fresh = paddle.nn.Linear(2, 2)
    clip_grad_value_(fresh.weight, 1.0)
    assert fresh.weight.grad is None


def test_vector_round_trip_and_size_check():
    layer = paddle.nn.Linear(3, 2)
    vec = parameters_to_vector(layer.parameters())
    new = tensor(np.arange(vec.shape[0], dtype="float32"))
    vector_to_parameters(new, layer.parameters())
    np.testing.assert_array_equal(layer.weight.numpy(), np.arange(6).reshape(3, 2))
    np.testing.assert_array_equal(layer.bias.numpy(), [6, 7])
    assert not layer.weight.stop_gradient
    with pytest.raises(ValueError, match="8 elements"):
        vector_to_parameters(tensor(np.zeros(5, "float32")), layer.parameters())


@pytest.mark.parametrize("dim", [0, 1, 3, -1, None])
def test_weight_norm_names_shapes_values(dim):
    conv = paddle.nn.Conv2D(3, 5, 3)
    w = conv.weight.numpy()
    weight_norm(conv, dim=dim)
    whole = dim in (None, -1)
    assert conv.weight_g.shape == ([] if whole else [w.shape[dim]])
    assert conv.weight_v.shape == list(w.shape)
    assert sorted(conv.state_dict()) == ["bias", "weight_g", "weight_v"]
    np.testing.assert_allclose(conv.weight.numpy(), w, rtol=1e-5, atol=1e-6)
    with paddle.no_grad():
        conv.weight_g.set_value(conv.weight_g.numpy() * 2)
    conv(tensor(rng.normal(size=(1, 3, 5, 5)).astype("float32")))
    want = _np_weight_norm(conv.weight_v.numpy(), conv.weight_g.numpy(), None if whole else dim)
    np.testing.assert_allclose(conv.weight.numpy(), want, rtol=1e-5)


def test_weight_norm_gradients_match_central_differences():
    layer = paddle.nn.Linear(3, 4).to(dtype="float64")
    weight_norm(layer, dim=1)
    x = rng.normal(size=(2, 3))
    layer(tensor(x)).sum().backward()
    g, v = layer.weight_g.numpy().copy(), layer.weight_v.numpy().copy()
    b = layer.bias.numpy()

    def loss(g, v):
        return x @ _np_weight_norm(v, g, 1) + b
    np.testing.assert_allclose(layer.weight_g.grad.numpy(), numeric_grad(loss, [g, v], 0),
                               rtol=1e-5)
    np.testing.assert_allclose(layer.weight_v.grad.numpy(), numeric_grad(loss, [g, v], 1),
                               rtol=1e-5, atol=1e-8)


def test_remove_weight_norm_restores_one_parameter():
    layer = paddle.nn.Linear(3, 4)
    weight_norm(layer)
    with pytest.raises(RuntimeError, match="two weight_norm"):
        weight_norm(layer)
    expected = layer.weight.numpy()
    remove_weight_norm(layer)
    assert sorted(layer.state_dict()) == ["bias", "weight"]
    assert type(layer.weight) is type(layer.bias) and not layer.weight.stop_gradient
    np.testing.assert_allclose(layer.weight.numpy(), expected, rtol=1e-6)
    assert not layer._forward_pre_hooks
    with pytest.raises(ValueError, match="not found"):
        remove_weight_norm(layer)
    with pytest.raises(ValueError, match="dim must be in"):
        weight_norm(paddle.nn.Linear(2, 2), dim=2)


def test_spectral_norm_converges_to_unit_top_singular_value():
    layer = paddle.nn.Linear(5, 3)
    spectral_norm(layer, n_power_iterations=3)
    assert sorted(layer.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert layer.weight_u.shape == [3] and layer.weight_v.shape == [5]
    for _ in range(10):
        layer(tensor(rng.normal(size=(2, 5)).astype("float32")))
    top = np.linalg.svd(layer.weight.numpy(), compute_uv=False)[0]
    np.testing.assert_allclose(top, 1.0, rtol=1e-4)
    out = layer(tensor(np.ones((1, 5), "float32"))).sum()
    out.backward()
    assert layer.weight_orig.grad is not None and layer.weight_orig.grad.shape == [5, 3]
    conv = spectral_norm(paddle.nn.Conv2D(2, 4, 3))
    assert conv.weight_u.shape == [4] and conv.weight_v.shape == [18]

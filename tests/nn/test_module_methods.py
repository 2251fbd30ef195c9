"""Paddle 3.3.1's torch-style Layer methods (named_modules, get_submodule, zero_grad,
load_state_dict, ...) and Sequential.append / insert / extend, as Paddle behaves."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("count", paddle.zeros([1]))

    def forward(self, x):
        return self.fc(x)


def _net():
    paddle.seed(0)
    shared = nn.ReLU()
    return nn.Sequential(("body", Block()), ("act", shared), ("again", shared))


def test_modules_and_named_modules_include_the_layer_and_skip_duplicates():
    net = _net()
    assert [n for n, _ in net.named_modules()] == ["", "body", "body.fc", "act"]
    assert [n for n, _ in net.named_modules(remove_duplicate=False)] == \
        ["", "body", "body.fc", "act", "again"]
    assert [n for n, _ in net.named_sublayers(remove_duplicate=False)] == \
        ["body", "body.fc", "act", "again"]
    assert list(net.modules()) == [net, net.body, net.body.fc, net.act]
    assert [n for n, _ in net.named_modules(prefix="m")] == ["m", "m.body", "m.body.fc",
                                                             "m.act"]


def test_dotted_lookups_and_replacement():
    net = _net()
    assert net.get_submodule("body.fc") is net.body.fc is net.get_sublayer("body.fc")
    assert net.get_submodule("") is net
    assert net.get_parameter("body.fc.weight") is net.body.fc.weight
    assert net.get_buffer("body.count") is net.body.count
    with pytest.raises(AttributeError, match=r"no sublayer 'head' \(looking up 'body.head'\)"):
        net.get_submodule("body.head")
    with pytest.raises(AttributeError, match="no parameter 'scale'"):
        net.get_parameter("body.fc.scale")
    new = nn.Linear(3, 2)
    net.set_submodule("body.fc", new, strict=True)
    assert net.body.fc is new
    with pytest.raises(AttributeError, match="strict=True"):
        net.set_submodule("body.head", nn.ReLU(), strict=True)
    net.set_sublayer("body.head", nn.ReLU())
    assert isinstance(net.body.head, nn.ReLU)


def test_registration_spellings():
    layer = nn.Layer()
    layer.add_module("fc", nn.Linear(2, 2))
    layer.register_module("empty", None)
    param = layer.create_parameter([2])
    layer.register_parameter("scale", param)
    assert layer.fc is layer._sub_layers["fc"] and layer._sub_layers["empty"] is None
    assert layer.scale is param and [n for n, _ in layer.named_parameters()][0] == "scale"


def test_zero_grad_requires_grad_and_casts():
    net = _net()
    net(paddle.ones([4, 3])).sum().backward()
    weight = net.body.fc.weight
    net.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(weight.grad.numpy(), np.zeros([3, 2]))
    net(paddle.ones([4, 3])).sum().backward()
    net.zero_grad()
    assert weight.grad is None
    assert net.requires_grad_(False) is net and all(p.stop_gradient for p in net.parameters())
    net.requires_grad_()
    assert not any(p.stop_gradient for p in net.parameters())
    assert net.cpu() is net
    assert net.type("float64") is net and weight.dtype == paddle.float64


def test_load_state_dict_strict_and_result():
    net, other = _net(), _net()
    other.body.fc.weight.set_value(np.full([3, 2], 0.5, "float32"))
    result = net.load_state_dict(other.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert (result.missing_keys, result.unexpected_keys) == ([], [])
    np.testing.assert_array_equal(net.body.fc.weight.numpy(), np.full([3, 2], 0.5))
    partial = {k: v for k, v in other.state_dict().items() if k != "body.fc.bias"}
    partial["extra"] = paddle.ones([1])
    with pytest.raises(RuntimeError, match=r"missing keys \['body.fc.bias'\], unexpected "
                                           r"keys \['extra'\]"):
        net.load_state_dict(partial)
    assert net.load_state_dict(partial, strict=False) == (["body.fc.bias"], ["extra"])
    assert list(net.to_static_state_dict()) == list(net.state_dict())
    assert net.to_static_state_dict()["body.fc.weight"] is net.body.fc.weight


def test_register_forward_hook_and_prepend():
    layer, calls = nn.Linear(2, 2), []
    layer.register_forward_hook(lambda l, i, o: calls.append("first"))
    handle = layer.register_forward_hook(lambda l, i, o: calls.append("front"), prepend=True)
    layer(paddle.ones([1, 2]))
    assert calls == ["front", "first"]
    handle.remove()
    layer.register_forward_hook(lambda l, i, o: o * 0)
    np.testing.assert_array_equal(layer(paddle.ones([1, 2])).numpy(), [[0, 0]])
    with pytest.raises(NotImplementedError, match="with_kwargs"):
        layer.register_forward_hook(lambda *a: None, with_kwargs=True)


def test_sequential_append_insert_extend_as_paddle():
    seq = nn.Sequential(nn.ReLU(), nn.Tanh())
    assert seq.append(nn.Sigmoid()) is seq
    seq.insert(1, nn.ELU())
    seq.insert(-1, nn.ReLU6())
    seq.extend([nn.GELU()])
    # names and order recorded with Paddle 3.3.1
    assert [(k, type(v).__name__) for k, v in seq._sub_layers.items()] == [
        ("0", "ReLU"), ("1", "ELU"), ("2", "Tanh"), ("3", "ReLU6"), ("4", "Sigmoid"),
        ("5", "GELU")]
    x = paddle.to_tensor([[-1.0, 0.5]])
    want = x
    for layer in seq:
        want = layer(want)
    np.testing.assert_array_equal(seq(x).numpy(), want.numpy())
    with pytest.raises(IndexError, match="index 20 out of range"):
        seq.insert(20, nn.ReLU())

"""Calls that only make sense on eager tensors and layers, inside converted code: refused
with Paddle's exception types (AssertionError for Tensor.clear_gradient, ValueError for
Layer.set_state_dict), naming the user line; set_state_dict in static mode loads the
global scope, as in Paddle."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn, static
from sampan.jit import to_static
from sampan.jit.dy2static import error


def clears_gradient(x):
    y = x * 2
    y.clear_gradient()
    return y


def test_clear_gradient_is_eager_only():
    x = paddle.ones([2, 2])
    np.testing.assert_array_equal(clears_gradient(x).numpy(), np.full((2, 2), 2.0))
    with pytest.raises(AssertionError, match=r"clear_gradient\(\) works on eager Tensors") as info:
        to_static(clears_gradient, full_graph=True)(x)
    assert "y.clear_gradient()  <--- HERE" in str(info.value)


class ReloadsItself(nn.Layer):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(5, 2)

    def forward(self, x):
        state = self.state_dict()
        state["linear.weight"] = nn.functional.dropout(state["linear.weight"])
        self.set_state_dict(state)
        return self.linear(x)


def test_set_state_dict_in_converted_forward_is_refused():
    layer = ReloadsItself()
    before = {k: v.numpy().copy() for k, v in layer.state_dict().items()}
    with pytest.raises(ValueError, match="set_state_dict") as info:
        to_static(layer, full_graph=True)(paddle.ones([5]))
    assert "self.set_state_dict(state)  <--- HERE" in str(info.value)
    data = getattr(info.value, error.ERROR_DATA)
    assert data.error_type is ValueError and data.frames[-1][2] == "forward"
    # the layer keeps its eager parameters and values, and still loads eagerly
    for key, value in layer.state_dict().items():
        assert isinstance(value, paddle.Tensor)
        np.testing.assert_array_equal(value.numpy(), before[key])
    ones = {k: np.ones(v.shape, "float32") for k, v in before.items()}
    assert layer.set_state_dict(ones) == ([], [])
    np.testing.assert_array_equal(layer.linear(paddle.ones([5])).numpy(), [6.0, 6.0])


def test_set_state_dict_in_static_mode_loads_the_global_scope():
    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [1, 3], "float32")
            layer = nn.Linear(3, 2)
            out = layer(x)
        scope = static.Scope()
        with static.scope_guard(scope):
            exe = static.Executor()
            exe.run(startup)
            weight = np.arange(6, dtype="float32").reshape(3, 2)
            missing, unexpected = layer.set_state_dict({"weight": weight, "bias": [1.0, -1.0]})
            got, = exe.run(main, feed={"x": np.ones((1, 3), "float32")}, fetch_list=[out])
    finally:
        paddle.disable_static()
    assert (missing, unexpected) == ([], [])
    np.testing.assert_allclose(got, np.ones((1, 3)) @ weight + [1.0, -1.0])

"""How a to_static call's arguments bind to the function's parameters: defaults and keywords
name the same program as positional values, and arguments that cannot bind raise before
tracing (Paddle's exception types)."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import load, save, to_static
from sampan.static import InputSpec


def scaled_sum(a, b, c=1, d=2):
    return (a + b) * c + d


def test_explicit_defaults_and_keywords_reuse_the_program():
    f = to_static(scaled_sum, full_graph=True)
    a, b = paddle.ones([2, 3]), paddle.full([3], 2.0)
    first = f(a, b)
    for out in (f(a, b, 1, 2), f(a, b, c=1), f(a, b=b, d=2), f(b=b, a=a)):
        np.testing.assert_allclose(out.numpy(), first.numpy())
    assert len(f.program_cache) == 1
    np.testing.assert_allclose(f(a, b, c=3).numpy(), np.full([2, 3], 11.0))
    assert len(f.program_cache) == 2


def test_get_concrete_program_binds_like_a_call():
    f = to_static(scaled_sum, full_graph=True)
    specs = [InputSpec([None, 3]), InputSpec([3])]
    first, _ = f.get_concrete_program(*specs)
    assert f.get_concrete_program(*specs, 1, 2)[0] is first
    assert f.get_concrete_program(*specs, c=2)[0] is not first
    with pytest.raises(ValueError, match="missing argument 'b'"):
        f.get_concrete_program(specs[0])
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['e'\]"):
        f.get_concrete_program(*specs, e=4)


def test_arguments_that_cannot_bind_raise_before_tracing():
    f = to_static(scaled_sum, full_graph=True)
    a = paddle.ones([3])
    with pytest.raises(ValueError, match="takes 4 argument"):
        f(a, a, 1, 2, 5)
    with pytest.raises(TypeError, match=r"multiple values for argument\(s\) \['a'\]"):
        f(a, a, a=a)
    assert len(f.program_cache) == 0


def test_input_spec_takes_arguments_positionally():
    f = to_static(scaled_sum, input_spec=[InputSpec([3]), InputSpec([3])], full_graph=True)
    a = paddle.ones([3])
    np.testing.assert_allclose(f(a, a, c=2).numpy(), np.full([3], 6.0))
    with pytest.raises(ValueError, match=r"\['other'\].*positionally"):
        f(a, a, other=1)
    with pytest.raises(ValueError, match="input_spec has 5 entries"):
        to_static(scaled_sum, input_spec=[InputSpec([3])] * 5)


def test_inspecting_programs_in_static_mode_is_a_runtime_error():
    f = to_static(scaled_sum, input_spec=[InputSpec([3]), InputSpec([3])], full_graph=True)
    paddle.enable_static()
    try:
        for read in (lambda: f.concrete_program, lambda: f.inputs, lambda: f.outputs,
                     lambda: f.get_concrete_program(InputSpec([3]), InputSpec([3]))):
            with pytest.raises(RuntimeError, match="only available in dynamic mode"):
                read()
    finally:
        paddle.disable_static()


class DictNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.linear = paddle.nn.Linear(3, 2)

    def forward(self, x):
        return self.linear(x)

    @to_static(input_spec=[{"x": InputSpec([None, 3]), "y": InputSpec([None, 3])}],
               full_graph=True)
    def pair(self, d):
        return self.linear(d["x"] - d["y"])


def pairs_plus(items, bias=0.5):
    return items[0] * items[1] + bias


def test_save_retraces_structured_arguments(tmp_path):
    net = DictNet()
    x, y = paddle.rand([4, 3]), paddle.rand([4, 3])
    save(net, tmp_path / "net", input_spec=[InputSpec([None, 3])])
    loaded = load(tmp_path / "net")
    np.testing.assert_allclose(loaded.pair({"x": x, "y": y}).numpy(),
                               net.pair({"x": x, "y": y}).numpy(), rtol=1e-6)
    f = to_static(pairs_plus, full_graph=True)
    expected = f([x, y], 2.0)
    save(f, tmp_path / "fn")
    np.testing.assert_allclose(load(tmp_path / "fn")([x, y]).numpy(), expected.numpy(),
                               rtol=1e-6)


def total(x, *rest, scale=1.0):
    for item in rest:
        x = x + item
    return x * scale


def test_varargs_and_keyword_only_arguments_pass_through():
    f = to_static(total, full_graph=True)
    a = paddle.ones([2])
    np.testing.assert_allclose(f(a, a, a).numpy(), [3.0, 3.0])
    np.testing.assert_allclose(f(a, a, scale=2.0).numpy(), [4.0, 4.0])
    np.testing.assert_allclose(f(a).numpy(), [1.0, 1.0])
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['bias'\]"):
        f(a, bias=1.0)

"""API around to_static: switches, logging, check_consistency, cache, specs, outputs, plans."""
import logging
import types
import warnings

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
from sampan import jit
from sampan.jit import to_static
from sampan.static import InputSpec


def t(values):
    return paddle.to_tensor(np.asarray(values, "float32"))


def test_ignore_module_skips_conversion():
    module = types.ModuleType("jit_test_ignored")
    exec("def helper(x):\n    return x + 1\n", module.__dict__)  # noqa: S102 -- no source

    def user(x):
        return module.helper(x)
    from sampan.jit.operators import Call
    jit.ignore_module([module])
    assert Call(module.helper) is module.helper
    np.testing.assert_allclose(to_static(user)(t([1.0])).numpy(), [2.0])


def test_code_level_logs_final_code(caplog):
    def f(x):
        return x if x.sum() > 0 else -x
    jit.set_code_level(100)
    try:
        with caplog.at_level(logging.INFO, logger="sampan.jit"):
            to_static(f).code
    finally:
        jit.set_code_level(-1)
    text = caplog.text
    assert "After the IfElseConverter pass" in text and "_jst.IfElseExpr" in text
    assert "After the CallConverter" not in text


def test_code_level_env_var_selects_step(monkeypatch, capsys, caplog):
    def g(x):
        return x * 2
    monkeypatch.setattr(jit.log._Settings, "code_level", None)
    monkeypatch.setenv("TRANSLATOR_CODE_LEVEL", "1")
    with caplog.at_level(logging.INFO, logger="sampan.jit"):
        to_static(g).code
    assert "After the UnsupportedConverter pass (1/" in caplog.text
    jit.set_verbosity(1, also_to_stdout=True)
    try:
        to_static(g)(t([1.0]))
    finally:
        jit.set_verbosity(0)
    assert "tracing" in capsys.readouterr().out


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 100:
            return h * 0, {"raw": h, "tag": "net"}
        return paddle.tanh(h), {"raw": h, "tag": "net"}


def test_check_consistency_on_layer_and_function():
    x = t(np.random.RandomState(0).randn(4, 3))
    result = jit.check_consistency(Net(), x)
    assert result.max_output_diff < 1e-6 and result.max_grad_diff < 1e-5
    assert jit.check_consistency(lambda v: (v * v).sum(), x).max_grad_diff < 1e-6


def test_check_consistency_reports_difference():
    calls = []

    def drifting(x):
        calls.append(1)
        return x * len(calls)
    with pytest.raises(AssertionError, match="output 0: max"):
        jit.check_consistency(drifting, t([1.0, 2.0]))


def test_nested_outputs_keep_python_values():
    out, extra = to_static(Net())(t(np.ones((2, 3))))
    assert extra["tag"] == "net" and isinstance(extra["raw"], paddle.Tensor)
    assert out.shape == [2, 2]


def test_retrace_warning_names_argument():
    def scale(x, factor):
        return x * factor
    fn = to_static(scale)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(7):
            fn(t([1.0]), k)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2 and "'factor'" in messages[0] and "traced 6 times" in messages[0]


def test_input_spec_contradictions_name_argument():
    def f(x, y):
        return x + y
    fn = to_static(f, input_spec=[InputSpec([None, 2], "float32"), InputSpec([3], "float32")])
    with pytest.raises(ValueError, match=r"'x'.*\[-1, 2\].*\[2\]"):
        fn(t([1.0, 2.0]), t([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match=r"'y'.*\[3\].*\[4\]"):
        fn(t([[1.0, 2.0]]), t([1.0, 2.0, 3.0, 4.0]))


def test_plans_compiled_once_per_program_and_parameters_shared():
    model = to_static(Net())
    x = t(np.ones((2, 3)))
    for _ in range(3):
        out, _ = model(x)
        out.sum().backward()
    partial = model.forward.concrete_program.partial_program
    assert len(partial._compiled) == 1
    compiled = next(iter(partial._compiled.values()))
    assert compiled.backward is not None
    with paddle.no_grad():
        model(x)
    assert len(partial._compiled) == 2
    weight = model.fc.weight
    before = weight.grad.numpy().copy()
    weight.set_value(weight.numpy() * 0)
    out, _ = model(x)
    np.testing.assert_allclose(out.numpy(), np.tanh(np.broadcast_to(model.fc.bias.numpy(),
                                                                    (2, 2))), rtol=1e-6)
    assert before.shape == (3, 2)


def test_a_dropped_function_frees_its_conversion_and_programs():
    """Conversions are cached on the function and plans on their Program, so nothing
    global keeps a discarded to_static function (or what it built) alive."""
    import gc
    import weakref

    def make():
        def double_if_positive(x):
            if x.mean() > 0:
                return x * 2
            return x
        return double_if_positive
    fn = make()
    static = paddle.jit.to_static(fn)
    np.testing.assert_allclose(static(paddle.ones([2])).numpy(), [2.0, 2.0])
    alive = (weakref.ref(fn), weakref.ref(static.concrete_program.main_program))
    del fn, static
    gc.collect()
    assert [ref() for ref in alive] == [None, None]


SCALE = 1.0
TRACES = 0


def _scaled(x):
    global TRACES
    TRACES += 1
    return x * SCALE


def test_converted_code_reads_and_rebinds_the_modules_own_globals():
    """A retrace sees a global's new value and `global` writes reach the module (the
    converted function runs in its module's globals, not a copy)."""
    global SCALE
    static = paddle.jit.to_static(_scaled)
    before = TRACES
    np.testing.assert_allclose(static(paddle.ones([2])).numpy(), [1.0, 1.0])
    SCALE = 3.0
    try:
        np.testing.assert_allclose(static(paddle.ones([3])).numpy(), [3.0, 3.0, 3.0])
    finally:
        SCALE = 1.0
    assert TRACES == before + 2

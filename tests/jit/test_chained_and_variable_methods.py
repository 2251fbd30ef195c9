"""Chained comparisons on tensors, and the Tensor methods static Variables share (`.T`,
`.mT`, `.detach()`, `.cpu()`, `.ndimension()`), in code converted by to_static."""
import numpy as np
import pytest

import sampan as paddle
from sampan import jit
from sampan.jit import to_static


def t(values):
    return paddle.to_tensor(np.asarray(values, "float32"), stop_gradient=False)


def agree(fn, *args):
    """Outputs and input gradients of the converted function match eager."""
    result = jit.check_consistency(fn, *args, rtol=1e-5, atol=1e-6)
    assert result.max_output_diff < 1e-5 and result.max_grad_diff < 1e-5


def in_band(x):
    if -1.0 < x.mean() <= 1.0:
        return x * 2
    return x - 1


@pytest.mark.parametrize("shift", [0.0, 5.0, -5.0])
def test_chained_comparison_of_tensors_is_a_cond(shift):
    x = t(np.linspace(-1, 1, 6).reshape(2, 3) + shift)
    agree(in_band, x)
    ops = {op.type for b in to_static(in_band).get_concrete_program(x)[0].main_program.blocks
           for op in b.ops}
    assert "logical_and" in ops and "cond" in ops


def test_chained_comparison_of_python_values_short_circuits():
    calls = []

    def value(v):
        calls.append(v)
        return v

    def fn(x):
        if value(3) < value(1) < value(2):
            return x * 0
        return x + 1

    out = to_static(fn)(t([1.0]))
    np.testing.assert_allclose(out.numpy(), [2.0])
    assert calls == [3, 1]  # the last operand is never evaluated, as in Python


def test_chained_comparison_evaluates_the_middle_operand_once():
    calls = []

    def middle(x):
        calls.append(1)
        return x.sum()

    def fn(x):
        return paddle.cast(0.0 < middle(x) < 100.0, "float32") * x

    to_static(fn)(t([1.0, 2.0]))
    assert len(calls) == 1


def transposes(x):
    return (x.T * 2).T + x.mT.mT + x.cpu() * x.ndimension()


def test_transpose_properties_and_cpu_on_variables():
    agree(transposes, t(np.arange(6).reshape(2, 3)))


def detached_square(x):
    return (x.detach() * x).sum()


def test_detach_stops_the_gradient_in_a_program():
    x = t(np.arange(4).reshape(2, 2))
    out = to_static(detached_square)(x)
    out.backward()
    np.testing.assert_allclose(x.grad.numpy(), x.numpy())  # d(c * x)/dx with c = x held
    agree(detached_square, t(np.arange(4).reshape(2, 2)))


def test_static_backward_stops_at_a_stop_gradient_intermediate():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2], "float32")
            x.stop_gradient = False
            held = x * 3.0
            held.stop_gradient = True
            loss = (held * x).sum()
            (grad,) = paddle.static.gradients([loss], [x])
        exe = paddle.static.Executor()
        value = np.array([1.0, 2.0], "float32")
        (g,) = exe.run(main, feed={"x": value}, fetch_list=[grad])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(g, value * 3.0)

"""Gradients through tensor `while` loops whose loop variables start without a gradient
(s = zeros) and gain one in the body, including through a tensor `if` or `continue` in the
body: every iteration's contribution must reach the inputs, as in eager mode."""
import numpy as np
import pytest

import sampan as paddle


def accumulate_in_if(x):
    s = paddle.zeros([])
    i = paddle.to_tensor(0)
    while i < 3:
        i += 1
        if i > 0:
            s = s + x.sum() * i.astype("float32")
    return s


def accumulate_in_if_else(x):
    s = paddle.zeros([])
    i = paddle.to_tensor(0)
    while i < 4:
        i += 1
        if i % 2 == 0:
            s = s + (x * x).sum()
        else:
            s = s - x.sum()
    return s


def accumulate_with_continue(x):
    s = paddle.zeros([])
    i = paddle.to_tensor(0)
    while i < 6:
        i += 1
        if i % 2 == 0:
            continue
        s = s + x.sum() * i.astype("float32")
    return s


def gradient_through_second_carried_variable(x):
    a = paddle.zeros([2])
    b = paddle.zeros([2])
    i = paddle.to_tensor(0)
    while i < 3:
        i += 1
        b = b + a  # b gains a gradient only once a has one
        if i > 0:
            a = a + x
    return b.sum()


@pytest.mark.parametrize("fn", [accumulate_in_if, accumulate_in_if_else,
                                accumulate_with_continue,
                                gradient_through_second_carried_variable])
def test_gradients_equal_eager(fn):
    grads = []
    for run in (fn, paddle.jit.to_static(fn)):
        x = paddle.to_tensor([0.5, -1.5], stop_gradient=False)
        out = run(x)
        out.backward()
        grads.append((out.numpy(), x.grad.numpy()))
    np.testing.assert_allclose(grads[1][0], grads[0][0], rtol=1e-6)
    np.testing.assert_allclose(grads[1][1], grads[0][1], rtol=1e-6)
    assert np.abs(grads[0][1]).sum() > 0


def test_the_retraced_body_leaves_no_orphan_blocks():
    static = paddle.jit.to_static(accumulate_in_if)
    static(paddle.to_tensor([1.0, 2.0], stop_gradient=False))
    program = static.concrete_program.main_program
    used = {0}
    for block in program.blocks:
        for op in block.ops:
            used |= {v.idx for v in op.attrs.values() if hasattr(v, "idx") and hasattr(v, "ops")}
    assert used == set(range(program.num_blocks))

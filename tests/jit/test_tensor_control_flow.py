"""Tensor-dependent if/while become cond/while ops that train (incl. cases Paddle gets wrong)."""
import numpy as np
import pytest

import sampan as paddle
from sampan import jit
from sampan.jit import to_static


def t(values, grad=True):
    x = paddle.to_tensor(np.asarray(values, "float32"))
    x.stop_gradient = not grad
    return x


def n_(value):
    return paddle.to_tensor(np.asarray(value, "int64"))


def op_types(fn):
    program = fn.concrete_program.main_program
    return {op.type for block in program.blocks for op in block.ops}


def agree(fn, *args):
    """Outputs and input gradients match eager; returns the StaticFunction."""
    result = jit.check_consistency(fn, *args, rtol=1e-5, atol=1e-6)
    assert result.max_output_diff < 1e-5 and result.max_grad_diff < 1e-5
    sf = to_static(fn)
    sf(*args)
    return sf


def grow(x, n):
    i = paddle.zeros([], "int64")
    while i < n:
        x = x * 1.5
        if x.sum() > 20:
            x = x - 1
        i += 1
    return x


def test_backward_through_tensor_while():
    sf = agree(grow, t([1.0, 2.0]), n_(4))
    assert {"while", "cond"} <= op_types(sf)
    assert "while_grad" not in op_types(sf)  # grads live in the run_program backward


def for_range_collect(x, n):
    outs = []
    for i in range(n):
        x = paddle.tanh(x) + i * 0.5
        outs.append(x)
    return paddle.stack(outs)


def test_for_range_tensor_with_list_append_becomes_array():
    x = t([0.5, -0.2])
    sf = agree(for_range_collect, x, n_(3))
    assert sf(x, n_(5)).shape == [5, 2]
    assert {"array_write", "array_join"} <= op_types(sf)


def concat_collect(x, n):
    outs = []
    i = 0
    while i < n:
        outs.append(x * i)
        i += 1
    return paddle.concat(outs)


def test_list_concat_after_tensor_loop():
    agree(concat_collect, t([1.0, 2.0]), n_(3))


def break_continue(x, n):
    i = paddle.zeros([], "int64")
    total = x * 0
    while i < n:
        i += 1
        if (i % 2) == 0:
            continue
        total = total + x * i.astype("float32")
        if total.sum() > 30:
            break
    return total


@pytest.mark.parametrize("n", [3, 9])
def test_break_and_continue_in_tensor_loop(n):
    agree(break_continue, t([1.0, 2.0]), n_(n))


def early_return(x):
    for i in range(4):
        if x.sum() > 10:
            return x * 10
        x = x * 2
    return x


@pytest.mark.parametrize("start", [[1.0, 1.0], [0.1, 0.1], [6.0, 6.0]])
def test_return_inside_tensor_if_inside_loop(start):
    agree(early_return, t(start))


def same_condition_later(x):
    if x.mean() > 0:
        y = x * 3
    x = x + 1
    if x.mean() > 1:
        x = x + y
    return x


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_variable_from_one_branch_is_undefined_after_the_if(sign):
    """One Program serves both paths, and on one of them eager has no `y`: reading it after
    the if raises (as Paddle does) instead of reading zeros."""
    with pytest.raises(TypeError, match="'y' is used but has no value"):
        to_static(same_condition_later)(t([sign, 2 * sign]))


def isinstance_check(x):
    if isinstance(x, paddle.Tensor):
        return x * 2
    return x


def test_isinstance_tensor_is_true_in_converted_code():
    sf = agree(isinstance_check, t([1.0]))
    assert "cond" not in op_types(sf)


def python_conditions(x, k):
    while k > 0:
        x = x + k
        k -= 1
    return x if k == 0 else -x


def test_python_conditions_stay_python():
    sf = agree(python_conditions, t([1.0]), 3)
    assert not {"cond", "while"} & op_types(sf)


def ternary(x):
    return x * 2 if x.sum() > 0 else x * -3


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_tensor_ternary_is_cond(sign):
    assert "cond" in op_types(agree(ternary, t([sign])))


def unused_one_branch(x):
    if x.sum() > 0:
        tmp = x * 2
        x = tmp + 1
    return x


def test_one_branch_temporary_is_not_routed():
    assert "tmp" not in to_static(unused_one_branch).code.split("IfElse(")[1].split("\n")[0]
    agree(unused_one_branch, t([1.0]))


def defined_in_loop(x, n):
    i = paddle.zeros([], "int64")
    while i < n:
        h = x * i.astype("float32")
        i += 1
    return h


def test_variable_first_bound_in_tensor_loop_is_carried():
    agree(defined_in_loop, t([1.0, 2.0]), n_(3))

"""Converted control flow behaves like the original Python, for Python and Tensor conditions."""
import numpy as np
import pytest

import sampan as paddle
import sampan.jit  # noqa: F401  (registers paddle.jit)
from sampan.jit import enable_to_static, not_to_static, to_static


def t(values):
    return paddle.to_tensor(np.asarray(values, "float32"))


def check(fn, *args):
    """The converted function returns what the original returns."""
    expected = fn(*args)
    got = to_static(fn)(*args)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)
    return got


def branches(x, n):
    if n > 2:
        y = x * 3
    elif n > 0:
        y = x + 1
    else:
        y = x - 1
    return y


def tensor_if(x):
    y = x * 2
    if x.sum() > 0:
        z = y + 1
    else:
        z = y - 1
    return z * y


def loops(x, n):
    s = x * 0
    for i in range(n):
        s = s + x * i
    k = 0
    while k < 3:
        s = s + 1
        k += 1
    return s


def logic(x, a, b):
    if (a and not b) or x.mean() > 10:
        y = x + 1
    else:
        y = x - 1
    return y


def tensor_logic(x):
    c = (x.sum() > 0) and (x.max() < 5)
    d = not (x.min() > 0)
    e = (x.sum() < 0) or d
    if c or e:
        y = x + 1
    else:
        y = x - 1
    return y


def helper(x):
    if x.sum() > 0:
        x = x * 10
    else:
        x = x * 100
    return x


def calls_helper(x):
    double = lambda v: v * 2  # noqa: E731 -- lambdas run as they are
    return double(helper(x)) + 1


@pytest.mark.parametrize("n", [3, 1, 0])
def test_python_if_elif_else(n):
    check(branches, t([1.0, 2.0]), n)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_tensor_if(sign):
    check(tensor_if, t([sign, 2 * sign]))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_for_range_and_while(n):
    check(loops, t([1.0, -2.0]), n)


@pytest.mark.parametrize("a, b", [(True, False), (True, True), (False, False)])
def test_python_and_or_not(a, b):
    check(logic, t([1.0, 2.0]), a, b)


@pytest.mark.parametrize("values", [[1.0, 2.0], [-1.0, -2.0], [1.0, 9.0], [-1.0, 3.0]])
def test_tensor_and_or_not(values):
    check(tensor_logic, t(values))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_called_function_is_converted(sign):
    check(calls_helper, t([sign, 3.0]))


def test_code_shows_converted_control_flow():
    code = to_static(loops).code
    assert "_jst.While(" in code and "_jst.Range(n)" in code
    assert "_jst.IfElse(" in to_static(branches).code
    assert "_jst.And(" in to_static(tensor_logic).code and "_jst.Not(" in to_static(tensor_logic).code


def test_tensor_while_becomes_a_while_op():
    def loop(x):
        while x.sum() < 10:
            x = x + 1
        return x
    fn = to_static(loop)
    np.testing.assert_allclose(fn(t([1.0])).numpy(), [10.0])
    assert "while" in [op.type for op in fn.concrete_program.main_program.global_block().ops]


def one_sided(x):
    if x.sum() > 0:
        y = x + 1
    return y


def test_variable_assigned_in_one_branch_of_tensor_if_is_undefined_after_it():
    """Eager raises NameError on one path; the Program serves both, so a read raises (a
    NameError, and a TypeError as in Paddle) naming the variable and the if's line."""
    fn = to_static(one_sided)
    for x in (t([1.0]), t([-1.0])):
        with pytest.raises(TypeError, match="'y' is used but has no value") as info:
            fn(x)
        assert isinstance(info.value, NameError)
        assert f":{one_sided.__code__.co_firstlineno + 1}" in str(info.value)


def test_not_to_static_and_enable_switch():
    @not_to_static
    def plain(x):
        return x + 1

    def outer(x):
        return plain(x) * 2
    check(outer, t([1.0]))
    sf = to_static(tensor_if)
    enable_to_static(False)
    try:
        np.testing.assert_allclose(sf(t([1.0, 2.0])).numpy(), tensor_if(t([1.0, 2.0])).numpy())
        assert not sf.program_cache
    finally:
        enable_to_static(True)


def test_decorator_form_and_dygraph_function():
    @to_static()
    def f(x):
        return x * 2 if x.shape[0] > 1 else x
    assert f.dygraph_function(t([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert f(t([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert paddle.jit.to_static is to_static

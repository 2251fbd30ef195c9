"""Converted code keeps what decorators add, and `no_grad` means the same as in eager:
a block under no_grad carries no gradient, and a program first traced under an outer
no_grad still trains."""
import functools

import numpy as np

import sampan as paddle
from sampan import jit


def doubled(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 2
    return wrapper


@doubled
def plus_one(v):
    return v + 1


def calls_decorated(x):
    if x.sum() > 0:
        return plus_one(x)
    return plus_one(-x)


def t(values):
    return paddle.to_tensor(np.asarray(values, "float32"), stop_gradient=False)


def agree(fn, *args):
    result = jit.check_consistency(fn, *args, rtol=1e-5, atol=1e-6)
    assert result.max_output_diff < 1e-5 and result.max_grad_diff < 1e-5


def test_a_decorated_callee_keeps_its_wrapper():
    x = t([1.0, 2.0])
    np.testing.assert_allclose(paddle.jit.to_static(calls_decorated)(x).numpy(), [4.0, 6.0])
    agree(calls_decorated, t([1.0, -3.0]))


def held_square(x):
    with paddle.no_grad():
        c = x * 2
    return x * c


def test_no_grad_block_inside_converted_code():
    x = t([1.0, 3.0])
    out = paddle.jit.to_static(held_square)(x)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 6.0])  # c is a constant: d(x*c)/dx = c
    agree(held_square, t([1.0, 3.0]))


def test_a_program_first_traced_under_no_grad_still_trains():
    layer = paddle.nn.Linear(2, 1)
    static = paddle.jit.to_static(layer)
    x = paddle.ones([3, 2])
    with paddle.no_grad():
        static(x)
    static(x).sum().backward()
    np.testing.assert_allclose(layer.weight.grad.numpy(), [[3.0], [3.0]])


def scaled_by_defaults(x):
    factors = [lambda v, k=k: v * k for k in range(3)]
    offset = 5.0

    def shifted(v, by=offset):
        return v + by
    return shifted(factors[2](x) + factors[1](x))


def test_defaults_naming_local_values_survive_conversion():
    x = t([1.0, 2.0])
    np.testing.assert_allclose(paddle.jit.to_static(scaled_by_defaults)(x).numpy(), [8.0, 11.0])
    agree(scaled_by_defaults, t([1.0, -2.0]))

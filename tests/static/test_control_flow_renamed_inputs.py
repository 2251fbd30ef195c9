"""Control-flow ops whose outer inputs a pass renamed: common-subexpression elimination
maps a repeated computation to the first one's name, and the ops' sub-blocks, which still
read the original name, must be fed under it."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static

from .test_control_flow import check, f64, static_mode  # noqa: F401


def twice(x):
    """Two equal computations of x * 3: CSE keeps the first and renames readers of the
    second to it."""
    return paddle.scale(x, 3.0), paddle.scale(x, 3.0)


def test_cond_reading_an_eliminated_duplicate(static_mode):
    def fn(x):
        a, b = twice(x)
        return [a + static.nn.cond(x.sum() > 0, lambda: b * x, lambda: b - x)]
    for seed in (0, 1):
        check(fn, {"x": f64(3, seed=seed)})


def test_while_reading_an_eliminated_duplicate(static_mode):
    def fn(x):
        a, b = twice(x)
        _, h = static.nn.while_loop(lambda i, h: i < 3,
                                    lambda i, h: [i + 1, paddle.tanh(h * b)],
                                    [paddle.zeros([1], "int64"), a])
        return [h]
    check(fn, {"x": f64(3) * 0.5})


@pytest.mark.parametrize("second", ["while", "cond"])
def test_two_loops_over_one_repeated_value(static_mode, second):
    """What recurrent layers build: each direction's loop reads its own copy of a value."""
    def fn(x):
        a, b = twice(x)
        _, h = static.nn.while_loop(lambda i, h: i < 2, lambda i, h: [i + 1, h * a],
                                    [paddle.zeros([1], "int64"), x])
        if second == "cond":
            return [h + static.nn.cond(x.sum() < 0, lambda: h * b, lambda: h + b)]
        _, g = static.nn.while_loop(lambda i, g: i < 2, lambda i, g: [i + 1, g * b],
                                    [paddle.zeros([1], "int64"), h])
        return [g]
    check(fn, {"x": f64(3, seed=2)})


def test_static_pylayer_reading_an_eliminated_duplicate(static_mode):
    def fn(x):
        a, b = twice(x)
        out = static.nn.static_pylayer(lambda v: v * b, [x], lambda g: g * 2.0)
        return [out + a]
    main, outs, _ = _build_plain(fn, f64(3))
    got, = static.Executor().run(main, feed={"x": f64(3)}, fetch_list=outs,
                                 scope=static.Scope())
    np.testing.assert_allclose(got, f64(3) * f64(3) * 3 + f64(3) * 3)


def _build_plain(fn, x):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        outs = fn(static.data("x", list(x.shape), "float64"))
    return main, outs, startup

"""A static while loop whose loop variable changes shape (even rank) is accepted with a
widened static shape (-1 where sizes differ, leading -1 dims for a rank change); a dtype
change is refused with a TypeError naming the variable."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.static.control_flow.while_loop import widen

XS = np.arange(4 * 16 * 8, dtype="float32").reshape(4, 16, 8)


@pytest.mark.parametrize("shape, other, wide", [
    ((16, 128), (1, 16, 128), (-1, 16, 128)),
    ((1, 16, 128), (16, 128), (-1, 16, 128)),
    ((2, 3), (2, 5), (2, -1)),
    ((2, 3), (2, 3), (2, 3)),
    ((), (1,), (-1,)),
])
def test_widen(shape, other, wide):
    assert widen(shape, other) == wide


def _loop(xs, h0):
    i0 = paddle.zeros([1], "int64")
    _, h = static.nn.while_loop(lambda i, h: i < 3, lambda i, h: [i + 1, xs[i] + h.sum()],
                                [i0, h0])
    return h


def test_a_loop_variable_that_gains_an_axis_runs_with_a_widened_shape():
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            xs = static.data("xs", [4, 16, 8], "float32")
            h = _loop(xs, paddle.zeros([16, 8]))
            assert h.shape == [-1, 16, 8]
            total = h.sum(axis=0)
            assert total.shape == [16, 8]
        exe = static.Executor()
        exe.run(startup)
        got, got_total = exe.run(main, feed={"xs": XS}, fetch_list=[h, total])
    finally:
        paddle.disable_static()
    expected = np.zeros((16, 8), "float32")
    for i in range(3):
        expected = XS[[i]] + expected.sum()
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    np.testing.assert_allclose(got_total, expected.sum(axis=0), rtol=1e-6)


def test_to_static_matches_eager_for_a_loop_variable_that_gains_an_axis():
    def fn(xs):
        i = paddle.zeros([1], "int64")
        h = paddle.zeros([16, 8])
        while i < 3:
            h = xs[i] + h.sum()
            i = i + 1
        return h

    xs = paddle.to_tensor(XS)
    eager = fn(xs).numpy()
    converted = paddle.jit.to_static(fn)(xs).numpy()
    np.testing.assert_allclose(converted, eager, rtol=1e-6)
    assert converted.shape == (1, 16, 8)


def test_a_dtype_change_is_refused_naming_the_loop_variable():
    main = static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, static.Program()):
            i0 = paddle.zeros([1], "int64")
            with pytest.raises(TypeError, match=r"loop variable 1: enters as dense float32 "
                                                r"\[2\], the body returns dense int32"):
                static.nn.while_loop(lambda i, h: i < 3,
                                     lambda i, h: [i + 1, paddle.cast(h, "int32")],
                                     [i0, paddle.zeros([2], "float32")])
    finally:
        paddle.disable_static()

"""`assert` and `print` on Tensors in converted code, as Paddle converts them: the
assertion is checked at every run (it was skipped) and the value printed at every run."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.jit import to_static


def positive_log(x):
    assert x.min() > 0, "x must be positive"
    return paddle.log(x)


def test_tensor_assert_is_checked_at_each_run():
    f = to_static(positive_log)
    np.testing.assert_allclose(f(paddle.to_tensor([1.0, np.e])).numpy(), [0.0, 1.0],
                               rtol=1e-6)
    with pytest.raises(ValueError, match="x must be positive") as info:
        f(paddle.to_tensor([-1.0, 2.0]))
    assert "test_assert_print.py" in str(info.value)
    assert f.get_traced_count() == 1


def test_assert_on_a_non_bool_tensor_and_inside_a_tensor_loop():
    def steps(x):
        i = paddle.to_tensor(0)
        while i < 3:
            assert x[i]
            i += 1
        return x * 2
    f = to_static(steps)
    np.testing.assert_allclose(f(paddle.to_tensor([1.0, 2.0, 3.0])).numpy(), [2.0, 4.0, 6.0])
    with pytest.raises(ValueError, match="assertion failed"):
        f(paddle.to_tensor([1.0, 0.0, 3.0]))


def test_python_assert_still_runs_while_building():
    def needs_rank_two(x):
        assert x.ndim == 2, "rank 2 expected"
        return x
    with pytest.raises(AssertionError, match="rank 2 expected"):
        to_static(needs_rank_two)(paddle.ones([3]))


def test_static_assert_op_in_a_program():
    from sampan.static.assert_op import Assert
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [2], "float32")
            Assert(x > 0, data=[x], message="positive")
            y = x * 2
    finally:
        paddle.disable_static()
    exe = static.Executor(paddle.CPUPlace())
    (got,) = exe.run(main, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[y])
    np.testing.assert_allclose(got, [2.0, 4.0])
    with pytest.raises(ValueError, match=r"positive; data: \[\[-1.0, 2.0\]\]"):
        exe.run(main, feed={"x": np.array([-1.0, 2.0], "float32")}, fetch_list=[y])
    with pytest.raises(ValueError, match="positive"):
        Assert(paddle.to_tensor([False]), message="positive")

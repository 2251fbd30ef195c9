"""paddle.get_flags / set_flags: unknown names are a ValueError (as in Paddle), text values
of boolean flags are parsed, and FLAGS_new_executor_sequential_run keeps Executor.run on
the sequential runner even when ExecutionStrategy asks for threads."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.executor import executor as executor_module
from sampan.executor import schedule_info

SEQUENTIAL = "FLAGS_new_executor_sequential_run"


@pytest.fixture
def restore_flag():
    old = paddle.get_flags(SEQUENTIAL)
    yield
    paddle.set_flags(old)


@pytest.mark.parametrize("call", [lambda: paddle.get_flags("FLAGS_no_such_flag"),
                                  lambda: paddle.get_flags(["FLAGS_check_nan_inf", "nope"]),
                                  lambda: paddle.set_flags({"FLAGS_no_such_flag": 1})])
def test_unknown_flag_is_a_value_error(call):
    with pytest.raises(ValueError, match="unknown flag"):
        call()


@pytest.mark.parametrize("value, want", [(True, True), (0, False), ("false", False),
                                         ("0", False), ("True", True), ("1", True)])
def test_boolean_flag_values(restore_flag, value, want):
    paddle.set_flags({SEQUENTIAL: value})
    assert paddle.get_flags(SEQUENTIAL) == {SEQUENTIAL: want}


def _two_independent_products():
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        a = static.data("a", [64, 64], "float64")
        b = static.data("b", [64, 64], "float64")
        out = paddle.matmul(a, a) + paddle.matmul(b, b)
    return main, out


def _run_with_threads(main, out, feed):
    strategy = static.ExecutionStrategy()
    strategy.num_threads = 2
    return static.Executor().run(main, feed=feed, fetch_list=[out], scope=static.Scope(),
                                 exec_strategy=strategy)[0]


def test_sequential_flag_keeps_threaded_runs_sequential(restore_flag, monkeypatch):
    monkeypatch.setattr(schedule_info, "MIN_PARALLEL_SECONDS", 0.0)  # parallel always pays
    monkeypatch.setattr(schedule_info, "MIN_SPEEDUP", 0.0)
    calls = []
    real = executor_module.run_parallel
    monkeypatch.setattr(executor_module, "run_parallel",
                        lambda *args: calls.append(1) or real(*args))
    rng = np.random.default_rng(0)
    feed = {"a": rng.normal(size=(64, 64)), "b": rng.normal(size=(64, 64))}
    want = feed["a"] @ feed["a"] + feed["b"] @ feed["b"]
    paddle.enable_static()
    try:
        main, out = _two_independent_products()
        paddle.set_flags({SEQUENTIAL: True})
        np.testing.assert_allclose(_run_with_threads(main, out, feed), want)
        assert calls == []
        paddle.set_flags({SEQUENTIAL: False})
        np.testing.assert_allclose(_run_with_threads(main, out, feed), want)
        assert calls == [1]
    finally:
        paddle.disable_static()

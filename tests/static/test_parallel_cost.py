"""The parallel scheduler's cost model: expensive independent branches run in parallel
(bit-identical to sequential), small graphs and graphs without parallelism do not."""
import numpy as np
import pytest

import sampan
from sampan import static
from sampan.executor import CompiledProgram, ExecutionStrategy, Executor, Scope, compile
from sampan.executor import cost
from sampan.executor import executor as executor_module
from sampan.executor.run import run_parallel

from .test_executor_models import MODELS


def _build(body):
    main, startup = static.Program(), static.Program()
    sampan.enable_static()
    try:
        with static.program_guard(main, startup):
            fetch = body()
    finally:
        sampan.disable_static()
    return main, startup, fetch


def _branches(n, count):
    """`count` independent mean(tanh(x @ W) @ V) branches on one [n, n] input."""
    def body():
        x = static.data("x", [n, n], "float32")
        outs = []
        for _ in range(count):
            w = static.create_parameter([n, n], "float32")
            v = static.create_parameter([n, n], "float32")
            outs.append(sampan.matmul(sampan.tanh(sampan.matmul(x, w)), v).mean())
        return outs
    return _build(body)


def _chain(n, depth):
    """tanh(h @ W) `depth` times: no two expensive ops can run at once."""
    def body():
        h = static.data("x", [n, n], "float32")
        for _ in range(depth):
            h = sampan.tanh(sampan.matmul(h, static.create_parameter([n, n], "float32")))
        return [h.mean()]
    return _build(body)


@pytest.fixture
def parallel_runs(monkeypatch):
    ran = []
    monkeypatch.setattr(executor_module, "run_parallel",
                        lambda *args: (ran.append(1), run_parallel(*args)))
    return ran


def _run(program, threads, n):
    main, startup, fetch = program
    scope = Scope()
    exe = Executor()
    sampan.seed(0)
    exe.run(startup, scope=scope)
    feed = {"x": np.random.default_rng(0).standard_normal((n, n)).astype("float32")}
    out = exe.run(CompiledProgram(main, None, ExecutionStrategy(threads)), feed=feed,
                  fetch_list=fetch, scope=scope)
    exe.close()
    return [v.tobytes() for v in out]


def test_matmul_estimate_follows_its_multiply_adds():
    main, _, _ = _branches(256, 1)
    plan = compile(main, ["x"], [main.global_block().ops[-1].output_arg_names[0]])
    seconds = dict(zip((n.type for n in plan.nodes), plan.parallel.seconds))
    assert seconds["matmul"] == pytest.approx(cost.CALL_SECONDS
                                              + 2 * 256 ** 3 * cost.FLOP_SECONDS)
    assert seconds["tanh"] == pytest.approx(cost.CALL_SECONDS
                                            + 256 * 256 * cost.TRANSCENDENTAL_SECONDS)


def test_independent_expensive_branches_run_in_parallel(parallel_runs):
    program = _branches(192, 4)
    plan = compile(program[0], ["x"], [v.name for v in program[2]])
    assert plan.parallel.worth
    assert not any(c for c, n in zip(plan.parallel.cheap, plan.nodes) if n.type == "matmul")
    assert _run(program, 2, 192) == _run(program, 1, 192)
    assert parallel_runs == [1]


def test_independent_branches_go_to_different_lanes():
    program = _branches(192, 4)
    plan = compile(program[0], ["x"], [v.name for v in program[2]])
    lanes = plan.parallel.lanes(2)
    matmuls = [[i for i in order if plan.nodes[i].type == "matmul"] for order in lanes.order]
    assert [len(m) for m in matmuls] == [4, 4]  # two whole branches each
    assert not any(lanes.waits[i] for order in matmuls for i in order)


def test_a_failing_kernel_in_a_parallel_run_names_its_op(monkeypatch):
    from sampan.executor import schedule_info
    monkeypatch.setattr(schedule_info, "MIN_PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(schedule_info, "MIN_SPEEDUP", 0.0)
    monkeypatch.setattr(schedule_info, "HANDOFF_SECONDS", 0.0)

    def body():
        x = static.data("x", [4, 4], "float32")
        index = static.data("i", [2], "int64")
        return [sampan.gather(sampan.tanh(x), index).sum(), (x @ x).sum(), (x * 2).sum()]
    main, startup, fetch = _build(body)
    exe = Executor()
    feed = {"x": np.ones((4, 4), "float32"), "i": np.array([0, 9])}
    with pytest.raises(Exception, match="gather"):
        exe.run(CompiledProgram(main, None, ExecutionStrategy(3)), feed=feed,
                fetch_list=fetch)
    feed["i"] = np.array([0, 3])
    got = exe.run(CompiledProgram(main, None, ExecutionStrategy(3)), feed=feed,
                  fetch_list=fetch)
    np.testing.assert_allclose(got[0], np.tanh(1.0) * 8)
    exe.close()


@pytest.mark.parametrize("program, n", [(lambda: _chain(192, 6), 192),
                                        (lambda: _branches(8, 4), 8)])
def test_chains_and_small_graphs_stay_sequential(program, n, parallel_runs):
    program = program()
    sequential = _run(program, 1, n)
    assert _run(program, 2, n) == sequential
    assert parallel_runs == []


def test_test_models_are_too_small_to_pay(parallel_runs):
    for make in MODELS.values():
        model = make()
        plan = compile(model.main, list(model.feed), [v.name for v in model.fetch])
        assert not plan.parallel.worth

"""Building stays linear in the program's size: Program.clone's direct copy, plans run as
chunked straight-line functions, and a call-count guard on a 10,000-op build."""
import cProfile
import pstats

import numpy as np
import pytest

import sampan
from sampan import static
from sampan.executor import straight
from sampan.executor.plan import compile as compile_plan
from sampan.executor.run import run_checked, run_sequential
from sampan.jit import to_static
from sampan.static.serialize import copy_program, program_from_dict, program_to_dict

from .test_executor_models import MODELS


def _control_flow_program():
    main, startup = static.Program(), static.Program()
    sampan.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 3], "float32")
            x.stop_gradient = False
            y = static.nn.cond(x.sum() > 0, lambda: sampan.tanh(x) * 2.0, lambda: -x)
            i = sampan.zeros([], "int64")
            _, z = static.nn.while_loop(lambda i, z: i < 3, lambda i, z: (i + 1, z * 1.5),
                                        [i, y])
            loss = z.astype("float64").mean()
            static.append_backward(loss)
    finally:
        sampan.disable_static()
    return main


def _typed(value):
    """A value with the Python type of every item, so 3 and 3.0 or a tuple and a list differ."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_typed(v) for v in value]
    return type(value).__name__, repr(value)


def _described(program):
    return _typed(program_to_dict(program)), [
        [(op.type, _typed(op.attrs)) for op in b.ops] for b in program.blocks]


@pytest.mark.parametrize("make", [*(lambda m=m: MODELS[m]().main for m in MODELS),
                                  _control_flow_program])
def test_copy_program_is_the_file_round_trip(make):
    program = make()
    copy = copy_program(program)
    assert _described(copy) == _described(program_from_dict(program_to_dict(program)))
    assert all(b.program is copy for b in copy.blocks)
    assert all(op.block is b for b in copy.blocks for op in b.ops)


def _regs(plan, feed):
    regs = plan.template[:]
    for _, slot, _ in plan.feed_specs:
        regs[slot] = feed
    return regs


@pytest.mark.parametrize("chunk", [1, 2, 3, 5])
def test_chunked_plan_matches_the_instruction_loop(monkeypatch, chunk):
    """Chunks hand values over through the register file, free what they last read (also
    values an earlier chunk stored) and leave the same live registers as the loop."""
    monkeypatch.setattr(straight, "CHUNK", chunk)
    model = MODELS["mlp"]()
    exe, scope = static.Executor(), static.global_scope()
    exe.run(model.startup)
    plan = compile_plan(model.main, list(model.feed), [v.name for v in model.fetch])
    loop, chunked = plan.template[:], plan.template[:]
    for regs in (loop, chunked):
        for name, slot, _ in plan.feed_specs:
            regs[slot] = model.feed[name]
        for name, slot, _, _ in plan.externals:
            regs[slot] = np.array(scope.find_var(name).get_tensor()).copy()
    given = {slot for slot, value in enumerate(loop) if value is not None}
    run_checked(plan, loop, nan_check=False)
    run_sequential(plan, chunked)
    assert len(plan.straight.chunks) == -(-len(plan.code) // chunk)
    for slot, value in enumerate(loop):
        if value is not None:
            np.testing.assert_array_equal(chunked[slot], value)
        elif slot not in given:  # the straight code leaves what it was given in place
            assert chunked[slot] is None, slot


def test_repeated_chunks_share_their_code(monkeypatch):
    monkeypatch.setattr(straight, "CHUNK", 2)

    def chain(x):
        for _ in range(20):
            x = sampan.tanh(x) * 2.0
        return x

    fn = to_static(chain)
    x = sampan.to_tensor(np.full((2, 2), 0.1, "float32"))
    out = fn(x)
    plan = fn.concrete_program.partial_program._compile(()).forward
    codes = {c.func.__code__ for c in plan.straight.chunks}
    assert len(plan.straight.chunks) >= 20 and len(codes) <= 4
    np.testing.assert_array_equal(out.numpy(), chain(x).numpy())


def test_a_failure_in_a_later_chunk_names_its_op(monkeypatch):
    monkeypatch.setattr(straight, "CHUNK", 2)
    main, startup = static.Program(), static.Program()
    sampan.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 4], "float32")
            h = sampan.tanh(sampan.exp(sampan.tanh(x) + 1.0))
            out = sampan.matmul(h, sampan.ones([4, 2]))
    finally:
        sampan.disable_static()
    plan = compile_plan(main, [x.name], [out.name])
    assert len(plan.code) > 2
    with pytest.raises(ValueError, match=r"op matmul failed(.|\n)*test_build_scaling.py"):
        run_sequential(plan, _regs(plan, np.ones((2, 3), "float32")))


def _build_calls(n):
    """Python and builtin calls made by the first to_static call (with backward) of an
    n-op elementwise chain."""
    def unrolled(x):
        for _ in range(n // 4):  # two constants (full), a multiply and an add
            x = x * 1.0001 + 0.5
        return x.mean()
    x = sampan.to_tensor(np.ones((2, 2), "float32"), stop_gradient=False)
    profile = cProfile.Profile()
    out = profile.runcall(lambda: to_static(unrolled)(x))
    profile.runcall(out.backward)
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 2), 1.0001 ** (n // 4) / 4),
                               rtol=1e-4)
    return pstats.Stats(profile).total_calls


def test_a_10k_op_build_makes_calls_in_proportion_to_its_size():
    """Guards against quadratic build steps coming back: ten times the ops may cost at most
    11 times the calls of a 1,000-op build (counted, not timed)."""
    small, large = _build_calls(1000), _build_calls(10000)
    assert large <= 11 * small, (small, large)

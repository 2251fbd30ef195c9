"""A plan's generated straight-line function against the checked instruction loop."""
import weakref

import numpy as np
import pytest

import sampan
from sampan import static
from sampan.executor.plan import compile as compile_plan
from sampan.executor.run import run_checked, run_sequential


def _program():
    main, startup = static.Program(), static.Program()
    sampan.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 4], "float32")
            h = sampan.matmul(x, sampan.ones([4, 4])) + 1.0
            a, b = sampan.split(h, 2, axis=1)  # a multi-output op
            out = sampan.nn.functional.relu(a - 9.0) * b
    finally:
        sampan.disable_static()
    return main, x, h, out


def _regs(plan, feed):
    regs = plan.template[:]
    for name, slot, _ in plan.feed_specs:
        regs[slot] = feed
    return regs


def test_same_results_and_live_registers_as_the_instruction_loop():
    main, x, h, out = _program()
    plan = compile_plan(main, [x.name], [out.name, h.name])
    feed = np.arange(8, dtype="float32").reshape(2, 4)
    straight, loop = _regs(plan, feed), _regs(plan, feed)
    run_sequential(plan, straight)
    run_checked(plan, loop, nan_check=False)
    for slot in plan.fetch_slots:
        np.testing.assert_array_equal(straight[slot], loop[slot])
    # the same registers are released: a fed value too, once its last reader ran
    assert [v is None for v in straight] == [v is None for v in loop]
    assert straight[plan.feed_specs[0][1]] is None
    h_ref = feed.sum(1, keepdims=True) + 1.0
    np.testing.assert_allclose(straight[plan.fetch_slots[0]],
                               np.maximum(h_ref - 9.0, 0) * h_ref * np.ones((1, 2)))


def test_intermediates_are_released_after_their_last_use():
    """When the last op runs, no earlier result is held except the ones it reads."""
    main, x, _, out = _program()
    plan = compile_plan(main, [x.name], [out.name])
    made, held_at_last = [], []

    def spy(fn, last):
        def kernel(*args):
            if last:
                alive = {id(r()) for r in made if r() is not None}
                read = {id(a) for a in args} | {id(a.base) for a in args}  # views hold a base
                held_at_last.append(alive - read)
            value = fn(*args)
            made.extend(weakref.ref(v) for v in (value if isinstance(value, tuple) else (value,)))
            return value
        return kernel
    n = len(plan.code)
    plan.code = tuple((spy(fn, k == n - 1), *rest) for k, (fn, *rest) in enumerate(plan.code))
    run_sequential(plan, _regs(plan, np.ones((2, 4), "float32")))
    assert len(made) >= 4 and held_at_last == [set()]


def test_a_failing_instruction_is_named_with_its_source_line():
    main, x, _, out = _program()
    plan = compile_plan(main, [x.name], [out.name])
    regs = _regs(plan, np.ones((2, 3), "float32"))  # 3 columns: the matmul fails
    with pytest.raises(ValueError, match=r"op matmul failed(.|\n)*test_straight_plan.py"):
        run_sequential(plan, regs)


def test_a_dropped_program_frees_its_plans_and_their_sources():
    """Plans are cached on their program, so running a program does not keep it alive,
    nor the generated sources registered for tracebacks."""
    import gc
    import linecache

    def generated():
        return {k for k in linecache.cache if k.startswith("<sampan plan")}
    before = generated()
    main, x, h, out = _program()
    static.Executor().run(main, feed={x.name: np.ones((2, 4), "float32")}, fetch_list=[out])
    assert generated() - before
    alive = weakref.ref(main)
    del main, x, h, out
    gc.collect()
    assert alive() is None and not generated() - before

"""Every pass on/off and every scheduler gives bit-identical fetches on the test models."""
import numpy as np
import pytest

from sampan.executor import (BuildStrategy, CompiledProgram, ExecutionStrategy, Executor,
                             Scope, compile)
from sampan.executor import executor as executor_module, schedule_info
from sampan.executor.passes import FUSED
from sampan.executor.run import run_parallel
from sampan.ops.registry import OPS
from sampan.static.interpreter import interpret

from .test_executor_models import MODELS

PASSES = ("enable_dce", "enable_constant_folding", "enable_cse",
          "fuse_elewise_add_act_ops", "enable_inplace", "memory_optimize")


def _strategies():
    """All off, all on, each pass alone, all on but one, and debug poisoning."""
    off = {p: False for p in PASSES}
    yield BuildStrategy(**off)
    yield BuildStrategy(**{p: True for p in PASSES})
    for p in PASSES:
        yield BuildStrategy(**dict(off, **{p: True}))
        yield BuildStrategy(**{q: q != p for q in PASSES})
    yield BuildStrategy(**{p: True for p in PASSES}, debug_poison_freed=True)


def _bits(values):
    return [(v.dtype.str, v.shape, v.tobytes()) for v in map(np.asarray, values)]


def _fresh_scope(model):
    scope = Scope()
    Executor().run(model.startup, scope=scope)
    return scope


def _state(scope, model):
    names = [v.name for v in model.main.list_vars() if v.persistable]
    return {n: np.array(scope.find_var(n).get_tensor()) for n in names}


def _run(model, build=None, threads=1, exe=None):
    scope = _fresh_scope(model)
    program = CompiledProgram(model.main, build, ExecutionStrategy(threads))
    out = (exe or Executor()).run(program, feed=model.feed, fetch_list=model.fetch,
                                  scope=scope)
    return _bits(out) + _bits(_state(scope, model).values())


@pytest.fixture(params=sorted(MODELS))
def model(request):
    return MODELS[request.param]()


def test_matches_reference_interpreter(model):
    scope = _fresh_scope(model)
    params = _state(scope, model)
    expected = interpret(model.main, model.feed, model.fetch, params)
    assert _run(model) == _bits(expected) + _bits(params.values())


def test_each_pass_is_bit_identical(model):
    expected = _run(model, BuildStrategy(**{p: False for p in PASSES}))
    for strategy in _strategies():
        assert _run(model, strategy) == expected, strategy


@pytest.fixture(params=["follow", "spread"])
def forced_parallel(request, monkeypatch):
    """The cost model overruled: every plan runs in parallel, with cheap ops following
    their predecessors' lane, or every op placed by finish time with free hand-offs (so
    lanes wait on each other often)."""
    monkeypatch.setattr(schedule_info, "MIN_PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(schedule_info, "MIN_SPEEDUP", 0.0)
    if request.param == "spread":
        monkeypatch.setattr(schedule_info, "OFFLOAD_SECONDS", 0.0)
        monkeypatch.setattr(schedule_info, "HANDOFF_SECONDS", 0.0)
    ran = []
    monkeypatch.setattr(executor_module, "run_parallel",
                        lambda *args: (ran.append(1), run_parallel(*args)))
    return ran


@pytest.mark.parametrize("threads", [1, 2, 4, 8])
def test_parallel_is_bit_identical(model, threads, forced_parallel):
    expected = _run(model)
    exe = Executor()
    full = BuildStrategy(**{p: True for p in PASSES})
    for k in range(20):
        assert _run(model, full if k % 2 else None, threads, exe) == expected
    exe.close()
    assert len(forced_parallel) == (20 if threads > 1 else 0)


def test_cse_and_folding_shrink_the_plan():
    model = MODELS["shared"]()
    names = [f.name for f in model.fetch]
    plain = compile(model.main, ["x"], names, BuildStrategy(enable_cse=False,
                                                           enable_constant_folding=False))
    cse = compile(model.main, ["x"], names, BuildStrategy(enable_constant_folding=False))
    both = compile(model.main, ["x"], names, BuildStrategy())
    types = [n.type for n in cse.nodes]
    assert types.count("matmul") == 1 and types.count("exp") == 1
    assert len(cse) == len(plain) - 3
    assert "full" not in [n.type for n in both.nodes]
    assert both.constants


def test_fusion_makes_one_instruction_per_chain():
    model = MODELS["shared"]()
    names = [f.name for f in model.fetch]
    plan = compile(model.main, ["x"], names, BuildStrategy(fuse_elewise_add_act_ops=True))
    fused = [n for n in plan.nodes if n.type == FUSED]
    assert fused and max(len(n.parts) for n in fused) >= 4
    assert not any(n.out_names()[0] in plan.slots for f in fused for n in f.parts[:-1])


def test_intermediates_are_freed_after_last_use():
    model = MODELS["mlp"]()
    names = [f.name for f in model.fetch]
    plan = compile(model.main, ["label", "x"], names, BuildStrategy())
    freed = {s for ins in plan.code for s in ins[3]}
    keep = set(plan.fetch_slots) | {plan.slots[v.name] for v in model.main.list_vars()
                                    if v.persistable and v.name in plan.slots}
    assert freed and not freed & keep
    unpinned = set(plan.slots.values()) - keep - {plan.slots[n] for n in plan.constants}
    assert unpinned <= freed


def test_kernels_bind_attributes_and_options_in_one_generated_call():
    """matmul_grad's attributes are bound positionally and its need= option by keyword in
    one generated function that calls the kernel itself (no keyword partial, no wrapper)."""
    model = MODELS["mlp"]()
    names = [f.name for f in model.fetch]
    plan = compile(model.main, ["label", "x"], names, BuildStrategy(enable_inplace=False))
    grads = [ins[0] for ins, node in zip(plan.code, plan.nodes) if node.type == "matmul_grad"]
    kernel = OPS["matmul_grad"].kernel
    cells = [dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__)))
             for fn in grads]
    assert grads and all(c["kernel"] is kernel for c in cells)
    assert any(c.get("need") == (False, True) for c in cells)
    assert all(fn.__code__.co_argcount == 3 for fn in grads)


def test_bias_add_after_a_convolution_runs_in_place_and_matches():
    """A [1, C, 1, 1] bias added to a convolution's fresh output (channels-last memory
    for a depthwise one) writes into that output; values equal the plan without in-place."""
    import sampan
    from sampan import static
    from sampan.ops._generated.api import conv2d
    rng = np.random.default_rng(8)
    feed = {"x": rng.standard_normal((1, 4, 6, 6)).astype("float32"),
            "w": rng.standard_normal((4, 1, 3, 3)).astype("float32"),
            "b": rng.standard_normal((1, 4, 1, 1)).astype("float32")}
    sampan.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [1, 4, 6, 6], "float32")
            w = static.data("w", [4, 1, 3, 3], "float32")
            b = static.data("b", [1, 4, 1, 1], "float32")
            y = sampan.nn.functional.relu(conv2d(x, w, [1, 1], [1, 1], "EXPLICIT", [1, 1], 4) + b)
    finally:
        sampan.disable_static()
    results = []
    for inplace in (True, False):
        plan = compile(main, ["x", "w", "b"], [y.name], BuildStrategy(enable_inplace=inplace))
        adds = [ins[0] for ins, node in zip(plan.code, plan.nodes) if node.type == "add"]
        assert len(adds) == 1 and ("_binary.<locals>.run" in adds[0].__qualname__) == inplace
        out, = Executor().run(main, feed=feed, fetch_list=[y],
                              build_strategy=BuildStrategy(enable_inplace=inplace))
        results.append(out)
    np.testing.assert_array_equal(results[0], results[1])
    conv = sum(np.pad(feed["x"], [(0, 0), (0, 0), (1, 1), (1, 1)])[:, :, i:i + 6, j:j + 6]
               * feed["w"][None, :, 0, i, j, None, None] for i in range(3) for j in range(3))
    np.testing.assert_allclose(results[0], np.maximum(conv + feed["b"], 0), rtol=1e-5,
                               atol=1e-5)

"""BuildStrategy: fuse_bn_act_ops fuses batch_norm + activation into one instruction with
the same results; Paddle's options that do nothing here warn once when set."""
import warnings

import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.executor import BuildStrategy, CompiledProgram
from sampan.executor import strategy as strategy_module
from sampan.executor.passes import FUSED_BN_ACT
from sampan.executor.plan import compile as compile_plan

X = np.random.default_rng(0).standard_normal((4, 3, 5, 5)).astype("float32")


def _program(act):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [-1, 3, 5, 5], "float32")
        h = paddle.nn.Conv2D(3, 4, 3)(x)
        y = act(paddle.nn.BatchNorm2D(4)(h))
        out = paddle.nn.BatchNorm2D(4)(y)  # no activation after it: not fused
    return main, startup, out


@pytest.mark.parametrize("act", [paddle.nn.functional.relu, paddle.tanh])
@pytest.mark.parametrize("for_test", [False, True])
def test_bn_act_fusion_gives_the_same_values_in_one_instruction(act, for_test):
    paddle.enable_static()
    try:
        main, startup, out = _program(act)
        program = main.clone(for_test=True) if for_test else main
        results = {}
        for fuse in (False, True):
            scope = static.Scope()
            with static.scope_guard(scope):
                exe = static.Executor()
                exe.run(startup)
                strategy = BuildStrategy(fuse_bn_act_ops=fuse)
                compiled = CompiledProgram(program, build_strategy=strategy)
                results[fuse] = exe.run(compiled, feed={"x": X}, fetch_list=[out])[0]
            plan = compile_plan(program, ["x"], [out.name], strategy)
            fused = [n for n in plan.nodes if n.type == FUSED_BN_ACT]
            assert len(fused) == (1 if fuse else 0)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(results[True], results[False], rtol=1e-6, atol=1e-6)


def test_options_with_no_effect_warn_once_each(monkeypatch):
    monkeypatch.setattr(strategy_module, "_WARNED", set())  # other tests may have set some
    with pytest.warns(UserWarning, match="fuse_gemm_epilogue = True has no effect"):
        BuildStrategy().fuse_gemm_epilogue = True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BuildStrategy().fuse_gemm_epilogue = True  # warned already
        BuildStrategy().fuse_adamw = False          # its default: nothing to say
        BuildStrategy(fuse_bn_act_ops=True)         # acts here
    with pytest.warns(UserWarning, match="build_cinn_pass"):
        BuildStrategy(build_cinn_pass=True)


def test_debug_graphviz_path_writes_the_program_graph(tmp_path):
    paddle.enable_static()
    try:
        main, startup, out = _program(paddle.nn.functional.relu)
        exe = static.Executor()
        with static.scope_guard(static.Scope()):
            exe.run(startup)
            strategy = BuildStrategy(debug_graphviz_path=str(tmp_path / "graph"))
            exe.run(CompiledProgram(main, build_strategy=strategy), feed={"x": X},
                    fetch_list=[out])
    finally:
        paddle.disable_static()
    assert (tmp_path / "graph.dot").read_text() == main.to_dot() + "\n"

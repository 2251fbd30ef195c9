"""Paddle's module layout (paddle.base, paddle.jit.dy2static, paddle.framework, ...): each
name is sampan's own object and behaves as Paddle's."""
import importlib
import os

import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static


def test_base_names_are_sampan_objects():
    from sampan import base
    from sampan.base import core, dygraph, framework
    assert importlib.import_module("sampan.base.core") is core
    assert core.eager.Tensor is paddle.Tensor
    assert base.Program is paddle.static.Program and framework.Variable is paddle.static.Variable
    assert base.Executor is paddle.static.Executor
    assert framework.default_main_program is paddle.static.default_main_program
    assert dygraph.to_variable is paddle.to_tensor
    assert not core.is_compiled_with_xpu() and not paddle.core.is_compiled_with_cuda()


def reads_base_layers(x):
    exported = paddle.base.layers.__all__
    return x + len(exported)


def test_base_layers_is_importable_and_exports_nothing():
    # Paddle 3 keeps `paddle.base.layers` as a name, with no public function left in it
    np.testing.assert_array_equal(
        to_static(reads_base_layers, full_graph=True)(paddle.to_tensor([1.0])).numpy(), [1.0])
    assert importlib.import_module("sampan.base.layers").__all__ == []


def test_dygraph_guard_runs_eagerly_inside_static_mode():
    from sampan.base import dygraph
    paddle.enable_static()
    try:
        with dygraph.guard():
            assert paddle.in_dynamic_mode()
            value = paddle.to_tensor([1.0, 2.0]) * 2
        assert not paddle.in_dynamic_mode()
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(value.numpy(), [2.0, 4.0])


def test_framework_mode_queries():
    from sampan.framework import in_pir_mode, use_pir_api
    assert use_pir_api() and not in_pir_mode()
    paddle.enable_static()
    try:
        assert in_pir_mode()
    finally:
        paddle.disable_static()


def test_set_expected_place_takes_the_cpu_only():
    from sampan.framework import _set_expected_place
    _set_expected_place(paddle.CPUPlace())
    assert paddle.get_device() == "cpu"
    with pytest.raises(ValueError, match="CPUPlace only"):
        _set_expected_place("gpu:0")


def test_manual_program_seed_makes_static_draws_repeat():
    from sampan.framework import random

    def draw():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            random._manual_program_seed(11)
            out = paddle.uniform([4])
        assert main.random_seed == 11
        return paddle.static.Executor().run(main, fetch_list=[out])[0]
    paddle.enable_static()
    try:
        np.testing.assert_array_equal(draw(), draw())
    finally:
        paddle.disable_static()


def test_fill_constant():
    out = paddle.tensor.fill_constant([2, 3], "int32", 7)
    assert out.dtype == paddle.int32
    np.testing.assert_array_equal(out.numpy(), np.full([2, 3], 7, "int32"))
    target = paddle.zeros([2], "float32")
    assert paddle.tensor.fill_constant([2], "float32", 1.5, out=target) is target
    np.testing.assert_array_equal(target.numpy(), [1.5, 1.5])
    assert not hasattr(paddle, "fill_constant")  # paddle.tensor's only, as in Paddle


def test_flatten_and_map_structure():
    nest = {"b": [1, (2, 3)], "a": 4}
    assert paddle.utils.flatten(nest) == [4, 1, 2, 3]
    assert paddle.utils.flatten(5) == [5]
    summed = paddle.utils.map_structure(lambda a, b: a + b, nest, {"b": [10, (20, 30)], "a": 40})
    assert summed == {"a": 44, "b": [11, (22, 33)]}
    with pytest.raises(ValueError, match="structure 1"):
        paddle.utils.map_structure(lambda a, b: a, [1, 2], [1])


def test_inplace_assign_takes_the_value_and_passes_gradients():
    x = paddle.ones([2])
    y = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    assert x._inplace_assign(y) is x
    np.testing.assert_array_equal(x.numpy(), [3.0, 4.0])
    (x * 2).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [2.0, 2.0])


def test_inplace_assign_on_a_leaf_that_needs_a_gradient_continues_the_source_history():
    # Paddle allows _inplace_assign on such a leaf (other in-place ops refuse it)
    x = paddle.ones([2])
    x.stop_gradient = False
    a = paddle.to_tensor([1.5, -2.0], stop_gradient=False)
    out = to_static(lambda a, x: a * 2.0 + x * 0)(a, x)
    x._inplace_assign(out)
    np.testing.assert_array_equal(x.numpy(), [3.0, -4.0])
    (x * x).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [12.0, -16.0])  # d(4a^2)/da = 8a
    with pytest.raises(ValueError, match="Leaf Tensor"):
        x2 = paddle.ones([2])
        x2.stop_gradient = False
        x2.add_(a)


def test_inplace_assign_under_to_static():
    def fn(x, y):
        z = x * 1
        z._inplace_assign(y * 3)
        return z + 1
    x, y = paddle.ones([3]), paddle.to_tensor([1.0, 2.0, 3.0])
    np.testing.assert_allclose(to_static(fn)(x, y).numpy(), fn(x, y).numpy())


def foo(a, b, c=1, d=2):
    return a + b + c


def test_dy2static_names():
    import sampan.jit.dy2static as jst
    from sampan.jit.dy2static.program_translator import ConcreteProgram, StaticFunction
    from sampan.jit.dy2static.utils import Dygraph2StaticException
    from sampan.jit.operators import Call
    from sampan.jit.operators.common import UnsupportedConstruct
    assert jst.Call is Call and jst.convert_call is Call
    assert StaticFunction is paddle.jit.StaticFunction
    assert issubclass(UnsupportedConstruct, Dygraph2StaticException)
    sf = to_static(foo)
    sf(paddle.ones([2]), paddle.ones([2]))
    assert isinstance(sf.concrete_program, ConcreteProgram)
    assert jst.convert_to_static(foo) is jst.convert_to_static(foo)  # cached
    assert jst.convert_var_dtype(paddle.to_tensor(2.7), "int") == 2
    assert jst.convert_logical_and(lambda: True, lambda: 0) == 0


def test_func_to_source_code_blanks_comments_and_shows_converted_code():
    from sampan.jit.dy2static import Call
    from sampan.jit.dy2static.utils import func_to_source_code

    def branchy(x):
        # a comment
        if x.sum() > 0:
            x = x + 1
        return x
    plain = func_to_source_code(branchy)
    assert "#" not in plain and plain.startswith("def branchy(x):")
    assert "_jst.IfElse" in func_to_source_code(Call(branchy))
    with pytest.raises(TypeError, match="function or method"):
        func_to_source_code(3)


def test_program_cache_object_model():
    sf = to_static(foo)
    a, b = paddle.ones([2]), paddle.ones([2])
    sf(a, b)
    first = sf.program_cache.last()
    key, (program, partial) = first
    assert program is sf.concrete_program and partial is program.partial_program
    sf(a, b, 3)
    assert len(sf.program_cache) == 2 and len(sf.program_cache.concrete_programs()) == 2
    sf(a, b)
    assert sf.program_cache.last() == first


def test_operator_name_and_partial_program_from():
    from sampan.jit.dy2static.pir_partial_program import partial_program_from
    sf = to_static(foo)
    sf(paddle.ones([2]), paddle.ones([2]))
    program = sf.concrete_program
    partial = partial_program_from(program)  # a new one, on the program's parameters
    assert partial is not program.partial_program and partial.program is program.main_program
    np.testing.assert_allclose(partial([paddle.ones([2]), paddle.ones([2])]).numpy(),
                               sf(paddle.ones([2]), paddle.ones([2])).numpy())
    names = [op.name() for op in program.main_program.global_block().ops]
    assert "pd_op.elementwise_add" in names or "pd_op.add" in names


def test_saved_model_suffixes(tmp_path):
    from sampan.jit.pir_translated_layer import PIR_INFER_MODEL_SUFFIX
    from sampan.jit.translated_layer import INFER_MODEL_SUFFIX, INFER_PARAMS_SUFFIX
    layer = paddle.nn.Linear(2, 2)
    prefix = str(tmp_path / "m")
    paddle.jit.save(layer, prefix, input_spec=[paddle.static.InputSpec([None, 2])])
    for suffix in (INFER_MODEL_SUFFIX, INFER_PARAMS_SUFFIX, PIR_INFER_MODEL_SUFFIX):
        assert os.path.isfile(prefix + suffix)


def test_data_inputs_are_named_as_in_paddle():
    from sampan.static import InputSpec

    def pair(l, d, x):
        return l[0] + l[1] + d["u"] + x
    sf = to_static(pair, input_spec=[[InputSpec([2]), InputSpec([2])], {"u": InputSpec([2])},
                                     InputSpec([2], name="named")])
    assert [v.name for v in sf.inputs] == ["l_0", "l_1", "u", "named"]
    got = to_static(pair)([paddle.ones([2]), paddle.ones([2])], {"u": paddle.ones([2])},
                          paddle.ones([2]))
    np.testing.assert_allclose(got.numpy(), [4.0, 4.0])


def test_branches_with_different_returns_raise_dygraph2static_exception():
    from sampan.jit.dy2static.utils import Dygraph2StaticException

    def uneven(x):
        if x.sum() > 0:
            return x, x + 1
        return x
    with pytest.raises(Dygraph2StaticException, match="different number of return value"):
        to_static(uneven)(paddle.ones([2]))


def test_calling_in_static_mode_is_a_runtime_error():
    sf = to_static(foo)
    paddle.enable_static()
    try:
        with pytest.raises(RuntimeError, match="static mode"):
            sf(paddle.static.data("a", [2]), paddle.static.data("b", [2]))
    finally:
        paddle.disable_static()

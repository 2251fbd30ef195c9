"""Program IR: building in static mode, printing, verification, serialization, errors."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.core.errors import OpShapeError
from sampan.static.interpreter import interpret
from sampan.static.serialize import ProgramFormatError, program_from_dict, program_to_dict


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def build_mlp():
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 4], "float32")
        w = static.create_parameter([4, 3], "float32", name="w",
                                    default_initializer=lambda s, d: np.full(s, 0.5))
        y = paddle.tanh(paddle.matmul(x, w)).mean()
    return main, startup, x, w, y


def test_static_ops_get_inferred_metas(static_mode):
    main, _, x, w, y = build_mlp()
    assert x.shape == [-1, 4]
    assert [op.type for op in main.global_block().ops] == ["matmul", "tanh", "mean"]
    assert main.global_block().ops[0].outputs["out"][0] in main.global_block().vars
    assert y.shape == [] and y.dtype == paddle.float32
    assert not y.stop_gradient and x.stop_gradient


def test_program_listing_is_deterministic(static_mode):
    from sampan.core import unique_name
    with unique_name.guard():
        text = str(build_mlp()[0])
    with unique_name.guard():
        assert str(build_mlp()[0]) == text
    lines = text.splitlines()
    assert lines[0] == "{ // block 0"
    assert "    var x : LOD_TENSOR.shape(-1, 4).dtype(float32).stop_gradient(True)" in lines
    assert any(line.startswith("    persist var w : LOD_TENSOR.shape(4, 3)") for line in lines)
    assert any("= matmul(inputs={x=['x'], y=['w']}, transpose_x = False" in line
               for line in lines)


def test_interpreter_runs_startup_and_main(static_mode):
    main, startup, x, w, y = build_mlp()
    scope = {}
    interpret(startup, scope=scope)
    feed = np.arange(8, dtype="float32").reshape(2, 4) / 8
    (out,) = interpret(main, {"x": feed}, [y], scope)
    np.testing.assert_allclose(out, np.tanh(feed @ np.full((4, 3), 0.5)).mean(), rtol=1e-6)


def test_append_backward_matches_eager(static_mode):
    main, startup, x, w, y = build_mlp()
    with static.program_guard(main, startup):
        (param, grad), = static.append_backward(y)
    assert param is w and grad.name == "w@GRAD"
    scope = {}
    interpret(startup, scope=scope)
    feed = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    (g,) = interpret(main, {"x": feed}, [grad], scope)
    paddle.disable_static()
    we = paddle.to_tensor(np.full((4, 3), 0.5, "float32"), stop_gradient=False)
    paddle.tanh(paddle.matmul(paddle.to_tensor(feed), we)).mean().backward()
    paddle.enable_static()
    np.testing.assert_allclose(g, we.grad.numpy(), rtol=1e-6)


def test_shared_variable_gradients_are_summed(static_mode):
    main = static.Program()
    with static.program_guard(main):
        x = static.data("x", [3], "float64")
        x.stop_gradient = False
        y = (x * x + x).sum()
        (gx,) = static.gradients([y], [x])
    (g,) = interpret(main, {"x": np.array([1.0, 2.0, 3.0])}, [gx])
    np.testing.assert_allclose(g, [3.0, 5.0, 7.0])


def test_verify_catches_use_before_definition(static_mode):
    main, *_ = build_mlp()
    main.verify()
    block = main.global_block()
    block.create_var("ghost", [2], "float32")
    block.append_op("tanh", {"x": ["ghost"]}, {"out": [block.ops[1].output("out")[0]]})
    with pytest.raises(static.ProgramVerifyError, match="ghost"):
        main.verify()


def test_serialization_round_trip(static_mode):
    main, *_ = build_mlp()
    text = static.program_to_json(main)
    again = static.program_from_json(text)
    assert str(again) == str(main)
    assert static.program_to_json(again) == text


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(version=99), "unsupported program format version"),
    (lambda d: d["blocks"][0]["ops"][0].update(type="os.system"), "unknown op type"),
    (lambda d: d["blocks"][0]["vars"][0].update(dtype="object"), "unknown dtype"),
    (lambda d: d["blocks"][0]["vars"][0].update(shape=[-5]), "bad shape"),
    (lambda d: d.pop("format"), "not a sampan program"),
])
def test_malformed_program_files_are_rejected(static_mode, mutate, message):
    data = program_to_dict(build_mlp()[0])
    mutate(data)
    with pytest.raises(ProgramFormatError, match=message):
        program_from_dict(data)


def test_clone_for_test_sets_is_test(static_mode):
    main = static.Program()
    with static.program_guard(main):
        x = static.data("x", [2, 3], "float32")
        paddle.tanh(x)
    clone = main.clone(for_test=True)
    assert str(clone) == str(main)
    assert clone._is_test


def test_static_shape_error_names_op_and_user_line(static_mode):
    main = static.Program()
    with static.program_guard(main):
        a = static.data("a", [2, 3], "float32")
        b = static.data("b", [4, 3], "float32")
        with pytest.raises(OpShapeError) as err:
            a + b  # the line the error must point to
    text = str(err.value)
    assert "add()" in text and "[2, 3]" in text and "[4, 3]" in text
    assert "test_ir.py" in text and "the line the error must point to" in text


def test_variable_setitem_and_bool_error(static_mode):
    main = static.Program()
    with static.program_guard(main):
        x = static.data("x", [3], "float32")
        alias = x
        x[0] = 5.0
        with pytest.raises(TypeError, match="static.nn.cond"):
            bool(x > 1.0)
    assert alias is x and x.name != "x"
    (out,) = interpret(main, {"x": np.array([1, 2, 3], "float32")}, [x])
    np.testing.assert_array_equal(out, [5, 2, 3])


def test_input_spec():
    spec = static.InputSpec([None, 3], "float32", "x")
    assert spec.shape == (-1, 3) and spec.batch(8).shape == (8, -1, 3)  # Paddle stores -1
    assert repr(spec) == "InputSpec(shape=(-1, 3), dtype=paddle.float32, name=x, " \
                         "stop_gradient=False)"
    assert spec.batch(8).unbatch() == spec
    assert spec.matches((5, 3), "float32") and not spec.matches((5, 4), "float32")
    t = paddle.ones([2, 3])
    assert static.InputSpec.from_tensor(t).shape == (2, 3)

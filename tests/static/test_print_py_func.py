"""paddle.static.Print and paddle.static.py_func: ops the Executor runs."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def test_format_follows_paddles_formatter():
    text = static.print_op.format_tensor(np.array([[1, 2], [3, 4]], "int64"), "x", "hello", 3)
    assert text == ("Variable: x\n  - message: hello\n  - lod: {}\n  - place: Place(cpu)\n"
                    "  - shape: [2, 2]\n  - layout: NCHW\n  - dtype: int64\n"
                    "  - data: [1 2 3]\n")
    brief = static.print_op.format_tensor(np.array([0.5, 1.25], "float32"), "y", "", -1,
                                          print_tensor_name=False, print_tensor_type=False,
                                          print_tensor_shape=False, print_tensor_lod=False)
    assert brief == "  - place: Place(cpu)\n  - layout: NCHW\n  - data: [0.5 1.25]\n"


def test_print_runs_with_the_program_and_first_n(static_mode, capsys):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [2], "float32")
        y = static.Print(x * 2.0, first_n=2, message="doubled")
        z = y + 1.0
    assert capsys.readouterr().out == ""
    exe = static.Executor()
    for _ in range(3):
        out, = exe.run(main, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[z])
    np.testing.assert_allclose(out, [3.0, 5.0])
    printed = capsys.readouterr().out
    assert printed.count("  - message: doubled") == 2
    assert "  - data: [2 4]" in printed and "  - shape: [2]" in printed


def test_print_is_kept_when_its_output_is_unused(static_mode, capsys):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [1], "float32")
        static.Print(x, message="side effect")
        z = x + 1.0
    static.Executor().run(main, feed={"x": np.ones(1, "float32")}, fetch_list=[z])
    assert "side effect" in capsys.readouterr().out


@pytest.mark.parametrize("phase, forward, backward", [("forward", 1, 0), ("backward", 0, 1),
                                                      ("BOTH", 1, 1)])
def test_print_phase_prints_gradients(static_mode, capsys, phase, forward, backward):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [3], "float32")
        x.stop_gradient = False
        y = static.Print(x, print_phase=phase, message="m")
        loss = (y * 3.0).sum()
        gx, = static.gradients(loss, [x])
    out, = static.Executor().run(main, feed={"x": np.ones(3, "float32")}, fetch_list=[gx])
    np.testing.assert_allclose(out, [3.0, 3.0, 3.0])
    printed = capsys.readouterr().out
    assert printed.count("Variable: x\n") == forward
    assert printed.count("  - data: [3 3 3]") == backward


def test_print_dynamic_prints_now_and_returns_input(capsys):
    t = paddle.to_tensor(np.array([1.5, 2.0], "float32"))
    assert static.Print(t, message="now") is t
    printed = capsys.readouterr().out
    assert "  - message: now" in printed and "  - data: [1.5 2]" in printed


def test_print_bad_arguments_are_named():
    t = paddle.to_tensor(np.ones(1, "float32"))
    with pytest.raises(ValueError, match="'print_phase'"):
        static.Print(t, print_phase="sideways")
    with pytest.raises(TypeError, match="'message'"):
        static.Print(t, message=3)
    with pytest.raises(TypeError, match="'first_n'"):
        static.Print(t, first_n=1.5)
    with pytest.raises(TypeError, match="'input'"):
        static.Print([1, 2])


def test_print_survives_serialization(static_mode, capsys):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [1], "float32")
        y = static.Print(x, message="copied")
    copy = static.deserialize_program(static.serialize_program([x], [y], program=main))
    static.Executor().run(copy, feed={"x": np.ones(1, "float32")}, fetch_list=[y.name])
    assert "copied" in capsys.readouterr().out


def _tanh(x):
    return np.tanh(np.asarray(x))


def _tanh_grad(y, dy):
    return np.asarray(dy) * (1 - np.square(np.asarray(y)))


def test_py_func_forward_and_backward(static_mode):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        out = main.global_block().create_var(name="tanh_out", shape=[2, 3], dtype="float32")
        result = static.py_func(_tanh, x, out, backward_func=_tanh_grad,
                                skip_vars_in_backward_input=x)
        loss = (result * 2.0).sum()
        gx, = static.gradients(loss, [x])
    value = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    y, g = static.Executor().run(main, feed={"x": value}, fetch_list=[result, gx])
    assert result is out
    np.testing.assert_allclose(y, np.tanh(value), rtol=1e-6)
    np.testing.assert_allclose(g, 2 * (1 - np.tanh(value) ** 2), rtol=1e-5)


def test_py_func_several_inputs_and_outputs(static_mode):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        a = static.data("a", [3], "float32")
        b = static.data("b", [3], "float32")
        block = main.global_block()
        s = block.create_var(name="s", shape=[3], dtype="float32")
        p = block.create_var(name="p", shape=[3], dtype="float64")
        static.py_func(lambda u, v: (np.add(u, v), np.multiply(u, v)), [a, b], [s, p])
    got_s, got_p = static.Executor().run(
        main, feed={"a": np.array([1, 2, 3], "float32"), "b": np.array([4, 5, 6], "float32")},
        fetch_list=[s, p])
    np.testing.assert_allclose(got_s, [5, 7, 9])
    assert got_p.dtype == np.float64
    np.testing.assert_allclose(got_p, [4, 10, 18])


def test_py_func_result_shape_is_checked(static_mode):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [2], "float32")
        out = main.global_block().create_var(name="o", shape=[2], dtype="float32")
        static.py_func(lambda v: np.zeros(3), x, out)
    with pytest.raises(ValueError, match="'o'"):
        static.Executor().run(main, feed={"x": np.ones(2, "float32")}, fetch_list=[out])


def test_py_func_bad_arguments(static_mode):
    with static.program_guard(static.Program(), static.Program()):
        x = static.data("x", [2], "float32")
        with pytest.raises(TypeError, match="'func'"):
            static.py_func(3, x, None)
        with pytest.raises(TypeError, match="'x'"):
            static.py_func(_tanh, [x, 1], None)
        other = static.data("other", [2], "float32")
        with pytest.raises(ValueError, match="'skip_vars_in_backward_input'"):
            static.py_func(_tanh, x, None, skip_vars_in_backward_input=other)


def test_py_func_needs_static_mode():
    with pytest.raises(RuntimeError, match="static Program"):
        static.py_func(_tanh, None, None)

"""Errors of converted code keep their type and point at the user's source line."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
from sampan.jit import to_static
from sampan.static import InputSpec

HERE = __file__


def t(values):
    return paddle.to_tensor(np.asarray(values, "float32"))


def line_of(fn, text):
    """Absolute line number of the line of `fn` containing `text`."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    return start + next(k for k, line in enumerate(lines) if text in line)


def assert_points_at(message, fn, text):
    assert "In transformed code:" in message
    assert f'"{HERE}", line {line_of(fn, text)}' in message
    assert f"{text}" in message and "<--- HERE" in message


# ---- build time ----

def bad_matmul(x):
    y = x * 2
    if y.sum() > 0:
        z = paddle.matmul(y, t([[1.0, 2.0, 3.0]]))
    else:
        z = y
    return z


def test_build_error_in_tensor_branch_points_at_user_line():
    with pytest.raises(Exception) as info:
        to_static(bad_matmul)(t([[1.0, 2.0]]))
    assert_points_at(str(info.value), bad_matmul, "z = paddle.matmul(")


def raises_user_error(x, n):
    for i in range(n):
        if i == 2:
            raise KeyError(f"bad index {i}")
    return x


def test_user_exception_keeps_type_and_gains_line():
    with pytest.raises(KeyError) as info:
        to_static(raises_user_error)(t([1.0]), 4)
    assert_points_at(str(info.value), raises_user_error, 'raise KeyError(f"bad index {i}")')


def test_yield_is_rejected_with_line():
    def gen(x):
        yield x
    with pytest.raises(NotImplementedError, match=r"test_errors.py:\d+: 'yield'"):
        to_static(gen, full_graph=True)(t([1.0]))


def test_tensor_if_inside_try_is_rejected():
    def guarded(x):
        try:
            if x.sum() > 0:
                x = x + 1
        except ValueError:
            pass
        return x
    with pytest.raises(NotImplementedError, match=r"inside 'try'.*test_errors.py:\d+"):
        to_static(guarded, full_graph=True)(t([1.0]))
    assert to_static(guarded).code.count("RequirePython") == 1


def swallow_exception(x):
    try:
        if x.sum() > 0:
            x = x + 1
    except Exception:
        pass
    return x


def swallow_bare(x):
    try:
        if x.sum() > 0:
            x = x + 1
    except:  # noqa: E722 (the bare clause is what is tested)
        pass
    return x


def swallow_named(x):
    try:
        while x.sum() < 10:
            x = x * 2
    except BaseException as error:
        x = x * 0 + len(str(error))
    return x


@pytest.mark.parametrize("fn", [swallow_exception, swallow_bare, swallow_named])
def test_tensor_if_inside_try_is_not_swallowed_by_broad_except(fn):
    """The error escapes the user's own handler: swallowing it silently skipped the branch
    (x + 1 was never added)."""
    with pytest.raises(NotImplementedError, match="inside 'try'"):
        to_static(fn, full_graph=True)(t([1.0]))


def test_python_if_inside_try_with_broad_except_still_runs():
    def guarded(x, n):
        try:
            if n > 1:
                raise ValueError("n")
            x = x * 2
        except Exception:
            x = x - 1
        return x
    np.testing.assert_allclose(to_static(guarded)(t([3.0]), 1).numpy(), [6.0])
    np.testing.assert_allclose(to_static(guarded)(t([3.0]), 2).numpy(), [2.0])


COUNTER = 0


def rebinds_global(x):
    global COUNTER
    if x.sum() > 0:
        COUNTER = 1
    return x


def test_global_rebinding_in_tensor_if_is_rejected():
    with pytest.raises(NotImplementedError, match="global/nonlocal name inside an if"):
        to_static(rebinds_global, full_graph=True)(t([1.0]))


def test_nonlocal_write_in_tensor_loop_is_rejected():
    def outer(x):
        steps = 0

        def inner(y):
            nonlocal steps
            while y.sum() < 5:
                y = y + 1
                steps += 1
            return y
        return inner(x)
    with pytest.raises(NotImplementedError, match="global/nonlocal write inside a loop"):
        to_static(outer, full_graph=True)(t([1.0]))


def test_build_error_in_called_function_lists_both_frames():
    def inner(x):
        return paddle.reshape(x, [7, 3])

    def outer(x):
        return inner(x) + 1
    with pytest.raises(Exception) as info:
        to_static(outer)(t([1.0, 2.0]))
    message = str(info.value)
    assert_points_at(message, inner, "return paddle.reshape(x, [7, 3])")
    assert f"line {line_of(outer, 'return inner(x) + 1')}" in message


# ---- run time ----

def add_pair(x, y):
    z = x * 2
    return z + y


def test_runtime_shape_error_points_at_user_line():
    spec = [InputSpec([None], "float32"), InputSpec([None], "float32")]
    fn = to_static(add_pair, input_spec=spec)
    with pytest.raises(ValueError) as info:
        fn(t([1.0, 2.0, 3.0]), t([1.0, 2.0]))
    assert_points_at(str(info.value), add_pair, "return z + y")


def reshape_rows(x):
    if x.shape[1] > 1:
        y = paddle.reshape(x, [-1, 4])
    else:
        y = x
    return y.sum()


def test_runtime_reshape_error_inside_branch():
    fn = to_static(reshape_rows, input_spec=[InputSpec([None, 2], "float32")])
    with pytest.raises(ValueError) as info:
        fn(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert_points_at(str(info.value), reshape_rows, "y = paddle.reshape(x, [-1, 4])")


class Joiner(nn.Layer):
    def forward(self, x, y):
        h = paddle.tanh(x)
        return paddle.concat([h, y], axis=1)


def test_runtime_error_in_layer_forward():
    layer = to_static(Joiner())
    layer.forward._input_spec = [InputSpec([None, 2]), InputSpec([None, 2])]
    with pytest.raises(ValueError) as info:
        layer(t([[1.0, 2.0]]), t([[1.0, 2.0], [3.0, 4.0]]))
    assert_points_at(str(info.value), Joiner.forward, "return paddle.concat([h, y], axis=1)")


def test_op_origins_point_at_user_file():
    fn = to_static(add_pair)
    fn(t([1.0]), t([2.0]))
    origins = {op.origin[0] for op in fn.concrete_program.main_program.global_block().ops}
    assert origins == {HERE}


# ---- a sampan layer converted directly ----
def _call_wrapped_linear():
    wrapped = to_static(nn.Linear(4, 3))
    return wrapped(t(np.ones((2, 5))))  # the wrong input size


def test_a_converted_sampan_layer_reports_the_callers_line():
    with pytest.raises(ValueError) as info:
        _call_wrapped_linear()
    message = str(info.value)
    line = line_of(_call_wrapped_linear, "the wrong input size")
    assert_points_at(message, _call_wrapped_linear, "the wrong input size")
    assert f"built at {HERE}:{line}:" in message
    assert "sampan/nn" not in message and "sampan-converted" not in message


class _Head(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        y = x * 2.0
        return self.fc(y)  # the sampan layer called by user code


def test_a_sampan_layer_inside_a_user_layer_reports_the_user_forward_line():
    with pytest.raises(ValueError) as info:
        to_static(_Head())(t(np.ones((2, 5))))
    message = str(info.value)
    assert_points_at(message, _Head.forward, "the sampan layer called by user code")
    assert f"built at {HERE}:{line_of(_Head.forward, 'the sampan layer called')}" in message


# ---- the ErrorData record (Paddle's `paddle.jit.dy2static.error`) ----

def test_error_data_lists_the_user_frames_of_a_build_error():
    from sampan.jit.dy2static import error
    with pytest.raises(KeyError) as info:
        to_static(raises_user_error)(t([1.0]), 4)
    data = getattr(info.value, error.ERROR_DATA)
    assert isinstance(data, error.ErrorData) and data.error_type is KeyError
    file, line, function, text = data.frames[-1]
    assert (file, function) == (HERE, "raises_user_error")
    assert line == line_of(raises_user_error, "raise KeyError")
    assert text.startswith("raise KeyError")


def test_error_data_of_a_run_time_error_names_the_op_line():
    from sampan.jit.dy2static import error
    fn = to_static(add_pair, input_spec=[InputSpec([None], "float32")] * 2)
    with pytest.raises(ValueError) as info:
        fn(t([1.0, 2.0, 3.0]), t([1.0, 2.0]))
    data = getattr(info.value, error.ERROR_DATA)
    assert [f[:2] for f in data.frames] == [(HERE, line_of(add_pair, "return z + y"))]


def test_an_eager_error_has_no_error_data():
    from sampan.jit.dy2static import error
    with pytest.raises(ValueError) as info:
        add_pair(t([1.0, 2.0, 3.0]), t([1.0, 2.0]))
    assert getattr(info.value, error.ERROR_DATA, None) is None

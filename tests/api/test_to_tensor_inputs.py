"""to_tensor's data argument in each mode: what is refused and with which exception (a
TypeError eagerly, a RuntimeError while a Program is built, as Paddle 3.3.1), and what a
converted function returns compared with the eager call (dtype, stop_gradient, place)."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static

NOT_ARRAYS = [{1: 1}, {1, 2}, None, object(), "abc", b"ab"]


@pytest.mark.parametrize("data", NOT_ARRAYS, ids=lambda d: type(d).__name__)
def test_eager_refuses_data_that_is_no_array(data):
    with pytest.raises(TypeError, match=f"type `{type(data)}` to tensor"):
        paddle.to_tensor(data)


@pytest.mark.parametrize("data", NOT_ARRAYS, ids=lambda d: type(d).__name__)
def test_static_mode_refuses_it_with_runtime_error(data):
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            with pytest.raises(RuntimeError, match=f"type `{type(data)}` to tensor"):
                paddle.to_tensor(data)
    finally:
        paddle.disable_static()


def dict_to_tensor(x):
    return paddle.to_tensor({1: 1}) + x


def test_converted_function_names_the_dict_and_the_line():
    with pytest.raises(RuntimeError) as info:
        to_static(dict_to_tensor, full_graph=True)(paddle.to_tensor([3]))
    message = str(info.value)
    assert "Do not support transform type `<class 'dict'>` to tensor" in message
    assert "return paddle.to_tensor({1: 1}) + x" in message


def marked_differentiable(x):
    return paddle.to_tensor([1, 2, 3], stop_gradient=False, dtype="float32")


def marked_and_computed(x):
    return paddle.to_tensor([1.0, 2.0], stop_gradient=False) * 2, x + 1


def default_int(x):
    return paddle.to_tensor(1)


def typed_from_list(x):
    return paddle.to_tensor([1.0, 2.0, 3.0], dtype="int64", place=paddle.CPUPlace())


@pytest.mark.parametrize("fn", [marked_differentiable, default_int, typed_from_list])
@pytest.mark.parametrize("x_needs_grad", [False, True])
def test_converted_result_matches_eager(fn, x_needs_grad):
    x = paddle.to_tensor([3.0], stop_gradient=not x_needs_grad)
    want, got = fn(x), to_static(fn, full_graph=True)(x)
    assert got.dtype == want.dtype
    assert got.stop_gradient == want.stop_gradient
    assert got.place._equals(want.place)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("x_needs_grad", [False, True])
def test_marked_output_beside_computed_one(x_needs_grad):
    x = paddle.to_tensor([3.0], stop_gradient=not x_needs_grad)
    want = marked_and_computed(x)
    got = to_static(marked_and_computed, full_graph=True)(x)
    assert [t.stop_gradient for t in got] == [t.stop_gradient for t in want]
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_marked_output_under_no_grad_records_nothing():
    x = paddle.to_tensor([3.0])
    with paddle.no_grad():
        want = marked_and_computed(x)
        got = to_static(marked_and_computed, full_graph=True)(x)
    assert [t.stop_gradient for t in got] == [t.stop_gradient for t in want] == [True, True]


def test_place_equals():
    assert paddle.CPUPlace()._equals(paddle.to_tensor([1.0]).place)
    assert not paddle.CPUPlace()._equals("cpu")

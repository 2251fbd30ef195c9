"""Paddle 3.3.1's `out=` keyword: the functions that take it write their result into the
given tensor and return it (eagerly, with gradients, and in a static Program)."""
import inspect

import numpy as np
import pytest

import sampan as paddle
from sampan.tensor.aliases import OUT_TAKING


@pytest.mark.parametrize("name", OUT_TAKING)
def test_every_paddle_function_with_out_takes_it(name):
    param = inspect.signature(getattr(paddle, name)).parameters["out"]
    assert param.kind is param.KEYWORD_ONLY and param.default is None


def test_result_is_written_into_out_and_returned():
    x = paddle.to_tensor([1.0, 4.0, 9.0])
    out = paddle.empty([3])
    assert paddle.sqrt(x, out=out) is out
    np.testing.assert_array_equal(out.numpy(), [1, 2, 3])
    total = paddle.zeros([])
    paddle.sum(x, axis=0, out=total)
    assert float(total) == 14.0
    shifted = paddle.zeros([2], "int64")
    paddle.bitwise_left_shift(paddle.to_tensor([1, 3]), paddle.to_tensor([2, 1]), out=shifted)
    np.testing.assert_array_equal(shifted.numpy(), [4, 6])  # ignored out= before
    with_alias = paddle.zeros([3])
    paddle.add(x, x, alpha=2, out=with_alias)
    np.testing.assert_array_equal(with_alias.numpy(), [3, 12, 27])


def test_tuple_results_fill_a_tuple_of_outs():
    values, indices = paddle.empty([2]), paddle.empty([2], "int64")
    got = paddle.topk(paddle.to_tensor([3.0, 1.0, 5.0]), 2, out=(values, indices))
    assert got[0] is values and got[1] is indices
    np.testing.assert_array_equal(values.numpy(), [5, 3])
    np.testing.assert_array_equal(indices.numpy(), [2, 0])
    with pytest.raises(TypeError, match="tuple of 2 tensors"):
        paddle.topk(paddle.to_tensor([3.0, 1.0]), 1, out=values)


def test_gradient_flows_through_out():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out = paddle.empty([2])
    paddle.multiply(x, x, out=out)
    (out * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6, 12])


def test_static_program_reads_out_after_the_call():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [2], "float32")
            out = paddle.zeros([2])
            paddle.exp(x, out=out)
            doubled = out * 2
        got = paddle.static.Executor().run(main, feed={"x": np.array([0.0, 1.0], "float32")},
                                           fetch_list=[doubled])[0]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, 2 * np.exp([0.0, 1.0]), rtol=1e-6)

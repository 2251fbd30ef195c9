"""Code that Paddle 3.3.1's AST mode refuses and sampan converts (docs/to_static.md, "What
sampan does not pass of Paddle's dy2static tests"): the converted result equals the eager
one. Paddle raises Dygraph2StaticException for a `return` straight in a loop body and for a
Python loop whose condition becomes a Tensor after a Tensor `break`, TypeError for a method
of a class that is no Layer, RuntimeError for `zip` over tensors of unknown length."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static
from sampan.static import InputSpec


def returns_number_in_while_body(x):
    while True:
        unused = 12
        return 12
    return 10


def returns_tensor_in_while_body(x):
    while x.sum() > -1:
        return x + 12
    return x


def returns_number_in_for_body(x):
    for i in range(10):
        return 12 + i
    return 10


def returns_tensor_in_for_body(x):
    for i in range(10):
        return x * (i + 3)
    return x


@pytest.mark.parametrize("fn", [returns_number_in_while_body, returns_tensor_in_while_body,
                                returns_number_in_for_body, returns_tensor_in_for_body])
def test_return_straight_in_a_loop_body_returns_at_the_first_iteration(fn):
    x = paddle.to_tensor(np.ones(1, "int32"))
    want, got = fn(x), to_static(fn, full_graph=True)(x)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def tensor_break_in_python_for(x):
    for i in range(10):
        if x.sum() > 5:
            break
            x += 10086
        x += i
        if i < 3:
            x = x * 2
    return x


@pytest.mark.parametrize("scale", [0.0, 0.01, 1.0])
def test_tensor_break_in_python_for_matches_eager(scale):
    data = (np.random.default_rng(3).random([10, 16]) * scale).astype("float32")
    want = tensor_break_in_python_for(paddle.to_tensor(data))
    got = to_static(tensor_break_in_python_for, full_graph=True)(paddle.to_tensor(data))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


class NotALayer:
    def __init__(self):
        self.calls = 0

    def shifted(self, x):
        self.calls += 1
        if x.sum() > 0:
            return x + 1
        return x - 1


@pytest.mark.parametrize("values", [[2.0], [-2.0]])
def test_method_of_a_plain_class_converts(values):
    obj = NotALayer()
    converted = to_static(obj.shifted, input_spec=[InputSpec([1], "float32", name="x")])
    x = paddle.to_tensor(values)
    np.testing.assert_array_equal(converted(x).numpy(), obj.shifted(x).numpy())
    assert obj.calls == 2  # the converted method ran on the same object (traced once)


def zip_rows(x, y):
    total = x[0] * 0
    for i, j in zip(x, y):
        total = total + i * j
    return x + y, total


def test_zip_over_unknown_lengths_saves_and_matches_eager(tmp_path):
    spec = [InputSpec([None, 10], "float32"), InputSpec([None, 10], "float32")]
    converted = to_static(zip_rows, input_spec=spec)
    path = str(tmp_path / "zip_rows")
    paddle.jit.save(converted, path)
    loaded = paddle.jit.load(path)
    rng = np.random.default_rng(0)
    for x_rows, y_rows in ((1, 1), (4, 4), (4, 1)):  # zip stops at the shorter
        x, y = (paddle.to_tensor(rng.random([n, 10]).astype("float32"))
                for n in (x_rows, y_rows))
        want = zip_rows(x, y)
        for got in (converted(x, y), loaded(x, y)):
            for a, b in zip(got, want):
                np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)

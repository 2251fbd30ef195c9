"""paddle.tensor.array_write / array_read / array_length and paddle.stack on an array that a
Tensor while loop carries, eager against to_static and through jit.save / jit.load."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.static import InputSpec


class DoubledRows(nn.Layer):
    """Writes each doubled row into a tensor array in a loop whose test is a Tensor, then
    reads the last item and stacks them all."""

    def forward(self, x):
        rows = paddle.tensor.create_array("float32")
        i = paddle.zeros([1], "int64")
        n = paddle.shape(x)[0]
        while i < n:
            rows = paddle.tensor.array_write(x[i] * 2, i, rows)
            i = i + 1
        last = paddle.tensor.array_read(rows, paddle.tensor.array_length(rows) - 1)
        return last + paddle.stack(rows).sum(axis=0)


def _expected(x):
    return (x[-1:] * 2 + (x * 2).sum(axis=0, keepdims=True))


@pytest.mark.parametrize("full_graph", [True, False])
def test_array_functions_on_a_carried_array_equal_eager(full_graph):
    net = DoubledRows()
    converted = paddle.jit.to_static(DoubledRows(), full_graph=full_graph)
    for rows in (1, 3, 5):
        x = np.arange(rows * 2, dtype="float32").reshape(rows, 2)
        eager = net(paddle.to_tensor(x)).numpy()
        np.testing.assert_allclose(eager, _expected(x))
        np.testing.assert_allclose(converted(paddle.to_tensor(x)).numpy(), eager)


def test_the_saved_program_serves_every_length(tmp_path):
    prefix = str(tmp_path / "rows")
    paddle.jit.save(DoubledRows(), prefix, input_spec=[InputSpec([None, 2], "float32")])
    loaded = paddle.jit.load(prefix)
    for rows in (2, 4):
        x = np.random.default_rng(rows).standard_normal((rows, 2)).astype("float32")
        np.testing.assert_allclose(loaded(paddle.to_tensor(x)).numpy(), _expected(x),
                                   rtol=1e-6)


class DoubledRowsInPlace(nn.Layer):
    """The same, writing with `array_write(x, i, rows)` and not rebinding `rows`."""

    def forward(self, x):
        rows = paddle.tensor.create_array("float32")
        i = paddle.zeros([1], "int64")
        n = paddle.shape(x)[0]
        while i < n:
            paddle.tensor.array_write(x[i] * 2, i, rows)
            i = i + 1
        last = paddle.tensor.array_read(rows, paddle.tensor.array_length(rows) - 1)
        return last + paddle.stack(rows).sum(axis=0)


@pytest.mark.parametrize("full_graph", [True, False])
def test_an_array_written_in_place_in_a_tensor_loop_is_carried(full_graph, tmp_path):
    converted = paddle.jit.to_static(DoubledRowsInPlace(), full_graph=full_graph)
    for rows in (1, 4):
        x = np.arange(rows * 2, dtype="float32").reshape(rows, 2)
        np.testing.assert_allclose(converted(paddle.to_tensor(x)).numpy(), _expected(x))
    if full_graph:
        prefix = str(tmp_path / "rows")
        paddle.jit.save(DoubledRowsInPlace(), prefix,
                        input_spec=[InputSpec([None, 2], "float32")])
        x = np.ones((3, 2), "float32")
        np.testing.assert_allclose(paddle.jit.load(prefix)(paddle.to_tensor(x)).numpy(),
                                   _expected(x))


def _collect(acc, value):
    acc.append(value)


def doubled_with_a_log(x, steps):
    """A helper appends to a list the loop never rebinds."""
    log = []
    i = paddle.zeros([1], "int64")
    while i < steps:
        x = x * 2
        _collect(log, x)
        i = i + 1
    return x, len(log)


def test_a_list_a_called_helper_appends_to_in_a_tensor_loop():
    x, steps = paddle.ones([2]), paddle.to_tensor([3])
    eager_x, eager_len = doubled_with_a_log(x, steps)
    assert eager_len == 3
    with pytest.raises(ValueError, match="'log' is changed inside a loop"):  # not len 1
        paddle.jit.to_static(doubled_with_a_log, full_graph=True)(x, steps)
    converted = paddle.jit.to_static(doubled_with_a_log)  # full_graph=False: a Python loop
    for n in (3, 1, 3):
        out, length = converted(x, paddle.to_tensor([n]))
        np.testing.assert_allclose(out.numpy(), np.full(2, 2.0 ** n))
        assert length == n

"""Control flow over sizes only known when the Program runs (InputSpec with a None first
dim): early returns under a Tensor if, `for row in x`, `range(x.shape[0])`, lists appended
in such loops, nested loops with break. One Program serves every batch size, equal to
eager, and saves with jit.save."""
import os

import numpy as np
import pytest

import sampan as paddle
from sampan.static import InputSpec

SPEC = [InputSpec([None, 3], "float32")]
BATCHES = (1, 2, 5, 7)


def batch(rows, seed):
    return paddle.to_tensor(np.random.RandomState(seed).randn(rows, 3).astype("float32"))


def early_return(x):
    if x.mean() > 0:
        return x * 2
    return x - 1


def rows_sum(x):
    s = paddle.zeros([3])
    for row in x:
        s = s + row
    return s


def range_of_dim(x):
    s = paddle.zeros([x.shape[1]])
    for i in range(x.shape[0]):
        s = s + x[i] * i
    return s


def stacked_rows(x):
    outs = []
    for row in x:
        outs.append(row.sum() * 2)
    return paddle.stack(outs)


def stacked_by_index(x):
    outs = []
    for i in range(x.shape[0]):
        outs.append(x[i] + i)
    return paddle.stack(outs)


def enumerated_rows(x):
    s = paddle.zeros([3])
    for i, row in enumerate(x):
        s = s + row * i
    return s


def zipped_rows(x):
    s = paddle.zeros([3])
    for a, b in zip(x, x * 2):
        s = s + a * b
    return s


def return_in_loop(x):
    for row in x:
        if row.sum() > 1:
            return row
    return x[0] * 0


def nested_break(x):
    s = paddle.zeros([], "float32")
    for row in x:
        for v in row:
            if v < 0:
                break
            s = s + v
        if s > 3:
            break
    return s


def nested_range_break(x):
    total = paddle.zeros([], "float32")
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] < 0:
                break
            total = total + x[i, j]
    return total


@pytest.mark.parametrize("fn", [early_return, rows_sum, range_of_dim, stacked_rows,
                                stacked_by_index, enumerated_rows, zipped_rows,
                                return_in_loop, nested_break, nested_range_break])
def test_one_program_matches_eager_for_every_batch_size(fn):
    static = paddle.jit.to_static(fn, input_spec=SPEC)
    for seed, rows in enumerate(BATCHES):
        for sign in (1.0, -1.0):  # both directions of the Tensor conditions
            x = batch(rows, seed) * sign + 0.5
            np.testing.assert_allclose(static(x).numpy(), fn(x).numpy(), rtol=1e-5,
                                       atol=1e-6)
    assert len(static.program_cache) == 1


class EarlyExit(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 3)

    def forward(self, x):
        y = self.fc(x)
        if y.mean() > 0:
            return y * 2
        return y - 1


def test_early_return_model_saves_and_reloads(tmp_path):
    paddle.seed(3)
    net = EarlyExit()
    static = paddle.jit.to_static(net, input_spec=SPEC)
    path = os.path.join(tmp_path, "model")
    paddle.jit.save(static, path)
    loaded = paddle.jit.load(path)
    for seed, rows in enumerate(BATCHES):
        for sign in (1.0, -1.0):
            x = batch(rows, seed) * sign + sign
            want = EarlyExit.forward(net, x).numpy()
            np.testing.assert_allclose(loaded(x).numpy(), want, rtol=1e-5, atol=1e-6)


def test_early_return_trains_through_the_cond():
    def loss(x, w):
        y = x * w
        if y.mean() > 0:
            return (y * 2).sum()
        return (y - 1).sum()

    static = paddle.jit.to_static(loss, input_spec=SPEC + [InputSpec([3], "float32")])
    for rows, sign in ((2, 1.0), (4, -1.0)):
        x = batch(rows, rows).abs() * sign
        grads = []
        for f in (loss, static):
            w = paddle.to_tensor(np.array([1.0, 2.0, 3.0], "float32"), stop_gradient=False)
            f(x, w).backward()
            grads.append(w.grad.numpy())
        np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5)

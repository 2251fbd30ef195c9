"""to_static(full_graph=False): when the value Python reads at a graph break keeps changing
(a guard on it would trace at every call), the segments before the read stay compiled and
the function goes on from the statement holding the read as eager Python. Values,
gradients, training and errors equal eager; a read the tail cannot restart from runs the
whole signature eagerly."""
import copy
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
from sampan.jit.segments.call import MAX_VALUES_PER_CUT


def _t(values, grad=False):
    return paddle.to_tensor(np.asarray(values, "float32"), stop_gradient=not grad)


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.hidden, self.out = nn.Linear(6, 8), nn.Linear(8, 3)

    def forward(self, x, label):
        return nn.functional.cross_entropy(self.out(paddle.tanh(self.hidden(x))), label)


class CheckedMLP(MLP):
    """Reads the loss as a float (a new value at every step) and checks it."""

    def forward(self, x, label):
        loss = super().forward(x, label)
        if not math.isfinite(float(loss)):
            raise FloatingPointError("the loss is not finite")
        return loss


class ScaledBySuper(MLP):
    """Reads a value, then calls super() and uses earlier locals in the Python after it."""

    def forward(self, x, label):
        sizes = [x.shape[0], 2]
        parts = [x * 2, x + 1]
        scale = float(x.abs().mean()) / sizes[1]
        return super().forward(parts[0] + parts[1], label) * scale


@pytest.mark.parametrize("cls", [CheckedMLP, ScaledBySuper])
def test_training_through_a_changing_read_matches_eager(cls):
    paddle.seed(0)
    eager = cls()
    static = paddle.jit.to_static(copy.deepcopy(eager), full_graph=False)
    optimizers = [paddle.optimizer.Adam(0.01, parameters=m.parameters())
                  for m in (eager, static)]
    rng = np.random.default_rng(0)
    for step in range(MAX_VALUES_PER_CUT + 4):
        x = _t(rng.standard_normal((5, 6)))
        label = paddle.to_tensor(rng.integers(0, 3, 5))
        for model, opt in zip((eager, static), optimizers):
            loss = model(x, label)
            loss.backward()
            opt.step()
            opt.clear_grad()
    for a, b in zip(eager.parameters(), static.parameters()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)
    last = static.forward.last_call
    assert last.resumed is not None and "float()" in str(last.resumed)
    assert last.eager is None and not last.traced and last.segments == 1
    assert static.forward.get_traced_count() == 1


def test_the_python_after_the_read_runs_at_every_call():
    paddle.seed(0)
    static = paddle.jit.to_static(CheckedMLP(), full_graph=False)
    label = paddle.to_tensor([0, 1])
    for k in range(MAX_VALUES_PER_CUT + 1):
        static(_t(np.full((2, 6), k)), label)
    assert static.forward.last_call.resumed is not None
    with pytest.raises(FloatingPointError, match="not finite"):
        static(_t(np.full((2, 6), np.nan)), label)


def scaled_by_mean(x, w):
    h = paddle.tanh(x * w)
    m = float(h.mean())
    return (h * m).sum() + m


def test_gradients_across_the_read_match_numeric_differences():
    static = paddle.jit.to_static(scaled_by_mean, full_graph=False)
    rng = np.random.default_rng(1)
    for _ in range(MAX_VALUES_PER_CUT + 1):
        static(_t(rng.standard_normal(4), grad=True), _t(rng.standard_normal(4), grad=True))
    x0, w0 = rng.standard_normal(4), rng.standard_normal(4)
    x, w = _t(x0, grad=True), _t(w0, grad=True)
    static(x, w).backward()
    assert static.last_call.resumed is not None and not static.last_call.traced
    # the value read is a Python number to the rest of the function, a constant for autograd
    m = float(np.tanh(np.float32(x0) * np.float32(w0)).mean())

    def f(xv, wv):
        return (np.tanh(xv * wv) * m).sum() + m
    eps = 1e-4
    for got, point, other in ((x.grad, x0, w0), (w.grad, w0, x0)):
        numeric = [(f(point + eps * e, other) - f(point - eps * e, other)) / (2 * eps)
                   for e in np.eye(4)]
        np.testing.assert_allclose(got.numpy(), numeric, rtol=1e-3, atol=1e-4)


def read_in_a_branch(x, flag):
    if flag:
        x = x * float(x.mean())
    return x + 1


def read_after_a_change(x, flag):
    items = [0.0, 1.0]
    if items.pop() + float(x.mean()) > 0:  # going on here would pop again
        x = x * 2
    return x + len(items)


@pytest.mark.parametrize("fn", [read_in_a_branch, read_after_a_change])
def test_a_read_the_python_cannot_restart_from_runs_eagerly(fn):
    static = paddle.jit.to_static(fn, full_graph=False)
    with pytest.warns(UserWarning, match="runs eagerly"):
        for k in range(MAX_VALUES_PER_CUT + 2):
            x = _t([1.0 + k, 2.0])
            np.testing.assert_allclose(static(x, True).numpy(), fn(x, True).numpy())
    assert static.last_call.eager and static.last_call.resumed is None


def test_print_after_the_read_prints_every_call(capsys):
    def show(x):
        v = float(x.sum())
        print("sum", v)
        return x * v
    static = paddle.jit.to_static(show, full_graph=False)
    for k in range(MAX_VALUES_PER_CUT + 3):
        np.testing.assert_allclose(static(_t([k, 1.0])).numpy(), show(_t([k, 1.0])).numpy())
    printed = capsys.readouterr().out.splitlines()
    assert printed.count(f"sum {float(MAX_VALUES_PER_CUT + 3):.1f}") == 2
    assert static.last_call.resumed is not None


class DecoratedCheckedMLP(MLP):
    """A class whose forward is decorated: each instance gets its StaticFunction, kept in
    a weak mapping keyed by the instance."""

    @paddle.jit.to_static(full_graph=False)
    def forward(self, x, label):
        loss = super().forward(x, label)
        if not math.isfinite(float(loss)):
            raise FloatingPointError("the loss is not finite")
        return loss


def test_a_layer_going_on_as_python_is_freed_with_its_last_reference():
    import gc
    import weakref
    model = DecoratedCheckedMLP()
    label = paddle.to_tensor([0, 1])
    for k in range(MAX_VALUES_PER_CUT + 1):
        model(_t(np.full((2, 6), k)), label)
    assert model.forward.last_call.resumed is not None
    ref = weakref.ref(model)
    del model
    gc.collect()
    assert ref() is None

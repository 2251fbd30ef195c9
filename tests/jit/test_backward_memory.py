"""Memory of a to_static step: the backward plan owns the forward values it was handed and
lets go of each after its last reader, so a step holds no more than eager's."""
import gc
import tracemalloc
import weakref

import numpy as np

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F
from sampan.jit import to_static


class _Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 4, 3, padding=1)
        self.fc1 = nn.Linear(4 * 8 * 8, 256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x, y):
        h = F.relu(self.conv(x)).flatten(1)
        return F.cross_entropy(self.fc2(F.relu(self.fc1(h))), y)


def _data():
    rng = np.random.default_rng(0)
    return (paddle.to_tensor(rng.standard_normal((128, 1, 8, 8)).astype("float32")),
            paddle.to_tensor(rng.integers(0, 10, (128, 1)).astype("int64")))


def _backward_peak(net, x, y):
    """tracemalloc's peak during loss.backward() over the memory held after the forward,
    and the parameters' gradients."""
    for _ in range(2):  # compile and warm up
        net(x, y).backward()
        net.clear_gradients()
    gc.collect()
    tracemalloc.start()
    try:
        loss = net(x, y)
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        loss.backward()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak - held, [p.grad.numpy() for p in net.parameters()]


def test_to_static_backward_peak_is_at_most_eager_and_gradients_are_equal():
    x, y = _data()
    paddle.seed(1)
    eager = _Net()
    paddle.seed(1)
    static = to_static(_Net())
    eager_peak, eager_grads = _backward_peak(eager, x, y)
    static_peak, static_grads = _backward_peak(static, x, y)
    for a, b in zip(eager_grads, static_grads):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
    # before the backward plan owned its inputs it held every forward value to the end
    assert static_peak <= eager_peak + 64 * 1024, (static_peak, eager_peak)


def test_saved_values_are_handed_to_the_backward_plan_and_freed_there():
    x, y = _data()
    net = to_static(_Net())
    net(x, y).backward()
    loss = net(x, y)
    node = loss._node
    held = {id(t._data) for t in (x, y, loss, *net.parameters())}
    saved = [weakref.ref(v) for v in node.saved
             if isinstance(v, np.ndarray) and id(v) not in held]
    assert len(saved) > 5
    loss.backward()
    assert node.saved is None
    assert [ref() for ref in saved if ref() is not None] == []


def test_retain_graph_keeps_the_saved_values_for_a_second_backward():
    x, y = _data()
    net = to_static(_Net())
    loss = net(x, y)
    loss.backward(retain_graph=True)
    first = [p.grad.numpy().copy() for p in net.parameters()]
    net.clear_gradients()
    loss.backward()
    for a, p in zip(first, net.parameters()):
        np.testing.assert_array_equal(p.grad.numpy(), a)

"""to_static benchmark.

MLP 784-256-256-10, batch 64, one SGD training step: eager vs to_static (converted forward
run as compiled plans, eager SGD) vs the static Executor running the same traced Program
with backward + SGD appended vs NumPy. RNN (T=32, hidden 128, batch 32; a `while` on a
Tensor length with an `if` on a Tensor inside): forward + backward, eager vs to_static.
First call = convert + trace + compile. MLP steps, and the two RNN modes, are timed
round-robin (timing.interleaved) so the VM's speed drifts hit every mode alike; the ratios
printed last are the stable figures.
Graph breaks (full_graph=False): the MLP step without a break against full_graph=True, the
MLP with one break against its eager step, in two kinds: `float(loss)` checked in Python (a
value that changes at every step: after a few traces the forward goes on as Python after
the read, its MLP still compiled) and `isfinite(loss).item()` (a bool that keeps its value:
compiled segments at every step), and the time a 3-segment function spends outside its
segments (guard checks, tree lookup).
Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_to_static.py   (a table; not a test)
"""
import copy
import math
import time

import numpy as np

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F
from sampan import optimizer, static
from sampan.executor import Executor, Scope
from sampan.jit import to_static

from bench_executor import _weights, numpy_step
from timing import interleaved, sgd_step

BATCH, LR = 64, 0.01
EXECUTOR, NUMPY = "static Executor (same Program)", "NumPy (bench_executor.numpy_step)"
T, RNN_BATCH, HIDDEN = 32, 32, 128


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(784, 256), nn.Linear(256, 256), nn.Linear(256, 10)

    def forward(self, x, label):
        h = F.relu(self.fc2(F.relu(self.fc1(x))))
        return F.cross_entropy(self.fc3(h), label)


class RNN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.wx, self.wh = nn.Linear(HIDDEN, HIDDEN), nn.Linear(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, 1)

    def forward(self, xs, n):
        h = paddle.zeros([xs.shape[1], HIDDEN])
        i = paddle.zeros([], "int64")
        while i < n:
            h = paddle.tanh(self.wx(xs[i]) + self.wh(h))
            if h.mean() > 0:
                h = h * 0.9
            i += 1
        return self.out(h).mean()


class CheckedMLP(MLP):
    """The MLP with one graph break: Python reads the loss as a float and checks it. The
    value changes at every step, so after a few traces the forward stops there and goes
    on as Python: the MLP runs compiled, the check eagerly."""

    def forward(self, x, label):
        loss = super().forward(x, label)
        if not math.isfinite(float(loss)):
            raise FloatingPointError("the loss is not finite")
        return loss


class FlagCheckedMLP(MLP):
    """The MLP with one graph break reading a bool that keeps its value between steps."""

    def forward(self, x, label):
        loss = super().forward(x, label)
        if not paddle.isfinite(loss).item():
            raise FloatingPointError("the loss is not finite")
        return loss


def graph_break_rows(x, y):
    """[(mode, step s)]: the MLP step under full_graph=True and full_graph=False (no break:
    the same one Program), and the MLP with one break, eager and full_graph=False."""
    paddle.seed(0)
    base, checked, flagged = MLP(), CheckedMLP(), FlagCheckedMLP()
    models = {"MLP full_graph=True": to_static(copy.deepcopy(base), full_graph=True),
              "MLP full_graph=False (no break)": to_static(copy.deepcopy(base),
                                                           full_graph=False),
              "MLP + 1 break, eager": copy.deepcopy(checked),
              "MLP + 1 break, full_graph=False": to_static(copy.deepcopy(checked),
                                                           full_graph=False),
              "MLP + bool break, full_graph=False": to_static(copy.deepcopy(flagged),
                                                              full_graph=False)}
    steps = {name: sgd_step(lambda m=m: m(x, y), optimizer.SGD(LR, parameters=m.parameters()))
             for name, m in models.items()}
    best = interleaved(steps, rounds=40, number=5)
    broken = models["MLP + 1 break, full_graph=False"].forward
    assert len(broken.graph_breaks) == 1 and broken.last_call.resumed
    flag = models["MLP + bool break, full_graph=False"].forward
    assert len(flag.graph_breaks) == 1 and not flag.last_call.traced
    assert flag.last_call.eager is None
    return list(best.items())


def three_segments(x):
    a = x.sum().item()
    y = x * 2
    b = y.max().item()
    return y + a + b


def guard_overhead():
    """Seconds per call that a 3-segment function spends outside its segments' run_program
    ops (guard checks, tree lookup, the value table): whole calls minus the same segments
    run directly on the same inputs, interleaved."""
    fn = to_static(three_segments, full_graph=False)
    x = paddle.to_tensor(np.ones(4, "float32"))
    fn(x)
    (tree,) = fn._segments.trees.values()
    node, segments = tree.root, []
    while node is not None:
        segments.append(node.segment)
        node = next(iter(node.children.values()), None)
    assert len(segments) == 3 and fn.last_call.segments == 3

    def segments_only():
        values = {segments[0].feeds[0]: x}  # the function's input, as the first segment names it
        for segment in segments:
            segment.run(values)
    best = interleaved({"call": lambda: fn(x), "segments": segments_only}, rounds=60,
                       number=100)
    return best["call"] - best["segments"]


def rnn_rows():
    """[(mode, (first call s, steady s))] of one RNN forward + backward, eager and
    to_static timed round-robin like the MLP (run one after the other, the VM's drift
    decided which was faster)."""
    rng = np.random.default_rng(0)
    xs = paddle.to_tensor(rng.standard_normal((T, RNN_BATCH, HIDDEN)).astype("float32"))
    n = paddle.to_tensor(np.array(T, "int64"))
    base = RNN()

    def fwd_bwd(model):
        def step():
            model(xs, n).backward()
            model.clear_gradients()
        return step
    steps = {"RNN eager fwd+bwd": fwd_bwd(copy.deepcopy(base)),
             "RNN to_static fwd+bwd": fwd_bwd(to_static(copy.deepcopy(base)))}
    first = {name: first_call(step) for name, step in steps.items()}
    best = interleaved(steps, rounds=10, number=2)
    return [(name, (first[name], best[name])) for name in steps]


def numpy_step_fn(x, y):
    """The same MLP step written directly in NumPy."""
    ws, bs = _weights()
    onehot = np.eye(10, dtype="float32")[y.numpy().reshape(-1)]
    return lambda: numpy_step(ws, bs, x.numpy(), onehot)


def first_call(step):
    """Seconds of one call of `step`."""
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def mlp_rows(x, y):
    """[(mode, (first call s, steady step s))] of the MLP training step."""
    base = MLP()
    eager, conv = copy.deepcopy(base), to_static(copy.deepcopy(base))
    eager_opt = optimizer.SGD(LR, parameters=eager.parameters())
    opt = optimizer.SGD(LR, parameters=conv.parameters())
    steps = {"eager": sgd_step(lambda: eager(x, y), eager_opt),
             "to_static": sgd_step(lambda: conv(x, y), opt)}
    first = {name: first_call(step) for name, step in steps.items()}
    steps[EXECUTOR] = executor_step(conv, x, y)
    steps[NUMPY] = numpy_step_fn(x, y)
    first.update((name, first_call(steps[name])) for name in (EXECUTOR, NUMPY))
    best = interleaved(steps, rounds=15, number=10)
    return [(name, (first[name], best[name])) for name in steps]


def build_time(make, args):
    """Seconds to convert forward and build (trace + compile plans) a program for `args`."""
    model = to_static(make())
    start = time.perf_counter()
    _, partial = model.forward.get_concrete_program(*args)
    partial._compile(tuple(range(len(partial.feed_names), len(partial.names))))
    return time.perf_counter() - start


def data():
    rng = np.random.default_rng(0)
    return (paddle.to_tensor(rng.standard_normal((BATCH, 784)).astype("float32")),
            paddle.to_tensor(rng.integers(0, 10, (BATCH, 1)).astype("int64")))


def executor_step(model, x, y):
    """A step function running the to_static Program + backward + SGD on an Executor."""
    program = model.forward.concrete_program
    main = program.main_program.clone()
    startup = static.Program()
    loss = main.global_block().var(program.outputs.name)
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            optimizer.SGD(LR).minimize(loss)
    finally:
        paddle.disable_static()
    exe, scope = Executor(), Scope()
    for name, tensor in program.state:
        scope.var(name).get_tensor()._array = tensor.numpy().copy()
    feed = {program.inputs[0].name: x.numpy(), program.inputs[1].name: y.numpy()}
    lr_names = [n for n, v in main.global_block().vars.items()
                if v.persistable and scope.find_var(n) is None]
    for name in lr_names:
        scope.var(name).get_tensor()._array = np.array([LR], "float32")
    return lambda: exe.run(main, feed=feed, fetch_list=[loss], scope=scope)


def main():
    x, y = data()
    xs = paddle.to_tensor(np.zeros((T, RNN_BATCH, HIDDEN), "float32"))
    builds = [(name, build_time(make, args)) for name, make, args in
              (("MLP", MLP, (x, y)), ("RNN", RNN, (xs, paddle.to_tensor(T))))]
    rows = mlp_rows(x, y)
    steady = {name: seconds for name, (_, seconds) in rows}
    rows += rnn_rows()
    print(f"{'mode':32s} {'first call ms':>14s} {'step ms':>9s}")
    for name, (first, step) in rows:
        print(f"{name:32s} {first * 1e3:14.1f} {step * 1e3:9.2f}")
    print(f"MLP to_static step: {steady['to_static'] / steady[NUMPY]:.2f}x NumPy, "
          f"{steady['to_static'] / steady[EXECUTOR]:.2f}x Executor; eager "
          f"{steady['eager'] / steady[NUMPY]:.2f}x NumPy")
    rnn = dict(rows[-2:])
    print(f"RNN to_static: {rnn['RNN to_static fwd+bwd'][1] / rnn['RNN eager fwd+bwd'][1]:.2f}x "
          f"eager")
    for name, seconds in builds:
        print(f"{name} first call: convert + trace + compile fwd/bwd plans "
              f"{seconds * 1e3:.1f} ms")
    breaks = dict(graph_break_rows(x, y))
    for name, seconds in breaks.items():
        print(f"{name:32s} {seconds * 1e3:9.2f} ms")
    print(f"full_graph=False / full_graph=True (no break): "
          f"{breaks['MLP full_graph=False (no break)'] / breaks['MLP full_graph=True']:.3f}x; "
          f"one break: full_graph=False / eager "
          f"{breaks['MLP + 1 break, full_graph=False'] / breaks['MLP + 1 break, eager']:.3f}x "
          f"(float(loss), goes on as Python after it), "
          f"{breaks['MLP + bool break, full_graph=False'] / breaks['MLP + 1 break, eager']:.3f}x "
          f"(a bool that keeps its value, compiled segments)")
    print(f"guard checks + segment lookup, 3 segments: {guard_overhead() * 1e6:.1f} us/call")


if __name__ == "__main__":
    main()

"""Executor benchmark: MLP training step (NumPy vs static Executor), per-instruction cost.

Run: .venv/bin/python bench/bench_executor.py   (prints a table; not a test)
"""
import tracemalloc

import numpy as np

import sampan
from timing import interleaved, sgd_step
from sampan import static
from sampan.executor import BuildStrategy, Executor, Scope, compile
from sampan.executor.run import run_sequential
from sampan.ops.registry import OPS

SIZES, BATCH, LR = (784, 256, 256, 10), 64, 0.01


def _weights(seed=0):
    rng = np.random.default_rng(seed)
    ws = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype("float32")
          for a, b in zip(SIZES, SIZES[1:])]
    return ws, [np.zeros(b, "float32") for b in SIZES[1:]]


def numpy_step(ws, bs, x, onehot):
    """Forward, softmax cross-entropy, backward and SGD written directly in NumPy."""
    acts = [x]
    for k, (w, b) in enumerate(zip(ws, bs)):
        z = acts[-1] @ w + b
        acts.append(np.maximum(z, 0) if k < len(ws) - 1 else z)
    logits = acts[-1]
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -(onehot * logp).sum(axis=1).mean()
    grad = (np.exp(logp) - onehot) / np.float32(len(x))
    for k in range(len(ws) - 1, -1, -1):
        gw, gb = acts[k].T @ grad, grad.sum(axis=0)
        if k:
            grad = (grad @ ws[k].T) * (acts[k] > 0)
        ws[k] -= LR * gw
        bs[k] -= LR * gb
    return loss


def static_mlp():
    """The same MLP with the static API; SGD as `param - lr * grad` assigned back."""
    ws, bs = _weights()
    main, startup = static.Program(), static.Program()
    sampan.enable_static()
    with static.program_guard(main, startup):
        h = x = static.data("x", [None, SIZES[0]], "float32")
        label = static.data("label", [None, SIZES[-1]], "float32")
        for k, (w0, b0) in enumerate(zip(ws, bs)):
            w = static.create_parameter(w0.shape, "float32", default_initializer=lambda s, d, v=w0: v)
            b = static.create_parameter(b0.shape, "float32", is_bias=True)
            h = sampan.matmul(h, w) + b
            h = sampan.relu(h) if k < len(ws) - 1 else h
        loss = -(label * sampan.log_softmax(h, axis=-1)).sum(axis=1).mean()
        block = main.global_block()
        lr = static.create_global_var([1], LR, "float32", persistable=True)
        for param, grad in static.append_backward(loss):
            if "sgd" in OPS:
                block.append_op("sgd", {"param": [param.name], "learning_rate": [lr.name],
                                        "grad": [grad.name]}, {"param_out": [param.name]}, {})
            else:
                new = param - grad * LR
                block.append_op("assign", {"x": [new.name]}, {"out": [param.name]}, {})
    sampan.disable_static()
    return main, startup, loss, x


def bench_mlp(rows):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, SIZES[0])).astype("float32")
    onehot = np.eye(SIZES[-1], dtype="float32")[rng.integers(0, SIZES[-1], BATCH)]
    ws, bs = _weights()
    main, startup, loss, _ = static_mlp()
    exe, scope = Executor(), Scope()
    exe.run(startup, scope=scope)
    feed = {"x": x, "label": onehot}
    fns = {"hand-written NumPy": lambda: numpy_step(ws, bs, x, onehot)}
    for name, build in (("executor (default passes)", BuildStrategy()),
                        ("executor (no inplace)", BuildStrategy(enable_inplace=False)),
                        ("executor (+fusion)", BuildStrategy(fuse_elewise_add_act_ops=True))):
        fns[name] = (lambda b: lambda: exe.run(main, feed=feed, fetch_list=[loss],
                                               scope=scope, build_strategy=b))(build)
    best = interleaved(fns)
    base = best["hand-written NumPy"]
    for name, t in best.items():
        rows.append((f"MLP step, {name}", f"{t * 1e3:.3f} ms", f"{t / base:.2f}x numpy"))


def bench_instructions(rows, n=2000):
    main = static.Program()
    sampan.enable_static()
    with static.program_guard(main, static.Program()):
        x = y = static.data("x", [4, 4], "float32")
        for _ in range(n):
            y = y + x
    sampan.disable_static()
    plan = compile(main, ["x"], [y.name], BuildStrategy())
    value = np.ones((4, 4), "float32")

    def run():
        regs = plan.template[:]
        regs[plan.slots["x"]] = value
        run_sequential(plan, regs)
    kernel = OPS["add"].kernel

    def bare():
        for _ in range(n):
            kernel(value, value)
    best = interleaved({"plan": run, "bare": bare}, rounds=7, number=5)
    per, bare = best["plan"] / n, best["bare"] / n
    rows.append(("chain of [4,4] adds: per instruction", f"{per * 1e6:.2f} us", ""))
    rows.append(("  bare add kernel call", f"{bare * 1e6:.2f} us", ""))
    rows.append(("  executor overhead per instruction", f"{(per - bare) * 1e6:.2f} us", ""))


def _peak_bytes(fn):
    """Peak traced allocation of one call of fn (after a warm-up call)."""
    fn()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def bench_memory(rows):
    """Peak memory of one MLP training step: static Executor vs eager (same model)."""
    import sampan.nn.functional as F
    from sampan import nn
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, SIZES[0])).astype("float32")
    labels = rng.integers(0, SIZES[-1], BATCH)
    onehot = np.eye(SIZES[-1], dtype="float32")[labels]
    main, startup, loss, _ = static_mlp()
    exe, scope = Executor(), Scope()
    exe.run(startup, scope=scope)
    static_peak = _peak_bytes(lambda: exe.run(main, feed={"x": x, "label": onehot},
                                              fetch_list=[loss], scope=scope))
    net = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                        nn.Linear(256, 10))
    opt = sampan.optimizer.SGD(LR, parameters=net.parameters())
    xt, yt = sampan.to_tensor(x), sampan.to_tensor(labels.astype("int64"))
    eager_peak = _peak_bytes(sgd_step(lambda: F.cross_entropy(net(xt), yt), opt))
    rows.append(("MLP step peak memory, eager", f"{eager_peak / 2**20:.2f} MiB", ""))
    rows.append(("MLP step peak memory, executor", f"{static_peak / 2**20:.2f} MiB",
                 f"{static_peak / eager_peak:.2f}x eager"))


def main():
    rows = []
    bench_mlp(rows)
    bench_instructions(rows)
    bench_memory(rows)
    width = max(len(r[0]) for r in rows)
    print(f"{'benchmark'.ljust(width)}  {'time':>12}  ratio")
    for name, t, ratio in rows:
        print(f"{name.ljust(width)}  {t:>12}  {ratio}")


if __name__ == "__main__":
    main()

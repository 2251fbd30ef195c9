"""Peak memory of one training step against model size: MLP 784-W-W-10 (batch 64, W = 256,
1024, 4096) and LeNet-5 (batch 64, 256, 512), SGD, in sampan's eager, to_static and static
(Executor) modes, beside PyTorch eager when torch is installed.

Each case runs in its own process; the third step is measured, from before the model was
built (so parameters, gradients, optimizer state and the step's temporaries all count).
`total`: the resident set's high-water mark during the step (VmHWM, reset through
/proc/self/clear_refs) over the resident set before the model (for PyTorch this includes
library code paged in by its first steps); `step`: the same over the resident set just
before the step (the step's own temporaries). glibc is told to map
every block over 64 KiB on its own and give it back on free (MALLOC_MMAP_THRESHOLD_,
sampan's allocator tuning off), so freed temporaries leave the resident set and every
framework is measured alike. `traced`: tracemalloc's peak during the step, counted from
before the model (NumPy's arrays and Python objects; sampan only).
Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_memory.py   (Linux; not a test)
"""
import gc
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CASES = [("MLP", w) for w in (256, 1024, 4096)] + [("LeNet", b) for b in (64, 256, 512)]
MODES = ("eager", "to_static", "static", "torch")
LR = 0.01


def _data(model, size):
    rng = np.random.default_rng(0)
    batch = 64 if model == "MLP" else size
    shape = (batch, 784) if model == "MLP" else (batch, 1, 28, 28)
    return (rng.standard_normal(shape).astype("float32"),
            rng.integers(0, 10, (batch, 1)).astype("int64"))


def _sampan_model(model, size):
    from sampan import nn
    if model == "MLP":
        return nn.Sequential(nn.Linear(784, size), nn.ReLU(), nn.Linear(size, size),
                             nn.ReLU(), nn.Linear(size, 10))
    return nn.Sequential(nn.Conv2D(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2D(2),
                         nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(),
                         nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                         nn.Linear(84, 10))


class _Loss:
    """net(x) -> cross-entropy (a Layer, so to_static converts the whole step's forward)."""

    def __new__(cls, net):
        import sampan.nn.functional as F
        from sampan import nn

        class WithLoss(nn.Layer):
            def __init__(self):
                super().__init__()
                self.net = net

            def forward(self, x, y):
                return F.cross_entropy(self.net(x), y)
        return WithLoss()


def _sampan_step(mode, model, size):
    import sampan
    from sampan import optimizer, static
    from sampan.jit import to_static
    x, y = _data(model, size)
    xt, yt = sampan.to_tensor(x), sampan.to_tensor(y)
    net = _Loss(_sampan_model(model, size))
    if mode == "eager" or mode == "to_static":
        if mode == "to_static":
            net = to_static(net)
        opt = optimizer.SGD(LR, parameters=net.parameters())

        def step():
            net(xt, yt).backward()
            opt.step()
            opt.clear_grad()
        return step
    converted = to_static(net)
    converted(xt, yt)
    program = converted.forward.concrete_program
    main = program.main_program.clone()
    loss = main.global_block().var(program.outputs.name)
    sampan.enable_static()
    try:
        with static.program_guard(main, static.Program()):
            optimizer.SGD(LR).minimize(loss)
    finally:
        sampan.disable_static()
    exe, scope = static.Executor(), static.Scope()
    for name, tensor in program.state:
        scope.var(name).get_tensor().set(tensor.numpy().copy(), None)
    for name, var in main.global_block().vars.items():
        if var.persistable and scope.find_var(name) is None:
            scope.var(name).get_tensor().set(np.array([LR], "float32"), None)
    feed = {program.inputs[0].name: x, program.inputs[1].name: y}
    return lambda: exe.run(main, feed=feed, fetch_list=[loss], scope=scope)


def _torch_step(model, size):
    import torch
    torch.set_num_threads(1)
    x, y = (torch.from_numpy(a) for a in _data(model, size))
    y = y.reshape(-1)
    nn = torch.nn
    if model == "MLP":
        net = nn.Sequential(nn.Linear(784, size), nn.ReLU(), nn.Linear(size, size), nn.ReLU(),
                            nn.Linear(size, 10))
    else:
        net = nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                            nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                            nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                            nn.Linear(84, 10))
    opt = torch.optim.SGD(net.parameters(), LR)

    def step():
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
        opt.zero_grad()
    return step


def _status(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field}")


def measure(mode, model, size):
    """(peak RSS over the RSS before the model, peak RSS over the RSS before the step,
    peak traced bytes or None) of one step: the first and last count parameters,
    gradients and optimizer state too."""
    __import__("torch" if mode == "torch" else "sampan.nn")
    gc.collect()
    base = _status("VmRSS")
    tracemalloc.start()
    step = _torch_step(model, size) if mode == "torch" else _sampan_step(mode, model, size)
    step()
    step()
    gc.collect()
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    tracemalloc.reset_peak()
    before = _status("VmRSS")
    step()
    traced = None if mode == "torch" else tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    peak = _status("VmHWM")
    return peak - base, peak - before, traced


def _run_case(mode, model, size):
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", MALLOC_TRIM_THRESHOLD_="0",
               SAMPAN_NO_MALLOPT="1", OPENBLAS_NUM_THREADS="1",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, __file__, mode, model, str(size)], env=env,
                         capture_output=True, text=True)
    if out.returncode:
        return None
    total, step, traced = out.stdout.split()
    return int(total), int(step), None if traced == "None" else int(traced)


def main():
    try:
        import torch  # noqa: F401
        modes = MODES
    except ImportError:
        modes = MODES[:-1]
    print(f"load average: {os.getloadavg()[0]:.2f}")
    columns = [(m, k) for k, what in enumerate(("total", "step", "traced"))
               for m in modes if not (what == "traced" and m == "torch")]
    names = ("total", "step", "traced")
    print(f"{'case':15s}" + "".join(f"{m[:6] + ' ' + names[k]:>14s}" for m, k in columns))
    for model, size in CASES:
        results = {m: _run_case(m, model, size) for m in modes}
        cells = "".join(f"{results[m][k] / 2 ** 20:14.1f}" if results[m] else f"{'failed':>14s}"
                        for m, k in columns)
        label = f"{model} {'W' if model == 'MLP' else 'batch'} {size}"
        print(f"{label:15s}{cells}")
    print("MiB; total: peak RSS over the RSS before the model was built; step: over the RSS "
          "just before the step; traced: tracemalloc's peak (from before the model)")


if __name__ == "__main__":
    if len(sys.argv) == 4:
        print(*measure(sys.argv[1], sys.argv[2], int(sys.argv[3])))
    else:
        main()

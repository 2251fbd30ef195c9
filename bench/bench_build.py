"""Build cost against program size: the first to_static call, stage by stage.

Workloads: a Python-unrolled elementwise chain (`x = x * c + d`, N forward ops) and
Transformer encoders (12 layers: 433 ops, then 120 and 1,200 layers for the growth), each
called once with backward. Stages: convert (source -> converted function), build (trace
the Program), backward (grad ops), passes (CSE, DCE, folding, ...), plan (binding, slots,
frees: `executor.compile` minus its passes), first run (the rest: straight-line functions
generated and run, forward and backward). Times are CPU seconds of this process
(`time.process_time`, robust to other processes on a shared machine) with the wall time of
the whole call beside them; `x2` is the growth of the total per doubling of the op count;
`us/op` the CPU microseconds per forward op of a later call with backward (steady state).
Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_build.py [N ...]   (not a test)
"""
import gc
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout it lives in

import numpy as np  # noqa: E402

import sampan as paddle  # noqa: E402
import sampan.nn as nn  # noqa: E402
from sampan.executor import plan as plan_module  # noqa: E402
from sampan.jit import partial_program, program_translator, to_static  # noqa: E402

STAGES = ("convert", "build", "backward", "passes", "plan", "first run")


class StageClock:
    """CPU seconds spent inside wrapped functions, outermost calls only."""

    def __init__(self):
        self.spent = dict.fromkeys(STAGES, 0.0)
        self._depth = dict.fromkeys(STAGES, 0)
        self._undo = []

    def wrap(self, owner, attr, stage):
        original = getattr(owner, attr)

        def timed(*args, **kwargs):
            self._depth[stage] += 1
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self._depth[stage] -= 1
                if not self._depth[stage]:
                    self.spent[stage] += time.process_time() - start
        setattr(owner, attr, timed)
        self._undo.append((owner, attr, original))

    def __enter__(self):
        self.wrap(program_translator, "convert_function", "convert")
        self.wrap(program_translator.StaticFunction, "_trace", "build")
        self.wrap(partial_program.PartialProgram, "_backward_program", "backward")
        self.wrap(plan_module, "_optimise", "passes")
        self.wrap(plan_module, "build_plan", "plan")
        return self

    def __exit__(self, *exc):
        for owner, attr, original in reversed(self._undo):
            setattr(owner, attr, original)


def first_call(fn, args):
    """({stage: CPU s}, total CPU s, wall s, op count) of the first call with backward
    (the garbage of earlier workloads collected first, not during it)."""
    gc.collect()
    with StageClock() as clock:
        wall, cpu = time.perf_counter(), time.process_time()
        fn(*args).backward()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    spent = clock.spent
    spent["build"] -= spent["convert"]
    spent["plan"] -= spent["passes"]
    spent["first run"] = cpu - sum(spent[s] for s in STAGES[:-1])
    program = fn.concrete_program.main_program if hasattr(fn, "concrete_program") else \
        fn.forward.concrete_program.main_program
    return spent, cpu, wall, len(program.global_block().ops)


def steady_us_per_op(fn, args, ops, repeat=5):
    """Best CPU microseconds per forward op of a later call with backward."""
    best = math.inf
    for _ in range(repeat):
        start = time.process_time()
        fn(*args).backward()
        best = min(best, time.process_time() - start)
    return best / ops * 1e6


def chain(n):
    """(to_static function, args) of an n-op elementwise chain on a [4, 4] tensor."""
    def unrolled(x):
        for _ in range(n // 4):  # four ops: two constants (full), multiply, add
            x = x * 1.0001 + 0.5
        return x.mean()
    x = paddle.to_tensor(np.ones((4, 4), "float32"), stop_gradient=False)
    return to_static(unrolled), (x,)


class Encoder(nn.Layer):
    def __init__(self, layers):
        super().__init__()
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, layers)

    def forward(self, x):
        return self.encoder(x).mean()


def transformer(layers):
    """(to_static layer, args) of a Transformer encoder on a [2, 8, 32] batch."""
    paddle.seed(0)
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 8, 32), "float32"))
    return to_static(Encoder(layers)), (x,)


def table(title, rows):
    print(f"\n{title}")
    print(f"{'case':>14s} {'ops':>7s} " + " ".join(f"{s:>9s}" for s in STAGES)
          + f" {'CPU s':>7s} {'wall s':>7s} {'x2':>5s} {'us/op':>6s}")
    previous = None
    for name, (spent, cpu, wall, ops), steady in rows:
        growth = ""
        if previous is not None:
            growth = f"{(cpu / previous[0]) ** (1 / math.log2(ops / previous[1])):5.2f}"
        previous = (cpu, ops)
        print(f"{name:>14s} {ops:7d} " + " ".join(f"{spent[s]:9.3f}" for s in STAGES)
              + f" {cpu:7.3f} {wall:7.3f} {growth:>5s} {steady:6.1f}")


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000, 50000]
    rows = []
    for n in sizes:
        fn, args = chain(n)
        result = first_call(fn, args)
        rows.append((f"chain {n}", result, steady_us_per_op(fn, args, result[3])))
    table("Elementwise chain under to_static, first call with backward (CPU s per stage)",
          rows)
    rows = []
    for layers in (12, 120, 1200):
        fn, args = transformer(layers)
        result = first_call(fn, args)
        rows.append((f"encoder x{layers}", result, steady_us_per_op(fn, args, result[3])))
    table("Transformer encoder (d_model 32, 4 heads, ff 64; batch 2 x 8 tokens)", rows)
    print("\nx2: growth of the total CPU time per doubling of the op count; us/op: a later "
          "call with backward, CPU microseconds per forward op")


if __name__ == "__main__":
    main()

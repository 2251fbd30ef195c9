"""Parallel executor: throughput of 2 workers against 1 on independent expensive branches,
on a chain with no parallelism, and on a small graph (the cost model keeps the last two
sequential). Each graph reads x [128, n] (n = 512); a branch is mean(tanh(x @ W) @ V) with
[n, n] weights; the chain is tanh(h @ W) eight times. Timed round-robin
(timing.interleaved); the load average is printed because the speed-up needs 2 idle
cores.
Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_parallel.py   (not a test)
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import sampan  # noqa: E402
from sampan import static  # noqa: E402
from sampan.executor import (CompiledProgram, ExecutionStrategy, Executor,  # noqa: E402
                             Scope, compile)
from timing import interleaved  # noqa: E402

ROWS, N = 128, 512


def _program(body, n):
    main, startup = static.Program(), static.Program()
    sampan.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [ROWS, n], "float32")
            fetch = body(x, n)
    finally:
        sampan.disable_static()
    return main, startup, fetch


def branches(x, n, count=4):
    return [sampan.matmul(sampan.tanh(sampan.matmul(x, static.create_parameter([n, n], "float32"))),
                          static.create_parameter([n, n], "float32")).mean() for _ in range(count)]


def chain(x, n, depth=8):
    for _ in range(depth):
        x = sampan.tanh(sampan.matmul(x, static.create_parameter([n, n], "float32")))
    return [x.mean()]


def runner(program, n, threads):
    """A zero-argument run of `program` with `threads` workers (own scope, seeded)."""
    main, startup, fetch = program
    scope, exe = Scope(), Executor()
    sampan.seed(0)
    exe.run(startup, scope=scope)
    feed = {"x": np.random.default_rng(0).standard_normal((ROWS, n)).astype("float32")}
    compiled = CompiledProgram(main, None, ExecutionStrategy(threads))
    return lambda: exe.run(compiled, feed=feed, fetch_list=fetch, scope=scope)


def main():
    cases = [("4 branches, n=512", branches, N), ("chain of 8, n=512", chain, N),
             ("4 branches, n=16", branches, 16)]
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 idle cores needed)")
    print(f"{'graph':22s} {'parallel?':>9s} {'1 worker ms':>12s} {'2 workers ms':>13s} "
          f"{'speed-up':>9s}")
    for name, body, n in cases:
        program = _program(body, n)
        plan = compile(program[0], ["x"], [v.name for v in program[2]])
        one, two = runner(program, n, 1), runner(program, n, 2)
        assert all(np.array_equal(a, b) for a, b in zip(one(), two()))
        best = interleaved({"1": one, "2": two}, rounds=7, number=3)
        print(f"{name:22s} {str(plan.parallel.worth):>9s} {best['1'] * 1e3:12.2f} "
              f"{best['2'] * 1e3:13.2f} {best['1'] / best['2']:8.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

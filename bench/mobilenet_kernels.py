"""Where a predictor run's time goes, by kind of op: runs the plan of sampan's predictor on a
Paddle-exported model instruction by instruction (the kernels the plan bound, in-place
variants included), timing each call, and prints per kind the calls per run and the sum of
each instruction's median time over the runs. Convolutions are split by shape: depthwise
(by kernel size and stride), 1x1, 1x1 on a 1x1 map (squeeze-excitation), other.

Run: OPENBLAS_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python bench/mobilenet_kernels.py PREFIX
where PREFIX.json, PREFIX.pdiparams and PREFIX.input.npy were written by
`PADDLE_PYTHON bench/paddle_mobilenet.py PREFIX 224 1 < /dev/null`.
"""
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import collections  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from sampan.executor.run import _store  # noqa: E402
from sampan.inference import Config, create_predictor  # noqa: E402


def kind(node, args):
    """The row an instruction is summed into: convolutions split by shape."""
    if node.type != "conv2d":
        return node.type
    x, filt = args[0], args[1]
    if node.attrs["groups"] > 1:
        return f"conv2d depthwise {filt.shape[2]}x{filt.shape[3]} s{node.attrs['strides'][0]}"
    if filt.shape[2:] != (1, 1):
        return "conv2d other"
    return "conv2d 1x1 SE" if x.shape[2:] == (1, 1) else "conv2d 1x1"


def timed_run(predictor, times, kinds):
    """One run of the predictor's plan, appending each instruction's seconds to times[i]."""
    plan = predictor._plan
    regs = predictor._template[:]
    for slot, handle in predictor._feed_slots:
        regs[slot] = handle._array
    for (fn, ins, out, frees, i), node in zip(plan.code, plan.nodes):
        args = [regs[s] for s in ins]
        kinds[i] = kind(node, args)
        start = time.perf_counter()
        value = fn(*args)
        times[i].append(time.perf_counter() - start)
        _store(regs, plan.multi, out, value)
        for slot in frees:
            regs[slot] = None


def main(prefix, runs=30):
    predictor = create_predictor(Config(prefix + ".json", prefix + ".pdiparams"))
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.copy_from_cpu(np.load(prefix + ".input.npy"))
    predictor.run()
    times, kinds = collections.defaultdict(list), {}
    for _ in range(runs):
        timed_run(predictor, times, kinds)
    totals, counts = collections.defaultdict(float), collections.Counter()
    for i, seconds in times.items():
        totals[kinds[i]] += float(np.median(seconds))
        counts[kinds[i]] += 1
    print(f"{'op':<28}{'calls':>6}{'ms':>8}   (median of {runs} runs, load average "
          f"{os.getloadavg()[0]:.1f})")
    for row, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"{row:<28}{counts[row]:>6}{seconds * 1e3:>8.2f}")
    print(f"{'total':<28}{sum(counts.values()):>6}{sum(totals.values()) * 1e3:>8.2f}")


if __name__ == "__main__":
    main(sys.argv[1])

"""Where a predictor run's CPU time goes, by kernel: records every kernel call of one run of
sampan's predictor on a Paddle-exported model, then times each call alone (best of N CPU
time) and sums them per kind (depthwise / 1x1 / other convolutions, and per op).

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

from sampan.inference import Config, create_predictor  # noqa: E402
from sampan.ops.registry import OPS  # noqa: E402


def record_calls(calls):
    """Make every registered kernel append (op name, kernel, args, kwargs) to `calls`."""
    for name, op in OPS.items():
        kernel = op.kernel
        if op.kernel_takes_need:
            def recorded(*args, _kernel=kernel, _name=name, need=(True, True), **kwargs):
                calls.append((_name, _kernel, args, dict(kwargs, need=need)))
                return _kernel(*args, need=need, **kwargs)
        else:
            def recorded(*args, _kernel=kernel, _name=name, **kwargs):
                calls.append((_name, _kernel, args, kwargs))
                return _kernel(*args, **kwargs)
        op.kernel = recorded


def kind(name, args):
    """The row a call is summed into: convolutions split by shape."""
    if name != "conv2d":
        return name
    filt, groups = args[1], args[6]
    if groups > 1:
        return "conv2d depthwise"
    return "conv2d 1x1" if filt.shape[2:] == (1, 1) else "conv2d other"


def best_cpu_seconds(fn, repeats):
    """The least CPU time of `repeats` calls of fn."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main(prefix, repeats=9):
    calls = []
    record_calls(calls)  # before the plan is built, so the plan binds the recording kernels
    predictor = create_predictor(Config(prefix + ".json", prefix + ".pdiparams"))
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.copy_from_cpu(np.load(prefix + ".input.npy"))
    predictor.run()
    calls.clear()
    predictor.run()
    totals, counts = collections.defaultdict(float), collections.Counter()
    for name, kernel, args, kwargs in calls:
        row = kind(name, args)
        totals[row] += best_cpu_seconds(lambda: kernel(*args, **kwargs), repeats)
        counts[row] += 1
    print(f"{'kernel':<20}{'calls':>6}{'ms':>8}")
    for row, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"{row:<20}{counts[row]:>6}{seconds * 1e3:>8.2f}")
    print(f"{'total':<20}{len(calls):>6}{sum(totals.values()) * 1e3:>8.2f}")


if __name__ == "__main__":
    main(sys.argv[1])

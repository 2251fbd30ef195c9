"""Multi-process data parallelism on MPI (not a test; figures in docs/benchmarks.md).

    .venv/bin/python bench/bench_distributed.py

Starts its own jobs under the launcher (one BLAS thread per rank) and prints:
- LeNet (batch 64 per rank, Adam) samples per second with 1 rank and with 2 ranks,
  measured in turns in the same run, and the 2-rank / 1-rank ratio;
- all_reduce of 25 MB float32 between 2 ranks: bytes reduced per second, beside mpi4py's
  own Allreduce of the same array (the MPI library's speed on this machine);
- the step time DataParallel adds to one rank (1 rank: DataParallel vs the bare layer).
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _lenet_step(model, opt, rank):
    import sampan as paddle
    rng = np.random.RandomState(rank)
    x = paddle.to_tensor(rng.randn(64, 1, 28, 28).astype("float32"))
    y = paddle.to_tensor(rng.randint(0, 10, (64, 1)).astype("int64"))

    def step():
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    return step


def _timed(step, seconds):
    """Steps per second of `step` over about `seconds` (after two warm-up steps)."""
    step()
    step()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        count += 1
    return count / (time.perf_counter() - start)


def worker(kind, seconds):
    """One rank of a benchmark job; rank 0 prints a JSON line of results."""
    import sampan as paddle
    import sampan.distributed as dist
    from sampan.vision.models import LeNet
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(0)
    result = {"ranks": world}
    if kind == "lenet":
        net = LeNet()
        model = paddle.DataParallel(net)
        opt = paddle.optimizer.Adam(1e-3, parameters=net.parameters())
        dist.barrier()
        steps = _timed(_lenet_step(model, opt, rank), seconds)
        steps = min(dist_values(dist, steps))  # the job's pace is its slowest rank's
        result["samples_per_s"] = steps * 64 * world
    elif kind == "overhead":
        net = LeNet()
        opt = paddle.optimizer.Adam(1e-3, parameters=net.parameters())
        bare, wrapped = _lenet_step(net, opt, 0), _lenet_step(paddle.DataParallel(net), opt, 0)
        best = {"bare": 0.0, "dp": 0.0}
        for _ in range(4):  # in turns, so machine-speed drift hits both alike
            best["bare"] = max(best["bare"], _timed(bare, seconds / 8))
            best["dp"] = max(best["dp"], _timed(wrapped, seconds / 8))
        result["overhead"] = best["bare"] / best["dp"] - 1.0
    elif kind == "allreduce":
        t = paddle.to_tensor(np.ones(25 * 2 ** 20 // 4, np.float32))
        raw = dist.get_group().comm.comm  # mpi4py's communicator: the baseline
        received = np.empty_like(t.numpy())
        for name, call in (("gb_per_s", lambda: dist.all_reduce(t)),
                           ("mpi4py_gb_per_s", lambda: raw.Allreduce(t.numpy(), received))):
            call()
            dist.barrier()
            count, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds / 2:
                call()
                count += 1
            elapsed = time.perf_counter() - start
            result[name] = min(dist_values(dist, count * 25 * 2 ** 20 / elapsed / 1e9))
    if rank == 0:
        print("RESULT " + json.dumps(result), flush=True)


def dist_values(dist, value):
    values = []
    dist.all_gather_object(values, value)
    return values


def run_job(kind, nprocs, seconds):
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-m", "sampan.distributed.launch",
                          "--nproc_per_node", str(nprocs), os.path.abspath(__file__),
                          "--worker", kind, str(seconds)],
                         env=env, capture_output=True, text=True, timeout=600, check=True).stdout
    line = [ln for ln in out.splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def main(seconds=8.0, turns=2):
    one, two = [], []
    for _ in range(turns):
        one.append(run_job("lenet", 1, seconds)["samples_per_s"])
        two.append(run_job("lenet", 2, seconds)["samples_per_s"])
    best_one, best_two = max(one), max(two)
    print(f"LeNet batch 64/rank, Adam: 1 rank {best_one:.0f} samples/s, 2 ranks "
          f"{best_two:.0f} samples/s: {best_two / best_one:.2f}x (target >= 1.7x)")
    bandwidth = run_job("allreduce", 2, seconds)
    print(f"all_reduce 25 MB float32, 2 ranks: {bandwidth['gb_per_s']:.2f} GB/s (target >= "
          f"1 GB/s); mpi4py's Allreduce of the same array: "
          f"{bandwidth['mpi4py_gb_per_s']:.2f} GB/s")
    overhead = run_job("overhead", 1, seconds)["overhead"]
    print(f"DataParallel with 1 rank: {overhead * 100:+.1f}% step time (target <= 5%)")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], float(sys.argv[3]))
    else:
        main()

"""The launcher: parses Paddle's launch options, starts the ranks under `mpiexec` (each
through `rank_main`, which ends the job when its script fails) and returns the job's exit
status: 0 only when every rank succeeded.

mpiexec runs in a session of its own; whatever ends the launcher (a failed rank, Ctrl-C,
SIGTERM) ends that whole session, so no rank outlives the job. A watchdog backs up MPI's
abort: a failing rank leaves a mark in a directory the launcher watches, and if the job
is still running `ABORT_GRACE` seconds later, the launcher ends the session itself.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

from ..comm.mpi_runtime import FAILURE_DIR_VARIABLE, find_mpiexec

__all__ = ["main", "launch", "mpiexec_command", "thread_env", "ABORT_GRACE"]

ABORT_GRACE = 5.0  # seconds a job may take to end after a rank reported its failure


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m sampan.distributed.launch", allow_abbrev=False,
        description="Start N ranks of a training script under mpiexec.")
    parser.add_argument("--nproc_per_node", type=int, default=None,
                        help="number of processes (ranks) to start; default: the CPU count")
    parser.add_argument("--log_dir", default=None,
                        help="write rank r's output to DIR/workerlog.r instead of the console")
    parser.add_argument("--nnodes", default="1", help="only 1 (one machine) is supported")
    parser.add_argument("--job_id", default="default", help="accepted for compatibility")
    parser.add_argument("--devices", "--gpus", default=None,
                        help="a comma-separated list: its length is the number of ranks")
    parser.add_argument("training_script")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return parser


def _nprocs(args):
    if args.nnodes not in ("1", 1):
        raise SystemExit(f"launch: --nnodes {args.nnodes}: only single-machine jobs are "
                         f"supported (start multi-machine jobs with mpiexec and a host file)")
    if args.nproc_per_node is not None:
        n = args.nproc_per_node
    elif args.devices:
        n = len(args.devices.split(","))
    else:
        n = os.cpu_count() or 1
    if n < 1:
        raise SystemExit(f"launch: --nproc_per_node must be at least 1, got {n}")
    return n


def thread_env(nprocs, env=None):
    """`env` with one BLAS/OpenMP thread budget per rank (cores / ranks), unless the user
    set one: N ranks each using every core would fight over them."""
    env = dict(os.environ if env is None else env)
    threads = str(max(1, (os.cpu_count() or 1) // nprocs))
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(var, threads)
    return env


def mpiexec_command(nprocs, rank_argv):
    """The mpiexec command line that runs `python <rank_argv>` as `nprocs` ranks."""
    return [find_mpiexec(), "-n", str(nprocs), sys.executable, "-u", *rank_argv]


def launch(nprocs, rank_argv, log_dir=None):
    """Run the job; its exit status (0 only when every rank succeeded)."""
    env = thread_env(nprocs)
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
        env["SAMPAN_LOG_DIR"] = os.path.abspath(log_dir)
    with tempfile.TemporaryDirectory(prefix="sampan-job-") as failures:
        env[FAILURE_DIR_VARIABLE] = failures
        proc = subprocess.Popen(mpiexec_command(nprocs, rank_argv), env=env,
                                start_new_session=True)
        try:
            code = _watch(proc, failures)
        except BaseException:
            _end_session(proc)
            raise
        _end_session(proc)
    if code != 0 and log_dir:
        _show_failures(log_dir, nprocs)
    return _exit_status(code)


def _watch(proc, failures):
    """mpiexec's exit status; ends the job ABORT_GRACE seconds after a rank reported a
    failure if it is still running then (the status is then the rank's)."""
    reported = None
    while True:
        try:
            return proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            pass
        marks = os.listdir(failures)
        if marks and reported is None:
            reported = time.monotonic()
        if reported is not None and time.monotonic() - reported > ABORT_GRACE:
            sys.stderr.write(f"launch: {marks[0]} reported a failure and the job did not "
                             f"end; killing every rank\n")
            _end_session(proc)
            with open(os.path.join(failures, marks[0])) as f:
                return int(f.read() or 1) or 1


def _end_session(proc):
    """Kill whatever is left of mpiexec's session (ranks it failed to reap)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _exit_status(code):
    return 128 - code if code < 0 else code


def _show_failures(log_dir, nprocs):
    """Print the end of each rank log that holds a traceback."""
    for rank in range(nprocs):
        path = os.path.join(log_dir, f"workerlog.{rank}")
        try:
            with open(path, errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if "Traceback" in text:
            tail = "\n".join(text.rstrip().splitlines()[-40:])
            sys.stderr.write(f"--- rank {rank} failed ({path}):\n{tail}\n")


def main(argv=None):
    """Parse the command line and run the job."""
    args = _parser().parse_args(argv)
    nprocs = _nprocs(args)
    rank_argv = ["-m", "sampan.distributed.launch.rank_main", args.training_script,
                 *args.training_script_args]
    return launch(nprocs, rank_argv, args.log_dir)

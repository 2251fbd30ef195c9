"""Start a job script under mpiexec (or the launcher) from a test, with a time limit.

Job scripts live in tests/distributed/jobs/; each runs many checks and prints one
"<name> ok" line per group of checks, so a test asserts on the exit status and the lines.
"""
import os
import subprocess
import sys

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jobs")


def _mpiexec():
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return beside if os.access(beside, os.X_OK) else None


needs_mpi = pytest.mark.skipif(
    _mpiexec() is None or __import__("importlib").util.find_spec("mpi4py") is None,
    reason="needs mpi4py and the mpich wheel's mpiexec (pip install .[distributed])")


def job_env():
    env = dict(os.environ, PYTHONPATH=REPO_ROOT, OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1")
    for var in ("PMI_RANK", "PMI_SIZE", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ID"):
        env.pop(var, None)
    return env


def run(argv, timeout, cwd=None):
    """Run argv (a list) with the repository on PYTHONPATH; (returncode, output)."""
    proc = subprocess.run(argv, env=job_env(), cwd=cwd or REPO_ROOT, timeout=timeout,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc.returncode, proc.stdout


def run_job(script, nprocs=2, args=(), timeout=120):
    """`mpiexec -n nprocs python jobs/<script> args`; (returncode, output)."""
    argv = [_mpiexec(), "-n", str(nprocs), sys.executable, os.path.join(JOBS, script),
            *map(str, args)]
    return run(argv, timeout)


def assert_ok(code, output, names):
    assert code == 0, output
    for name in names:
        assert f"{name} ok" in output, output

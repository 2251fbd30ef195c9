"""Loading MPI (mpi4py, imported only when a job of several processes starts), finding
`mpiexec`, and ending the whole job when one rank fails.

A rank that raises while its peers wait in a collective would otherwise leave them
waiting forever: the exception hook prints the traceback, then aborts MPI_COMM_WORLD,
which makes `mpiexec` kill every rank and exit non-zero.
"""
import os
import shutil
import sys
import time
import traceback

__all__ = ["load_mpi", "find_mpiexec", "install_abort_on_failure", "abort_job",
           "FAILURE_DIR_VARIABLE"]

_MISSING = ("multi-process training needs mpi4py and an MPI library: install them with "
            "`pip install mpi4py mpich` (the `distributed` extra of sampan)")


def load_mpi():
    """The `mpi4py.MPI` module (MPI initialised on first call), or a clear ImportError."""
    try:
        from mpi4py import MPI
    except ImportError as exc:
        raise ImportError(f"{_MISSING}: {exc}") from None
    return MPI


def find_mpiexec():
    """The `mpiexec` to start ranks with: the one beside this Python (the venv's, from the
    mpich wheel) first, then `$SAMPAN_MPIEXEC`, then the first on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.access(beside, os.X_OK):
        return beside
    chosen = os.environ.get("SAMPAN_MPIEXEC") or shutil.which("mpiexec")
    if chosen:
        return chosen
    raise FileNotFoundError(f"no mpiexec beside {sys.executable} nor on PATH; {_MISSING}")


def _user_frames(tb):
    """The traceback from the first frame outside the launcher's bootstrap and runpy."""
    first = tb
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not (name.endswith(os.path.join("launch", "rank_main.py")) or "runpy" in name):
            return tb
        tb = tb.tb_next
    return first


# The launcher's watchdog directory: a failing rank leaves a file there before it aborts,
# so the launcher can end the job itself should the abort not (launch/main.py).
FAILURE_DIR_VARIABLE = "SAMPAN_FAILURE_DIR"
_REPORT_GRACE_SECONDS = 0.3


def abort_job(rank, status=1, exc_info=None):
    """End every rank of the job: print the traceback (or the exit status), tell the
    launcher, then abort MPI_COMM_WORLD (mpiexec then kills every rank)."""
    try:
        if exc_info is not None:
            # one write: another rank's abort can kill this process mid-report
            sys.stderr.write(f"[rank {rank}] uncaught exception; aborting every rank\n" +
                             "".join(traceback.format_exception(
                                 exc_info[0], exc_info[1], _user_frames(exc_info[2]))))
        else:
            sys.stderr.write(f"[rank {rank}] exited with status {status}; aborting every "
                             f"rank\n")
        _leave_failure_mark(rank, status)
    finally:
        sys.stderr.flush()
        sys.stdout.flush()
        # mpiexec forwards a rank's output through its proxy, and an abort can kill the
        # proxy before it has passed the report on: give it a moment first
        time.sleep(_REPORT_GRACE_SECONDS)
        load_mpi().COMM_WORLD.Abort(status)


def _leave_failure_mark(rank, status):
    directory = os.environ.get(FAILURE_DIR_VARIABLE)
    if directory:
        with open(os.path.join(directory, f"failed.{rank}"), "w") as f:
            f.write(str(status))


_installed = {"hook": False}


def install_abort_on_failure(rank):
    """Make an uncaught exception in this rank end the whole job (once per process)."""
    if _installed["hook"]:
        return
    _installed["hook"] = True
    previous = sys.excepthook

    def abort_on_exception(kind, value, tb):
        if issubclass(kind, KeyboardInterrupt):
            previous(kind, value, tb)
        abort_job(rank, 1, (kind, value, tb))

    sys.excepthook = abort_on_exception

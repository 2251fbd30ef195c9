"""What each rank runs under the launcher: send the output to its log file (when asked),
run the script as `__main__`, and end the whole job if the script fails.

An uncaught exception, or `sys.exit` with a non-zero status, prints its traceback (or
status), leaves a mark for the launcher's watchdog and aborts MPI_COMM_WORLD, so ranks
waiting in a collective for this one end too.
"""
import os
import runpy
import sys

from ..comm.mpi_runtime import abort_job, install_abort_on_failure
from ...core.process_env import launched_rank


def _redirect_output(log_dir, rank):
    """Point this process's stdout and stderr at log_dir/workerlog.<rank>."""
    fd = os.open(os.path.join(log_dir, f"workerlog.{rank}"),
                 os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def run(script, args):
    """Run `script` with `args` as this rank's main program."""
    rank = launched_rank()
    log_dir = os.environ.get("SAMPAN_LOG_DIR")
    if log_dir:
        _redirect_output(log_dir, rank)
    install_abort_on_failure(rank)
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    guarded(rank, lambda: runpy.run_path(script, run_name="__main__"))


def guarded(rank, main):
    """Run `main()`; an exception or a non-zero exit status aborts the whole job (even
    when the script replaced sys.excepthook)."""
    try:
        main()
    except SystemExit as stop:
        if stop.code not in (None, 0):
            abort_job(rank, stop.code if isinstance(stop.code, int) else 1)
    except BaseException:
        abort_job(rank, 1, sys.exc_info())


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m sampan.distributed.launch.rank_main script.py [args...]")
    run(sys.argv[1], sys.argv[2:])

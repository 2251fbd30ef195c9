"""This process's rank and the job's size, as the process launcher announced them.

Read from the environment only (no MPI import), so the data loaders and `ParallelEnv`
can ask before any communicator exists. MPICH's and Open MPI's `mpiexec` set their own
variables; Paddle's launcher variables (`PADDLE_TRAINER_ID` / `PADDLE_TRAINERS_NUM`) are
read when no MPI launcher is found.
"""
import os

__all__ = ["launched_rank", "launched_world_size", "under_mpi"]

# (rank variable, size variable) of each launcher, most specific first.
_LAUNCHERS = (
    ("PMI_RANK", "PMI_SIZE"),                                # MPICH / Hydra
    ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),        # Open MPI
    ("PMIX_RANK", "PMIX_SIZE"),
    ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM"),            # Paddle's variables
)


def _announced():
    for rank_var, size_var in _LAUNCHERS:
        size = os.environ.get(size_var)
        if size:
            return int(os.environ.get(rank_var, "0") or 0), int(size), rank_var
    return 0, 1, None


def launched_rank():
    """This process's rank in the job (0 when started alone)."""
    return _announced()[0]


def launched_world_size():
    """The number of processes in the job (1 when started alone)."""
    return _announced()[1]


def under_mpi():
    """True when an MPI launcher started this process in a job of more than one process."""
    rank, size, var = _announced()
    return size > 1 and var != "PADDLE_TRAINER_ID"

"""The job as this process sees it: `init_parallel_env`, `get_rank`, `get_world_size`,
`ParallelEnv`, `is_initialized` (Paddle 3.3.1).

Rank and world size come from the launcher's environment variables, so they can be read
before (or without) initialising MPI; `init_parallel_env` creates the world communicator.
"""
from ..core.process_env import launched_rank, launched_world_size
from .comm.group import world_group

__all__ = ["init_parallel_env", "is_initialized", "get_rank", "get_world_size",
           "ParallelEnv"]

_state = {"initialized": False}


def init_parallel_env(nccl_config=None):
    """Join the job (MPI_COMM_WORLD under mpiexec, else a job of one); returns the world
    Group. Every rank then ends the job if it fails with an uncaught exception.

    Example: `dist.init_parallel_env(); print(dist.get_rank(), dist.get_world_size())`.
    """
    group = world_group()
    _state["initialized"] = True
    return group


def is_initialized():
    """True after init_parallel_env()."""
    return _state["initialized"]


def get_rank(group=None):
    """This process's rank in `group` (the job when None; -1 outside the group)."""
    return launched_rank() if group is None else group.rank


def get_world_size(group=None):
    """The number of processes in `group` (the job when None)."""
    return launched_world_size() if group is None else group.nranks


class ParallelEnv:
    """This process's place in the job, as the launcher set it (on the CPU: device 0,
    no network endpoints)."""

    def __init__(self):
        self._rank, self._world_size = launched_rank(), launched_world_size()

    @property
    def rank(self):
        return self._rank

    @property
    def world_size(self):
        return self._world_size

    nranks = world_size
    local_rank = rank

    @property
    def device_id(self):
        return 0

    dev_id = device_id
    device_type = ""
    nrings = 1
    pg_timeout = 1800000

    @property
    def current_endpoint(self):
        """Paddle's network address of this rank: empty, MPI needs none."""
        return ""

    @property
    def trainer_endpoints(self):
        return [""] * self._world_size

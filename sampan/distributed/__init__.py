"""`paddle.distributed`: multi-process training on MPI (docs/distributed.md).

Three layers, each usable alone: `comm` (communicators over NumPy arrays, groups, tasks),
the Tensor collectives and point-to-point calls built on it, and `parallel`
(DataParallel). `launch` starts ranks under mpiexec. mpi4py is imported only when a job
of several processes starts; a process started alone is rank 0 of a world of one.
"""
from ..core.lazy import lazy_exports as _lazy_exports
from .comm.group import Group, destroy_process_group, get_group, new_group
from .comm.task import Task
from .communication import (ReduceOp, all_gather, all_gather_object, all_reduce, alltoall,
                            alltoall_single, barrier, broadcast, broadcast_object_list,
                            gather, reduce, reduce_scatter, scatter, scatter_object_list,
                            wait)
from .env import ParallelEnv, get_rank, get_world_size, init_parallel_env, is_initialized
from .p2p import irecv, isend, recv, send

__all__ = ["init_parallel_env", "get_rank", "get_world_size", "ParallelEnv", "is_initialized",
           "barrier", "all_reduce", "broadcast", "reduce", "all_gather", "all_gather_object",
           "broadcast_object_list", "scatter", "scatter_object_list", "gather",
           "reduce_scatter", "alltoall", "alltoall_single", "send", "recv",
           "isend", "irecv", "new_group", "get_group", "destroy_process_group", "wait",
           "ReduceOp", "Group", "DataParallel", "spawn", "fleet"]

_lazy_exports(globals(), {".parallel": ["DataParallel"], ".spawn": ["spawn"]})

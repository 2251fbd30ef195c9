"""fleet's collective mode: `init(is_collective=True)`, `distributed_model`,
`distributed_optimizer`, and the worker queries (Paddle's `paddle.distributed.fleet`).

Data parallelism only: `distributed_model` is DataParallel with the strategy's bucket
sizes; the distributed optimizer steps eagerly on gradients DataParallel already
averaged, and in a static Program its `minimize` averages each gradient over the ranks
(c_allreduce_avg ops between backward and the updates) and makes the startup program
broadcast rank 0's initial parameters.
"""
from ...core.process_env import launched_rank, launched_world_size
from ..communication import barrier
from ..env import init_parallel_env
from ..parallel import DataParallel
from .strategy import DistributedStrategy

__all__ = ["init", "distributed_model", "distributed_optimizer", "worker_index",
           "worker_num", "is_first_worker", "is_worker", "barrier_worker",
           "worker_endpoints", "DistributedOptimizer"]

_state = {"strategy": None}


def init(role_maker=None, is_collective=False, strategy=None, log_level="INFO"):
    """Join the job for collective training (`is_collective=True`, the only mode)."""
    if not is_collective:
        raise NotImplementedError("fleet.init: only collective training (is_collective=True) "
                                  "is supported; parameter-server mode is not")
    strategy = DistributedStrategy() if strategy is None else strategy
    if not isinstance(strategy, DistributedStrategy):
        raise TypeError(f"fleet.init: strategy must be a DistributedStrategy, got "
                        f"{type(strategy).__name__}")
    strategy.check_supported(launched_world_size())
    init_parallel_env()
    _state["strategy"] = strategy


def _strategy():
    if _state["strategy"] is None:
        raise RuntimeError("fleet is not initialised: call fleet.init(is_collective=True) first")
    return _state["strategy"]


def worker_index():
    """This worker's rank."""
    return launched_rank()


def worker_num():
    """The number of workers."""
    return launched_world_size()


def is_first_worker():
    """True on rank 0."""
    return launched_rank() == 0


def is_worker():
    """True: in collective mode every process is a worker."""
    return True


def worker_endpoints(to_string=False):
    """The workers' network addresses: empty, MPI needs none."""
    endpoints = [""] * launched_world_size()
    return ",".join(endpoints) if to_string else endpoints


def barrier_worker():
    """Wait until every worker reaches this call."""
    barrier()


def distributed_model(model):
    """`model` wrapped for data-parallel training with the strategy's settings."""
    strategy = _strategy()
    return DataParallel(model, comm_buffer_size=strategy.fuse_grad_size_in_MB,
                        last_comm_buffer_size=strategy.last_comm_group_size_MB,
                        find_unused_parameters=strategy.find_unused_parameters)


def distributed_optimizer(optimizer, strategy=None):
    """`optimizer` for data-parallel training (a DistributedOptimizer)."""
    if strategy is not None:
        strategy.check_supported(launched_world_size())
        _state["strategy"] = strategy
    _strategy()
    return DistributedOptimizer(optimizer)


class DistributedOptimizer:
    """Wraps an optimizer: eager calls pass through (DataParallel averaged the gradients);
    a static `minimize` averages the gradients over the ranks before the updates."""

    def __init__(self, optimizer):
        self.inner_opt = optimizer

    def __getattr__(self, name):
        return getattr(self.inner_opt, name)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        from ...eager.tensor import Tensor
        if isinstance(loss, Tensor):
            return self.inner_opt.minimize(loss, startup_program, parameters, no_grad_set)
        from .static_data_parallel import minimize_data_parallel
        return minimize_data_parallel(self.inner_opt, loss, startup_program, parameters,
                                      no_grad_set)

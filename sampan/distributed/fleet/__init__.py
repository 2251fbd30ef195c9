"""`paddle.distributed.fleet` in collective (data-parallel) mode (docs/distributed.md)."""
from .fleet import (DistributedOptimizer, barrier_worker, distributed_model,
                    distributed_optimizer, init, is_first_worker, is_worker, worker_endpoints,
                    worker_index, worker_num)
from .strategy import DistributedStrategy

__all__ = ["init", "DistributedStrategy", "distributed_model", "distributed_optimizer",
           "worker_index", "worker_num", "is_first_worker", "is_worker", "barrier_worker",
           "worker_endpoints", "DistributedOptimizer"]

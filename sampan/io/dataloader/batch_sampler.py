"""`paddle.io.dataloader.batch_sampler`: the batch samplers (defined with the other samplers
in `sampler.py`, which they build on), at Paddle's module path."""
from .sampler import BatchSampler, DistributedBatchSampler

__all__ = ["BatchSampler", "DistributedBatchSampler"]

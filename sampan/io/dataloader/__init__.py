"""`paddle.io.dataloader`: the modules behind `paddle.io`, at the import paths Paddle users
name (`paddle.io.dataloader.collate.default_collate_fn`, `...dataset`, `...sampler`,
`...batch_sampler`, `...worker`)."""
from .batch_sampler import BatchSampler, DistributedBatchSampler
from .collate import default_collate_fn, default_convert_fn
from .dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset,
                      Subset, TensorDataset, random_split)
from .sampler import (RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler,
                      WeightedRandomSampler)
from .worker import WorkerInfo, get_worker_info

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split", "Sampler", "SequenceSampler",
           "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler", "BatchSampler",
           "DistributedBatchSampler", "get_worker_info", "WorkerInfo", "default_collate_fn",
           "default_convert_fn"]

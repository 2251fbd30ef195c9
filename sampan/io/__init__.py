"""Data loading (Paddle's `paddle.io`): datasets, samplers and the DataLoader (`reader.py`);
the `dataloader` package holds the pieces at Paddle's module paths."""
from .dataloader import (BatchSampler, ChainDataset, ComposeDataset, ConcatDataset, Dataset,
                         DistributedBatchSampler, IterableDataset, RandomSampler, Sampler,
                         SequenceSampler, Subset, SubsetRandomSampler, TensorDataset,
                         WeightedRandomSampler, WorkerInfo, default_collate_fn,
                         default_convert_fn, get_worker_info, random_split)
from .reader import DataLoader

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split", "Sampler", "SequenceSampler",
           "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler", "BatchSampler",
           "DistributedBatchSampler", "DataLoader", "get_worker_info", "WorkerInfo",
           "default_collate_fn", "default_convert_fn"]

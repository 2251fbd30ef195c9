"""Samplers: which dataset indices to visit, in what order, and how to group them in batches.

Random samplers draw from `sampan.core.random.generator()` at the start of each pass (or from a
NumPy Generator passed as `generator`), so `sampan.seed(n)` makes every epoch reproducible.
"""
import math

import numpy as np

from ...core import random as _random
from ...core.process_env import launched_rank, launched_world_size

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "SubsetRandomSampler", "BatchSampler", "DistributedBatchSampler"]


def _rng(generator):
    """The NumPy Generator to draw from: the given one, else sampan's global generator."""
    return generator if generator is not None else _random.generator()


class Sampler:
    """Base class: iterating yields dataset indices; `__len__` is how many."""

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__")


class SequenceSampler(Sampler):
    """Indices 0, 1, ..., len(data_source) - 1 in order."""

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices, or `num_samples` draws with replacement."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        super().__init__(data_source)
        if not replacement and num_samples is not None:
            raise ValueError("RandomSampler: num_samples is only allowed with replacement=True")
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if self.num_samples <= 0:
            raise ValueError(f"RandomSampler: num_samples must be positive, got {self.num_samples}")

    @property
    def num_samples(self):
        """How many indices one pass yields (the dataset size unless given)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        rng, size = _rng(self.generator), len(self.data_source)
        if self.replacement:
            return iter(rng.integers(0, size, self.num_samples).tolist())
        return iter(rng.permutation(size).tolist())

    def __len__(self):
        return self.num_samples


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn with probability proportional to `weights`."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        super().__init__()
        self.weights = np.asarray(weights, dtype=np.float64).reshape(-1)
        if (self.weights < 0).any() or self.weights.sum() <= 0:
            raise ValueError("WeightedRandomSampler: weights must be non-negative, not all zero")
        if not replacement and num_samples > np.count_nonzero(self.weights):
            raise ValueError("WeightedRandomSampler: num_samples exceeds the non-zero weights "
                             "while replacement=False")
        self.num_samples = int(num_samples)
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        probs = self.weights / self.weights.sum()
        picks = _rng(self.generator).choice(len(probs), self.num_samples, self.replacement, probs)
        return iter(picks.tolist())

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices, generator=None):
        super().__init__()
        self.indices = list(indices)
        self.generator = generator

    def __iter__(self):
        order = _rng(self.generator).permutation(len(self.indices))
        return (self.indices[i] for i in order)

    def __len__(self):
        return len(self.indices)


def in_batches(indices, batch_size, drop_last):
    """Group an index stream into lists of `batch_size` (the short tail kept unless drop_last)."""
    batch = []
    for index in indices:
        batch.append(index)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


def _num_batches(count, batch_size, drop_last):
    """How many batches `count` indices make."""
    return count // batch_size if drop_last else math.ceil(count / batch_size)


def _check_batch_size(batch_size):
    """Batch sizes are positive integers."""
    if not isinstance(batch_size, (int, np.integer)) or isinstance(batch_size, bool) \
            or batch_size <= 0:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")


class BatchSampler(Sampler):
    """Lists of indices: from `sampler`, or from `dataset` in order (random if `shuffle`)."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if (dataset is None) == (sampler is None):
            raise ValueError("BatchSampler: give exactly one of dataset or sampler")
        if sampler is not None and shuffle:
            raise ValueError("BatchSampler: shuffle is only used with dataset, not with sampler")
        _check_batch_size(batch_size)
        if sampler is None:
            sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        super().__init__(dataset)
        self.sampler, self.shuffle = sampler, shuffle
        self.batch_size, self.drop_last = int(batch_size), drop_last

    def __iter__(self):
        return in_batches(self.sampler, self.batch_size, self.drop_last)

    def __len__(self):
        return _num_batches(len(self.sampler), self.batch_size, self.drop_last)


class DistributedBatchSampler(BatchSampler):
    """This rank's share of the batches: every rank sees the same number of samples.

    `num_replicas` and `rank` default to the job's size and this process's rank, as the
    launcher (mpiexec) announced them.

    Indices are padded by wrapping around to a multiple of `num_replicas` (then shuffled with
    the epoch as seed when `shuffle`, so ranks agree); full rounds of `batch_size * num_replicas`
    are dealt one batch per rank, the last short round is split evenly. A shuffled pass moves
    to the next epoch by itself; `set_epoch` picks one explicitly.
    """

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False,
                 drop_last=False):
        _check_batch_size(batch_size)
        self.nranks = launched_world_size() if num_replicas is None else int(num_replicas)
        self.local_rank = launched_rank() if rank is None else int(rank)
        if not 0 <= self.local_rank < self.nranks:
            raise ValueError(f"rank {self.local_rank} out of range for {self.nranks} replicas")
        self.dataset, self.sampler = dataset, None
        self.batch_size, self.shuffle, self.drop_last = int(batch_size), shuffle, drop_last
        self.epoch = 0
        self.num_samples = math.ceil(len(dataset) / self.nranks)
        self.total_size = self.num_samples * self.nranks

    def set_epoch(self, epoch):
        """Choose the epoch whose permutation the next pass uses (same on every rank)."""
        self.epoch = epoch

    def _padded_indices(self):
        """All indices wrapped around to `total_size`, then shuffled if asked by a NumPy
        RandomState seeded with the epoch (Paddle's order, the same on every rank)."""
        indices = np.resize(np.arange(len(self.dataset)), self.total_size).tolist()
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
        return indices

    def local_indices(self):
        """The indices this rank visits this epoch, in order."""
        indices, width = self._padded_indices(), self.batch_size * self.nranks
        full = self.total_size - self.total_size % width
        mine = []
        for start in range(0, full, width):
            offset = start + self.local_rank * self.batch_size
            mine.extend(indices[offset:offset + self.batch_size])
        share = (self.total_size - full) // self.nranks
        tail = full + self.local_rank * share
        return mine + indices[tail:tail + share]

    def __iter__(self):
        indices = self.local_indices()
        if self.shuffle:
            self.epoch += 1
        return in_batches(indices, self.batch_size, self.drop_last)

    def __len__(self):
        return _num_batches(self.num_samples, self.batch_size, self.drop_last)

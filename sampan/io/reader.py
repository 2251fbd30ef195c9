"""DataLoader: batches from a dataset, in the main process or in worker processes.

Both paths run the same fetchers; workers return pickled NumPy batches and the main process
reorders them by task number, so `num_workers` never changes what (or in which order) is yielded.
"""
import hashlib
import itertools
import pickle
import weakref

from ..core import random as _random
from .dataloader.collate import default_collate_fn, default_convert_fn, to_tensors
from .dataloader.dataset import IterableDataset
from .dataloader.fetcher import END, IterFetcher, MapFetcher
from .dataloader.sampler import BatchSampler, RandomSampler, SequenceSampler
from .dataloader.worker import WorkerPool

__all__ = ["DataLoader"]


def _base_seed():
    """A worker seed that follows `sampan.seed` without advancing the global generator."""
    state = repr(_random.generator().bit_generator.state).encode()
    return int.from_bytes(hashlib.blake2b(state, digest_size=7).digest(), "little")


def _check_options(num_workers, timeout, prefetch_factor):
    """Reject nonsensical worker settings early (before any process starts)."""
    if num_workers < 0:
        raise ValueError(f"DataLoader: num_workers must be >= 0, got {num_workers}")
    if timeout < 0:
        raise ValueError(f"DataLoader: timeout must be >= 0, got {timeout}")
    if prefetch_factor < 1:
        raise ValueError(f"DataLoader: prefetch_factor must be >= 1, got {prefetch_factor}")


class DataLoader:
    """Iterate a dataset in batches of Tensors (Paddle's `paddle.io.DataLoader`).

    With `return_list=False` and a `feed_list` of static data variables, each batch is
    Paddle's feed form, `[{variable name: Tensor}]` (one dict per place; sampan has one),
    which `Executor.run(feed=...)` takes. `places`, `use_buffer_reader` and
    `use_shared_memory` are accepted for compatibility and have no effect.
    """

    def __init__(self, dataset, feed_list=None, places=None, return_list=True,
                 batch_sampler=None, batch_size=1, shuffle=False, drop_last=False,
                 collate_fn=None, num_workers=0, use_buffer_reader=True, prefetch_factor=2,
                 use_shared_memory=True, timeout=0, worker_init_fn=None,
                 persistent_workers=False):
        _check_options(num_workers, timeout, prefetch_factor)
        self.dataset, self.feed_list, self.places = dataset, feed_list, places
        self.return_list, self.use_buffer_reader = return_list, use_buffer_reader
        self.use_shared_memory, self.persistent_workers = use_shared_memory, persistent_workers
        self.num_workers, self.prefetch_factor = num_workers, prefetch_factor
        self.timeout, self.worker_init_fn = timeout, worker_init_fn
        self._iterable = isinstance(dataset, IterableDataset)
        self.drop_last = drop_last
        self.batch_size = batch_size if batch_sampler is None \
            else getattr(batch_sampler, "batch_size", None)
        self.auto_collate_batch = batch_sampler is not None or batch_size is not None
        self._indices = self._index_source(batch_sampler, batch_size, shuffle, drop_last)
        self.batch_sampler = None if self._iterable or not self.auto_collate_batch \
            else self._indices
        self.collate_fn = collate_fn or (
            default_collate_fn if self.auto_collate_batch else default_convert_fn)
        self._pool = None

    def _index_source(self, batch_sampler, batch_size, shuffle, drop_last):
        """What drives an epoch: a batch sampler, a per-sample sampler, or None for streams."""
        if self._iterable:
            if batch_sampler is not None or shuffle:
                raise ValueError("DataLoader: an IterableDataset takes neither batch_sampler "
                                 "nor shuffle (it decides its own order)")
            return None
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError("DataLoader: batch_sampler excludes batch_size, shuffle and "
                                 "drop_last (the batch sampler decides them)")
            return batch_sampler
        if batch_size is None:
            return RandomSampler(self.dataset) if shuffle else SequenceSampler(self.dataset)
        return BatchSampler(self.dataset, shuffle=shuffle, batch_size=batch_size,
                            drop_last=drop_last)

    def make_fetcher(self):
        """A fresh fetcher over this loader's dataset (one per process and epoch)."""
        if self._iterable:
            return IterFetcher(self.dataset, self.collate_fn, self.batch_size, self.drop_last)
        return MapFetcher(self.dataset, self.collate_fn, self.auto_collate_batch)

    def _start_pool(self):
        """Launch `num_workers` worker processes."""
        return WorkerPool(self.make_fetcher, self.num_workers, _base_seed(),
                          self.worker_init_fn, self.timeout)

    def _persistent_pool(self):
        """The pool kept across epochs (restarted if a failure shut it down)."""
        if self._pool is None or self._pool.closed:
            self._pool = self._start_pool()
            weakref.finalize(self, self._pool.shutdown)
        return self._pool

    def __iter__(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        if self.persistent_workers:
            return _MultiProcessIter(self, self._persistent_pool(), owns_pool=False)
        return _MultiProcessIter(self, self._start_pool(), owns_pool=True)

    def __call__(self):
        """Paddle's older calling style: `for batch in loader():`."""
        return iter(self)

    def __len__(self):
        if self._iterable:  # TypeError (not ValueError) keeps list(loader) working
            raise TypeError("DataLoader over an IterableDataset has no length")
        return len(self._indices)

    def _shaped(self, batch):
        """A collated batch as the loader yields it: Tensors, or Paddle's feed form."""
        tensors = to_tensors(batch)
        if self.return_list or not self.feed_list:
            return tensors
        fields = tensors if isinstance(tensors, (list, tuple)) else [tensors]
        if len(fields) != len(self.feed_list):
            raise ValueError(f"DataLoader: a batch has {len(fields)} fields but feed_list "
                             f"names {len(self.feed_list)} variables")
        return [{getattr(var, "name", var): t for var, t in zip(self.feed_list, fields)}]

    def _tasks(self):
        """This epoch's task payloads: index batches (map-style) or endless "next" requests."""
        return itertools.repeat(None) if self._iterable else iter(self._indices)


class _SingleProcessIter:
    """One epoch fetched in the calling process."""

    def __init__(self, loader):
        self._shaped = loader._shaped
        self._fetcher = loader.make_fetcher()
        self._fetcher.reset()
        self._tasks = loader._tasks()

    def __iter__(self):
        return self

    def __next__(self):
        batch = self._fetcher.fetch(next(self._tasks))
        if batch is END:
            raise StopIteration
        return self._shaped(batch)

    def close(self):
        """Nothing to release (symmetry with the multi-process iterator)."""


class _MultiProcessIter:
    """One epoch fetched by worker processes, yielded in task order.

    Tasks go round-robin to workers, `prefetch_factor` per worker in flight. A stream worker that
    answers "end" is skipped from then on; the epoch ends when every task has been answered.
    """

    def __init__(self, loader, pool, owns_pool):
        self._pool, self._num_workers = pool, pool.num_workers
        self._shaped = loader._shaped
        self._tasks = loader._tasks()
        self._cursor = self._sent = self._received = 0
        self._owner, self._ready, self._exhausted = {}, {}, set()
        self._finalizer = weakref.finalize(self, pool.shutdown) if owns_pool else None
        self._epoch = pool.new_epoch()
        for _ in range(loader.prefetch_factor * self._num_workers):
            self._dispatch()

    def _pick_worker(self):
        """The next worker in round-robin order that still has data, or None."""
        for _ in range(self._num_workers):
            worker = self._cursor % self._num_workers
            self._cursor += 1
            if worker not in self._exhausted:
                return worker
        return None

    def _dispatch(self):
        """Send one more task, if there is one and a worker to take it."""
        worker = self._pick_worker()
        payload = next(self._tasks, END)
        if worker is None or payload is END:
            return
        self._pool.send(worker, self._sent, payload)
        self._owner[self._sent] = worker
        self._sent += 1

    def _take(self, task_id):
        """Wait for the answer to `task_id`, buffering earlier-arriving ones."""
        if self._pool.epoch != self._epoch:
            raise RuntimeError("DataLoader iterator superseded: persistent workers serve only "
                               "the newest epoch's iterator")
        while task_id not in self._ready:
            answered, kind, body = self._pool.receive()
            if kind == "end":
                self._exhausted.add(self._owner[answered])
            self._ready[answered] = (kind, body)
        self._owner.pop(task_id)
        return self._ready.pop(task_id)

    def __iter__(self):
        return self

    def __next__(self):
        while self._received < self._sent:
            kind, body = self._take(self._received)
            self._received += 1
            if kind == "error":
                self.close()
                body.reraise()
            self._dispatch()
            if kind == "data":
                return self._shaped(pickle.loads(body))
        self.close()
        raise StopIteration

    def close(self):
        """Release the workers now (when this iterator owns them); safe to call twice."""
        if self._finalizer is not None:
            self._finalizer()

"""Fetchers: turn one task (a batch of indices, or "next batch" for streams) into a batch.

The same fetcher code runs in the main process (num_workers=0) and inside worker processes, which
is what makes both paths yield identical batches.
"""
import itertools

__all__ = ["END", "MapFetcher", "IterFetcher"]

END = object()  # returned by `IterFetcher.fetch` once its stream is exhausted


class MapFetcher:
    """Index a map-style dataset: a list of indices is collated, a single index converted."""

    def __init__(self, dataset, collate_fn, auto_batch):
        self.dataset, self.collate_fn, self.auto_batch = dataset, collate_fn, auto_batch

    def reset(self):
        """Nothing to restart between epochs: indices say everything."""

    def fetch(self, indices):
        """The collated samples at `indices` (or the converted sample at one index)."""
        if self.auto_batch:
            return self.collate_fn([self.dataset[i] for i in indices])
        return self.collate_fn(self.dataset[indices])


class IterFetcher:
    """Read an iterable dataset: each fetch collates the next `batch_size` samples (or one)."""

    def __init__(self, dataset, collate_fn, batch_size, drop_last):
        self.dataset, self.collate_fn = dataset, collate_fn
        self.batch_size, self.drop_last = batch_size, drop_last
        self._stream = None

    def reset(self):
        """Start a fresh pass over the dataset (one per epoch)."""
        self._stream = iter(self.dataset)

    def fetch(self, _task=None):
        """The next batch, or `END` once the stream is exhausted (a short tail obeys drop_last)."""
        if self.batch_size is None:
            sample = next(self._stream, END)
            return END if sample is END else self.collate_fn(sample)
        samples = list(itertools.islice(self._stream, self.batch_size))
        if not samples or (self.drop_last and len(samples) < self.batch_size):
            return END
        return self.collate_fn(samples)

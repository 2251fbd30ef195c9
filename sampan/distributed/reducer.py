"""Gradient averaging for DataParallel: buckets of gradients all-reduced asynchronously
as soon as every gradient of a bucket is final, so communication overlaps the rest of
the backward walk.

When is a gradient final? The backward walk runs nodes newest first, so a parameter has
received all its gradient once the oldest node that reads it has run. `prepare` (called
after each forward) walks the graph from the forward's outputs and records, per
parameter, the sequence number of the oldest node with an edge to it; the walk reports
its progress (`eager.autograd.BACKWARD_OBSERVERS`), and every parameter whose oldest
reader is newer than the next node to run is final. Parameters the graph does not reach
are final from the start.

Buckets hold parameters in reverse registration order (the last layers' gradients come
first), one dtype per bucket, `first_bytes` for the first bucket (small, so the first
reduction starts early) and `bucket_bytes` for the others. They are launched strictly in
bucket order, the same on every rank (MPI requires one order of collectives). At the end
of the walk every bucket is waited on and the averaged gradients are written back; a
parameter no rank used keeps its gradient as it was (None stays None), as in one process.
"""
import numpy as np

from ..eager.autograd import BACKWARD_OBSERVERS
from ..eager.tensor import wrap
from .comm.communicator import AVG, MAX

__all__ = ["GradientReducer", "make_buckets"]

_NEVER_READ = float("inf")


def make_buckets(params, bucket_bytes, first_bytes):
    """Lists of parameter indices: reverse order, one dtype per bucket, size-capped."""
    buckets, open_by_dtype = [], {}
    for index in reversed(range(len(params))):
        param = params[index]
        dtype = param._data.dtype
        limit = first_bytes if not buckets else bucket_bytes
        current = open_by_dtype.get(dtype)
        if current is None or current[1] >= limit:
            current = open_by_dtype[dtype] = [[], 0]
            buckets.append(current[0])
        current[0].append(index)
        current[1] += param._data.nbytes
    return buckets


def _nodes_reading(outputs):
    """{id(leaf): (leaf, oldest seq of a node with an edge to it)} over the graph that
    produced `outputs`."""
    oldest, seen = {}, set()
    stack = [t._node for t in outputs if t._node is not None]
    while stack:
        node = stack.pop()
        if node in seen or not isinstance(node.edges, (list, tuple)):
            continue
        seen.add(node)
        for edge in node.edges:
            for item in (edge if edge.__class__ is list else (edge,)):
                if item.__class__ is tuple:
                    stack.append(item[0])
                elif item is not None:
                    known = oldest.get(id(item))
                    if known is None or node.seq < known[1]:
                        oldest[id(item)] = (item, node.seq)
    return oldest


class GradientReducer:
    """Averages the gradients of `params` over `comm` (see the module docstring)."""

    def __init__(self, params, comm, bucket_bytes, first_bytes):
        self.params = params
        self.comm = comm
        self.buckets = make_buckets(params, bucket_bytes, first_bytes)
        self._bucket_of = {i: b for b, members in enumerate(self.buckets) for i in members}
        self._reset()

    def _reset(self):
        self._oldest_reader = [_NEVER_READ] * len(self.params)
        self._order, self._cursor = [], 0
        self._missing = [len(members) for members in self.buckets]
        self._launched = []

    def prepare(self, outputs):
        """Watch the next backward walk through the graph of `outputs`."""
        readers = _nodes_reading(outputs)
        for i, param in enumerate(self.params):
            found = readers.get(id(param))
            if found is not None and not param._hooks:
                self._oldest_reader[i] = min(self._oldest_reader[i], found[1])
            elif found is not None:  # hooked leaves get their gradient at the very end
                self._oldest_reader[i] = -_NEVER_READ
        self._order = sorted(range(len(self.params)), key=lambda i: -self._oldest_reader[i])
        if self not in BACKWARD_OBSERVERS:
            BACKWARD_OBSERVERS.append(self)

    def progress(self, seq):
        """The walk is about to run node `seq`: gradients read only by newer nodes are final."""
        order, oldest = self._order, self._oldest_reader
        while self._cursor < len(order) and oldest[order[self._cursor]] > seq:
            self._mark_ready(order[self._cursor])
            self._cursor += 1
        for task, _ in self._launched:
            task.is_completed()  # lets MPI progress the reductions already started

    def _mark_ready(self, index):
        bucket = self._bucket_of[index]
        self._missing[bucket] -= 1
        while len(self._launched) < len(self.buckets) and not self._missing[len(self._launched)]:
            self._launch(len(self._launched))

    def _launch(self, bucket):
        members = self.buckets[bucket]
        flat = np.concatenate([self._current_grad(i).reshape(-1) for i in members])
        self._launched.append((self.comm.allreduce(flat, AVG), flat))

    def _current_grad(self, index):
        param = self.params[index]
        if param._grad is None or param._grad_zero:
            return np.zeros(param._data.shape, param._data.dtype)
        return param._grad._data

    def finished(self):
        """End of the walk: reduce what is left, wait, write the averages back."""
        BACKWARD_OBSERVERS.remove(self)
        while self._cursor < len(self._order):
            self._mark_ready(self._order[self._cursor])
            self._cursor += 1
        used = np.array([p._grad is not None and not p._grad_zero for p in self.params],
                        np.uint8)
        self.comm.allreduce(used, MAX).wait()
        for (task, flat), members in zip(self._launched, self.buckets):
            task.wait()
            offset = 0
            for i in members:
                param = self.params[i]
                size = param._data.size
                if used[i]:
                    self._write_grad(param, flat[offset:offset + size].reshape(param._data.shape))
                offset += size
        self._reset()

    @staticmethod
    def _write_grad(param, array):
        if param._grad is None:
            param._grad = wrap(array)
        else:
            param._grad._set_data(array)
        param._grad_zero = False

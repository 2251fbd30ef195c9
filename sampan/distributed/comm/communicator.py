"""Communicators over NumPy arrays: `MpiComm` (an MPI communicator) and `SoloComm` (a
group of one process, which needs no MPI at all).

Both offer the same calls. Arrays passed in are C-contiguous arrays the caller owns;
results are written into them or returned as new arrays, once the returned Task is
waited on. Stacks are arrays of shape [nranks, *shape], one row per rank in rank order.
Data movement sends raw bytes, so every dtype travels; reductions use MPI's own
operations for the dtypes MPI reduces natively and NumPy over the gathered rows for the
others (bool, float16).
"""
import numpy as np

from .task import Task

__all__ = ["SUM", "MAX", "MIN", "PROD", "AVG", "OP_NAMES", "SoloComm", "MpiComm",
           "reduce_rows"]

SUM, MAX, MIN, PROD, AVG = 0, 1, 2, 3, 4
OP_NAMES = {SUM: "SUM", MAX: "MAX", MIN: "MIN", PROD: "PROD", AVG: "AVG"}
_NATIVE = frozenset(np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.int32, np.int64,
                                           np.float32, np.float64, np.complex64,
                                           np.complex128))
_NUMPY_REDUCE = {SUM: np.sum, AVG: np.sum, MAX: np.max, MIN: np.min, PROD: np.prod}


def _bytes(array):
    """The bytes of a contiguous array as a flat uint8 view (0-d arrays included)."""
    return array.reshape(-1).view(np.uint8)


def _divide_in_place(array, n):
    """array /= n in the array's dtype (integers truncate toward zero)."""
    if array.dtype.kind in "fc":
        array /= array.dtype.type(n)
    else:
        array[...] = np.trunc(array / n).astype(array.dtype)


def reduce_rows(stack, op):
    """The NumPy reduction of a stack over its rank axis, in the stack's dtype."""
    rows = _NUMPY_REDUCE[op](stack, axis=0)
    if op == AVG:
        rows = rows / stack.shape[0]
        if stack.dtype.kind not in "fc":
            rows = np.trunc(rows)
    return np.asarray(rows).astype(stack.dtype, copy=False)


_MAX_DIMS = 24
_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
           "float64", "complex64", "complex128")


def _spec(array):
    return f"{array.dtype.name}{list(array.shape)}"


def _header(array):
    """A point-to-point message's header: dtype code, ndim, dims (-1 padded)."""
    if array.ndim > _MAX_DIMS:
        raise ValueError(f"send: tensors of more than {_MAX_DIMS} dimensions are not "
                         f"supported (got {array.ndim})")
    head = np.full(_MAX_DIMS + 2, -1, np.int64)
    head[0], head[1] = _DTYPES.index(array.dtype.name), array.ndim
    head[2:2 + array.ndim] = array.shape
    return head


def _read_header(head):
    return f"{_DTYPES[head[0]]}{[int(d) for d in head[2:2 + head[1]]]}"


class SoloComm:
    """A communicator of one process: every collective is a local copy."""

    rank, size = 0, 1

    def barrier(self):
        """Nothing to wait for."""

    def allgather_object(self, obj):
        return [obj]

    def bcast_object(self, obj, root):
        return obj

    def allreduce(self, array, op):
        return Task()

    def bcast(self, array, root):
        return Task()

    def reduce(self, array, root, op):
        return Task()

    def allgather(self, array):
        return Task(), array[None].copy()

    def scatter(self, stack, out, root):
        out[...] = stack[0]
        return Task()

    def gather(self, array, root):
        return Task(), array[None].copy()

    def alltoallv(self, rows, send_counts, recv_counts):
        return Task(), rows.copy()

    def alltoall(self, stack):
        return Task(), stack.copy()

    def isend(self, array, dest, tag=0):
        raise RuntimeError("send: a job of one process has no peer to send to (start "
                           "several ranks with python -m sampan.distributed.launch)")

    irecv = isend

    def split(self, ranks):
        return self if 0 in ranks else None

    def dup(self):
        return self


class MpiComm:
    """An MPI communicator (an mpi4py Comm) with array-level, non-blocking calls."""

    def __init__(self, comm, mpi):
        self.comm, self.mpi = comm, mpi
        self.rank, self.size = comm.Get_rank(), comm.Get_size()
        self._ops = {SUM: mpi.SUM, AVG: mpi.SUM, MAX: mpi.MAX, MIN: mpi.MIN, PROD: mpi.PROD}

    def barrier(self):
        self.comm.Barrier()

    def allgather_object(self, obj):
        return self.comm.allgather(obj)

    def bcast_object(self, obj, root):
        return self.comm.bcast(obj, root=root)

    def allreduce(self, array, op):
        """Reduce `array` over the ranks, in place."""
        if array.dtype in _NATIVE:
            request = self.comm.Iallreduce(self.mpi.IN_PLACE, array, self._ops[op])
            return Task([request], self._averager(array, op))
        task, stack = self.allgather(array)
        return task.then(lambda: array.__setitem__(..., reduce_rows(stack, op)))

    def _averager(self, array, op):
        return (lambda: _divide_in_place(array, self.size)) if op == AVG else None

    def bcast(self, array, root):
        """Copy root's `array` into everyone's."""
        return Task([self.comm.Ibcast(_bytes(array), root=root)])

    def reduce(self, array, root, op):
        """The reduction into root's `array`; the other ranks' arrays stay as they are."""
        if array.dtype in _NATIVE:
            if self.rank == root:
                request = self.comm.Ireduce(self.mpi.IN_PLACE, array, self._ops[op], root)
                return Task([request], self._averager(array, op))
            return Task([self.comm.Ireduce(array, None, self._ops[op], root)])
        task, stack = self.gather(array, root)
        if stack is None:
            return task
        return task.then(lambda: array.__setitem__(..., reduce_rows(stack, op)))

    def allgather(self, array):
        """(task, stack): every rank's `array`, stacked in rank order."""
        stack = np.empty((self.size,) + array.shape, array.dtype)
        return Task([self.comm.Iallgather(_bytes(array), _bytes(stack))]), stack

    def scatter(self, stack, out, root):
        """Row r of root's `stack` into rank r's `out`."""
        send = _bytes(stack) if self.rank == root else None
        return Task([self.comm.Iscatter(send, _bytes(out), root)])

    def gather(self, array, root):
        """(task, stack on root / None elsewhere): every rank's `array` at `root`."""
        stack = np.empty((self.size,) + array.shape, array.dtype) if self.rank == root else None
        request = self.comm.Igather(_bytes(array), None if stack is None else _bytes(stack),
                                    root)
        return Task([request]), stack

    def alltoallv(self, rows, send_counts, recv_counts):
        """(task, received): `send_counts[r]` leading rows of `rows` (in order) go to rank
        r; the result holds `recv_counts[r]` rows from each rank r, in rank order."""
        row_bytes = rows[0:1].nbytes if len(rows) else 0
        received = np.empty((sum(recv_counts),) + rows.shape[1:], rows.dtype)

        def layout(counts):
            sizes = [c * row_bytes for c in counts]
            return sizes, [sum(sizes[:r]) for r in range(len(sizes))]
        request = self.comm.Ialltoallv([_bytes(rows), layout(send_counts)],
                                       [_bytes(received), layout(recv_counts)])
        return Task([request]), received

    def alltoall(self, stack):
        """(task, received): row r of this rank's stack goes to rank r; row r of the
        result came from rank r."""
        received = np.empty_like(stack)
        return Task([self.comm.Ialltoall(_bytes(stack), _bytes(received))]), received

    def isend(self, array, dest, tag=0):
        """Start sending `array` (a header with its dtype and shape first) to `dest`."""
        head = _header(array)
        requests = [self.comm.Isend(head, dest, 2 * tag),
                    self.comm.Isend(_bytes(array), dest, 2 * tag + 1)]
        return Task(requests, lambda: (head, array))  # both buffers live until sent

    def irecv(self, array, source, tag=0):
        """Start receiving into `array` from `source`; waiting raises ValueError when the
        sender's array differs in dtype or shape (checked before the data is used)."""
        head = np.empty(_MAX_DIMS + 2, np.int64)
        header = self.comm.Irecv(head, source, 2 * tag)
        data = self.comm.Irecv(_bytes(array), source, 2 * tag + 1)

        def check_then_receive():
            sent = _read_header(head)
            if sent != _spec(array):
                raise ValueError(f"recv: rank {source} sent a {sent} tensor but the "
                                 f"receiving tensor is {_spec(array)}")
            data.Wait()
        return Task([header], check_then_receive)

    def recv_any_shape(self, dtype, source, tag=0, like=()):
        """Receive an array of `dtype` whose shape the sender's header gives; `like`
        (-1: any size) must match it."""
        head = np.empty(_MAX_DIMS + 2, np.int64)
        self.comm.Recv(head, source, 2 * tag)
        shape = tuple(int(d) for d in head[2:2 + head[1]])
        sent = _read_header(head)
        if _DTYPES[head[0]] != np.dtype(dtype).name or len(shape) != len(like) or any(
                want >= 0 and want != got for want, got in zip(like, shape)):
            raise ValueError(f"recv: rank {source} sent a {sent} tensor but the receiving "
                             f"variable is {np.dtype(dtype).name}{list(like)}")
        out = np.empty(shape, dtype)
        self.comm.Recv(_bytes(out), source, 2 * tag + 1)
        return out

    def split(self, ranks):
        """A communicator of `ranks` (every rank must call; None on the others)."""
        color = 0 if self.rank in ranks else self.mpi.UNDEFINED
        sub = self.comm.Split(color, ranks.index(self.rank) if self.rank in ranks else 0)
        return None if sub == self.mpi.COMM_NULL else MpiComm(sub, self.mpi)

    def dup(self):
        """A communicator of the same ranks whose messages never mix with this one's."""
        return MpiComm(self.comm.Dup(), self.mpi)

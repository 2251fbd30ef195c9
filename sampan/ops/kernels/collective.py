"""Kernels of the communication ops (c_allreduce_*, c_broadcast, c_allgather,
c_reducescatter, c_identity, send_v2, recv_v2): each runs on the communicator of the
group whose id is `ring_id` (0: every rank), as Paddle's static collective ops do.

The communication layer is imported on first call only (it loads MPI in a job of several
processes); it depends on nothing above `sampan.core`.
"""
import numpy as np

_SUM, _MAX, _MIN, _PROD, _AVG = 0, 1, 2, 3, 4


def _group(ring_id):
    from ...distributed.comm.group import get_group
    return get_group(ring_id)


def _owned(x):
    return np.array(x, order="C", copy=True)


def _in_place(x, ring_id, collective):
    """A copy of x that `collective(comm, copy)` (a Task) rewrites on the group's members."""
    group = _group(ring_id)
    out = _owned(x)
    if group.is_member():
        collective(group.comm, out).wait()
    return out


def _allreduce(x, ring_id, op):
    return _in_place(x, ring_id, lambda comm, out: comm.allreduce(out, op))


def c_allreduce_sum(x, ring_id, use_calc_stream, use_model_parallel):
    """Sum of x over the ranks of group `ring_id`."""
    return _allreduce(x, ring_id, _SUM)


def c_allreduce_max(x, ring_id, use_calc_stream, use_model_parallel):
    """Elementwise maximum of x over the ranks."""
    return _allreduce(x, ring_id, _MAX)


def c_allreduce_min(x, ring_id, use_calc_stream, use_model_parallel):
    """Elementwise minimum of x over the ranks."""
    return _allreduce(x, ring_id, _MIN)


def c_allreduce_prod(x, ring_id, use_calc_stream, use_model_parallel):
    """Elementwise product of x over the ranks."""
    return _allreduce(x, ring_id, _PROD)


def c_allreduce_avg(x, ring_id, use_calc_stream, use_model_parallel):
    """Mean of x over the ranks."""
    return _allreduce(x, ring_id, _AVG)


def c_identity(x, ring_id, use_calc_stream, use_model_parallel):
    """x itself (its gradient is the sum of the ranks' gradients)."""
    return _owned(x)


def c_broadcast(x, ring_id, root, use_calc_stream):
    """Group rank `root`'s x on every rank."""
    return _in_place(x, ring_id, lambda comm, out: comm.bcast(out, root))


def c_allgather(x, ring_id, nranks, use_calc_stream):
    """Every rank's x concatenated along axis 0, in rank order."""
    group = _group(ring_id)
    _check_nranks("c_allgather", group, nranks)
    task, stack = group.comm.allgather(_owned(x))
    task.wait()
    return stack.reshape((-1,) + x.shape[1:]) if x.ndim else stack


def c_reducescatter(x, ring_id, nranks, use_calc_stream):
    """Rank r's block r (of nranks along axis 0) of the sum of x over the ranks."""
    from ...distributed.comm.communicator import reduce_rows
    group = _group(ring_id)
    _check_nranks("c_reducescatter", group, nranks)
    if x.shape[0] % group.nranks:
        raise ValueError(f"c_reducescatter: axis 0 of x (shape {list(x.shape)}) does not "
                         f"split into {group.nranks} equal blocks")
    stack = _owned(x).reshape((group.nranks, -1) + x.shape[1:])
    task, received = group.comm.alltoall(stack)
    task.wait()
    return reduce_rows(received, _SUM).reshape((-1,) + x.shape[1:])


def _check_nranks(op, group, nranks):
    if nranks != group.nranks:
        raise ValueError(f"{op}: nranks={nranks} but group {group.id} has {group.nranks} "
                         f"ranks")


# Sends of send_v2 still in flight: a send never blocks (a rank reaches every later op of
# its program, so two ranks each sending to the other cannot wait on each other); the
# transfers complete while the rank waits in a later receive, or in c_sync_comm_stream.
_IN_FLIGHT = []


def send_v2(x, ring_id, peer, use_calc_stream, dynamic_shape, tag):
    """Start sending x to group rank `peer` as message `tag`; returns x (the value sent)."""
    _IN_FLIGHT[:] = [task for task in _IN_FLIGHT if not task.is_completed()]
    _IN_FLIGHT.append(_group(ring_id).comm.isend(_owned(x), peer, tag))
    return x


def recv_v2(ring_id, peer, out_shape, dtype, use_calc_stream, dynamic_shape, tag):
    """The tensor group rank `peer` sends as message `tag`: of `out_shape` and `dtype`
    (a -1 in out_shape, or dynamic_shape, takes the sender's size)."""
    comm = _group(ring_id).comm
    if dynamic_shape or any(d < 0 for d in out_shape):
        return comm.recv_any_shape(dtype.np, peer, tag, out_shape)
    out = np.empty(out_shape, dtype.np)
    comm.irecv(out, peer, tag).wait()
    return out


def c_sync_comm_stream(x, ring_id):
    """Wait until every send this rank started has been delivered; x unchanged."""
    while _IN_FLIGHT:
        _IN_FLIGHT.pop().wait()
    return list(x)

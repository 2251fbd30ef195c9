"""Collectives on Tensors (Paddle 3.3.1's signatures): each call checks that every rank
of the group passed matching tensors, then runs on the group's communicator.

Results land in the tensors in place, as in Paddle (the tensor takes over a new array:
arrays other tensors share are never written). With `sync_op=False` the call returns at
once and the result is in place after `task.wait()`. Ranks are global ranks; a process
outside `group` returns at once. The check exchanges a small header first, so tensors of
different shapes or dtypes on different ranks raise a CollectiveMismatchError naming
them on every rank instead of hanging or mixing bytes.
"""
import numpy as np

from ..eager.tensor import Tensor, wrap
from ..ops._generated import api
from ..static.framework import Variable
from .comm.communicator import AVG, MAX, MIN, OP_NAMES, reduce_rows
from .comm.group import resolve_group
from .comm.task import Task

__all__ = ["ReduceOp", "all_reduce", "broadcast", "reduce", "all_gather",
           "all_gather_object", "broadcast_object_list", "scatter", "scatter_object_list",
           "gather", "reduce_scatter", "alltoall", "alltoall_single", "barrier", "wait"]


class ReduceOp:
    """Reduction kinds of all_reduce / reduce / reduce_scatter."""

    SUM, MAX, MIN, PROD, AVG = 0, 1, 2, 3, 4


_STATIC_ALL_REDUCE = {0: api.c_allreduce_sum, 1: api.c_allreduce_max, 2: api.c_allreduce_min,
                      3: api.c_allreduce_prod, 4: api.c_allreduce_avg}


def _in_program(tensor, what):
    """True for a Variable of a Program being built (static mode, to_static): the
    collective becomes an op; Paddle's in-place result is the Variable taking it over."""
    if isinstance(tensor, Variable):
        return True
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{what}: expected a Tensor, got {type(tensor).__name__}")
    return False


def _owned(tensor, what):
    """A C-contiguous copy of the tensor's data, which the collective may overwrite."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{what}: expected a Tensor, got {type(tensor).__name__}")
    return np.array(tensor._data, order="C", copy=True)


def _spec(array):
    return f"{array.dtype.name}{list(array.shape)}"


def _check_op(what, op, dtype):
    if op not in OP_NAMES:
        raise ValueError(f"{what}: op must be a ReduceOp (SUM, MAX, MIN, PROD, AVG), got {op!r}")
    if op in (MAX, MIN) and dtype.kind == "c":
        raise TypeError(f"{what}: ReduceOp.{OP_NAMES[op]} is not defined for {dtype.name}")
    if op == AVG and dtype.kind == "b":
        raise TypeError(f"{what}: ReduceOp.AVG is not defined for bool")


def _group_rank(group, rank, what, role):
    index = group.get_group_rank(rank)
    if index < 0:
        raise ValueError(f"{what}: {role}={rank} is not a rank of group {group.id} "
                         f"(ranks {group.ranks})")
    return index


def _done(task, sync_op):
    if sync_op:
        task.wait()
    return task


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce `tensor` over every rank of the group, in place (op: a ReduceOp)."""
    group = resolve_group(group)
    if _in_program(tensor, "all_reduce"):
        _check_op("all_reduce", op, tensor.dtype.np)
        tensor._take_over(_STATIC_ALL_REDUCE[op](tensor, ring_id=group.id))
        return Task()
    if not group.is_member():
        return Task()
    array = _owned(tensor, "all_reduce")
    _check_op("all_reduce", op, array.dtype)
    group.check_same("all_reduce", (("tensor", _spec(array)), ("op", OP_NAMES[op])))
    task = group.comm.allreduce(array, op).then(lambda: tensor._set_data(array))
    return _done(task, sync_op)


def broadcast(tensor, src, group=None, sync_op=True):
    """Copy global rank `src`'s tensor into every rank's `tensor`."""
    group = resolve_group(group)
    root = _group_rank(group, src, "broadcast", "src")
    if _in_program(tensor, "broadcast"):
        tensor._take_over(api.c_broadcast(tensor, ring_id=group.id, root=root))
        return Task()
    if not group.is_member():
        return Task()
    array = _owned(tensor, "broadcast")
    group.check_same("broadcast", (("tensor", _spec(array)), ("src", src)))
    task = group.comm.bcast(array, root).then(lambda: tensor._set_data(array))
    return _done(task, sync_op)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce every rank's tensor into global rank `dst`'s `tensor` (others unchanged)."""
    group = resolve_group(group)
    if not group.is_member():
        return Task()
    root = _group_rank(group, dst, "reduce", "dst")
    array = _owned(tensor, "reduce")
    _check_op("reduce", op, array.dtype)
    group.check_same("reduce", (("tensor", _spec(array)), ("dst", dst),
                                ("op", OP_NAMES[op])))
    task = group.comm.reduce(array, root, op)
    if group.rank == root:
        task.then(lambda: tensor._set_data(array))
    return _done(task, sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    """Fill `tensor_list` with every rank's `tensor`, in rank order."""
    group = resolve_group(group)
    if _in_program(tensor, "all_gather"):
        _fill_static_gather(tensor_list, tensor, group)
        return Task()
    if not group.is_member():
        return Task()
    array = _owned(tensor, "all_gather")
    group.check_same("all_gather", (("tensor", _spec(array)),))
    task, stack = group.comm.allgather(array)

    return _done(task.then(_filler(tensor_list, stack)), sync_op)


def _fill_static_gather(tensor_list, tensor, group):
    from ..tensor.manipulation import split
    gathered = api.c_allgather(tensor.reshape([1] + list(tensor.shape)), ring_id=group.id,
                               nranks=group.nranks)
    tensor_list.clear()
    tensor_list.extend(part.reshape(list(tensor.shape))
                       for part in split(gathered, group.nranks, axis=0))


def _filler(tensor_list, stack):
    """A callback replacing the items of `tensor_list` by a Tensor per row of `stack`."""
    def fill():
        tensor_list[:] = [wrap(row.copy()) for row in stack]
    return fill


def all_gather_object(object_list, obj, group=None):
    """Fill `object_list` with every rank's picklable `obj`, in rank order."""
    group = resolve_group(group)
    if not group.is_member():
        return
    object_list.clear()
    object_list.extend(group.comm.allgather_object(obj))


def broadcast_object_list(object_list, src, group=None):
    """Replace `object_list`'s items by those of global rank `src`'s list."""
    group = resolve_group(group)
    if not group.is_member():
        return
    root = _group_rank(group, src, "broadcast_object_list", "src")
    object_list[:] = group.comm.bcast_object(list(object_list), root)


def _stack(tensors, what, nranks):
    """The tensors of a per-rank list as one [nranks, *shape] array (equal shapes)."""
    tensors = list(tensors)
    if len(tensors) != nranks:
        raise ValueError(f"{what}: expected a list of {nranks} tensors (one per rank), got "
                         f"{len(tensors)}")
    arrays = [_owned(t, what) for t in tensors]
    specs = {_spec(a) for a in arrays}
    if len(specs) > 1:
        raise ValueError(f"{what}: the tensors of the list differ: "
                         f"{[_spec(a) for a in arrays]}")
    return np.stack(arrays) if arrays else None


def _check_rows(what, stack, out):
    if stack.shape[1:] != out.shape or stack.dtype != out.dtype:
        raise ValueError(f"{what}: tensor_list holds {_spec(stack[0])} tensors but the "
                         f"output tensor is {_spec(out)}")


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    """Global rank `src` sends `tensor_list[r]` to group rank r, into its `tensor`."""
    group = resolve_group(group)
    if not group.is_member():
        return Task()
    root = _group_rank(group, src, "scatter", "src")
    out = _owned(tensor, "scatter")
    stack = None
    if group.rank == root:
        stack = _stack(tensor_list or (), "scatter", group.nranks)
        _check_rows("scatter", stack, out)
    group.check_same("scatter", (("tensor", _spec(out)), ("src", src)))
    task = group.comm.scatter(stack, out, root).then(lambda: tensor._set_data(out))
    return _done(task, sync_op)


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    """`tensor` of group rank r := the reduction over ranks of their `tensor_list[r]`."""
    group = resolve_group(group)
    if not group.is_member():
        return Task()
    stack = _stack(tensor_list, "reduce_scatter", group.nranks)
    out = _owned(tensor, "reduce_scatter")
    _check_op("reduce_scatter", op, out.dtype)
    _check_rows("reduce_scatter", stack, out)
    group.check_same("reduce_scatter", (("tensor", _spec(out)), ("op", OP_NAMES[op])))
    task, received = group.comm.alltoall(stack)
    return _done(task.then(lambda: tensor._set_data(reduce_rows(received, op))), sync_op)


def alltoall(out_tensor_list, in_tensor_list, group=None, sync_op=True):
    """Send `in_tensor_list[r]` to group rank r; `out_tensor_list[r]` := what rank r sent."""
    group = resolve_group(group)
    if not group.is_member():
        return Task()
    stack = _stack(in_tensor_list, "alltoall", group.nranks)
    group.check_same("alltoall", (("tensors", _spec(stack[0])),))
    task, received = group.comm.alltoall(stack)

    return _done(task.then(_filler(out_tensor_list, received)), sync_op)


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    """Fill global rank `dst`'s `gather_list` with every rank's `tensor`, in rank order."""
    group = resolve_group(group)
    if not group.is_member():
        return Task()
    root = _group_rank(group, dst, "gather", "dst")
    array = _owned(tensor, "gather")
    group.check_same("gather", (("tensor", _spec(array)), ("dst", dst)))
    task, stack = group.comm.gather(array, root)
    if stack is not None:
        if gather_list is None:
            raise ValueError(f"gather: rank {dst} (dst) needs a gather_list to fill")
        task.then(_filler(gather_list, stack))
    return _done(task, sync_op)


def scatter_object_list(out_object_list, in_object_list=None, src=0, group=None):
    """`out_object_list[0]` of group rank r := item r of global rank `src`'s list."""
    group = resolve_group(group)
    if not group.is_member():
        return
    root = _group_rank(group, src, "scatter_object_list", "src")
    items = group.comm.bcast_object(list(in_object_list or ()) if group.rank == root else None,
                                    root)
    if len(items) != group.nranks:
        raise ValueError(f"scatter_object_list: rank {src} passed {len(items)} objects for "
                         f"{group.nranks} ranks")
    out_object_list[:] = [items[group.rank]]


def alltoall_single(out_tensor, in_tensor, in_split_sizes=None, out_split_sizes=None,
                    group=None, sync_op=True):
    """Split `in_tensor` along axis 0 (equally, or by `in_split_sizes`) and send piece r
    to group rank r; `out_tensor` := the pieces received, in rank order (sizes
    `out_split_sizes`)."""
    group = resolve_group(group)
    if not group.is_member():
        return Task()
    rows, out = _owned(in_tensor, "alltoall_single"), _owned(out_tensor, "alltoall_single")
    n = group.nranks
    send = _split_sizes(in_split_sizes, rows, n, "in")
    receive = _split_sizes(out_split_sizes, out, n, "out")
    if rows.dtype != out.dtype or rows.shape[1:] != out.shape[1:] or sum(receive) != len(out):
        raise ValueError(f"alltoall_single: in_tensor {_spec(rows)} and out_tensor "
                         f"{_spec(out)} do not agree with the split sizes {send} / {receive}")
    sizes = group.comm.allgather_object((send, _spec(rows[:0])))
    expected = [s[0][group.rank] for s in sizes]
    if expected != receive or any(s[1] != sizes[0][1] for s in sizes):
        raise ValueError(f"alltoall_single: rank {group.ranks[group.rank]} expects "
                         f"{receive} rows but the ranks send {expected} "
                         f"({[s[1] for s in sizes]})")
    task, received = group.comm.alltoallv(rows, send, receive)
    return _done(task.then(lambda: out_tensor._set_data(received)), sync_op)


def _split_sizes(sizes, array, n, which):
    if sizes is None:
        if array.ndim == 0 or len(array) % n:
            raise ValueError(f"alltoall_single: axis 0 of {which}_tensor ({_spec(array)}) "
                             f"does not split into {n} equal parts")
        return [len(array) // n] * n
    sizes = [int(s) for s in sizes]
    if len(sizes) != n or sum(sizes) != len(array):
        raise ValueError(f"alltoall_single: {which}_split_sizes {sizes} must hold {n} sizes "
                         f"adding up to axis 0 of {which}_tensor ({_spec(array)})")
    return sizes


def barrier(group=None):
    """Block until every rank of the group reaches this call."""
    group = resolve_group(group)
    if group.is_member():
        group.comm.barrier()


def wait(tensor, group=None, use_calc_stream=True):
    """Nothing to do: on the CPU every finished task's result is already in place."""

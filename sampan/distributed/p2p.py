"""Point-to-point transfers of Tensors: send / recv / isend / irecv (Paddle 3.3.1).

Each message carries a small header (dtype and shape), so a receiving tensor of another
shape or dtype raises an error naming both instead of receiving garbled bytes. Messages
between two ranks arrive in the order they were sent.
"""
from .comm.group import resolve_group
from .communication import _done, _group_rank, _owned

__all__ = ["send", "recv", "isend", "irecv"]


def send(tensor, dst=0, group=None, sync_op=True):
    """Send `tensor` to global rank `dst`."""
    group = resolve_group(group)
    peer = _group_rank(group, dst, "send", "dst")
    return _done(group.comm.isend(_owned(tensor, "send"), peer), sync_op)


def recv(tensor, src=0, group=None, sync_op=True):
    """Receive into `tensor` (in place) what global rank `src` sends."""
    group = resolve_group(group)
    peer = _group_rank(group, src, "recv", "src")
    array = _owned(tensor, "recv")
    task = group.comm.irecv(array, peer).then(lambda: tensor._set_data(array))
    return _done(task, sync_op)


def isend(tensor, dst, group=None):
    """`send` that returns at once; `task.wait()` before reusing the peer's result."""
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor, src=0, group=None):
    """`recv` that returns at once; the tensor holds the data after `task.wait()`."""
    return recv(tensor, src, group, sync_op=False)

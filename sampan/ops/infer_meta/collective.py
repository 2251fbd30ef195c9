"""Shape rules of the communication ops (kernels/collective.py)."""
from ...core.errors import InvalidArgument
from ..meta import MetaTensor


def gathered(x, ring_id, nranks, use_calc_stream):
    """x with axis 0 multiplied by nranks (c_allgather)."""
    if not x.shape:
        return MetaTensor((nranks,), x.dtype)
    first = x.shape[0] * nranks if x.shape[0] >= 0 else -1
    return MetaTensor((first,) + tuple(x.shape[1:]), x.dtype)


def scattered(x, ring_id, nranks, use_calc_stream):
    """x with axis 0 divided by nranks (c_reducescatter)."""
    if not x.shape:
        raise InvalidArgument("x", "c_reducescatter needs a tensor of at least 1 dimension")
    first = x.shape[0]
    if first >= 0 and first % nranks:
        raise InvalidArgument("x", f"axis 0 ({first}) does not split into {nranks} ranks",
                              kind="shape")
    return MetaTensor((first // nranks if first >= 0 else -1,) + tuple(x.shape[1:]), x.dtype)


def received(ring_id, peer, out_shape, dtype, use_calc_stream, dynamic_shape, tag):
    """The declared shape and dtype (recv_v2)."""
    return MetaTensor(tuple(out_shape), dtype)


def passed_through(x, ring_id):
    """Each input's shape and dtype (c_sync_comm_stream)."""
    return [MetaTensor(t.shape, t.dtype) for t in x]

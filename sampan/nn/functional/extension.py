"""sequence_mask: a [..., maxlen] mask of positions before each length."""
from ...ops._generated import api
from ...tensor.creation import arange

__all__ = ["sequence_mask"]


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """out[..., j] = j < x[...] for integer lengths x; maxlen defaults to max(x) (eager)."""
    if maxlen is None:
        if not hasattr(x, "item") or getattr(x, "symbolic_size", False):
            raise ValueError("sequence_mask: give maxlen when building a static Program")
        maxlen = int(api.max(x).item()) if x.size else 0
    elif hasattr(maxlen, "item"):
        maxlen = int(maxlen.item())
    positions = arange(0, int(maxlen), 1, x.dtype)
    return api.cast(api.less_than(positions, api.unsqueeze(x, [-1])), dtype)

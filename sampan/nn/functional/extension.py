"""sequence_mask: a [..., maxlen] mask of positions before each length."""
from ...ops._generated import api
from ...tensor.creation import arange

__all__ = ["sequence_mask"]


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """out[..., j] = j < x[...] for integer lengths x; maxlen defaults to max(x) (in a
    static Program a run-time size, so the mask width follows the data)."""
    if maxlen is None:
        maxlen = api.max(x) if x.size != 0 else 0
    positions = arange(0, maxlen, 1, x.dtype)
    return api.cast(api.less_than(positions, api.unsqueeze(x, [-1])), dtype)

"""Writing checkpoints Paddle's `paddle.load` reads (pickles of NumPy arrays and plain
containers, in Paddle's conventions: see `checkpoint`). Writing a pickle runs nothing; only
reading one could, and that goes through the restricted unpickler."""
import io
import os
import pickle

import numpy as np

from ...eager.tensor import Tensor
from ...serialization import atomic_open
from .checkpoint import NAME_TABLE

__all__ = ["dumps_checkpoint", "save_checkpoint"]


class _Pickler(pickle.Pickler):
    """Pickles a tensor the way Paddle does: `tuple((name, ndarray))`."""

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return tuple, ((obj.name or "tensor", np.ascontiguousarray(obj.numpy())),)
        return NotImplemented


def _is_state_dict(obj):
    """A non-empty dict of tensors (and arrays): pickled as arrays plus the name table."""
    return (isinstance(obj, dict) and bool(obj)
            and all(isinstance(v, (Tensor, np.ndarray)) for v in obj.values())
            and any(isinstance(v, Tensor) for v in obj.values()))


def dumps_checkpoint(obj, protocol=4):
    """The pickle bytes Paddle's `paddle.save` would write for `obj`."""
    if not 2 <= protocol <= 4:
        raise ValueError(f"protocol must be 2, 3 or 4 for a Paddle checkpoint, got {protocol}")
    if _is_state_dict(obj):
        table = {k: v.name for k, v in obj.items() if isinstance(v, Tensor)}
        obj = {**{k: (v.numpy() if isinstance(v, Tensor) else v) for k, v in obj.items()},
               NAME_TABLE: table}
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=protocol).dump(obj)
    return buffer.getvalue()


def save_checkpoint(obj, path, protocol=4):
    """Write `obj` as a Paddle-readable pickle, atomically."""
    blob = dumps_checkpoint(obj, protocol)
    with atomic_open(os.fspath(path)) as file:
        file.write(blob)

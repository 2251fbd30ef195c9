"""paddle.utils.dlpack: hand tensors to other frameworks and take theirs through DLPack, the
shared in-memory tensor format (NumPy's `__dlpack__` / `np.from_dlpack` underneath, so only
CPU memory is exchanged; data is shared, not copied)."""
import numpy as np

from ..core.place import CPUPlace
from ..eager.tensor import Tensor

__all__ = ["to_dlpack", "from_dlpack"]

_CPU = 1  # DLPack's kDLCPU device type


class _Capsule:
    """A bare DLPack capsule seen through the `__dlpack__` protocol np.from_dlpack reads."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, stream=None, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (_CPU, 0)


def to_dlpack(x):
    """A DLPack capsule ("dltensor") sharing x's memory; it can be decoded once, e.g. by
    `from_dlpack` or another framework's from_dlpack.

    Example: ``y = paddle.utils.dlpack.from_dlpack(paddle.utils.dlpack.to_dlpack(x))``
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"to_dlpack: x must be a Tensor, got {type(x).__name__}")
    data = x._data
    # A capsule cannot mark memory read-only, so a read-only array is exported as a copy.
    return (data if data.flags.writeable else data.copy()).__dlpack__()


def _source(dlpack):
    """What np.from_dlpack can read for a capsule, a tensor or a __dlpack__ producer."""
    if isinstance(dlpack, Tensor):
        return dlpack._data
    if hasattr(dlpack, "__dlpack__"):
        return dlpack
    if type(dlpack).__name__ == "PyCapsule":
        return _Capsule(dlpack)
    raise TypeError(f"from_dlpack: expects a DLPack capsule or an object with __dlpack__, "
                    f"got {type(dlpack).__name__}")


def from_dlpack(dlpack, *, device=None, copy=None):
    """A Tensor over the memory of a DLPack capsule (from `to_dlpack` or another framework)
    or of any object with `__dlpack__` (a NumPy array, a torch CPU tensor, ...).

    copy=True always copies; otherwise the memory is shared. Only CPU memory can be read.
    """
    if device is not None and not (isinstance(device, CPUPlace)
                                   or str(device).lower().startswith("cpu")):
        raise ValueError(f"from_dlpack: sampan runs on the CPU, got device {device!r}")
    array = np.from_dlpack(_source(dlpack))
    return Tensor(array.copy() if copy else array)

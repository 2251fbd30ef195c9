"""InputSpec: the shape (-1, or None on input, for any size), dtype and name of a program input."""
import numpy as np

from ..core import dtype as dtypes

__all__ = ["InputSpec"]


def _dims(shape):
    """Shape as a tuple with -1 for unknown dims (None accepted), as Paddle stores it."""
    if isinstance(shape, int):
        shape = (shape,)
    dims = []
    for d in shape:
        if d is None or (isinstance(d, (int, np.integer)) and d < 0):
            dims.append(-1)
        elif isinstance(d, (int, np.integer)):
            dims.append(int(d))
        else:
            raise TypeError(f"InputSpec: dims must be ints or None, got {d!r}")
    return tuple(dims)


class InputSpec:
    """Describes one input of a static function or Program."""

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = _dims(shape)
        self.dtype = dtypes.to_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of an existing tensor (its exact shape)."""
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "_name", None))

    @classmethod
    def from_numpy(cls, ndarray, name=None):
        """The spec of a NumPy array."""
        return cls(ndarray.shape, ndarray.dtype, name)

    def batch(self, batch_size):
        """This spec with a leading batch dimension."""
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"batch_size must be one int, got {batch_size}")
            batch_size = batch_size[0]
        return InputSpec((batch_size,) + self.shape, self.dtype, self.name,
                         self.stop_gradient)

    def unbatch(self):
        """This spec without its leading dimension."""
        if not self.shape:
            raise ValueError("unbatch() of a 0-d InputSpec")
        return InputSpec(self.shape[1:], self.dtype, self.name, self.stop_gradient)

    def matches(self, shape, dtype):
        """True when a concrete shape and dtype fit this spec."""
        return (len(shape) == len(self.shape) and dtypes.to_dtype(dtype) is self.dtype
                and all(s < 0 or s == d for s, d in zip(self.shape, shape)))

    def __repr__(self):
        return (f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
                f"stop_gradient={self.stop_gradient})")

    def __eq__(self, other):
        return (isinstance(other, InputSpec) and self.shape == other.shape
                and self.dtype is other.dtype and self.name == other.name
                and self.stop_gradient == other.stop_gradient)

    def __hash__(self):
        return hash((self.shape, self.dtype.name, self.name, self.stop_gradient))

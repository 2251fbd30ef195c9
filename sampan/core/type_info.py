"""`paddle.finfo` / `paddle.iinfo`: numeric limits of a dtype, read from NumPy."""
import numpy as np

from . import dtype as dtypes

__all__ = ["finfo", "iinfo"]

# bfloat16 has no NumPy dtype: its limits, as Paddle reports them.
_BFLOAT16 = {"bits": 16, "eps": 0.0078125, "max": 3.3895313892515355e+38,
             "tiny": 1.1754943508222875e-38, "resolution": 0.01}


class finfo:  # noqa: N801  (Paddle's name)
    """Limits of a floating dtype: bits, eps, min, max, tiny, smallest_normal, resolution,
    dtype (its name; complex types report their component float type).

    >>> sampan.finfo(sampan.float32).eps
    1.1920928955078125e-07
    """

    def __init__(self, dtype):
        if _name(dtype) == "bfloat16":
            self._set("bfloat16", **_BFLOAT16)
            return
        dt = dtypes.to_dtype(dtype)
        if dt.np.kind not in "fc":
            raise TypeError(f"paddle.finfo expects a floating or complex dtype, got {dt}")
        info = np.finfo(dt.np)
        self._set(info.dtype.name, info.bits, float(info.eps), float(info.max),
                  float(info.smallest_normal), 10.0 ** -info.precision)

    def _set(self, name, bits, eps, max, tiny, resolution):  # noqa: A002
        self.dtype, self.bits, self.eps = name, bits, eps
        self.max, self.min = max, -max
        self.tiny = self.smallest_normal = tiny
        self.resolution = resolution

    def __repr__(self):
        return (f"paddle.finfo(resolution={self.resolution}, min={self.min}, max={self.max}, "
                f"eps={self.eps}, smallest_normal={self.smallest_normal}, tiny={self.tiny}, "
                f"bits={self.bits}, dtype={self.dtype})")


class iinfo:  # noqa: N801  (Paddle's name)
    """Limits of an integer dtype: bits, min, max and dtype (its name).

    >>> sampan.iinfo(sampan.int32).max
    2147483647
    """

    def __init__(self, dtype):
        dt = dtypes.to_dtype(dtype)
        if dt.np.kind not in "iu":
            raise TypeError(f"paddle.iinfo expects an integer dtype, got {dt}")
        info = np.iinfo(dt.np)
        self.dtype, self.bits, self.min, self.max = dt.name, info.bits, int(info.min), int(info.max)

    def __repr__(self):
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


def _name(dtype):
    """The bare name of a dtype given as a string ('paddle.bfloat16' -> 'bfloat16')."""
    text = str(dtype)
    return text[7:] if text.startswith("paddle.") else text

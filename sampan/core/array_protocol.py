"""`__array__` for objects that hold a NumPy array: honours NumPy 2's `copy` argument, so
`np.array(t)` is a copy (as in Paddle and PyTorch) while `np.asarray(t)` may share."""
import numpy as np

__all__ = ["export_array"]


def export_array(data, dtype=None, copy=None):
    """`data` as `__array__(dtype, copy)` must return it: a new array when `copy` is True,
    the same memory when `copy` is False (ValueError if `dtype` needs a conversion), and
    shared where possible when `copy` is None."""
    if copy is False:
        if dtype is not None and np.dtype(dtype) != data.dtype:
            raise ValueError(f"cannot share a {data.dtype} tensor as {np.dtype(dtype)} "
                             f"without a copy (copy=False)")
        return data
    if dtype is not None:
        return data.astype(dtype, copy=bool(copy))
    return data.copy() if copy else data

"""Shape/dtype rule of as_strided, with the bounds check that keeps every read inside x."""
import math

from ...core.errors import InvalidArgument
from ..meta import MetaTensor

__all__ = ["as_strided"]


def _check_layout(shape, stride, offset, itemsize):
    """Sizes, strides and the byte offset must be non-negative, as many strides as sizes,
    and the offset a whole number of elements."""
    if len(stride) != len(shape):
        raise InvalidArgument("stride", f"has {len(stride)} entries but shape has {len(shape)}")
    if any(s < 0 for s in shape):
        raise InvalidArgument("shape", f"sizes must be non-negative, got {list(shape)}", "shape")
    if any(s < 0 for s in stride):
        raise InvalidArgument("stride", f"steps must be non-negative, got {list(stride)}")
    if offset < 0 or offset % itemsize:
        raise InvalidArgument("offset", f"must be a non-negative multiple of the element size "
                                        f"{itemsize} bytes, got {offset}")


def as_strided(x, shape, stride, offset):
    """`shape` in x's dtype; every element read must lie inside x (checked when x's size is
    known)."""
    itemsize = x.dtype.np.itemsize
    _check_layout(shape, stride, offset, itemsize)
    if -1 not in x.shape and 0 not in shape:
        size = math.prod(x.shape)
        last = offset // itemsize + sum((n - 1) * s for n, s in zip(shape, stride))
        if last >= size:
            raise InvalidArgument("stride", f"shape {list(shape)}, stride {list(stride)} and "
                                            f"offset {offset} reach element {last}, beyond the "
                                            f"{size} elements of x", "shape")
    return MetaTensor(tuple(shape), x.dtype)

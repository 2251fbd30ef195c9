"""`x[index]` and `x[index] = value` for Tensor and Variable, through the getitem/setitem ops.

A Python index (ints, slices, None, Ellipsis, lists, bool/int tensors, tuples of these) is
turned into the JSON-able spec the ops take plus the list of index tensors.
"""
import numbers

import numpy as np

from ..core.dispatch import dispatch
from .registry import OPS

__all__ = ["IndexingMixin", "index_spec"]


def _slice_bound(v):
    """A slice bound as int or None (tensors holding one int are accepted)."""
    if v is None or v.__class__ is int:
        return v
    if hasattr(v, "item") and not isinstance(v, numbers.Integral):
        return int(v.item())
    return int(v)


def index_spec(item):
    """(spec, index tensors) for a Python index expression; the spec is a tuple of tuples,
    so an eager call's check of its signature is cached like any other op's."""
    items = item if isinstance(item, tuple) else (item,)
    spec, tensors = [], []
    for it in items:
        if it.__class__ is int:
            spec.append(("int", it))
        elif it is None:
            spec.append(("none",))
        elif it is Ellipsis:
            spec.append(("ellipsis",))
        elif isinstance(it, slice):
            spec.append(("slice", _slice_bound(it.start), _slice_bound(it.stop),
                         _slice_bound(it.step)))
        elif isinstance(it, bool):
            spec.append(("tensor",))
            tensors.append(np.asarray(it))
        elif isinstance(it, numbers.Integral):
            spec.append(("int", int(it)))
        elif isinstance(it, (list, np.ndarray)):
            array = np.asarray(it)
            if array.dtype.kind not in "biu":
                raise IndexError(f"index arrays must hold ints or bools, got {array.dtype}")
            spec.append(("tensor",))
            tensors.append(array)
        elif hasattr(it, "dtype") and hasattr(it, "shape"):
            spec.append(("tensor",))
            tensors.append(it)
        else:
            raise IndexError(f"unsupported index element {it!r} of type {type(it).__name__}")
    return tuple(spec), tensors


class IndexingMixin:
    """Indexing shared by Tensor and Variable; `_take_over(out)` differs per mode."""

    __slots__ = ()

    def __getitem__(self, item):
        spec, tensors = index_spec(item)
        return dispatch(OPS["getitem"], (self, tensors), (spec,))

    def __setitem__(self, item, value):
        spec, tensors = index_spec(item)
        out = dispatch(OPS["setitem"], (self, value, tensors), (spec,))
        self._take_over(out)

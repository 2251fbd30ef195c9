"""`x[index]` and `x[index] = value` for Tensor and Variable, through the getitem/setitem ops.

A Python index (ints, slices, None, Ellipsis, lists, bool/int tensors, tuples of these) is
turned into the JSON-able spec the ops take plus the list of index tensors. A slice whose
bound is a static Variable (e.g. `x.shape[1]` of a dim unknown while building) is taken at
run time instead: bounds normalised by ops as Python slicing does, rows gathered with a
run-time range (`take_range`), so gradients flow.
"""
import numbers

import numpy as np

from ..core.dispatch import dispatch
from ._generated import api
from .registry import OPS

__all__ = ["IndexingMixin", "index_spec", "take_range", "arange_at_run_time"]


class RunTimeBoundError(TypeError):
    """A slice bound known only when the Program runs, where a Python int is needed."""


def _slice_bound(v):
    """A slice bound as int or None (tensors holding one int are accepted)."""
    if v is None or v.__class__ is int:
        return v
    if getattr(v, "symbolic_size", False):
        raise RunTimeBoundError(
            f"slice bound {getattr(v, 'name', '')!r} is known only when the Program runs: "
            f"x[a:b] reads it at run time, x[a:b] = v needs Python ints")
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
        try:
            spec, tensors = index_spec(item)
        except RunTimeBoundError:
            return _getitem_at_run_time(self, item)
        return dispatch(OPS["getitem"], (self, tensors), (spec,))

    def __setitem__(self, item, value):
        spec, tensors = index_spec(item)
        out = dispatch(OPS["setitem"], (self, value, tensors), (spec,))
        self._take_over(out)


def _has_run_time_bound(it):
    """True for a slice with a bound known only when the Program runs."""
    return isinstance(it, slice) and any(getattr(b, "symbolic_size", False)
                                         for b in (it.start, it.stop, it.step))


def _is_basic(it):
    """True for an int, slice, None or Ellipsis index item (no index tensors or bools)."""
    return (it is None or it is Ellipsis or isinstance(it, slice)
            or (isinstance(it, numbers.Integral) and not isinstance(it, bool)))


def _getitem_at_run_time(x, item):
    """x[item] where some slice bounds are static Variables: the other items index as usual
    (those slices become full ones), then each such slice takes its run-time range along
    the output axis it became."""
    items = item if isinstance(item, tuple) else (item,)
    if any(not _is_basic(it) for it in items):
        raise TypeError("x[...] with a slice bound known only at run time accepts ints, "
                        "slices, None and Ellipsis beside it, not index tensors or lists")
    out = x[tuple(slice(None) if _has_run_time_bound(it) else it for it in items)]
    for axis, it in _output_axes(items, len(x.shape)):
        if _has_run_time_bound(it):
            out = take_range(out, axis, it.start, it.stop, it.step)
    return out


def _output_axes(items, ndim):
    """(output axis, item) for each slice or None of a basic index over ndim dims."""
    spanned = ndim - sum(1 for it in items if it is not None and it is not Ellipsis)
    axis, found = 0, []
    for it in items:
        if it is Ellipsis:
            axis += spanned
        elif it is None or isinstance(it, slice):
            found.append((axis, it))
            axis += 1
    return found


def _index_value(v):
    """A slice bound or size as a 0-d int64 tensor."""
    if hasattr(v, "dtype"):
        return api.reshape(api.cast(v, "int64"), [])
    return api.full([], int(v), "int64")


def _bound(v, size, default, low, high):
    """A slice bound as Python slicing reads it: None is `default`, a negative bound counts
    from the end, then it is clamped into [low, high] (0-d int64 tensors)."""
    if v is None:
        return default
    v = _index_value(v)
    v = api.where(v < 0, v + size, v)
    return api.minimum(api.maximum(v, low), high)


def take_range(x, axis, start, stop, step=None):
    """x[..., start:stop:step, ...] along `axis` with bounds that may be known only at run
    time (static Variables): normalised by ops and gathered with a run-time range, so the
    gradient flows back to x through `index_select`."""
    step = 1 if step is None else step
    if getattr(step, "symbolic_size", False) or not isinstance(step, numbers.Integral):
        raise TypeError(f"a slice step must be a Python int (its sign decides how the bounds "
                        f"are read), got {step!r}")
    if step == 0:
        raise ValueError("slice step cannot be zero")
    size = x.shape[axis]
    size = _index_value(size if size >= 0 else api.shape(x)[axis])
    zero = _index_value(0)
    if step > 0:
        first = _bound(start, size, zero, zero, size)
        last = _bound(stop, size, size, zero, size)
    else:
        before, end = _index_value(-1), size - 1
        first = _bound(start, size, end, before, end)
        last = _bound(stop, size, before, before, end)
    return api.index_select(x, arange_at_run_time(first, last, int(step), "int64"), axis)


def arange_at_run_time(start, end, step, dtype):
    """arange whose bounds may exist only when the Program runs: ceil((end - start) / step)
    becomes a run-time size and the values are start + i * step for i = 0, 1, ..."""
    start, end, step = (api.cast(v, "float64") if hasattr(v, "dtype") else float(v)
                        for v in (start, end, step))
    count = api.maximum(api.cast(api.ceil((end - start) / step), "int64"),
                        api.full([], 0, "int64"))
    index = api.cumsum(api.full_dynamic(api.reshape(count, [1]), 1, "float64"), 0) - 1.0
    return api.cast(index * step + start, dtype)

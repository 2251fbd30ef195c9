"""Normalise attribute values once, before kernels and infer_meta rules see them."""
import numbers

import numpy as np

from ..core.dtype import to_dtype

__all__ = ["int_tuple", "size_tuple", "float_tuple", "dtype_or_none", "as_int", "as_float",
           "as_bool", "as_scalar"]


_PLAIN_TYPES = frozenset({int, float, bool})


def _size(value):
    """An entry of a size list: a symbolic size (a static Variable standing for a dim
    unknown until run time) is -1, the "any size" mark of shape attributes."""
    return -1 if getattr(value, "symbolic_size", False) else _plain(value)


def _plain(value):
    """A Python number from a number, a NumPy scalar, or a one-element tensor; a static
    Variable has no value while the Program is built, so it is refused (not guessed)."""
    if value.__class__ in _PLAIN_TYPES:
        return value
    if getattr(value, "symbolic_size", False):
        raise TypeError(
            f"static Variable {getattr(value, 'name', '')!r} was given where a Python number "
            f"is needed: its value is known only when the Program runs (pass a number, or "
            f"use an API that takes a tensor)")
    if hasattr(value, "item") and not isinstance(value, numbers.Number):
        return value.item()
    if isinstance(value, np.generic):
        return value.item()
    return value


def int_tuple(value):
    """An int, a list/tuple of ints (or tensors holding one), or None -> tuple of ints (axes,
    strides, paddings, ...: a static Variable in it is refused, see `_plain`)."""
    return _ints(value, _plain)


def size_tuple(value):
    """`int_tuple` for a size list (YAML `IntArray`: shapes, repeat counts, output sizes),
    where a symbolic size stands for a dim unknown until run time and becomes -1."""
    return _ints(value, _size)


def _ints(value, entry):
    """A tuple of ints from an int, a list/tuple, a tensor or None; `entry` converts each
    non-int item."""
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        for v in value:
            if v.__class__ is not int:
                return tuple(_whole(entry(v), value) for v in value)
        return value if value.__class__ is tuple else tuple(value)
    if value.__class__ is int:
        return (value,)
    if hasattr(value, "tolist") and not isinstance(value, numbers.Number):
        listed = value.tolist() if not hasattr(value, "numpy") else value.numpy().tolist()
        return tuple(int(v) for v in (listed if isinstance(listed, list) else [listed]))
    return (_whole(entry(value), value),)


def _whole(number, given):
    """`number` as an int; a float (3.5, and 3.0 too, as in Paddle) is refused rather than
    truncated, since a size or axis computed as a float is a bug in the caller."""
    if isinstance(number, numbers.Integral):
        return int(number)
    raise TypeError(f"expected integers, got {type(number).__name__} {number!r} in {given!r}")


def float_tuple(value):
    """A number, a list/tuple of numbers, or None -> tuple of floats."""
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(float(_plain(v)) for v in value)
    return (float(_plain(value)),)


def dtype_or_none(value):
    """A dtype in any spelling, or None."""
    return None if value is None else to_dtype(value)


def as_int(value):
    """An int attribute (None passes through for optional ints)."""
    if value.__class__ is int:
        return value
    return None if value is None else int(_plain(value))


def as_float(value):
    """A float attribute (None passes through for optional floats)."""
    return None if value is None else float(_plain(value))


def as_bool(value):
    """A bool attribute."""
    if value is True or value is False:
        return value
    return bool(_plain(value))


def as_scalar(value):
    """An int, float or bool attribute kept as its own Python type."""
    return None if value is None else _plain(value)

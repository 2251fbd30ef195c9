"""Elementwise predicates (signbit, isneginf, isin, ...) and dtype queries.

The elementwise ones are compositions of comparison ops, so they run in static mode;
the dtype queries (is_complex, is_floating_point, is_integer) return Python bools as
Paddle's do.
"""
from ..ops._generated import api

__all__ = ["signbit", "isreal", "isneginf", "isposinf", "is_complex", "is_floating_point",
           "is_integer", "is_empty", "isin"]


def is_complex(x):
    """Whether x holds complex numbers (a Python bool)."""
    return x.dtype.np.kind == "c"


def is_floating_point(x):
    """Whether x holds real floating-point numbers (a Python bool)."""
    return x.dtype.np.kind == "f"


def is_integer(x):
    """Whether x holds integers (a Python bool; bool is not an integer dtype)."""
    return x.dtype.np.kind in "iu"


def is_empty(x, name=None):
    """0-d bool tensor: True when x has no elements."""
    count = api.numel(x)
    return api.equal(count, api.full_like(count, 0))


def _zero(x):
    return api.full_like(x, 0)


def signbit(x, name=None):
    """True where the sign bit of x is set: negatives and -0.0. For floats this reads the
    sign of atan2(x, -1), which is -pi for -0.0 and +pi for +0.0 (no division by zero)."""
    if x.dtype.np.kind not in "iuf":
        raise TypeError(f"signbit: x must be a real number tensor, got {x.dtype}")
    if is_integer(x):
        return api.less_than(x, _zero(x))
    return api.less_than(api.atan2(x, api.full_like(x, -1)), _zero(x))


def isreal(x, name=None):
    """True where x is real: everywhere for real dtypes, where imag == 0 for complex."""
    if is_complex(x):
        imag = api.imag(x)
        return api.equal(imag, api.full_like(imag, 0))
    return api.full_like(x, True, "bool")


def _infinite_with_sign(x, negative):
    """True where x is an infinity of the given sign (never for integers)."""
    if not x.dtype.is_floating:
        return api.full_like(x, False, "bool")
    side = api.less_than if negative else api.greater_than
    return api.logical_and(api.isinf(x), side(x, _zero(x)))


def isneginf(x, name=None):
    """True where x is -inf."""
    return _infinite_with_sign(x, True)


def isposinf(x, name=None):
    """True where x is +inf."""
    return _infinite_with_sign(x, False)


def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """True where an element of x occurs in test_x (negated with `invert`); x's shape."""
    if x.dtype is not test_x.dtype:
        test_x = api.cast(test_x, x.dtype)
    pairs = api.equal(api.unsqueeze(x, [-1]), api.reshape(test_x, [-1]))
    found = api.any(pairs, [-1], False)
    return api.logical_not(found) if invert else found

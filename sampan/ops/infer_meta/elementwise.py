"""Shape/dtype rules of elementwise ops; `broadcast_shapes`, `unary` and `compare` are shared."""
from ...core.dtype import bool_, complex128, default_float, promote_operands
from ...core.errors import InvalidArgument
from ..meta import MetaTensor

__all__ = ["broadcast_shapes", "unary", "compare", "unary_float", "float_only",
           "unary_numeric", "predicate", "broadcast_binary", "broadcast_numeric", "true_divide",
           "bitwise_binary", "bitwise_unary", "where", "clip", "cast", "fill_dtype", "full",
           "full_like", "allclose", "increment"]


def _broadcast_dim(a, b):
    """One broadcast dim (-1 = unknown), or None when the dims clash."""
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    if a == -1:
        return b
    if b == -1:
        return a
    return None


def broadcast_shapes(a_shape, b_shape, arg="y", other="x"):
    """NumPy broadcast of two shapes that may hold -1; raises InvalidArgument naming `arg`."""
    if a_shape == b_shape:
        return tuple(a_shape)
    a_shape, b_shape = tuple(a_shape), tuple(b_shape)
    ndim = max(len(a_shape), len(b_shape))
    a_full = (1,) * (ndim - len(a_shape)) + a_shape
    b_full = (1,) * (ndim - len(b_shape)) + b_shape
    out = tuple(_broadcast_dim(a, b) for a, b in zip(a_full, b_full))
    if None in out:
        raise InvalidArgument(arg, f"shape {list(b_shape)} cannot broadcast with {other}'s "
                                   f"shape {list(a_shape)}")
    return out


def _refuse(meta, arg, allowed, what):
    """Raise a dtype InvalidArgument unless `allowed(meta.dtype)`."""
    if not allowed(meta.dtype):
        raise InvalidArgument(arg, f"expects {what}, got {meta.dtype.name}", "dtype")


def _not_bool(dtype):
    """True for every dtype except bool."""
    return dtype is not bool_


def _is_floating(dtype):
    """True for floating (and complex) dtypes."""
    return dtype.is_floating


def _not_floating(dtype):
    """True for integer and bool dtypes."""
    return not dtype.is_floating


def unary(x, *attrs):
    """Output shaped and typed like x (attributes are ignored)."""
    return MetaTensor(x.shape, x.dtype)


def unary_float(x, *attrs):
    """Output shaped like x; float inputs keep their dtype, integers and bool give default float."""
    return MetaTensor(x.shape, x.dtype if x.dtype.is_floating else default_float())


def float_only(x, *attrs):
    """Output like x, which must be a floating tensor (activations)."""
    _refuse(x, "x", _is_floating, "a floating tensor")
    return MetaTensor(x.shape, x.dtype)


def unary_numeric(x, *attrs):
    """Output like x for a numeric x; bool is refused (neg, abs, square of bool are undefined)."""
    _refuse(x, "x", _not_bool, "a numeric tensor")
    return MetaTensor(x.shape, x.dtype)


def predicate(x, *attrs):
    """Bool output shaped like x (isnan, isinf, isfinite, logical_not)."""
    return MetaTensor(x.shape, bool_)


def compare(x, y, *attrs):
    """Bool output of the broadcast shape of x and y."""
    return MetaTensor(broadcast_shapes(x.shape, y.shape), bool_)


def broadcast_binary(x, y, *attrs):
    """Broadcast shape, promoted dtype (fast path when shapes and dtypes agree)."""
    if x.shape == y.shape and x.dtype is y.dtype:
        return MetaTensor(x.shape, x.dtype)
    dtype = promote_operands(x.dtype, len(x.shape), y.dtype, len(y.shape))
    return MetaTensor(broadcast_shapes(x.shape, y.shape), dtype)


def broadcast_numeric(x, y, *attrs):
    """Like `broadcast_binary`, refusing two bool operands (subtract, pow, floor_divide...)."""
    out = broadcast_binary(x, y)
    if out.dtype is bool_:
        raise InvalidArgument("y", "x and y are both bool; this op needs numeric operands",
                              "dtype")
    return out


def true_divide(x, y):
    """Like `broadcast_binary`, except integer / integer gives the default float dtype."""
    out = broadcast_binary(x, y)
    return out if out.dtype.is_floating else MetaTensor(out.shape, default_float())


def bitwise_binary(x, y):
    """Broadcast shape and promoted dtype of two integer or bool tensors."""
    _refuse(x, "x", _not_floating, "an integer or bool tensor")
    _refuse(y, "y", _not_floating, "an integer or bool tensor")
    return broadcast_binary(x, y)


def bitwise_unary(x):
    """Output like x, an integer or bool tensor."""
    _refuse(x, "x", _not_floating, "an integer or bool tensor")
    return MetaTensor(x.shape, x.dtype)


def where(condition, x, y):
    """Broadcast of condition, x and y; condition must be bool; dtype promoted from x and y."""
    _refuse(condition, "condition", lambda d: d is bool_, "a bool tensor")
    value = broadcast_binary(x, y)
    return MetaTensor(broadcast_shapes(value.shape, condition.shape, "condition", "x and y"),
                      value.dtype)


def clip(x, lower, upper):
    """Output like x; the bounds must not cross."""
    if lower is not None and upper is not None and lower > upper:
        raise InvalidArgument("min", f"min {lower} must not exceed max {upper}")
    return MetaTensor(x.shape, x.dtype)


def cast(x, dtype):
    """Shape of x, the requested dtype."""
    return MetaTensor(x.shape, dtype)


def _check_shape_attr(shape):
    """Refuse negative sizes other than -1 (unknown) in a shape attribute."""
    if any(n < -1 for n in shape):
        raise InvalidArgument("shape", f"sizes must be >= 0 (or -1), got {list(shape)}")


def fill_dtype(fill_value):
    """Dtype full() picks for a value when none is given, as Paddle 3 does: bool, complex128
    (rather than dropping the imaginary part), else the default float dtype (an int value
    too: paddle.full([2], 3) is float32)."""
    if isinstance(fill_value, bool):
        return bool_
    if isinstance(fill_value, complex):
        return complex128
    return default_float()


def full(shape, fill_value, dtype):
    """Given shape; dtype given or inferred from the fill value."""
    _check_shape_attr(shape)
    return MetaTensor(shape, dtype or fill_dtype(fill_value))


def full_like(x, fill_value, dtype):
    """Shape of x; the given dtype or x's."""
    return MetaTensor(x.shape, dtype or x.dtype)


def allclose(x, y, *attrs):
    """0-d bool; x and y must broadcast."""
    broadcast_shapes(x.shape, y.shape)
    return MetaTensor((), bool_)


def increment(x, value):
    """Output like x, which must hold exactly one element (as Paddle's increment requires)."""
    if -1 not in x.shape and any(n != 1 for n in x.shape):
        raise InvalidArgument("x", f"must hold exactly one element, got shape {list(x.shape)}")
    return MetaTensor(x.shape, x.dtype)

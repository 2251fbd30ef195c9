"""Math functions whose Paddle signature differs from the op they call."""
import numbers

from ..ops._generated import api

__all__ = ["pow", "cumsum", "sort", "einsum", "mm", "increment", "assign", "floor_mod", "mod",
           "add_n", "sign", "neg", "rsqrt", "equal_all"]

sign = api.sign
neg = api.neg
rsqrt = api.rsqrt
mm = api.matmul
mod = floor_mod = api.remainder


def pow(x, y, name=None):  # noqa: A001 - Paddle's name
    """x ** y for a Python number or a tensor `y`."""
    if isinstance(y, numbers.Number) and not isinstance(y, bool):
        return api.pow(x, y)
    return api.elementwise_pow(x, y)


def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along `axis` (flattened when None), optionally cast first."""
    if dtype is not None:
        x = api.cast(x, dtype)
    return api.cumsum(x, axis)


def sort(x, axis=-1, descending=False, stable=False, name=None):
    """x sorted along `axis` (values only, like Paddle; see argsort for indices)."""
    return api.sort(x, axis, descending, stable)[0]


def einsum(equation, *operands):
    """Einstein summation over the operands (no ellipsis)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return api.einsum(list(operands), equation)


def add_n(inputs, name=None):
    """Elementwise sum of a list of tensors."""
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    total = inputs[0]
    for t in inputs[1:]:
        total = api.add(total, t)
    return total


def increment(x, value=1.0, name=None):
    """x += value, in place (Paddle semantics); returns x."""
    x._take_over(api.increment(x, value))
    return x


def assign(x, output=None):
    """A copy of `x` (a tensor, array, list or number); with `output`, written into it."""
    if not hasattr(x, "dtype") or not hasattr(x, "shape") or not callable(
            getattr(x, "astype", None)):
        from .creation import to_tensor
        x = to_tensor(x)
    elif not hasattr(x, "_take_over"):
        from .creation import to_tensor
        x = to_tensor(x)
    result = api.assign(x)
    if output is None:
        return result
    output._take_over(result)
    return output


def equal_all(x, y, name=None):
    """A 0-d bool tensor: True when x and y have the same shape and all elements equal."""
    if list(x.shape) != list(y.shape):
        return api.full([], False, "bool")
    return api.all(api.equal(x, y))

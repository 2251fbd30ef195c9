"""Shape/dtype rule of polygamma (the other special functions use `unary_float`)."""
from ...core.errors import InvalidArgument
from .elementwise import unary_float

__all__ = ["polygamma"]


def polygamma(x, n):
    """Output like x (integers give the default float); the order n must be >= 0."""
    if n < 0:
        raise InvalidArgument("n", f"expects a non-negative derivative order, got {n}")
    return unary_float(x)

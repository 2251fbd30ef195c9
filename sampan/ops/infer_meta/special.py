"""Shape/dtype rules of polygamma and the incomplete gamma functions (the other special
functions use `unary_float`)."""
from ...core.dtype import promote
from ...core.errors import InvalidArgument
from ..meta import MetaTensor
from .elementwise import broadcast_shapes, unary_float

__all__ = ["polygamma", "incomplete_gamma"]


def polygamma(x, n):
    """Output like x (integers give the default float); the order n must be >= 0."""
    if n < 0:
        raise InvalidArgument("n", f"expects a non-negative derivative order, got {n}")
    return unary_float(x)


def incomplete_gamma(x, y):
    """Broadcast shape of float32/float64 x and y, their promoted dtype (Paddle's gammainc)."""
    for meta, arg in ((x, "x"), (y, "y")):
        if meta.dtype.np.kind != "f":
            raise InvalidArgument(arg, f"expects a float32 or float64 tensor, got "
                                       f"{meta.dtype.name}", "dtype")
    return MetaTensor(broadcast_shapes(x.shape, y.shape), promote(x.dtype, y.dtype))

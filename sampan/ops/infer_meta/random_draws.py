"""Shape/dtype rules of the sampling ops standard_gamma and binomial."""
from ...core.dtype import int64
from ...core.errors import InvalidArgument
from ..meta import MetaTensor
from .elementwise import broadcast_shapes

__all__ = ["standard_gamma", "binomial"]


def _real_float(meta, arg):
    """Refuse anything but a real floating tensor, naming the argument."""
    if meta.dtype.np.kind != "f":
        raise InvalidArgument(arg, f"expects a float16, float32 or float64 tensor, got "
                                   f"{meta.dtype.name}", "dtype")


def standard_gamma(x):
    """Like x, a real floating tensor of gamma shapes."""
    _real_float(x, "x")
    return MetaTensor(x.shape, x.dtype)


def binomial(count, prob):
    """int64 of the broadcast shape; count numeric (not bool), prob real floating."""
    if count.dtype.np.kind not in "iuf":
        raise InvalidArgument("count", f"expects an integer or float tensor of trial counts, "
                                       f"got {count.dtype.name}", "dtype")
    _real_float(prob, "prob")
    return MetaTensor(broadcast_shapes(count.shape, prob.shape, "prob", "count"), int64)

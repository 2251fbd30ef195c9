"""infer_meta rules of ops whose output sizes come from a tensor: the rank is known (the
length of the 1-D shape tensor), the sizes are not (-1)."""
from ...core.errors import InvalidArgument
from ..meta import MetaTensor
from .elementwise import fill_dtype
from .nn import gaussian

__all__ = ["reshape_dynamic", "full_dynamic", "uniform_random", "gaussian_random"]


def _rank_of(shape):
    """Length of a 1-D integer shape tensor, which must be known while building."""
    if shape.dtype.name not in ("int32", "int64"):
        raise InvalidArgument("shape", f"must be an int32 or int64 tensor, got {shape.dtype.name}",
                              "dtype")
    if len(shape.shape) != 1 or shape.shape[0] < 0:
        raise InvalidArgument("shape", f"must be 1-D with a known length, got shape "
                                       f"{list(shape.shape)}")
    return shape.shape[0]


def reshape_dynamic(x, shape):
    """Rank from the shape tensor, every size unknown; x's dtype."""
    return MetaTensor((-1,) * _rank_of(shape), x.dtype)


def full_dynamic(shape, fill_value, dtype):
    """Rank from the shape tensor, every size unknown; dtype given or from the fill value."""
    return MetaTensor((-1,) * _rank_of(shape), dtype or fill_dtype(fill_value))


def _random_draw(shape, dtype):
    """Rank from the shape tensor, every size unknown; a float dtype checked as `gaussian`
    and `uniform` check theirs."""
    rank = _rank_of(shape)
    return MetaTensor((-1,) * rank, gaussian((0,) * rank, 0.0, 1.0, 0, dtype).dtype)


def uniform_random(shape, dtype, min, max, seed):  # noqa: A002 - the op's attribute names
    """A float tensor whose sizes come from `shape` (default float dtype)."""
    return _random_draw(shape, dtype)


def gaussian_random(shape, mean, std, seed, dtype):
    """A float tensor whose sizes come from `shape` (default float dtype)."""
    return _random_draw(shape, dtype)

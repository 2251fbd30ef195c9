"""infer_meta rules of ops whose output sizes come from a tensor: the rank is known (the
length of the 1-D shape tensor), the sizes are not (-1)."""
from ...core.errors import InvalidArgument
from ..meta import MetaTensor
from .elementwise import fill_dtype
from .manipulation import _PAD_MODES, _pad_widths
from .nn import gaussian

__all__ = ["reshape_dynamic", "pad_dynamic", "full_dynamic", "uniform_random",
           "gaussian_random"]


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


def pad_dynamic(x, paddings, mode, value, data_format):
    """x's rank and dtype; the dims the paddings reach (known from their count) have unknown
    sizes, the others keep theirs."""
    if mode not in _PAD_MODES:
        raise InvalidArgument("mode", f"expects one of {list(_PAD_MODES)}, got {mode!r}")
    if paddings.dtype.name not in ("int32", "int64"):
        raise InvalidArgument("paddings", f"must be an int32 or int64 tensor, got "
                                          f"{paddings.dtype.name}", "dtype")
    count = 1
    for d in paddings.shape:
        count *= d
    if count < 0:
        raise InvalidArgument("paddings", f"must have a known number of sizes, got shape "
                                          f"{list(paddings.shape)}")
    widths = _pad_widths(len(x.shape), (1,) * count, mode, data_format)
    shape = [d if w == (0, 0) else -1 for d, w in zip(x.shape, widths)]
    return MetaTensor(shape, x.dtype)


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

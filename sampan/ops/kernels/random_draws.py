"""Sampling kernels with per-element parameters: standard_gamma (Gamma(x, 1)) and binomial.
They draw from sampan.core.random.generator(), so paddle.seed makes them repeatable."""
import numpy as np

from ...core.errors import InvalidArgument
from ...core.random import generator

__all__ = ["standard_gamma", "binomial"]


def standard_gamma(x):
    """A Gamma(x, 1) sample per element of the non-negative shapes x, in x's dtype."""
    if not (x >= 0).all():
        raise InvalidArgument("x", "the gamma shapes must be non-negative (and not NaN)")
    return np.asarray(generator().standard_gamma(x), dtype=x.dtype)


def binomial(count, prob):
    """An int64 Binomial(count, prob) sample per element of count and prob broadcast."""
    if not (count >= 0).all() or np.any(count != np.floor(count)):
        raise InvalidArgument("count", "the trial counts must be non-negative whole numbers")
    if not ((prob >= 0) & (prob <= 1)).all():
        raise InvalidArgument("prob", "the success probabilities must lie in [0, 1]")
    return np.asarray(generator().binomial(count.astype(np.int64), prob), dtype=np.int64)

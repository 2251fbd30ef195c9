"""Location-scale distributions sampled by inverting their CDF: Laplace and Cauchy."""
import math

from .. import tensor as T
from ..eager.grad_mode import no_grad
from .distribution import (Distribution, as_params, as_value, check_values, eps, sample_shape,
                           standard_uniform, tiny)

__all__ = ["Laplace", "Cauchy"]


class _LocationScale(Distribution):
    """loc and scale (> 0) broadcast to the batch shape."""

    def __init__(self, loc, scale, name=None):
        who = type(self).__name__
        self.name = name if name is not None else who
        self.loc, self.scale = as_params(who, loc=loc, scale=scale)
        check_values(who, self.scale > 0, "every element of scale must be positive")
        self.dtype = self.loc.dtype
        super().__init__(tuple(self.loc.shape))

    def sample(self, shape=(), name=None):
        """Draws of shape `shape + batch_shape` (no gradient)."""
        with no_grad():
            return self.rsample(shape)

    def _standardised(self, value):
        return (as_value(value, self.loc) - self.loc) / self.scale

    def _uniform(self, shape, low, high):
        shape = self._extend_shape(sample_shape(shape, f"{type(self).__name__}.rsample"))
        return standard_uniform(shape, self.dtype, low, high)


class Laplace(_LocationScale):
    r"""The Laplace distribution: f(x) = exp(-|x - loc| / scale) / (2 scale).

    Args:
        loc (float|Tensor): the location (mean).
        scale (float|Tensor): the scale, > 0.

    Example:
        >>> m = paddle.distribution.Laplace(paddle.to_tensor(0.0), paddle.to_tensor(1.0))
        >>> m.entropy()   # 1.69314718
    """

    def __init__(self, loc, scale):
        super().__init__(loc, scale)

    @property
    def mean(self):
        """loc."""
        return self.loc

    @property
    def stddev(self):
        """sqrt(2) scale."""
        return math.sqrt(2.0) * self.scale

    @property
    def variance(self):
        """2 scale^2."""
        return 2.0 * T.pow(self.scale, 2.0)

    def rsample(self, shape=()):
        """loc - scale sign(u) log(1 - |u|), u uniform in (-1, 1)."""
        u = self._uniform(shape, -1.0 + eps(self.dtype), 1.0)
        return self.loc - self.scale * T.sign(u) * T.log1p(-T.abs(u))

    def log_prob(self, value):
        """-log(2 scale) - |x - loc| / scale."""
        return -T.log(2.0 * self.scale) - T.abs(self._standardised(value))

    def entropy(self):
        """1 + log(2 scale)."""
        return 1.0 + T.log(2.0 * self.scale)

    def cdf(self, value):
        """0.5 - 0.5 sign(x - loc) expm1(-|x - loc| / scale)."""
        y = self._standardised(value)
        return 0.5 - 0.5 * T.sign(y) * T.expm1(-T.abs(y))

    def icdf(self, value):
        """loc - scale sign(q - 0.5) log(1 - 2 |q - 0.5|)."""
        term = as_value(value, self.loc) - 0.5
        return self.loc - self.scale * T.sign(term) * T.log1p(-2.0 * T.abs(term))

    def kl_divergence(self, other):
        """(scale_p exp(-|d| / scale_p) + |d|) / scale_q + log(scale_q / scale_p) - 1."""
        if not isinstance(other, Laplace):
            raise TypeError(f"Laplace.kl_divergence: other must be a Laplace, got "
                            f"{type(other).__name__}")
        d = T.abs(self.loc - other.loc)
        return ((self.scale * T.exp(-d / self.scale) + d) / other.scale
                + T.log(other.scale / self.scale) - 1.0)


class Cauchy(_LocationScale):
    r"""The Cauchy distribution: f(x) = 1 / (pi scale (1 + ((x - loc) / scale)^2)).

    It has no mean or variance (both raise ValueError, as in Paddle).

    Args:
        loc (float|Tensor): the location (median).
        scale (float|Tensor): the half width at half maximum, > 0.
        name (str, optional): a name for the operation.

    Example:
        >>> rv = paddle.distribution.Cauchy(loc=0.1, scale=1.2)
        >>> rv.entropy()   # 2.71334577
    """

    @property
    def mean(self):
        raise ValueError("Cauchy distribution has no mean")

    @property
    def variance(self):
        raise ValueError("Cauchy distribution has no variance")

    @property
    def stddev(self):
        raise ValueError("Cauchy distribution has no standard deviation")

    def rsample(self, shape=(), name=None):
        """loc + scale tan(pi (u - 1/2)), u uniform in (0, 1)."""
        u = self._uniform(shape, tiny(self.dtype), 1.0)
        return self.loc + self.scale * T.tan(math.pi * (u - 0.5))

    def log_prob(self, value):
        """-log(pi) - log(scale) - log(1 + y^2)."""
        y = self._standardised(value)
        return -math.log(math.pi) - T.log(self.scale) - T.log1p(y * y)

    def cdf(self, value):
        """atan((x - loc) / scale) / pi + 1/2."""
        return T.atan(self._standardised(value)) / math.pi + 0.5

    def entropy(self):
        """log(4 pi scale)."""
        return T.log(4.0 * math.pi * self.scale)

    def kl_divergence(self, other):
        """log((s_p + s_q)^2 + (l_p - l_q)^2) - log(4 s_p s_q)."""
        if not isinstance(other, Cauchy):
            raise TypeError(f"Cauchy.kl_divergence: other must be a Cauchy, got "
                            f"{type(other).__name__}")
        total = self.scale + other.scale
        d = self.loc - other.loc
        return T.log(total * total + d * d) - T.log(4.0 * self.scale * other.scale)

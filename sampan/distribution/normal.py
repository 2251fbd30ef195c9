"""Normal and Uniform: Paddle's two oldest distributions (parameters may be numbers, lists,
arrays or tensors; `sample` takes Paddle's per-call `seed`)."""
import math

from .. import tensor as T
from ..eager.grad_mode import no_grad
from .distribution import (Distribution, as_params, as_value, broadcast_shape, sample_shape,
                           standard_normal, standard_uniform)

__all__ = ["Normal", "Uniform"]

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


class _TwoParameter(Distribution):
    """A univariate distribution of two broadcast parameters named by `_names`."""

    _names = ()

    def __init__(self, a, b, name=None):
        who = type(self).__name__
        self.name = name if name is not None else who
        a, b = (float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                for v in (a, b))
        self.all_arg_is_float = isinstance(a, float) and isinstance(b, float)
        a, b = as_params(who, **dict(zip(self._names, (a, b))))
        setattr(self, self._names[0], a)
        setattr(self, self._names[1], b)
        self.dtype = a.dtype
        super().__init__(broadcast_shape([tuple(a.shape), tuple(b.shape)]))

    def _draw_shape(self, shape):
        return list(sample_shape(shape, f"{type(self).__name__}.sample")) + list(
            self.batch_shape)


class Normal(_TwoParameter):
    r"""The normal distribution with mean `loc` and standard deviation `scale`.

    .. math:: pdf(x; \mu, \sigma) = \frac{1}{\sqrt{2\pi\sigma^2}} e^{-(x-\mu)^2 / (2\sigma^2)}

    Args:
        loc (float|list|tuple|numpy.ndarray|Tensor): the mean.
        scale (float|list|tuple|numpy.ndarray|Tensor): the standard deviation.
        name (str, optional): a name for the operation.

    Example:
        >>> normal_a = paddle.distribution.Normal([0.], [1.])
        >>> normal_a.log_prob(paddle.to_tensor([0.8]))   # [-1.2389386]
        >>> normal_a.kl_divergence(paddle.distribution.Normal([0.5], [2.]))   # [0.34939718]
    """

    _names = ("loc", "scale")

    def __init__(self, loc, scale, name=None):
        super().__init__(loc, scale, name)

    @property
    def mean(self):
        """The mean, `loc`."""
        return self.loc

    @property
    def variance(self):
        """The variance, `scale ** 2`."""
        return T.pow(self.scale, 2.0)

    def sample(self, shape=(), seed=0):
        """Draws of shape `shape + batch_shape` (no gradient); a non-zero `seed` draws from a
        generator of its own, as Paddle's per-op seed does."""
        shape = self._draw_shape(shape)
        with no_grad():
            out = standard_normal(shape, self.dtype, seed) * self.scale + self.loc
        return out

    def rsample(self, shape=()):
        """Reparameterized draws `loc + scale * eps`, differentiable in loc and scale."""
        eps = standard_normal(self._draw_shape(shape), self.dtype)
        return self.loc + eps * self.scale

    def entropy(self):
        r"""Entropy :math:`0.5 + 0.5 \log(2\pi) + \log\sigma`, one value per batch element."""
        return 0.5 + _HALF_LOG_2PI + T.log(self.scale) + T.zeros_like(self.loc)

    def log_prob(self, value):
        """Log density of `value` (cast to the parameters' dtype)."""
        value = as_value(value, self.loc)
        var = self.scale * self.scale
        return -((value - self.loc) * (value - self.loc)) / (2.0 * var) - (
            T.log(self.scale) + _HALF_LOG_2PI)

    def probs(self, value):
        """Density of `value`."""
        value = as_value(value, self.loc)
        var = self.scale * self.scale
        return T.exp(-((value - self.loc) * (value - self.loc)) / (2.0 * var)) / (
            math.sqrt(2.0 * math.pi) * self.scale)

    def cdf(self, value):
        """Cumulative distribution function at `value`."""
        value = as_value(value, self.loc)
        return 0.5 * (1.0 + T.erf((value - self.loc) / (self.scale * math.sqrt(2.0))))

    def icdf(self, value):
        """Inverse cumulative distribution function (quantile) at `value` in (0, 1)."""
        value = as_value(value, self.loc)
        return self.loc + self.scale * math.sqrt(2.0) * T.erfinv(2.0 * value - 1.0)

    def kl_divergence(self, other):
        r"""KL(self || other) = 0.5 (r^2 + ((\mu_0 - \mu_1)/\sigma_1)^2 - 1 - 2 \ln r),
        r = \sigma_0 / \sigma_1."""
        if not isinstance(other, Normal):
            raise TypeError(f"Normal.kl_divergence: other must be a Normal, got "
                            f"{type(other).__name__}")
        var_ratio = (self.scale / other.scale) * (self.scale / other.scale)
        t1 = (self.loc - other.loc) / other.scale
        return 0.5 * var_ratio + 0.5 * (t1 * t1 - 1.0 - T.log(var_ratio))


class Uniform(_TwoParameter):
    r"""The uniform distribution on [low, high).

    .. math:: pdf(x; a, b) = \frac{1}{b - a}, \quad a \le x < b

    Args:
        low (float|list|tuple|numpy.ndarray|Tensor): the lower bound.
        high (float|list|tuple|numpy.ndarray|Tensor): the upper bound.
        name (str, optional): a name for the operation.

    Example:
        >>> uniform = paddle.distribution.Uniform([0.], [2.])
        >>> uniform.entropy()   # [0.6931472]
        >>> uniform.probs(paddle.to_tensor([0.8]))   # [0.5]
    """

    _names = ("low", "high")

    def __init__(self, low, high, name=None):
        super().__init__(low, high, name)

    @property
    def mean(self):
        """(low + high) / 2."""
        return (self.low + self.high) / 2.0

    @property
    def variance(self):
        """(high - low)^2 / 12."""
        return T.pow(self.high - self.low, 2.0) / 12.0

    def sample(self, shape=(), seed=0):
        """Draws of shape `shape + batch_shape` (no gradient)."""
        with no_grad():
            return self.rsample(shape, seed)

    def rsample(self, shape=(), seed=0):
        """Reparameterized draws `low + (high - low) * u`."""
        shape = self._draw_shape(shape)
        u = standard_uniform(shape, self.dtype, seed=seed)
        return self.low + u * (self.high - self.low)

    def _inside(self, value):
        value = as_value(value, self.low)
        lb = T.cast(self.low <= value, value.dtype)
        ub = T.cast(value < self.high, value.dtype)
        return lb * ub

    def log_prob(self, value):
        """log(1 / (high - low)) inside [low, high), -inf outside."""
        return T.log(self._inside(value)) - T.log(self.high - self.low)

    def probs(self, value):
        """1 / (high - low) inside [low, high), 0 outside."""
        return self._inside(value) / (self.high - self.low)

    def cdf(self, value):
        """Cumulative distribution function at `value`."""
        value = as_value(value, self.low)
        return T.clip((value - self.low) / (self.high - self.low), 0.0, 1.0)

    def entropy(self):
        """log(high - low)."""
        return T.log(self.high - self.low)

    def kl_divergence(self, other):
        """log((other.high - other.low) / (high - low)) when [low, high) lies inside other's
        support, else +inf."""
        if not isinstance(other, Uniform):
            raise TypeError(f"Uniform.kl_divergence: other must be a Uniform, got "
                            f"{type(other).__name__}")
        kl = T.log((other.high - other.low) / (self.high - self.low))
        outside = T.logical_or(other.low > self.low, other.high < self.high)
        return T.where(outside, T.full_like(kl, math.inf), kl)

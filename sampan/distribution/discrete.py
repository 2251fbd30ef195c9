"""Discrete distributions on the integers: Bernoulli, Geometric, Poisson, Binomial."""
import math

import numpy as np

from .. import tensor as T
from ..eager.grad_mode import no_grad
from .distribution import (Distribution, as_param, as_params, as_value, binomial_log_pmf,
                           check_values, concrete, eps, numpy_draw, sample_shape,
                           standard_uniform, times_log, tiny)
from .exponential_family import ExponentialFamily

__all__ = ["Bernoulli", "Geometric", "Poisson", "Binomial"]


def _as_vector(value, name, who):
    """Paddle's Poisson/Binomial rule: a Python number becomes a 1-D tensor of one element."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = [float(value)]
    return as_param(value, name, who)


class Bernoulli(ExponentialFamily):
    r"""1 with probability `probs`, 0 otherwise.

    Args:
        probs (float|Tensor): the probability of 1, in [0, 1] (clipped to
            [eps, 1 - eps] inside, as Paddle does).
        name (str, optional): a name for the operation.

    Example:
        >>> rv = paddle.distribution.Bernoulli(0.3)
        >>> rv.entropy()   # 0.61086434
        >>> rv.kl_divergence(paddle.distribution.Bernoulli(0.7))   # 0.33891910
    """

    def __init__(self, probs, name=None):
        self.name = name if name is not None else "Bernoulli"
        probs = as_param(probs, "probs", "Bernoulli")
        check_values("Bernoulli", T.logical_and(probs >= 0, probs <= 1),
                     "probs must be in range [0, 1]")
        self.dtype = probs.dtype
        self.probs = T.clip(probs, eps(self.dtype), 1.0 - eps(self.dtype))
        self.logits = self._probs_to_logits(self.probs, is_binary=True)
        super().__init__(tuple(self.probs.shape))

    @property
    def mean(self):
        """probs."""
        return self.probs

    @property
    def variance(self):
        """probs * (1 - probs)."""
        return self.probs * (1.0 - self.probs)

    def sample(self, shape=()):
        """0/1 draws (float) of shape `shape + batch_shape`."""
        shape = self._extend_shape(sample_shape(shape, "Bernoulli.sample"))
        with no_grad():
            return T.bernoulli(T.expand(self.probs, list(shape)))

    def rsample(self, shape=(), temperature=1.0):
        """Relaxed (Concrete / Gumbel-softmax) draws: logistic noise plus logits, divided by
        `temperature`. Apply a sigmoid to map them into (0, 1)."""
        if temperature <= 0:
            raise ValueError(f"Bernoulli.rsample: temperature must be positive, got "
                             f"{temperature}")
        shape = self._extend_shape(sample_shape(shape, "Bernoulli.rsample"))
        u = standard_uniform(shape, self.dtype, tiny(self.dtype), 1.0)
        noise = T.log(u) - T.log1p(-u)
        return (noise + T.expand(self.logits, list(shape))) / temperature

    def cdf(self, value):
        """0 below 0, 1 - p on [0, 1), 1 from 1."""
        value = as_value(value, self.probs)
        probs = self.probs + T.zeros_like(value)
        value = value + T.zeros_like(probs)
        ones = T.ones_like(probs)
        return T.where(value < 0, T.zeros_like(probs), T.where(value < 1, ones - probs, ones))

    def log_prob(self, value):
        """value * log p + (1 - value) * log(1 - p), computed from the logits."""
        value = as_value(value, self.probs)
        return value * self.logits - T.softplus(self.logits)

    def entropy(self):
        """-(p log p + (1 - p) log(1 - p))."""
        return T.softplus(self.logits) - self.probs * self.logits

    def kl_divergence(self, other):
        """p_a log(p_a / p_b) + (1 - p_a) log((1 - p_a) / (1 - p_b))."""
        if not isinstance(other, Bernoulli):
            raise TypeError(f"Bernoulli.kl_divergence: other must be a Bernoulli, got "
                            f"{type(other).__name__}")
        a, b = self.logits, other.logits
        pa, qa = T.sigmoid(a), T.sigmoid(-a)
        return pa * (T.softplus(-b) - T.softplus(-a)) + qa * (T.softplus(b) - T.softplus(a))

    @property
    def _natural_parameters(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        return T.softplus(x)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Geometric(Distribution):
    r"""The number of failures before the first success of trials succeeding with `probs`.

    .. math:: P(X = k) = (1 - p)^k p, \quad k = 0, 1, 2, \ldots

    Args:
        probs (float|Tensor): the success probability, in (0, 1].

    Example:
        >>> geom = paddle.distribution.Geometric(0.5)
        >>> geom.mean, geom.pmf(2), geom.entropy()   # 1., 0.125, 1.38629425
    """

    def __init__(self, probs):
        self.probs = as_param(probs, "probs", "Geometric")
        check_values("Geometric", T.logical_and(self.probs > 0, self.probs <= 1),
                     "probs must be in (0, 1]")
        self.dtype = self.probs.dtype
        super().__init__(tuple(self.probs.shape))

    @property
    def mean(self):
        """1 / p - 1."""
        return 1.0 / self.probs - 1.0

    @property
    def variance(self):
        """(1 / p - 1) / p."""
        return (1.0 / self.probs - 1.0) / self.probs

    @property
    def stddev(self):
        """sqrt(variance)."""
        return T.sqrt(self.variance)

    def pmf(self, k):
        """(1 - p)^k p."""
        return T.pow(1.0 - self.probs, self._k(k)) * self.probs

    def log_pmf(self, k):
        """k log(1 - p) + log p."""
        return times_log(self._k(k), T.log1p(-self.probs)) + T.log(self.probs)

    def log_prob(self, value):
        """The log_pmf of `value`."""
        return self.log_pmf(value)

    def cdf(self, k):
        """1 - (1 - p)^(k + 1)."""
        return 1.0 - T.pow(1.0 - self.probs, self._k(k) + 1.0)

    def _k(self, k):
        if isinstance(k, float) and not k.is_integer():
            raise TypeError(f"Geometric: k must be an integer or a Tensor, got {k}")
        return as_value(k, self.probs)

    def sample(self, shape=()):
        """Draws (float, integer-valued) of shape `shape + batch_shape`."""
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        """floor(log(u) / log(1 - p)) with u uniform in (0, 1)."""
        shape = self._extend_shape(sample_shape(shape, "Geometric.rsample"))
        u = standard_uniform(shape, self.dtype, tiny(self.dtype), 1.0)
        return T.floor(T.log(u) / T.log1p(-self.probs))

    def entropy(self):
        """-((1 - p) log(1 - p) + p log p) / p."""
        p = self.probs
        return -(times_log(1.0 - p, T.log1p(-p)) + p * T.log(p)) / p

    def kl_divergence(self, other):
        """Paddle's formula p log(p / q) + (1 - p) log((1 - p) / (1 - q)) (the Bernoulli KL
        of the success probabilities; see docs/distribution.md)."""
        if not isinstance(other, Geometric):
            raise TypeError(f"Geometric.kl_divergence: other must be a Geometric, got "
                            f"{type(other).__name__}")
        p, q = self.probs, other.probs
        return p * T.log(p / q) + (1.0 - p) * T.log((1.0 - p) / (1.0 - q))


class Poisson(Distribution):
    r"""Counts of events at mean rate `rate`.

    .. math:: P(X = k) = e^{-\lambda} \lambda^k / k!

    Args:
        rate (int|float|Tensor): the mean, >= 0 (a number becomes a 1-D tensor of one
            element, as in Paddle).

    Example:
        >>> rv = paddle.distribution.Poisson(paddle.to_tensor([2.0, 5.0]))
        >>> rv.sample([3]).shape   # [3, 2]
    """

    def __init__(self, rate):
        self.rate = _as_vector(rate, "rate", "Poisson")
        check_values("Poisson", self.rate >= 0, "every element of rate must be non-negative")
        self.dtype = self.rate.dtype
        super().__init__(tuple(self.rate.shape))

    @property
    def mean(self):
        """rate."""
        return self.rate

    @property
    def variance(self):
        """rate."""
        return self.rate

    def sample(self, shape=()):
        """Counts (float) of shape `shape + batch_shape` (eager only)."""
        shape = self._extend_shape(sample_shape(shape, "Poisson.sample"))
        return numpy_draw("Poisson.sample", lambda g, lam: g.poisson(lam), shape, self.dtype,
                          self.rate)

    def log_prob(self, value):
        """k log(rate) - rate - log k!."""
        value = as_value(value, self.rate)
        return times_log(value, T.log(self.rate)) - self.rate - T.lgamma(value + 1.0)

    def entropy(self):
        """-sum_k p(k) log p(k) over k = 0 .. rate + 30 sqrt(rate) (eager only)."""
        top = float(concrete(self.rate, "Poisson.entropy").max(initial=0.0))
        upper = int(top + 30.0 * max(math.sqrt(top), 1.0)) + 1
        k = T.reshape(T.arange(0, upper, 1, self.dtype), [-1] + [1] * len(self.batch_shape))
        log_p = self.log_prob(k)
        return -T.sum(T.exp(log_p) * log_p, axis=0)

    def kl_divergence(self, other):
        """rate_p log(rate_p / rate_q) - (rate_p - rate_q)."""
        if not isinstance(other, Poisson):
            raise TypeError(f"Poisson.kl_divergence: other must be a Poisson, got "
                            f"{type(other).__name__}")
        p, q = self.rate, other.rate
        return times_log(p, T.log(p) - T.log(q)) - (p - q)


class Binomial(Distribution):
    r"""Successes in `total_count` trials each succeeding with `probs`.

    .. math:: P(X = k) = \binom{n}{k} p^k (1 - p)^{n - k}

    Args:
        total_count (int|Tensor): the number of trials, > 0 (numbers become 1-D tensors).
        probs (float|Tensor): the success probability, in [0, 1].

    Example:
        >>> rv = paddle.distribution.Binomial(10, 0.3)
        >>> rv.mean, rv.variance   # [3.], [2.1]
    """

    def __init__(self, total_count, probs):
        total_count = _as_vector(total_count, "total_count", "Binomial")
        probs = _as_vector(probs, "probs", "Binomial")
        self.total_count, self.probs = as_params(
            "Binomial", total_count=total_count, probs=probs)
        self.total_count = T.cast(self.total_count, self.probs.dtype)
        check_values("Binomial", self.total_count > 0,
                     "every element of total_count must be greater than zero")
        check_values("Binomial", T.logical_and(self.probs >= 0, self.probs <= 1),
                     "probs must be in range [0, 1]")
        self.dtype = self.probs.dtype
        super().__init__(tuple(self.probs.shape))

    @property
    def mean(self):
        """n p."""
        return self.total_count * self.probs

    @property
    def variance(self):
        """n p (1 - p)."""
        return self.total_count * self.probs * (1.0 - self.probs)

    def sample(self, shape=()):
        """Success counts (float) of shape `shape + batch_shape` (eager only)."""
        shape = self._extend_shape(sample_shape(shape, "Binomial.sample"))
        return numpy_draw("Binomial.sample", lambda g, n, p: g.binomial(n.astype(np.int64), p),
                          shape, self.dtype, self.total_count, self.probs)

    def log_prob(self, value):
        """log C(n, k) + k log p + (n - k) log(1 - p); -inf outside 0 .. n."""
        value = as_value(value, self.probs)
        log_p = binomial_log_pmf(self.total_count, value, self.probs)
        outside = T.logical_or(value < 0, value > self.total_count)
        return T.where(outside, T.full_like(log_p, -math.inf), log_p)

    def entropy(self):
        """-sum_k p(k) log p(k) over k = 0 .. max(total_count) (eager only)."""
        top = int(concrete(self.total_count, "Binomial.entropy").max(initial=0.0))
        k = T.reshape(T.arange(0, top + 1, 1, self.dtype), [-1] + [1] * len(self.batch_shape))
        log_p = self.log_prob(k)
        terms = T.where(log_p > -math.inf, T.exp(log_p) * log_p, T.zeros_like(log_p))
        return -T.sum(terms, axis=0)

    def kl_divergence(self, other):
        """n (p log(p / q) + (1 - p) log((1 - p) / (1 - q))); both need one total_count."""
        if not isinstance(other, Binomial):
            raise TypeError(f"Binomial.kl_divergence: other must be a Binomial, got "
                            f"{type(other).__name__}")
        check_values("Binomial.kl_divergence", self.total_count == other.total_count,
                     "both distributions must have the same total_count")
        p, q = self.probs, other.probs
        return self.total_count * (times_log(p, T.log(p) - T.log(q))
                                   + times_log(1.0 - p, T.log1p(-p) - T.log1p(-q)))

"""TransformedDistribution (a base distribution pushed through transforms) and the two
distributions Paddle builds on it: LogNormal and Gumbel."""
import math
from collections.abc import Sequence

from .. import tensor as T
from ..eager.grad_mode import no_grad
from .distribution import (Distribution, as_params, as_value, check_values, eps, sum_rightmost,
                           tiny)
from .independent import Independent
from .normal import Normal, Uniform
from .transform import ChainTransform, ExpTransform, Transform

__all__ = ["TransformedDistribution", "LogNormal", "Gumbel"]

_EULER_GAMMA = 0.57721566490153286060


class TransformedDistribution(Distribution):
    r"""The distribution of y = t_n(... t_1(x)) for x drawn from `base`.

    log p(y) = log p_base(x) - sum_i log|det J_{t_i}|, x = t^{-1}(y).

    Args:
        base (Distribution): the distribution of x.
        transforms (Sequence[Transform]): applied in order.

    Example:
        >>> d = paddle.distribution.TransformedDistribution(
        ...     paddle.distribution.Normal(0., 1.), [paddle.distribution.ExpTransform()])
        >>> d.log_prob(paddle.to_tensor(1.0))   # -0.91893852 (a log-normal)
    """

    def __init__(self, base, transforms):
        if not isinstance(base, Distribution):
            raise TypeError(f"TransformedDistribution: base must be a Distribution, got "
                            f"{type(base).__name__}")
        if not isinstance(transforms, Sequence) or not all(
                isinstance(t, Transform) for t in transforms):
            raise TypeError("TransformedDistribution: transforms must be a sequence of "
                            "Transform")
        self._base = base
        self._transforms = list(transforms)
        if not self._transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        chain = ChainTransform(self._transforms)
        full = base.batch_shape + base.event_shape
        if len(full) < chain._domain.event_rank:
            raise ValueError(f"TransformedDistribution: the base's shape {list(full)} has "
                             f"fewer dims than the transforms' event rank "
                             f"{chain._domain.event_rank}")
        if chain._domain.event_rank > len(base.event_shape):
            base = Independent(base, chain._domain.event_rank - len(base.event_shape))
        shape = chain.forward_shape(base.batch_shape + base.event_shape)
        event_rank = chain._codomain.event_rank + max(
            len(base.event_shape) - chain._domain.event_rank, 0)
        split = len(shape) - event_rank
        super().__init__(shape[:split], shape[split:])

    def sample(self, shape=()):
        """Base draws pushed through the transforms (no gradient)."""
        with no_grad():
            return self._forward(self._base.sample(shape))

    def rsample(self, shape=()):
        """Reparameterized base draws pushed through the transforms."""
        return self._forward(self._base.rsample(shape))

    def _forward(self, x):
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value):
        """Base log density of the preimage minus the transforms' log-det-Jacobians."""
        log_prob = 0.0
        y = value
        event_rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            event_rank += t._domain.event_rank - t._codomain.event_rank
            log_prob = log_prob - sum_rightmost(t.forward_log_det_jacobian(x),
                                                event_rank - t._domain.event_rank)
            y = x
        return log_prob + sum_rightmost(self._base.log_prob(y),
                                        event_rank - len(self._base.event_shape))

    def prob(self, value):
        """exp(log_prob(value))."""
        return T.exp(self.log_prob(value))


class LogNormal(TransformedDistribution):
    r"""The distribution of exp(x) for x ~ Normal(loc, scale).

    Args:
        loc (float|list|tuple|numpy.ndarray|Tensor): the mean of log(x).
        scale (float|list|tuple|numpy.ndarray|Tensor): the standard deviation of log(x).

    Example:
        >>> a = paddle.distribution.LogNormal([0.], [1.])
        >>> a.log_prob(paddle.to_tensor([0.8]))   # [-0.72069150]
    """

    def __init__(self, loc, scale):
        self._base = Normal(loc=loc, scale=scale)
        self.loc, self.scale = self._base.loc, self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self):
        """exp(loc + scale^2 / 2)."""
        return T.exp(self.loc + T.pow(self.scale, 2.0) / 2.0)

    @property
    def variance(self):
        """(exp(scale^2) - 1) exp(2 loc + scale^2)."""
        s2 = T.pow(self.scale, 2.0)
        return T.expm1(s2) * T.exp(2.0 * self.loc + s2)

    def entropy(self):
        """The normal entropy plus loc."""
        return self._base.entropy() + self.loc

    def probs(self, value):
        """exp(log_prob(value))."""
        return T.exp(self.log_prob(value))

    def kl_divergence(self, other):
        """The KL divergence of the underlying normals."""
        if not isinstance(other, LogNormal):
            raise TypeError(f"LogNormal.kl_divergence: other must be a LogNormal, got "
                            f"{type(other).__name__}")
        return self._base.kl_divergence(other._base)


class Gumbel(TransformedDistribution):
    r"""The Gumbel (type-I extreme value) distribution:
    f(x) = exp(-(y + exp(-y))) / scale, y = (x - loc) / scale.

    Args:
        loc (float|Tensor): the location.
        scale (float|Tensor): the scale, > 0.

    Example:
        >>> m = paddle.distribution.Gumbel(paddle.full([1], 0.0), paddle.full([1], 1.0))
        >>> m.prob(paddle.full([1], 0.5))   # [0.33070430]
    """

    def __init__(self, loc, scale):
        self.loc, self.scale = as_params("Gumbel", loc=loc, scale=scale)
        check_values("Gumbel", self.scale > 0, "every element of scale must be positive")
        dtype = self.loc.dtype
        base = Uniform(T.full_like(self.loc, tiny(dtype)), T.full_like(self.loc, 1.0 - eps(dtype)))
        super().__init__(base, [])

    @property
    def mean(self):
        """loc + scale * euler_gamma."""
        return self.loc + self.scale * _EULER_GAMMA

    @property
    def variance(self):
        """pi^2 / 6 * scale^2."""
        return (math.pi ** 2 / 6.0) * T.pow(self.scale, 2.0)

    @property
    def stddev(self):
        """sqrt(variance)."""
        return T.sqrt(self.variance)

    def rsample(self, shape=()):
        """loc - scale log(-log u), u uniform in (0, 1)."""
        u = self._base.rsample(shape)
        return self.loc - self.scale * T.log(-T.log(u))

    def sample(self, shape=()):
        """Draws of shape `shape + batch_shape` (no gradient)."""
        with no_grad():
            return self.rsample(shape)

    def _y(self, value):
        return (as_value(value, self.loc) - self.loc) / self.scale

    def log_prob(self, value):
        """-(y + exp(-y)) - log scale."""
        y = self._y(value)
        return -(y + T.exp(-y)) - T.log(self.scale)

    def prob(self, value):
        """exp(-(y + exp(-y))) / scale."""
        return T.exp(self.log_prob(value))

    def cdf(self, value):
        """exp(-exp(-y))."""
        return T.exp(-T.exp(-self._y(value)))

    def entropy(self):
        """log scale + 1 + euler_gamma."""
        return T.log(self.scale) + 1.0 + _EULER_GAMMA


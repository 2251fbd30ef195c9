"""The gamma family: Gamma, Chi2, Exponential, Beta, Dirichlet and StudentT (all but the
Exponential draw their gamma variates with NumPy's generator, so they sample eagerly only)."""
import math

from .. import tensor as T
from ..eager.grad_mode import no_grad
from .distribution import (Distribution, as_param, as_params, as_value, check_values,
                           numpy_draw, sample_shape, standard_normal, standard_uniform, tiny)
from .exponential_family import ExponentialFamily

__all__ = ["Gamma", "Chi2", "Exponential", "Beta", "Dirichlet", "StudentT"]


def _positive(who, **params):
    """ValueError naming the first parameter with a non-positive element."""
    for name, value in params.items():
        check_values(who, value > 0, f"every element of {name} must be positive")


def _standard_gamma(who, shape, dtype, concentration):
    """Gamma(concentration, 1) draws of `shape` from sampan's seeded generator."""
    return numpy_draw(who, lambda g, a: g.standard_gamma(a), shape, dtype, concentration)


def _lbeta(a, b):
    """log B(a, b)."""
    return T.lgamma(a) + T.lgamma(b) - T.lgamma(a + b)


class Gamma(ExponentialFamily):
    r"""The gamma distribution with shape `concentration` (alpha) and `rate` (beta).

    .. math:: f(x; \alpha, \beta) = \frac{\beta^\alpha}{\Gamma(\alpha)} x^{\alpha-1} e^{-\beta x}

    Args:
        concentration (float|Tensor): alpha > 0 (broadcast with rate).
        rate (float|Tensor): beta > 0.

    `rsample` is differentiable with respect to `rate` only (the gamma variates of
    `concentration` come from NumPy).

    Example:
        >>> gamma = paddle.distribution.Gamma(0.5, 0.5)
        >>> gamma.mean, gamma.variance, gamma.entropy()   # 1., 2., 0.78375685
    """

    def __init__(self, concentration, rate):
        self.concentration, self.rate = as_params(
            type(self).__name__, concentration=concentration, rate=rate)
        _positive(type(self).__name__, concentration=self.concentration, rate=self.rate)
        self.dtype = self.rate.dtype
        super().__init__(tuple(self.concentration.shape))

    @property
    def mean(self):
        """alpha / beta."""
        return self.concentration / self.rate

    @property
    def variance(self):
        """alpha / beta^2."""
        return self.concentration / T.pow(self.rate, 2.0)

    def log_prob(self, value):
        """alpha log beta + (alpha - 1) log x - beta x - lgamma(alpha)."""
        value = as_value(value, self.rate)
        return (self.concentration * T.log(self.rate) + (self.concentration - 1.0) * T.log(value)
                - self.rate * value - T.lgamma(self.concentration))

    def entropy(self):
        """alpha - log beta + lgamma(alpha) + (1 - alpha) digamma(alpha)."""
        a = self.concentration
        return a - T.log(self.rate) + T.lgamma(a) + (1.0 - a) * T.digamma(a)

    def sample(self, shape=()):
        """Draws of shape `shape + batch_shape` (eager only)."""
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        """Gamma(alpha, 1) draws divided by rate."""
        shape = self._extend_shape(sample_shape(shape, f"{type(self).__name__}.rsample"))
        draws = _standard_gamma(f"{type(self).__name__}.sample", shape, self.dtype,
                                self.concentration)
        return draws / self.rate

    def kl_divergence(self, other):
        """Closed form KL(self || other) between two gamma distributions."""
        if not isinstance(other, Gamma):
            raise TypeError(f"Gamma.kl_divergence: other must be a Gamma, got "
                            f"{type(other).__name__}")
        a_p, b_p, a_q, b_q = self.concentration, self.rate, other.concentration, other.rate
        return (a_q * T.log(b_p / b_q) + T.lgamma(a_q) - T.lgamma(a_p)
                + (a_p - a_q) * T.digamma(a_p) + (b_q - b_p) * (a_p / b_p))

    @property
    def _natural_parameters(self):
        return (self.concentration - 1.0, -self.rate)

    def _log_normalizer(self, x, y):
        return T.lgamma(x + 1.0) + (x + 1.0) * T.log(-1.0 / y)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Chi2(Gamma):
    r"""The chi-squared distribution with `df` degrees of freedom: Gamma(df / 2, 1 / 2).

    Args:
        df (float|Tensor): degrees of freedom, > 0.
    """

    def __init__(self, df):
        df = as_param(df, "df", "Chi2")
        _positive("Chi2", df=df)
        super().__init__(0.5 * df, T.full_like(df, 0.5))

    @property
    def df(self):
        """The degrees of freedom."""
        return self.concentration * 2.0


class Exponential(ExponentialFamily):
    r"""The exponential distribution with `rate` lambda: f(x) = lambda e^{-lambda x}, x >= 0.

    Args:
        rate (float|Tensor): lambda > 0.

    Example:
        >>> expon = paddle.distribution.Exponential(paddle.to_tensor([0.5, 2.0]))
        >>> expon.mean   # [2., 0.5]
    """

    def __init__(self, rate):
        self.rate = as_param(rate, "rate", "Exponential")
        _positive("Exponential", rate=self.rate)
        self.dtype = self.rate.dtype
        super().__init__(tuple(self.rate.shape))

    @property
    def mean(self):
        """1 / rate."""
        return 1.0 / self.rate

    @property
    def variance(self):
        """1 / rate^2."""
        return 1.0 / T.pow(self.rate, 2.0)

    def sample(self, shape=()):
        """Draws of shape `shape + batch_shape` (no gradient)."""
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        """-log(u) / rate with u uniform in (0, 1)."""
        shape = self._extend_shape(sample_shape(shape, "Exponential.rsample"))
        u = standard_uniform(shape, self.dtype, tiny(self.dtype), 1.0)
        return -T.log(u) / self.rate

    def log_prob(self, value):
        """log rate - rate x, -inf for x < 0."""
        value = as_value(value, self.rate)
        log_p = T.log(self.rate) - self.rate * value
        return T.where(value < 0, T.full_like(log_p, -math.inf), log_p)

    def entropy(self):
        """1 - log rate."""
        return 1.0 - T.log(self.rate)

    def cdf(self, value):
        """1 - exp(-rate x)."""
        value = as_value(value, self.rate)
        return 1.0 - T.exp(-self.rate * value)

    def icdf(self, value):
        """-log(1 - q) / rate."""
        value = as_value(value, self.rate)
        return -T.log1p(-value) / self.rate

    def kl_divergence(self, other):
        """log(rate_p / rate_q) + rate_q / rate_p - 1."""
        if not isinstance(other, Exponential):
            raise TypeError(f"Exponential.kl_divergence: other must be an Exponential, got "
                            f"{type(other).__name__}")
        ratio = other.rate / self.rate
        return ratio - T.log(ratio) - 1.0

    @property
    def _natural_parameters(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -T.log(-x)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Beta(ExponentialFamily):
    r"""The beta distribution on [0, 1]: f(x) = x^{\alpha-1} (1-x)^{\beta-1} / B(\alpha, \beta).

    Args:
        alpha (float|Tensor): > 0 (broadcast with beta).
        beta (float|Tensor): > 0.

    Example:
        >>> p = paddle.distribution.Beta(alpha=0.5, beta=0.5)
        >>> p.kl_divergence(paddle.distribution.Beta(alpha=0.3, beta=0.7))   # 0.21193528
    """

    def __init__(self, alpha, beta):
        self.alpha, self.beta = as_params("Beta", alpha=alpha, beta=beta)
        _positive("Beta", alpha=self.alpha, beta=self.beta)
        self.dtype = self.alpha.dtype
        super().__init__(tuple(self.alpha.shape))

    @property
    def mean(self):
        """alpha / (alpha + beta)."""
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self):
        """alpha beta / ((alpha + beta)^2 (alpha + beta + 1))."""
        total = self.alpha + self.beta
        return self.alpha * self.beta / (T.pow(total, 2.0) * (total + 1.0))

    def log_prob(self, value):
        """(alpha - 1) log x + (beta - 1) log(1 - x) - log B(alpha, beta)."""
        value = as_value(value, self.alpha)
        return ((self.alpha - 1.0) * T.log(value) + (self.beta - 1.0) * T.log1p(-value)
                - _lbeta(self.alpha, self.beta))

    def sample(self, shape=()):
        """Draws of shape `shape + batch_shape` (eager only)."""
        shape = self._extend_shape(sample_shape(shape, "Beta.sample"))
        return numpy_draw("Beta.sample", lambda g, a, b: g.beta(a, b), shape, self.dtype,
                          self.alpha, self.beta)

    def entropy(self):
        """log B(a, b) - (a - 1) psi(a) - (b - 1) psi(b) + (a + b - 2) psi(a + b)."""
        a, b = self.alpha, self.beta
        return (_lbeta(a, b) - (a - 1.0) * T.digamma(a) - (b - 1.0) * T.digamma(b)
                + (a + b - 2.0) * T.digamma(a + b))

    @property
    def _natural_parameters(self):
        return (self.alpha, self.beta)

    def _log_normalizer(self, x, y):
        return _lbeta(x, y)


class Dirichlet(ExponentialFamily):
    r"""The Dirichlet distribution on the simplex, with `concentration` on the last axis.

    Args:
        concentration (Tensor): > 0, at least 1-D; event_shape is its last axis and
            batch_shape the rest.

    Example:
        >>> d = paddle.distribution.Dirichlet(paddle.to_tensor([1., 2., 3.]))
        >>> d.mean   # [0.16666667, 0.33333334, 0.5]
    """

    def __init__(self, concentration):
        concentration = as_param(concentration, "concentration", "Dirichlet")
        if len(concentration.shape) < 1:
            raise ValueError("Dirichlet: concentration must be at least one dimensional")
        _positive("Dirichlet", concentration=concentration)
        self.concentration = concentration
        self.dtype = concentration.dtype
        super().__init__(tuple(concentration.shape[:-1]), tuple(concentration.shape[-1:]))

    @property
    def mean(self):
        """concentration / sum(concentration)."""
        return self.concentration / T.sum(self.concentration, axis=-1, keepdim=True)

    @property
    def variance(self):
        """c (c0 - c) / (c0^2 (c0 + 1)) with c0 = sum(c)."""
        c = self.concentration
        c0 = T.sum(c, axis=-1, keepdim=True)
        return c * (c0 - c) / (T.pow(c0, 2.0) * (c0 + 1.0))

    def log_prob(self, value):
        """sum((c - 1) log x) + lgamma(c0) - sum(lgamma(c))."""
        value = as_value(value, self.concentration)
        c = self.concentration
        return (T.sum(T.log(value) * (c - 1.0), axis=-1) + T.lgamma(T.sum(c, axis=-1))
                - T.sum(T.lgamma(c), axis=-1))

    def sample(self, shape=()):
        """Points of the simplex, shape `shape + batch_shape + event_shape` (eager only)."""
        shape = self._extend_shape(sample_shape(shape, "Dirichlet.sample"))
        gammas = _standard_gamma("Dirichlet.sample", shape, self.dtype, self.concentration)
        return gammas / T.sum(gammas, axis=-1, keepdim=True)

    def entropy(self):
        """log B(c) - (k - c0) psi(c0) - sum((c - 1) psi(c))."""
        c = self.concentration
        k = float(c.shape[-1])
        c0 = T.sum(c, axis=-1)
        return (T.sum(T.lgamma(c), axis=-1) - T.lgamma(c0) - (k - c0) * T.digamma(c0)
                - T.sum((c - 1.0) * T.digamma(c), axis=-1))

    @property
    def _natural_parameters(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return T.sum(T.lgamma(x), axis=-1) - T.lgamma(T.sum(x, axis=-1))


class StudentT(Distribution):
    r"""Student's t distribution with `df` degrees of freedom, location and scale.

    Args:
        df (float|Tensor): degrees of freedom, > 0.
        loc (float|Tensor): the location.
        scale (float|Tensor): the scale, > 0.
        name (str, optional): a name for the operation.

    Example:
        >>> t = paddle.distribution.StudentT(df=3.0, loc=0.0, scale=1.0)
        >>> t.variance   # 3.
    """

    def __init__(self, df, loc, scale, name=None):
        self.name = name if name is not None else "StudentT"
        self.df, self.loc, self.scale = as_params("StudentT", df=df, loc=loc, scale=scale)
        _positive("StudentT", df=self.df, scale=self.scale)
        self.dtype = self.loc.dtype
        super().__init__(tuple(self.df.shape))

    @property
    def mean(self):
        """loc where df > 1, else nan."""
        return T.where(self.df > 1.0, self.loc, T.full_like(self.loc, math.nan))

    @property
    def variance(self):
        """scale^2 df / (df - 2) where df > 2, inf for 1 < df <= 2, else nan."""
        df = self.df
        var = T.pow(self.scale, 2.0) * df / T.where(df > 2.0, df - 2.0, T.ones_like(df))
        inf_or_nan = T.where(df > 1.0, T.full_like(df, math.inf), T.full_like(df, math.nan))
        return T.where(df > 2.0, var, inf_or_nan)

    def sample(self, shape=()):
        """Draws of shape `shape + batch_shape` (eager only)."""
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        """loc + scale * z / sqrt(chi2 / df), differentiable in loc and scale."""
        shape = self._extend_shape(sample_shape(shape, "StudentT.sample"))
        z = standard_normal(shape, self.dtype)
        chi2 = 2.0 * _standard_gamma("StudentT.sample", shape, self.dtype, 0.5 * self.df)
        return self.loc + self.scale * z * T.rsqrt(chi2 / self.df)

    def log_prob(self, value):
        """Log density of `value`."""
        value = as_value(value, self.loc)
        df = self.df
        y = (value - self.loc) / self.scale
        return (T.lgamma(0.5 * (df + 1.0)) - T.lgamma(0.5 * df)
                - 0.5 * T.log(df * math.pi) - T.log(self.scale)
                - 0.5 * (df + 1.0) * T.log1p(y * y / df))

    def entropy(self):
        """(df + 1)/2 (psi((df + 1)/2) - psi(df/2)) + log(sqrt(df) B(df/2, 1/2)) + log scale."""
        half = 0.5 * self.df
        return ((half + 0.5) * (T.digamma(half + 0.5) - T.digamma(half))
                + 0.5 * T.log(self.df) + _lbeta(half, T.full_like(half, 0.5))
                + T.log(self.scale))


"""The Distribution base class and the helpers every distribution shares: turning parameters
into tensors, broadcasting them, shapes of samples, and draws from NumPy's generator for the
distributions that have no random op (gamma, Poisson, binomial)."""
import math
import numbers
from collections.abc import Iterable

import numpy as np

from .. import tensor as T
from ..core import dtype as dtypes
from ..core.dispatch import current_mode
from ..core.random import generator
from ..tensor.extra import is_tensor

__all__ = ["Distribution"]


class Distribution:
    """Abstract base of probability distributions.

    Args:
        batch_shape (Sequence[int]): shape of a batch of independent distributions (the
            broadcast shape of the parameters for univariate ones).
        event_shape (Sequence[int]): shape of one draw (`()` for univariate ones).
    """

    def __init__(self, batch_shape=(), event_shape=()):
        self._batch_shape = _as_shape(batch_shape)
        self._event_shape = _as_shape(event_shape)

    @property
    def batch_shape(self):
        """The batch shape (tuple)."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The event shape (tuple)."""
        return self._event_shape

    @property
    def mean(self):
        """Mean of the distribution."""
        raise NotImplementedError(f"{type(self).__name__} has no mean")

    @property
    def variance(self):
        """Variance of the distribution."""
        raise NotImplementedError(f"{type(self).__name__} has no variance")

    def sample(self, shape=()):
        """Draws of shape `shape + batch_shape + event_shape` (no gradient)."""
        raise NotImplementedError(f"{type(self).__name__}.sample is not implemented")

    def rsample(self, shape=()):
        """Reparameterized draws (differentiable with respect to the parameters)."""
        raise NotImplementedError(f"{type(self).__name__} has no reparameterized sampler")

    def entropy(self):
        """Entropy in nats, one value per batch element."""
        raise NotImplementedError(f"{type(self).__name__}.entropy is not implemented")

    def log_prob(self, value):
        """Log probability density (or mass) of `value`."""
        raise NotImplementedError(f"{type(self).__name__}.log_prob is not implemented")

    def prob(self, value):
        """Probability density (or mass) of `value`: the subclass's `probs` method if it has
        one (distributions such as Bernoulli hold a `probs` parameter instead)."""
        if type(self).probs is not Distribution.probs:
            return self.probs(value)
        return T.exp(self.log_prob(value))

    def probs(self, value):
        """Probability density (or mass) of `value` (Paddle's older name for `prob`)."""
        return T.exp(self.log_prob(value))

    def kl_divergence(self, other):
        """KL(self || other), looked up among the `register_kl` implementations."""
        from .kl import kl_divergence
        return kl_divergence(self, other)

    def _extend_shape(self, sample_shape):
        """sample_shape + batch_shape + event_shape as a tuple."""
        return tuple(sample_shape) + self._batch_shape + self._event_shape

    def _validate_args(self, *args):
        """True when every argument is a tensor, False when none is (Paddle's rule)."""
        kinds = {is_tensor(a) for a in args}
        if len(kinds) > 1:
            raise ValueError(f"{type(self).__name__}: parameters must be all tensors or all "
                             f"Python/NumPy values")
        return kinds == {True}

    def _check_values_dtype_in_probs(self, param, value):
        """`value` as a tensor in `param`'s float dtype."""
        return as_value(value, param)

    def _probs_to_logits(self, probs, is_binary=False):
        """Log-odds (binary) or log-probabilities of `probs`."""
        return T.log(probs) - T.log1p(-probs) if is_binary else T.log(probs)

    def _logits_to_probs(self, logits, is_binary=False):
        """Sigmoid (binary) or softmax over the last axis of `logits`."""
        return T.sigmoid(logits) if is_binary else T.softmax(logits, axis=-1)

    def __repr__(self):
        return (f"{type(self).__name__}(batch_shape={list(self._batch_shape)}, "
                f"event_shape={list(self._event_shape)})")


# ---------------------------------------------------------------- parameters

def _as_shape(shape):
    """A shape argument as a tuple of ints."""
    if is_tensor(shape):
        return tuple(int(v) for v in shape.numpy().reshape(-1))
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def sample_shape(shape, who):
    """A sample-shape argument as a tuple, or a TypeError naming `who`."""
    if not isinstance(shape, Iterable) and not is_tensor(shape):
        raise TypeError(f"{who}: sample shape must be an iterable of ints (a list or "
                        f"tuple), got {type(shape).__name__}")
    return _as_shape(shape)


def _float_dtype(values):
    """The dtype parameters convert to: float64 when a tensor or array holds it, else the
    default float dtype."""
    for v in values:
        dt = getattr(v, "dtype", None)
        if dt is not None and str(dt).endswith("float64"):
            return dtypes.float64
    return dtypes.default_float()


def as_param(value, name, who, dtype=None):
    """`value` (number, list, tuple, ndarray or tensor) as a float tensor; numbers become
    0-D tensors. Integer tensors are cast to `dtype` (default float dtype)."""
    dtype = dtypes.to_dtype(dtype) if dtype is not None else None
    if is_tensor(value):
        if dtype is not None and value.dtype != dtype:
            return T.cast(value, dtype)
        if not value.dtype.is_floating:
            return T.cast(value, dtypes.default_float())
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (numbers.Real, list, tuple, np.ndarray, np.generic)):
        raise TypeError(f"{who}: {name} must be a float, list, tuple, numpy.ndarray or "
                        f"Tensor, got {type(value).__name__}")
    array = np.asarray(value)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{who}: {name} must hold real numbers, got {array.dtype}")
    return T.to_tensor(array.astype((dtype or _float_dtype([value])).np))


def as_params(who, **values):
    """Every parameter as a float tensor of one dtype, broadcast to a common shape."""
    dtype = _float_dtype(values.values())
    tensors = [as_param(v, k, who, dtype) for k, v in values.items()]
    return broadcast(tensors, who, list(values))


def broadcast_shape(shapes, who="broadcast", names=None):
    """The common broadcast shape of `shapes` (a -1 dim, unknown while a Program is
    built, broadcasts like any size); a ValueError naming the arguments if none exists."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(rank):
        dims = {s[i - rank + len(s)] for s in shapes if i - rank + len(s) >= 0} - {1}
        if len(dims - {-1}) > 1:
            names = names or [f"arg{k}" for k in range(len(shapes))]
            raise ValueError(f"{who}: the shapes of " + ", ".join(
                f"{n} {list(s)}" for n, s in zip(names, shapes)) + " do not broadcast")
        out.append(max(dims) if dims else 1)
    return tuple(out)


def broadcast(tensors, who="broadcast", names=None):
    """Tensors expanded to their common broadcast shape."""
    shape = broadcast_shape([tuple(t.shape) for t in tensors], who, names)
    return [t if tuple(t.shape) == shape else T.expand(t, list(shape)) for t in tensors]


def as_value(value, param):
    """An argument of log_prob/prob/cdf as a tensor in `param`'s float dtype."""
    if not is_tensor(value):
        return T.to_tensor(np.asarray(value, dtype=param.dtype.np))
    if value.dtype != param.dtype:
        return T.cast(value, param.dtype)
    return value


def check_values(who, condition, message):
    """Raise ValueError(`who: message`) unless every element of the boolean tensor
    `condition` is True. Static mode cannot see values while building, so it checks
    nothing (as Paddle does)."""
    if current_mode().is_static:
        return
    if not bool(np.all(condition.numpy())):
        raise ValueError(f"{who}: {message}")


def concrete(x, who):
    """The values of tensor `x` as an array, for computations whose size depends on them
    (eager only: a Program being built has no values yet)."""
    if current_mode().is_static:
        raise NotImplementedError(f"{who}: the result's size depends on parameter values, "
                                  f"which a static Program does not know while it is built")
    return x.numpy()


def sum_rightmost(value, n):
    """`value` summed over its last `n` axes."""
    return T.sum(value, axis=list(range(-n, 0))) if n > 0 else value


def times_log(x, log_y):
    """x * log_y, and 0 where x is 0 (so 0 * log 0 = 0)."""
    prod = x * log_y
    if not is_tensor(x):
        return T.zeros_like(prod) if x == 0 else prod
    return T.where((x + T.zeros_like(prod)) == 0, T.zeros_like(prod), prod)


def log_gamma(x):
    """lgamma of a tensor or a Python number."""
    return T.lgamma(x) if is_tensor(x) else float(np.vectorize(math.lgamma)(x))


def binomial_log_pmf(n, k, p):
    """log C(n, k) + k log p + (n - k) log(1 - p), with 0 log 0 = 0."""
    return (log_gamma(n + 1.0) - T.lgamma(k + 1.0) - T.lgamma(n - k + 1.0)
            + times_log(k, T.log(p)) + times_log(n - k, T.log1p(-p)))


# ---------------------------------------------------------------- sampling

def standard_uniform(shape, dtype, low=0.0, high=1.0, seed=0):
    """Uniform draws in [low, high) from sampan's seeded generator (or, for a non-zero
    `seed`, from a generator of their own)."""
    return T.uniform(list(shape), dtype=dtype, min=low, max=high, seed=seed)


def standard_normal(shape, dtype, seed=0):
    """Standard normal draws from sampan's seeded generator."""
    return T.gaussian(list(shape), 0.0, 1.0, seed, dtype)


def tiny(dtype):
    """The smallest positive normal number of a float dtype."""
    return float(np.finfo(dtype.np).tiny)


def eps(dtype):
    """Machine epsilon of a float dtype."""
    return float(np.finfo(dtype.np).eps)


def numpy_draw(who, draw, shape, dtype, *params):
    """A tensor of `shape` drawn by `draw(generator, *arrays)` with sampan's seeded
    generator, the parameter tensors read as arrays broadcast to `shape`.

    For distributions with no random op (gamma, Poisson, binomial draws); eager only.
    """
    if current_mode().is_static:
        raise NotImplementedError(
            f"{who}: sampling draws from NumPy's generator, which a static Program cannot "
            f"record; sample in dynamic mode (paddle.disable_static())")
    arrays = [np.broadcast_to(p.numpy().astype(np.float64), shape) for p in params]
    out = np.asarray(draw(generator(), *arrays), dtype=np.float64)
    return T.to_tensor(out.astype(dtype.np))

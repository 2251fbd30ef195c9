"""Categorical (Paddle's: parameterised by `logits`, with Paddle's own reading of them) and
Multinomial (counts of `total_count` categorical draws)."""
import numbers

import numpy as np

from .. import tensor as T
from ..eager.grad_mode import no_grad
from ..tensor.extra import is_tensor
from .distribution import Distribution, as_param, as_value, binomial_log_pmf, sample_shape

__all__ = ["Categorical", "Multinomial"]


class Categorical(Distribution):
    r"""A distribution over K categories, the last axis of `logits` (other axes are the batch).

    Paddle reads `logits` two ways, and so does sampan: `probs` / `log_prob` treat them as
    unnormalised probabilities (``logits[k] / sum(logits)``), while `sample`, `entropy` and
    `kl_divergence` treat them as log-odds (``softmax(logits)``). Pass non-negative weights
    to `probs`/`log_prob`, and true logits to the rest.

    Args:
        logits (list|tuple|numpy.ndarray|Tensor): float32 or float64, at least 1-D.
        name (str, optional): a name for the operation.

    Example:
        >>> cat = paddle.distribution.Categorical(paddle.to_tensor([0.2, 0.3, 0.5]))
        >>> cat.probs(paddle.to_tensor([2, 0]))   # [0.5, 0.2]
        >>> cat.sample([4])                        # int64 categories, shape [4]
    """

    def __init__(self, logits, name=None):
        self.name = name if name is not None else "Categorical"
        self.logits = as_param(logits, "logits", "Categorical")
        if len(self.logits.shape) < 1:
            raise ValueError("Categorical: logits must be at least 1-D (the last axis holds "
                             "the categories), got a 0-D value")
        self.dtype = self.logits.dtype
        self._prob = self.logits / T.sum(self.logits, axis=-1, keepdim=True)
        super().__init__(tuple(self.logits.shape[:-1]))

    def sample(self, shape=()):
        """int64 categories of shape `shape + batch_shape`, drawn with softmax(logits)."""
        shape = sample_shape(shape, "Categorical.sample")
        num = int(np.prod(shape)) if shape else 1
        k = self.logits.shape[-1]
        with no_grad():
            probs = T.reshape(self._logits_to_probs(self.logits), [-1, k])
            index = T.transpose(T.multinomial(probs, num, True), [1, 0])
        return T.reshape(index, list(shape) + list(self.batch_shape))

    def _normalised(self, logits):
        """(log softmax pieces) logits - max and log of the partition function."""
        shifted = logits - T.max(logits, axis=-1, keepdim=True)
        log_z = T.log(T.sum(T.exp(shifted), axis=-1, keepdim=True))
        return shifted, log_z

    def entropy(self):
        """Entropy of softmax(logits), shape batch_shape."""
        shifted, log_z = self._normalised(self.logits)
        log_p = shifted - log_z
        p = T.exp(log_p)
        return -T.sum(T.where(p > 0, p * log_p, T.zeros_like(p)), axis=-1)

    def kl_divergence(self, other):
        """KL(self || other) of the softmax distributions, shape batch_shape + [1] (Paddle
        keeps the category axis)."""
        if not isinstance(other, Categorical):
            raise TypeError(f"Categorical.kl_divergence: other must be a Categorical, got "
                            f"{type(other).__name__}")
        shifted, log_z = self._normalised(self.logits)
        other_shifted, other_log_z = self._normalised(other.logits)
        p = T.exp(shifted - log_z)
        return T.sum(p * (shifted - log_z - other_shifted + other_log_z), axis=-1,
                     keepdim=True)

    def probs(self, value):
        """Probabilities ``logits[value] / sum(logits)`` of the categories `value` (int).

        With 1-D logits `value` may have any shape. With batched logits, a 1-D `value` is
        looked up in every distribution (result batch_shape + [len(value)]); otherwise
        `value` has the batch shape of logits with any last axis.
        """
        if not is_tensor(value):
            value = T.to_tensor(np.asarray(value, dtype=np.int64))
        if len(self._prob.shape) == 1:
            return T.reshape(T.gather(self._prob, T.reshape(value, [-1])), list(value.shape))
        if len(value.shape) == 1:
            index = T.reshape(value, [1] * (len(self._prob.shape) - 1) + [-1])
            return T.take_along_axis(self._prob, index, axis=-1)
        return T.take_along_axis(self._prob, value, axis=-1)

    def log_prob(self, value):
        """Log of `probs(value)`."""
        return T.log(self.probs(value))


class Multinomial(Distribution):
    r"""Counts of each of K categories in `total_count` independent draws.

    .. math:: P(X = x) = \frac{n!}{\prod_i x_i!} \prod_i p_i^{x_i}, \quad \sum_i x_i = n

    Args:
        total_count (int): the number of draws, at least 1.
        probs (Tensor): category probabilities on the last axis (normalised here);
            other axes are the batch.

    Example:
        >>> m = paddle.distribution.Multinomial(10, paddle.to_tensor([0.2, 0.3, 0.5]))
        >>> m.sample([2]).shape   # [2, 3], each row sums to 10
    """

    def __init__(self, total_count, probs):
        if isinstance(total_count, bool) or not isinstance(total_count, numbers.Integral) or (
                total_count < 1):
            raise ValueError(f"Multinomial: total_count must be an int >= 1, got "
                             f"{total_count!r}")
        probs = as_param(probs, "probs", "Multinomial")
        if len(probs.shape) < 1:
            raise ValueError("Multinomial: probs must be at least 1-D (the last axis holds "
                             "the categories)")
        self.total_count = int(total_count)
        self.probs = probs / T.sum(probs, axis=-1, keepdim=True)
        self._categorical = Categorical(self._probs_to_logits(self.probs))
        super().__init__(tuple(probs.shape[:-1]), tuple(probs.shape[-1:]))

    @property
    def mean(self):
        """total_count * probs."""
        return self.probs * float(self.total_count)

    @property
    def variance(self):
        """total_count * probs * (1 - probs)."""
        return float(self.total_count) * self.probs * (1.0 - self.probs)

    def log_prob(self, value):
        """Log probability of the count vectors `value` (last axis the categories)."""
        value = as_value(value, self.probs)
        log_p = T.log(self.probs) + T.zeros_like(value)
        value = value + T.zeros_like(log_p)
        terms = T.where(value == 0, T.zeros_like(value), value * log_p)
        return (T.lgamma(T.sum(value, axis=-1) + 1.0) - T.sum(T.lgamma(value + 1.0), axis=-1)
                + T.sum(terms, axis=-1))

    def sample(self, shape=()):
        """Count vectors of shape `shape + batch_shape + event_shape` summing to total_count."""
        shape = sample_shape(shape, "Multinomial.sample")
        draws = self._categorical.sample([self.total_count] + list(shape))
        k = self.probs.shape[-1]
        return T.sum(T.cast(T.one_hot(draws, k), self.probs.dtype), axis=0)

    def entropy(self):
        """Entropy: -log n! + n H(p) + sum_i E[log x_i!] with x_i ~ Binomial(n, p_i)."""
        n = float(self.total_count)
        rank = len(self.probs.shape)
        support = T.reshape(T.arange(0, self.total_count + 1, 1, self.probs.dtype),
                            [-1] + [1] * rank)
        log_pmf = binomial_log_pmf(n, support, self.probs)
        expect = T.sum(T.exp(log_pmf) * T.lgamma(support + 1.0), axis=[0, -1])
        log_p = T.log(self.probs)
        h_cat = -T.sum(T.where(self.probs > 0, self.probs * log_p, T.zeros_like(log_p)), axis=-1)
        return n * h_cat - float(np.log(np.arange(1, self.total_count + 1)).sum()) + expect

"""MultivariateNormal, parameterised by a covariance, a precision or a lower Cholesky factor,
computed through the Cholesky factor L (covariance = L L^T)."""
import math

from .. import linalg
from .. import tensor as T
from ..eager.grad_mode import no_grad
from .distribution import (Distribution, as_param, as_value, broadcast_shape, sample_shape,
                           standard_normal)

__all__ = ["MultivariateNormal"]

_LOG_2PI = math.log(2.0 * math.pi)


class MultivariateNormal(Distribution):
    r"""The multivariate normal distribution N(loc, covariance) over the last axis of `loc`.

    .. math:: p(x) = (2\pi)^{-k/2} |\Sigma|^{-1/2} e^{-(x-\mu)^T \Sigma^{-1} (x-\mu) / 2}

    Exactly one of `covariance_matrix`, `precision_matrix` and `scale_tril` is given.

    Args:
        loc (Tensor): the mean, [*batch, k].
        covariance_matrix (Tensor, optional): positive-definite [*batch, k, k].
        precision_matrix (Tensor, optional): the inverse covariance, [*batch, k, k].
        scale_tril (Tensor, optional): lower-triangular L with positive diagonal,
            covariance = L L^T.

    Example:
        >>> rv = paddle.distribution.MultivariateNormal(
        ...     paddle.to_tensor([2., 5.]), paddle.to_tensor([[2., 1.], [1., 2.]]))
        >>> rv.entropy()   # 3.38718319
    """

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None):
        who = "MultivariateNormal"
        loc = as_param(loc, "loc", who)
        if len(loc.shape) < 1:
            raise ValueError(f"{who}: loc must be at least one dimensional")
        given = {k: v for k, v in (("covariance_matrix", covariance_matrix),
                                   ("precision_matrix", precision_matrix),
                                   ("scale_tril", scale_tril)) if v is not None}
        if len(given) != 1:
            raise ValueError(f"{who}: exactly one of covariance_matrix, precision_matrix or "
                             f"scale_tril may be specified, got {sorted(given) or 'none'}")
        (name, matrix), = given.items()
        matrix = as_param(matrix, name, who, loc.dtype)
        k = loc.shape[-1]
        if len(matrix.shape) < 2 or matrix.shape[-1] != matrix.shape[-2] or (
                matrix.shape[-1] != k):
            raise ValueError(f"{who}: {name} must be [*batch, {k}, {k}] to match loc "
                             f"{list(loc.shape)}, got {list(matrix.shape)}")
        batch = broadcast_shape([tuple(loc.shape[:-1]), tuple(matrix.shape[:-2])], who,
                                ["loc", name])
        if name == "scale_tril":
            tril = matrix
        elif name == "covariance_matrix":
            tril = linalg.cholesky(matrix)
        else:
            tril = linalg.cholesky(linalg.inv(matrix))
        self.loc = T.expand(loc, list(batch) + [k])
        self.scale_tril = T.expand(tril, list(batch) + [k, k])
        self.dtype = loc.dtype
        super().__init__(batch, (k,))

    @property
    def mean(self):
        """loc."""
        return self.loc

    @property
    def variance(self):
        """The diagonal of the covariance."""
        return T.sum(self.scale_tril * self.scale_tril, axis=-1)

    @property
    def covariance_matrix(self):
        """L L^T."""
        return T.matmul(self.scale_tril, self.scale_tril, transpose_y=True)

    @property
    def precision_matrix(self):
        """The inverse covariance."""
        return linalg.inv(self.covariance_matrix)

    def sample(self, shape=()):
        """Draws of shape `shape + batch_shape + event_shape` (no gradient)."""
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        """loc + L eps with eps standard normal, differentiable in loc and L."""
        shape = self._extend_shape(sample_shape(shape, "MultivariateNormal.rsample"))
        eps = standard_normal(shape, self.dtype)
        return self.loc + T.squeeze(T.matmul(self.scale_tril, T.unsqueeze(eps, -1)), -1)

    def _half_log_det(self):
        return T.sum(T.log(T.diagonal(self.scale_tril, 0, -2, -1)), axis=-1)

    def log_prob(self, value):
        """-(k log 2pi + |L^{-1}(x - loc)|^2) / 2 - log|L|."""
        diff = as_value(value, self.loc) - self.loc
        k = float(self.event_shape[0])
        return -0.5 * (k * _LOG_2PI + _mahalanobis(self.scale_tril, diff)) - self._half_log_det()

    def entropy(self):
        """k (1 + log 2pi) / 2 + log|L|."""
        k = float(self.event_shape[0])
        return 0.5 * k * (1.0 + _LOG_2PI) + self._half_log_det()

    def kl_divergence(self, other):
        """log|L_q| - log|L_p| + (tr(S_q^{-1} S_p) + |L_q^{-1}(mu_p - mu_q)|^2 - k) / 2."""
        if not isinstance(other, MultivariateNormal):
            raise TypeError(f"MultivariateNormal.kl_divergence: other must be a "
                            f"MultivariateNormal, got {type(other).__name__}")
        if self.event_shape != other.event_shape:
            raise ValueError(f"MultivariateNormal.kl_divergence: event shapes differ: "
                             f"{list(self.event_shape)} and {list(other.event_shape)}")
        k = float(self.event_shape[0])
        lq, lp = _common_batch(other.scale_tril, self.scale_tril)
        ratio = linalg.triangular_solve(lq, lp, upper=False)
        trace = T.sum(ratio * ratio, axis=[-2, -1])
        maha = _mahalanobis(other.scale_tril, self.loc - other.loc)
        return other._half_log_det() - self._half_log_det() + 0.5 * (trace + maha - k)


def _common_batch(a, b):
    """Matrices a and b expanded to their common batch shape."""
    batch = list(broadcast_shape([tuple(a.shape[:-2]), tuple(b.shape[:-2])]))
    return (T.expand(a, batch + list(a.shape[-2:])), T.expand(b, batch + list(b.shape[-2:])))


def _mahalanobis(tril, diff):
    """|L^{-1} diff|^2 over the last axis, L broadcast over diff's leading axes."""
    lower, column = _common_batch(tril, T.unsqueeze(diff, -1))
    z = linalg.triangular_solve(lower, column, upper=False)
    return T.sum(z * z, axis=[-2, -1])

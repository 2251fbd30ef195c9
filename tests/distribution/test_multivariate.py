"""Dirichlet, MultivariateNormal and Independent: shapes, densities, entropies and moments
against NumPy references."""
import math

import numpy as np
import pytest

import sampan as paddle
from sampan.distribution import Beta, Dirichlet, Independent, MultivariateNormal, Normal
from tests.distribution._ref import close, digamma, lgamma, t64

COV = np.array([[2.0, 0.6, 0.2], [0.6, 1.0, -0.3], [0.2, -0.3, 1.5]])


def _mvn_log_prob(x, mu, cov):
    diff = x - mu
    k = mu.shape[-1]
    maha = np.einsum("...i,ij,...j->...", diff, np.linalg.inv(cov), diff)
    return -0.5 * (k * math.log(2 * math.pi) + maha + np.linalg.slogdet(cov)[1])


def test_dirichlet():
    c = np.array([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]])
    d = Dirichlet(t64(c))
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    x = np.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    c0 = c.sum(-1)
    close(d.log_prob(t64(x)), ((c - 1) * np.log(x)).sum(-1) + lgamma(c0) - lgamma(c).sum(-1))
    close(d.entropy(), lgamma(c).sum(-1) - lgamma(c0) - (3 - c0) * digamma(c0)
          - ((c - 1) * digamma(c)).sum(-1))
    close(d.mean, c / c0[:, None])
    close(d.variance, c * (c0[:, None] - c) / (c0[:, None] ** 2 * (c0[:, None] + 1)))
    paddle.seed(1)
    draws = d.sample([20000]).numpy()
    assert draws.shape == (20000, 2, 3)
    np.testing.assert_allclose(draws.sum(-1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(draws.mean(0), c / c0[:, None], atol=0.01)


def test_beta_agrees_with_a_two_category_dirichlet():
    a, b = np.array([0.5, 2.0]), np.array([1.5, 3.0])
    x = np.array([0.3, 0.6])
    beta = Beta(t64(a), t64(b))
    dirichlet = Dirichlet(t64(np.stack([a, b], -1)))
    close(beta.log_prob(t64(x)), dirichlet.log_prob(t64(np.stack([x, 1 - x], -1))).numpy())
    close(beta.entropy(), dirichlet.entropy().numpy())


@pytest.mark.parametrize("form", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_multivariate_normal_three_parameterisations(form):
    mu = np.array([1.0, -2.0, 0.5])
    given = {"covariance_matrix": COV, "precision_matrix": np.linalg.inv(COV),
             "scale_tril": np.linalg.cholesky(COV)}[form]
    d = MultivariateNormal(t64(mu), **{form: t64(given)})
    assert d.batch_shape == () and d.event_shape == (3,)
    x = np.array([[0.0, 0.0, 0.0], [1.5, -1.0, 2.0]])
    close(d.log_prob(t64(x)), _mvn_log_prob(x, mu, COV))
    close(d.prob(t64(x)), np.exp(_mvn_log_prob(x, mu, COV)))
    close(d.entropy(), 0.5 * 3 * (1 + math.log(2 * math.pi)) + 0.5 * np.linalg.slogdet(COV)[1])
    close(d.covariance_matrix, COV)
    close(d.precision_matrix, np.linalg.inv(COV))
    close(d.variance, np.diag(COV))
    close(d.mean, mu)


def test_multivariate_normal_batches_and_samples():
    mu = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]])
    d = MultivariateNormal(t64(mu), covariance_matrix=t64(COV))
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    assert d.scale_tril.shape == [2, 3, 3]
    close(d.log_prob(t64(mu)), [_mvn_log_prob(m, m, COV) for m in mu])
    paddle.seed(9)
    draws = d.sample([30000]).numpy()
    assert draws.shape == (30000, 2, 3)
    np.testing.assert_allclose(draws.mean(0), mu, atol=0.05)
    np.testing.assert_allclose(np.cov(draws[:, 1].T), COV, atol=0.06)
    rv = MultivariateNormal(paddle.to_tensor([2., 5.]), paddle.to_tensor([[2., 1.], [1., 2.]]))
    np.testing.assert_allclose(rv.entropy().numpy(), 3.38718319, rtol=1e-6)


def test_multivariate_normal_argument_errors():
    loc = t64([0.0, 0.0])
    with pytest.raises(ValueError, match="exactly one"):
        MultivariateNormal(loc)
    with pytest.raises(ValueError, match="exactly one"):
        MultivariateNormal(loc, covariance_matrix=t64(np.eye(2)), scale_tril=t64(np.eye(2)))
    with pytest.raises(ValueError, match="at least one dimensional"):
        MultivariateNormal(t64(1.0), covariance_matrix=t64(np.eye(1)))
    with pytest.raises(ValueError, match=r"\[\*batch, 2, 2\]"):
        MultivariateNormal(loc, covariance_matrix=t64(np.eye(3)))
    with pytest.raises(ValueError, match="event shapes differ"):
        MultivariateNormal(loc, t64(np.eye(2))).kl_divergence(
            MultivariateNormal(t64([0.0, 0.0, 0.0]), t64(np.eye(3))))


def test_independent_sums_over_reinterpreted_axes():
    loc, scale = np.zeros((2, 3)), np.array([[1.0, 2.0, 3.0], [0.5, 1.0, 1.5]])
    base = Normal(t64(loc), t64(scale))
    d = Independent(base, 1)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    x = np.array([[0.1, 0.2, 0.3], [-1.0, 0.0, 1.0]])
    close(d.log_prob(t64(x)), base.log_prob(t64(x)).numpy().sum(-1))
    close(d.entropy(), base.entropy().numpy().sum(-1))
    close(d.mean, loc)
    close(d.variance, scale ** 2)
    assert d.sample([4]).shape == [4, 2, 3] and d.rsample([4]).shape == [4, 2, 3]
    whole = Independent(base, 2)
    assert whole.batch_shape == () and whole.event_shape == (2, 3)
    np.testing.assert_allclose(whole.prob(t64(x)).numpy(),
                               np.exp(base.log_prob(t64(x)).numpy().sum()))
    with pytest.raises(ValueError, match="reinterpreted_batch_rank"):
        Independent(base, 3)
    with pytest.raises(ValueError, match="reinterpreted_batch_rank"):
        Independent(base, 0)
    with pytest.raises(TypeError, match="Distribution"):
        Independent("normal", 1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        Dirichlet(t64(1.0))

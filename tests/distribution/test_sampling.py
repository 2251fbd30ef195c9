"""Sampling: shapes (sample_shape + batch_shape + event_shape), moments with a fixed seed,
reproducibility under paddle.seed, rsample gradients against analytic values, and static
mode."""
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.distribution as D
from tests.api._check import run_static
from tests.distribution._ref import close, t64

B = [0.5, 1.0, 2.0]


def _cases():
    """(name, distribution, event_shape) with batch_shape (3,)."""
    return [
        ("Normal", D.Normal(t64([0., 1., 2.]), t64(B)), ()),
        ("Uniform", D.Uniform(t64([0., 1., 2.]), t64([1., 3., 2.5])), ()),
        ("Laplace", D.Laplace(t64([0., 1., 2.]), t64(B)), ()),
        ("Cauchy", D.Cauchy(t64([0., 1., 2.]), t64(B)), ()),
        ("Gumbel", D.Gumbel(t64([0., 1., 2.]), t64(B)), ()),
        ("LogNormal", D.LogNormal(t64([0., 0.5, -0.5]), t64([0.2, 0.3, 0.4])), ()),
        ("Exponential", D.Exponential(t64(B)), ()),
        ("Gamma", D.Gamma(t64([0.5, 2., 5.]), t64(B)), ()),
        ("Chi2", D.Chi2(t64([1., 3., 6.])), ()),
        ("Beta", D.Beta(t64([0.5, 2., 5.]), t64(B)), ()),
        ("StudentT", D.StudentT(t64([5., 8., 12.]), t64([0., 1., 2.]), t64(B)), ()),
        ("Bernoulli", D.Bernoulli(t64([0.1, 0.5, 0.8])), ()),
        ("Geometric", D.Geometric(t64([0.3, 0.5, 0.8])), ()),
        ("Poisson", D.Poisson(t64([0.5, 2., 6.])), ()),
        ("Binomial", D.Binomial(t64([3., 5., 9.]), t64([0.1, 0.5, 0.8])), ()),
        ("Categorical", D.Categorical(t64(np.ones((3, 4)))), ()),
        ("Multinomial", D.Multinomial(4, t64(np.ones((3, 5)))), (5,)),
        ("Dirichlet", D.Dirichlet(t64(np.ones((3, 4)))), (4,)),
        ("MultivariateNormal",
         D.MultivariateNormal(t64(np.zeros((3, 2))), t64(np.eye(2))), (2,)),
        ("Independent", D.Independent(D.Normal(t64(np.zeros((3, 2))), 1.0), 1), (2,)),
    ]


@pytest.mark.parametrize("name, dist, event", _cases(), ids=[c[0] for c in _cases()])
def test_sample_shapes_and_reproducibility(name, dist, event):
    assert dist.batch_shape == (3,) and dist.event_shape == event
    paddle.seed(123)
    first = dist.sample([4, 2])
    assert first.shape == [4, 2, 3, *event]
    assert first.stop_gradient
    paddle.seed(123)
    np.testing.assert_array_equal(dist.sample((4, 2)).numpy(), first.numpy())
    assert dist.sample().shape == [3, *event]


@pytest.mark.parametrize("name, dist, event", [c for c in _cases() if c[0] not in (
    "Cauchy", "Categorical", "Multinomial", "Independent")], ids=lambda v: v if isinstance(
        v, str) else "")
def test_sample_moments(name, dist, event):
    paddle.seed(2024)
    draws = dist.sample([40000]).numpy()
    scale = np.sqrt(dist.variance.numpy())
    np.testing.assert_allclose(draws.mean(0), dist.mean.numpy(), atol=0.05 * scale.max())
    np.testing.assert_allclose(draws.std(0), scale, rtol=0.06)


def test_cauchy_sample_quartiles():
    paddle.seed(1)
    draws = D.Cauchy(1.0, 2.0).sample([40000]).numpy()
    np.testing.assert_allclose(np.percentile(draws, [25, 50, 75]), [-1.0, 1.0, 3.0], atol=0.1)


def test_normal_sample_seed_argument_and_global_seed():
    d = D.Normal(0.0, 1.0)
    np.testing.assert_array_equal(d.sample([5], seed=7).numpy(), d.sample([5], seed=7).numpy())
    paddle.seed(3)
    a = d.rsample([5]).numpy()
    paddle.seed(3)
    np.testing.assert_array_equal(d.rsample([5]).numpy(), a)


def test_normal_rsample_gradients():
    loc, scale = t64([1.0, -2.0], grad=True), t64([0.5, 2.0], grad=True)
    paddle.seed(0)
    x = D.Normal(loc, scale).rsample([5000])
    x.mean(axis=0).sum().backward()
    close(loc.grad, [1.0, 1.0])
    eps = (x.numpy() - loc.numpy()) / scale.numpy()
    close(scale.grad, eps.mean(0))


@pytest.mark.parametrize("make, analytic", [
    # d/dtheta of E[x] estimated from the samples' gradient of their mean.
    (lambda p: D.Exponential(p), lambda p: -1 / p ** 2),
    (lambda p: D.Gamma(3.0, p), lambda p: -3.0 / p ** 2),
    (lambda p: D.Laplace(p, 1.0), lambda p: np.ones_like(p)),
    (lambda p: D.Gumbel(0.0, p), lambda p: np.full_like(p, 0.5772156649015329)),
    (lambda p: D.LogNormal(0.0, p), lambda p: p * np.exp(p ** 2 / 2)),
    (lambda p: D.Uniform(0.0, p), lambda p: np.full_like(p, 0.5)),
    (lambda p: D.StudentT(5.0, p, 1.0), lambda p: np.ones_like(p)),
])
def test_rsample_gradients_of_the_mean(make, analytic):
    p = t64([0.7, 1.3], grad=True)
    paddle.seed(10)
    make(p).rsample([40000]).mean(axis=0).sum().backward()
    np.testing.assert_allclose(p.grad.numpy(), analytic(p.numpy()), rtol=0.05, atol=0.01)


def test_multivariate_normal_rsample_gradient():
    loc = t64([1.0, 2.0], grad=True)
    tril = t64([[1.0, 0.0], [0.5, 2.0]], grad=True)
    paddle.seed(6)
    x = D.MultivariateNormal(loc, scale_tril=tril).rsample([20000])
    (x * x).mean(axis=0).sum().backward()
    # E[x_i^2] = mu_i^2 + sum_j L_ij^2, so the gradients are 2 mu and about 2 L.
    close(loc.grad, 2 * loc.numpy(), rtol=0.05, atol=0.05)
    np.testing.assert_allclose(np.tril(tril.grad.numpy()), 2 * tril.numpy(), atol=0.1)


def test_log_prob_and_entropy_gradients():
    loc, scale = t64([0.5], grad=True), t64([2.0], grad=True)
    d = D.Normal(loc, scale)
    (d.log_prob(t64([1.5])).sum() + d.entropy().sum()).backward()
    close(loc.grad, [(1.5 - 0.5) / 4.0])
    close(scale.grad, [-1 / 2.0 + 1.0 / 8.0 + 1 / 2.0])
    a = t64([2.0], grad=True)
    D.Gamma(a, 1.0).entropy().sum().backward()
    h = 1e-6
    num = [(D.Gamma(t64([2.0 + h]), 1.0).entropy().numpy() -
            D.Gamma(t64([2.0 - h]), 1.0).entropy().numpy()) / (2 * h)]
    close(a.grad, np.ravel(num), rtol=1e-5)


def test_static_mode_log_prob_entropy_and_rsample():
    def fn(loc, scale, value):
        d = D.Normal(loc, scale)
        return [d.log_prob(value), d.entropy(), d.rsample([3]),
                D.kl_divergence(d, D.Normal(loc * 0.0, scale * 2.0))]

    arrays = [np.array([0.5, 1.0]), np.array([1.0, 2.0]), np.array([0.0, 3.0])]
    log_p, ent, draws, kl = run_static(fn, *arrays)
    eager = fn(*[t64(a) for a in arrays])
    np.testing.assert_allclose(log_p, eager[0].numpy())
    np.testing.assert_allclose(ent, eager[1].numpy())
    np.testing.assert_allclose(kl, eager[3].numpy())
    assert draws.shape == (3, 2)


def test_static_mode_refuses_numpy_draws():
    with pytest.raises(NotImplementedError, match="dynamic mode"):
        run_static(lambda c: D.Gamma(c, 1.0).sample([2]), np.array([1.0, 2.0]))
    with pytest.raises(NotImplementedError, match="static Program"):
        run_static(lambda r: D.Poisson(r).entropy(), np.array([1.0, 2.0]))


def test_static_mode_transformed_and_multivariate():
    def fn(loc, scale, value):
        return D.LogNormal(loc, scale).log_prob(value)

    arrays = [np.array([0.0, 0.5]), np.array([1.0, 0.5]), np.array([1.5, 2.0])]
    np.testing.assert_allclose(run_static(fn, *arrays), fn(*[t64(a) for a in arrays]).numpy())
    cov = np.array([[2.0, 0.3], [0.3, 1.0]])

    def mvn(loc, cov, value):
        d = D.MultivariateNormal(loc, cov)
        return [d.log_prob(value), d.entropy()]

    arrays = [np.array([0.0, 1.0]), cov, np.array([[1.0, 1.0], [0.0, -1.0]])]
    got = run_static(mvn, *arrays)
    want = mvn(*[t64(a) for a in arrays])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-10)
    assert math.isfinite(float(got[1]))

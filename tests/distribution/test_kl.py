"""kl_divergence: closed forms against NumPy references and against Monte-Carlo estimates
with a fixed seed, the Bregman divergence of exponential families, and register_kl
dispatch."""
import math
import warnings

import numpy as np
import pytest

import sampan as paddle
from sampan.distribution import (Bernoulli, Beta, Binomial, Categorical, Cauchy, Dirichlet,
                                 Distribution, Exponential, ExponentialFamily, Gamma,
                                 Geometric, Gumbel, Laplace, LogNormal, MultivariateNormal,
                                 Normal, Poisson, Uniform, kl_divergence, register_kl)
from sampan.distribution.kl import _REGISTER_TABLE, _kl_expfamily_expfamily
from tests.distribution._ref import close, digamma, lgamma, mc_kl, t64

A1, A2 = np.array([0.5, 2.0, 3.0]), np.array([1.5, 1.0, 0.7])


def test_normal_gamma_exponential_closed_forms():
    m1, s1, m2, s2 = np.array([0., 1., -1.]), A1, np.array([0.5, 0., 2.]), A2
    close(kl_divergence(Normal(t64(m1), t64(s1)), Normal(t64(m2), t64(s2))),
          np.log(s2 / s1) + (s1 ** 2 + (m1 - m2) ** 2) / (2 * s2 ** 2) - 0.5)
    a_p, b_p, a_q, b_q = A1, A2, A2, A1
    want = ((a_p - a_q) * digamma(a_p) - lgamma(a_p) + lgamma(a_q)
            + a_q * (np.log(b_p) - np.log(b_q)) + a_p * (b_q - b_p) / b_p)
    close(kl_divergence(Gamma(t64(a_p), t64(b_p)), Gamma(t64(a_q), t64(b_q))), want)
    close(kl_divergence(Exponential(t64(A1)), Exponential(t64(A2))),
          np.log(A1 / A2) + A2 / A1 - 1)


@pytest.mark.parametrize("p, q", [
    (Normal(t64([0., 1.]), t64([1., 2.])), Normal(t64([0.5, 0.]), t64([2., 1.]))),
    (Uniform(t64([0.2, -1.]), t64([0.8, 1.])), Uniform(t64([0., -2.]), t64([1., 3.]))),
    (Laplace(t64([0., 1.]), t64([1., 0.5])), Laplace(t64([0.5, 0.]), t64([2., 1.]))),
    (Gamma(t64([2., 0.7]), t64([1., 3.])), Gamma(t64([1.5, 1.]), t64([2., 2.]))),
    (Exponential(t64([0.5, 3.])), Exponential(t64([1., 1.]))),
    (Beta(t64([2., 0.6]), t64([3., 0.8])), Beta(t64([1., 1.5]), t64([1., 2.]))),
    (Dirichlet(t64([[2., 3., 4.], [1., 1., 1.]])), Dirichlet(t64([[1., 1., 1.], [3., 2., 1.]]))),
    (LogNormal(t64([0., 1.]), t64([0.5, 1.])), LogNormal(t64([0.3, 0.]), t64([1., 2.]))),
    (Poisson(t64([2., 7.])), Poisson(t64([3., 5.]))),
    (Binomial(t64([10., 4.]), t64([0.3, 0.6])), Binomial(t64([10., 4.]), t64([0.5, 0.5]))),
    (Bernoulli(t64([0.3, 0.9])), Bernoulli(t64([0.6, 0.5]))),
    (Cauchy(t64([0., 1.]), t64([1., 2.])), Cauchy(t64([1., 0.]), t64([2., 1.]))),
    (MultivariateNormal(t64([0., 1.]), t64([[2., 0.5], [0.5, 1.]])),
     MultivariateNormal(t64([1., 0.]), scale_tril=t64([[1., 0.], [0.3, 2.]]))),
])
def test_closed_forms_match_monte_carlo(p, q):
    exact = kl_divergence(p, q).numpy()
    rtol = 0.15 if isinstance(p, Cauchy) else 0.05
    np.testing.assert_allclose(mc_kl(p, q, n=100_000), exact, rtol=rtol, atol=0.01)


def test_categorical_kl_is_the_softmax_kl():
    lp, lq = np.array([[1., 2., 0.5], [0., 0., 3.]]), np.array([[0., 1., 1.], [2., 1., 0.]])
    sp = np.exp(lp) / np.exp(lp).sum(-1, keepdims=True)
    sq = np.exp(lq) / np.exp(lq).sum(-1, keepdims=True)
    close(kl_divergence(Categorical(t64(lp)), Categorical(t64(lq))),
          (sp * np.log(sp / sq)).sum(-1, keepdims=True))


def test_uniform_kl_is_infinite_outside_the_support():
    p = Uniform(t64([0., 0.]), t64([2., 2.]))
    q = Uniform(t64([0., 1.]), t64([4., 4.]))
    close(kl_divergence(p, q), [math.log(2.0), np.inf])


def test_geometric_kl_is_paddles_formula():
    p, q = np.array([0.5, 0.2]), np.array([0.1, 0.7])
    close(kl_divergence(Geometric(t64(p)), Geometric(t64(q))),
          p * np.log(p / q) + (1 - p) * np.log((1 - p) / (1 - q)))
    np.testing.assert_allclose(paddle.distribution.kl_divergence(
        Geometric(0.5), Geometric(0.1)).numpy(), 0.51082563, rtol=1e-6)


def test_paddle_doc_examples():
    p = Beta(alpha=0.5, beta=0.5)
    q = Beta(alpha=0.3, beta=0.7)
    np.testing.assert_allclose(kl_divergence(p, q).numpy(), 0.21193528, rtol=1e-6)
    assert Normal([0.], [1.]).kl_divergence(Normal([0.5], [2.])).shape == [1]


@pytest.mark.parametrize("p, q", [
    (Gamma(t64([2., 0.7]), t64([1., 3.])), Gamma(t64([1.5, 1.]), t64([2., 2.]))),
    (Exponential(t64([0.5, 3.])), Exponential(t64([1., 1.]))),
    (Beta(t64([2., 0.6]), t64([3., 0.8])), Beta(t64([1., 1.5]), t64([1., 2.]))),
    (Dirichlet(t64([[2., 3., 4.]])), Dirichlet(t64([[1., 1., 1.]]))),
    (Bernoulli(t64([0.3, 0.9])), Bernoulli(t64([0.6, 0.5]))),
])
def test_bregman_divergence_equals_the_closed_forms(p, q):
    close(_kl_expfamily_expfamily(p, q), kl_divergence(p, q).numpy())


def test_exponential_family_entropy_from_the_log_normalizer():
    for d in (Gamma(t64([2., 0.7]), t64([1., 3.])), Exponential(t64([0.5, 3.])),
              Bernoulli(t64([0.3, 0.9]))):
        close(ExponentialFamily.entropy(d), d.entropy().numpy())


def test_kl_gradients_flow_to_parameters():
    loc = t64([0.3], grad=True)
    kl_divergence(Normal(loc, 1.0), Normal(0.0, 1.0)).sum().backward()
    close(loc.grad, [0.3])
    rate = t64([2.0], grad=True)
    _kl_expfamily_expfamily(Exponential(t64([1.0])), Exponential(rate)).sum().backward()
    close(rate.grad, [1.0 - 1 / 2.0])


def test_dispatch_picks_the_most_specific_pair_and_register_kl_extends_it():
    class MyNormal(Normal):
        pass

    p, q = MyNormal(0.0, 1.0), Normal(1.0, 1.0)
    np.testing.assert_allclose(kl_divergence(p, q).numpy(), 0.5)

    @register_kl(MyNormal, Normal)
    def _mine(p, q):
        return paddle.to_tensor(42.0)

    try:
        assert kl_divergence(p, q).item() == 42.0
        assert kl_divergence(q, p).item() == 0.5
    finally:
        del _REGISTER_TABLE[MyNormal, Normal]


def test_ambiguous_registrations_warn():
    class A(Distribution):
        pass

    class B(A):
        pass

    register_kl(B, A)(lambda p, q: 1)
    register_kl(A, B)(lambda p, q: 2)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert kl_divergence(B(), B()) == 1
        assert any("Ambiguous" in str(w.message) for w in caught)
    finally:
        del _REGISTER_TABLE[B, A], _REGISTER_TABLE[A, B]


def test_unregistered_pairs_and_bad_registrations():
    with pytest.raises(NotImplementedError, match=r"\(Normal, Uniform\)"):
        kl_divergence(Normal(0.0, 1.0), Uniform(0.0, 1.0))
    with pytest.raises(NotImplementedError, match=r"\(Gumbel, Gumbel\)"):
        kl_divergence(Gumbel(0.0, 1.0), Gumbel(0.0, 2.0))
    with pytest.raises(NotImplementedError, match="Gamma and Exponential"):
        _kl_expfamily_expfamily(Gamma(1.0, 1.0), Exponential(1.0))
    with pytest.raises(TypeError, match="subclasses of Distribution"):
        register_kl(Normal, int)

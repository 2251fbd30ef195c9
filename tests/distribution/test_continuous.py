"""Univariate continuous distributions: log_prob, entropy, mean, variance and CDFs against
closed-form NumPy references, Paddle's documented example outputs, parameter handling and
argument errors."""
import math

import numpy as np
import pytest

import sampan as paddle
from sampan.distribution import (Beta, Cauchy, Chi2, Exponential, Gamma, Gumbel, Laplace,
                                 LogNormal, Normal, StudentT, Uniform)
from tests.distribution._ref import close, digamma, lbeta, lgamma, t64

EULER = 0.5772156649015329
X = np.array([-1.5, 0.2, 0.8, 2.5])
POS = np.array([0.3, 0.8, 1.7, 4.0])


def test_normal_closed_forms():
    loc, scale = np.array([0.5, -1.0, 2.0, 0.0]), np.array([1.0, 0.5, 3.0, 2.0])
    d = Normal(t64(loc), t64(scale))
    log_p = -((X - loc) ** 2) / (2 * scale ** 2) - np.log(scale) - 0.5 * math.log(2 * math.pi)
    close(d.log_prob(t64(X)), log_p)
    close(d.probs(t64(X)), np.exp(log_p))
    close(d.prob(t64(X)), np.exp(log_p))
    close(d.entropy(), 0.5 + 0.5 * math.log(2 * math.pi) + np.log(scale))
    close(d.mean, loc)
    close(d.variance, scale ** 2)
    cdf = np.array([0.5 * (1 + math.erf((x - m) / (s * math.sqrt(2))))
                    for x, m, s in zip(X, loc, scale)])
    close(d.cdf(t64(X)), cdf)
    close(d.icdf(t64(cdf)), X, rtol=1e-7, atol=1e-7)


def test_normal_paddle_doc_example():
    a, b = Normal([0.], [1.]), Normal([0.5], [2.])
    value = paddle.to_tensor([0.8], dtype="float32")
    assert a.sample([2]).shape == [2, 1]
    np.testing.assert_allclose(a.entropy().numpy(), [1.4189385], rtol=1e-6)
    np.testing.assert_allclose(a.log_prob(value).numpy(), [-1.2389386], rtol=1e-6)
    np.testing.assert_allclose(a.probs(value).numpy(), [0.28969154], rtol=1e-6)
    np.testing.assert_allclose(a.kl_divergence(b).numpy(), [0.34939718], rtol=1e-6)
    assert Normal(loc=[1., 2.], scale=[11., 22.]).sample([3]).shape == [3, 2]
    assert Normal(loc=1., scale=[11., 22.]).batch_shape == (2,)


def test_parameters_become_tensors_of_one_dtype():
    d = Normal(0, 3)
    assert d.batch_shape == () and d.loc.dtype == paddle.float32 and d.all_arg_is_float
    d = Normal(np.array([0.0, 1.0]), 2.0)
    assert d.loc.dtype == paddle.float64 and d.batch_shape == (2,)
    d = Normal(t64([0.0, 1.0]), 1.0)
    assert d.scale.dtype == paddle.float64
    assert Normal(paddle.to_tensor([1.0]), 1.0).log_prob(t64([0.5])).dtype == paddle.float32


def test_uniform_closed_forms_and_doc_example():
    d = Uniform(t64([0.0, -1.0]), t64([2.0, 3.0]))
    close(d.log_prob(t64([0.5, 3.0])), [-math.log(2.0), -np.inf])
    close(d.probs(t64([0.0, -2.0])), [0.5, 0.0])
    close(d.entropy(), [math.log(2.0), math.log(4.0)])
    close(d.mean, [1.0, 1.0])
    close(d.variance, [4 / 12, 16 / 12])
    close(d.cdf(t64([1.0, 5.0])), [0.5, 1.0])
    u = Uniform([0.], [2.])
    value = paddle.to_tensor([0.8], dtype="float32")
    np.testing.assert_allclose(u.entropy().numpy(), [0.6931472], rtol=1e-6)
    np.testing.assert_allclose(u.log_prob(value).numpy(), [-0.6931472], rtol=1e-6)
    np.testing.assert_allclose(u.probs(value).numpy(), [0.5])
    assert Uniform(low=3.0, high=[5.0, 6.0, 7.0]).batch_shape == (3,)


def test_laplace_and_cauchy():
    loc, scale = np.array([0.0, 1.0, -2.0, 0.5]), np.array([1.0, 2.0, 0.5, 1.5])
    d = Laplace(t64(loc), t64(scale))
    close(d.log_prob(t64(X)), -np.log(2 * scale) - np.abs(X - loc) / scale)
    close(d.entropy(), 1 + np.log(2 * scale))
    close(d.mean, loc)
    close(d.variance, 2 * scale ** 2)
    close(d.stddev, math.sqrt(2) * scale)
    cdf = np.where(X < loc, 0.5 * np.exp((X - loc) / scale), 1 - 0.5 * np.exp(-(X - loc) / scale))
    close(d.cdf(t64(X)), cdf)
    close(d.icdf(t64(cdf)), X)
    c = Cauchy(t64(loc), t64(scale))
    y = (X - loc) / scale
    close(c.log_prob(t64(X)), -np.log(math.pi * scale * (1 + y ** 2)))
    close(c.cdf(t64(X)), np.arctan(y) / math.pi + 0.5)
    close(c.entropy(), np.log(4 * math.pi * scale))
    np.testing.assert_allclose(Cauchy(loc=0.1, scale=1.2).entropy().numpy(), 2.71334577,
                               rtol=1e-6)
    for attr in ("mean", "variance", "stddev"):
        with pytest.raises(ValueError, match="no"):
            getattr(c, attr)


def test_gumbel_closed_forms_and_doc_example():
    loc, scale = np.array([0.0, 1.0, -2.0, 0.5]), np.array([1.0, 2.0, 0.5, 1.5])
    d = Gumbel(t64(loc), t64(scale))
    y = (X - loc) / scale
    close(d.log_prob(t64(X)), -(y + np.exp(-y)) - np.log(scale))
    close(d.cdf(t64(X)), np.exp(-np.exp(-y)))
    close(d.entropy(), np.log(scale) + 1 + EULER)
    close(d.mean, loc + scale * EULER)
    close(d.variance, math.pi ** 2 / 6 * scale ** 2)
    m = Gumbel(paddle.full([1], 0.0), paddle.full([1], 1.0))
    value = paddle.full([1], 0.5)
    np.testing.assert_allclose(m.prob(value).numpy(), [0.33070430], rtol=1e-6)
    np.testing.assert_allclose(m.log_prob(value).numpy(), [-1.10653067], rtol=1e-6)
    np.testing.assert_allclose(m.cdf(value).numpy(), [0.54523915], rtol=1e-6)
    np.testing.assert_allclose(m.entropy().numpy(), [1.57721567], rtol=1e-6)


def test_lognormal_closed_forms_and_doc_example():
    loc, scale = np.array([0.0, 0.5, -1.0, 1.0]), np.array([1.0, 0.3, 2.0, 0.7])
    d = LogNormal(t64(loc), t64(scale))
    log_p = (-((np.log(POS) - loc) ** 2) / (2 * scale ** 2) - np.log(scale * POS)
             - 0.5 * math.log(2 * math.pi))
    close(d.log_prob(t64(POS)), log_p)
    close(d.entropy(), 0.5 + 0.5 * math.log(2 * math.pi) + np.log(scale) + loc)
    close(d.mean, np.exp(loc + scale ** 2 / 2))
    close(d.variance, (np.exp(scale ** 2) - 1) * np.exp(2 * loc + scale ** 2))
    a, b = LogNormal([0.], [1.]), LogNormal([0.5], [2.])
    value = paddle.to_tensor([0.8], dtype="float32")
    np.testing.assert_allclose(a.entropy().numpy(), [1.41893852], rtol=1e-6)
    np.testing.assert_allclose(a.log_prob(value).numpy(), [-0.72069150], rtol=1e-6)
    np.testing.assert_allclose(a.probs(value).numpy(), [0.48641577], rtol=1e-6)
    np.testing.assert_allclose(a.kl_divergence(b).numpy(), [0.34939718], rtol=1e-6)


def test_gamma_family_closed_forms():
    a, b = np.array([0.5, 1.0, 2.5, 7.0]), np.array([0.5, 2.0, 1.0, 3.0])
    d = Gamma(t64(a), t64(b))
    close(d.log_prob(t64(POS)),
          a * np.log(b) + (a - 1) * np.log(POS) - b * POS - lgamma(a))
    close(d.entropy(), a - np.log(b) + lgamma(a) + (1 - a) * digamma(a))
    close(d.mean, a / b)
    close(d.variance, a / b ** 2)
    chi = Chi2(t64([1.0, 3.0]))
    close(chi.df, [1.0, 3.0])
    close(chi.mean, [1.0, 3.0])
    close(chi.variance, [2.0, 6.0])
    e = Exponential(t64(b))
    close(e.log_prob(t64(POS)), np.log(b) - b * POS)
    close(e.entropy(), 1 - np.log(b))
    close(e.cdf(t64(POS)), 1 - np.exp(-b * POS))
    close(e.icdf(e.cdf(t64(POS))), POS)
    close(e.mean, 1 / b)
    close(e.variance, 1 / b ** 2)


def test_gamma_paddle_doc_example():
    g = Gamma(0.5, 0.5)
    np.testing.assert_allclose([g.mean.numpy(), g.variance.numpy()], [1.0, 2.0])
    np.testing.assert_allclose(g.entropy().numpy(), 0.78375685, rtol=1e-6)
    g = Gamma(paddle.to_tensor([0.2, 0.4]), 0.6)
    np.testing.assert_allclose(g.mean.numpy(), [0.33333331, 0.66666663], rtol=1e-6)
    np.testing.assert_allclose(g.entropy().numpy(), [-1.99634242, 0.17067254], rtol=1e-5)


def test_beta_and_student_t():
    a, b = np.array([0.5, 1.0, 2.5, 7.0]), np.array([0.5, 2.0, 1.0, 3.0])
    x = np.array([0.1, 0.4, 0.7, 0.95])
    d = Beta(t64(a), t64(b))
    close(d.log_prob(t64(x)), (a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - lbeta(a, b))
    close(d.prob(t64(x)), np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - lbeta(a, b)))
    close(d.entropy(), lbeta(a, b) - (a - 1) * digamma(a) - (b - 1) * digamma(b)
          + (a + b - 2) * digamma(a + b))
    close(d.mean, a / (a + b))
    close(d.variance, a * b / ((a + b) ** 2 * (a + b + 1)))
    df, loc, scale = np.array([0.8, 1.5, 3.0, 10.0]), np.array([0.0, 1.0, -1.0, 2.0]), 2.0
    t = StudentT(t64(df), t64(loc), scale)
    y = (X - loc) / scale
    close(t.log_prob(t64(X)), lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * np.log(df * math.pi)
          - math.log(scale) - (df + 1) / 2 * np.log1p(y ** 2 / df))
    close(t.entropy(), (df + 1) / 2 * (digamma((df + 1) / 2) - digamma(df / 2))
          + 0.5 * np.log(df) + lbeta(df / 2, 0.5) + math.log(scale))
    close(t.mean, [np.nan, 1.0, -1.0, 2.0])
    close(t.variance, [np.nan, np.inf, 12.0, 4 * 10 / 8])


@pytest.mark.parametrize("make, message", [
    (lambda: Gamma(-1.0, 1.0), "concentration must be positive"),
    (lambda: Gamma(1.0, paddle.to_tensor([1.0, 0.0])), "rate must be positive"),
    (lambda: Exponential(-2.0), "rate must be positive"),
    (lambda: Beta(0.5, -0.5), "beta must be positive"),
    (lambda: Laplace(0.0, -1.0), "scale must be positive"),
    (lambda: Cauchy(0.0, 0.0), "scale must be positive"),
    (lambda: Gumbel(0.0, -1.0), "scale must be positive"),
    (lambda: StudentT(-1.0, 0.0, 1.0), "df must be positive"),
    (lambda: Chi2(0.0), "df must be positive"),
    (lambda: Normal([0.0, 1.0], [1.0, 1.0, 1.0]), "do not broadcast"),
])
def test_bad_parameters_raise_value_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_bad_argument_types_raise_type_errors():
    with pytest.raises(TypeError, match="loc must be a float"):
        Normal("0", 1.0)
    with pytest.raises(TypeError, match="sample shape"):
        Normal(0.0, 1.0).sample(3)
    with pytest.raises(TypeError, match="must be a Normal"):
        Normal(0.0, 1.0).kl_divergence(Uniform(0.0, 1.0))


def test_repr_and_base_class_defaults():
    assert repr(Normal([0.0, 1.0], 1.0)) == "Normal(batch_shape=[2], event_shape=[])"
    base = paddle.distribution.Distribution([3], [2])
    assert base.batch_shape == (3,) and base.event_shape == (2,)
    for call in (lambda: base.mean, lambda: base.sample(), lambda: base.rsample(),
                 lambda: base.entropy(), lambda: base.log_prob(t64(1.0))):
        with pytest.raises(NotImplementedError):
            call()

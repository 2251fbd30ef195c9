"""Discrete distributions: Categorical (with Paddle's two readings of `logits`), Multinomial,
Bernoulli, Geometric, Poisson and Binomial against NumPy references and Paddle's examples."""
import math

import numpy as np
import pytest

import sampan as paddle
from sampan.distribution import (Bernoulli, Binomial, Categorical, Geometric, Multinomial,
                                 Poisson)
from tests.distribution._ref import close, lgamma, t64

# Paddle's Categorical example: paddle.rand([6]) after paddle.seed(100) and (200) on CPU.
PADDLE_X = [0.55355281, 0.20714243, 0.01162981, 0.51577556, 0.36369765, 0.26091650]
PADDLE_Y = [0.77663314, 0.90824795, 0.15685187, 0.04279523, 0.34468332, 0.79557180]


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_categorical_paddle_doc_example():
    cat = Categorical(paddle.to_tensor(PADDLE_X))
    cat2 = Categorical(paddle.to_tensor(PADDLE_Y))
    entropy = cat.entropy()
    assert entropy.shape == []
    np.testing.assert_allclose(entropy.numpy(), 1.77528250, rtol=1e-6)
    kl = cat.kl_divergence(cat2)
    assert kl.shape == [1]
    np.testing.assert_allclose(kl.numpy(), [0.07195196], rtol=1e-5)
    value = paddle.to_tensor([2, 1, 3])
    np.testing.assert_allclose(cat.probs(value).numpy(), [0.00608027, 0.10829761, 0.26965630],
                               rtol=1e-5)
    np.testing.assert_allclose(cat.log_prob(value).numpy(), [-5.10271, -2.22287, -1.31061],
                               rtol=1e-5)
    assert cat.sample([2, 3]).shape == [2, 3]
    assert cat.sample([2, 3]).dtype == paddle.int64


def test_categorical_probs_normalise_but_sampling_uses_softmax():
    logits = np.array([[1.0, 2.0, 3.0], [0.5, 0.5, 3.0]])
    cat = Categorical(t64(logits))
    assert cat.batch_shape == (2,) and cat.event_shape == ()
    weights = logits / logits.sum(-1, keepdims=True)
    close(cat.probs(paddle.to_tensor([2, 0])), weights[:, [2, 0]])
    close(cat.probs(paddle.to_tensor([[1], [2]])), [[weights[0, 1]], [weights[1, 2]]])
    soft = _softmax(logits)
    close(cat.entropy(), -(soft * np.log(soft)).sum(-1))
    paddle.seed(3)
    draws = cat.sample([20000]).numpy()
    assert draws.shape == (20000, 2)
    for row in range(2):
        freq = np.bincount(draws[:, row], minlength=3) / len(draws)
        np.testing.assert_allclose(freq, soft[row], atol=0.015)


def test_multinomial():
    probs = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])
    m = Multinomial(6, t64(probs * 2.0))
    assert m.batch_shape == (2,) and m.event_shape == (3,)
    close(m.mean, 6 * probs)
    close(m.variance, 6 * probs * (1 - probs))
    counts = np.array([[1.0, 2.0, 3.0], [6.0, 0.0, 0.0]])
    want = (lgamma(7.0) - lgamma(counts + 1).sum(-1) + (counts * np.log(probs)).sum(-1))
    close(m.log_prob(t64(counts)), want)
    close(m.prob(t64(counts)), np.exp(want))
    support = [np.array(c, dtype=np.float64) for c in np.ndindex(7, 7, 7) if sum(c) == 6]
    for row in range(2):
        log_p = [math.lgamma(7) - lgamma(c + 1).sum() + (c * np.log(probs[row])).sum()
                 for c in support]
        want = -sum(math.exp(v) * v for v in log_p)
        np.testing.assert_allclose(m.entropy().numpy()[row], want, rtol=1e-9)
    paddle.seed(5)
    draws = m.sample([4000]).numpy()
    assert draws.shape == (4000, 2, 3) and np.all(draws.sum(-1) == 6)
    np.testing.assert_allclose(draws.mean(0), 6 * probs, atol=0.1)


def test_bernoulli_closed_forms_and_doc_example():
    p = np.array([0.1, 0.3, 0.5, 0.9])
    d = Bernoulli(t64(p))
    value = np.array([1.0, 0.0, 1.0, 0.0])
    close(d.log_prob(t64(value)), value * np.log(p) + (1 - value) * np.log1p(-p))
    close(d.prob(t64(value)), np.where(value == 1, p, 1 - p))
    close(d.entropy(), -(p * np.log(p) + (1 - p) * np.log1p(-p)))
    close(d.cdf(t64([-1.0, 0.5, 0.0, 1.0])), [0.0, 0.7, 0.5, 1.0])
    close(d.mean, p)
    close(d.variance, p * (1 - p))
    rv = Bernoulli(0.3)
    np.testing.assert_allclose(rv.mean.numpy(), 0.3, rtol=1e-6)
    np.testing.assert_allclose(rv.variance.numpy(), 0.21, rtol=1e-6)
    np.testing.assert_allclose(rv.entropy().numpy(), 0.61086434, rtol=1e-6)
    np.testing.assert_allclose(rv.log_prob(paddle.to_tensor([1.0])).numpy(), [-1.20397282],
                               rtol=1e-6)
    np.testing.assert_allclose(rv.prob(paddle.to_tensor([1.0])).numpy(), [0.3], rtol=1e-6)
    np.testing.assert_allclose(rv.kl_divergence(Bernoulli(0.7)).numpy(), 0.33891910,
                               rtol=1e-5)
    assert Bernoulli(paddle.full([1], 0.3)).sample([100]).shape == [100, 1]
    assert Bernoulli(paddle.to_tensor([0.3, 0.5])).sample([100, 2]).shape == [100, 2, 2]
    assert rv.rsample([100]).shape == [100]


def test_bernoulli_clips_probs_and_relaxed_samples_follow_temperature():
    d = Bernoulli(t64([0.0, 1.0]))
    assert np.all(np.isfinite(d.logits.numpy()))
    paddle.seed(11)
    rv = Bernoulli(0.3)
    soft = paddle.nn.functional.sigmoid(rv.rsample([20000], temperature=0.05)).numpy()
    assert abs(soft.mean() - 0.3) < 0.02 and np.mean((soft > 0.05) & (soft < 0.95)) < 0.1
    with pytest.raises(ValueError, match="temperature"):
        rv.rsample([2], temperature=0.0)


def test_geometric_paddle_doc_examples():
    geom = Geometric(0.5)
    checks = [(geom.mean, 1.0), (geom.variance, 2.0), (geom.stddev, 1.41421354),
              (geom.pmf(2), 0.125), (geom.log_pmf(2), -2.07944131), (geom.cdf(4), 0.96875),
              (geom.entropy(), 1.38629425), (geom.kl_divergence(Geometric(0.1)), 0.51082563)]
    for got, want in checks:
        assert got.shape == []
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_geometric_counts_failures_before_a_success():
    p = np.array([0.2, 0.5, 0.9])
    d = Geometric(t64(p))
    k = np.array([0.0, 3.0, 1.0])
    close(d.pmf(t64(k)), (1 - p) ** k * p)
    close(d.log_prob(t64(k)), k * np.log1p(-p) + np.log(p))
    close(d.cdf(t64(k)), 1 - (1 - p) ** (k + 1))
    close(d.entropy(), -((1 - p) * np.log1p(-p) + p * np.log(p)) / p)
    paddle.seed(2)
    draws = d.sample([40000]).numpy()
    assert np.all(draws == np.floor(draws)) and draws.min() >= 0
    np.testing.assert_allclose(draws.mean(0), 1 / p - 1, rtol=0.05)
    np.testing.assert_allclose(draws.var(0), (1 - p) / p ** 2, rtol=0.1)
    with pytest.raises(TypeError, match="integer"):
        d.pmf(1.5)


def test_poisson():
    rate = np.array([0.5, 2.0, 7.5])
    d = Poisson(t64(rate))
    k = np.array([0.0, 3.0, 7.0])
    close(d.log_prob(t64(k)), k * np.log(rate) - rate - lgamma(k + 1))
    ks = np.arange(0, 80.0)[:, None]
    log_p = ks * np.log(rate) - rate - lgamma(ks + 1)
    close(d.entropy(), -(np.exp(log_p) * log_p).sum(0))
    close(d.mean, rate)
    close(d.variance, rate)
    assert Poisson(2.0).batch_shape == (1,)
    close(Poisson(t64([0.0])).log_prob(t64([0.0])), [0.0])
    paddle.seed(4)
    draws = d.sample([20000]).numpy()
    assert draws.shape == (20000, 3)
    np.testing.assert_allclose(draws.mean(0), rate, rtol=0.03)
    np.testing.assert_allclose(draws.var(0), rate, rtol=0.06)


def test_binomial():
    n, p = np.array([5.0, 10.0, 3.0]), np.array([0.3, 0.5, 0.9])
    d = Binomial(t64(n), t64(p))
    k = np.array([2.0, 10.0, 4.0])
    log_c = lgamma(n + 1) - lgamma(k + 1) - lgamma(np.maximum(n - k, 0) + 1)
    want = np.where(k <= n, log_c + k * np.log(p) + (n - k) * np.log1p(-p), -np.inf)
    close(d.log_prob(t64(k)), want)
    ent = []
    for ni, pi in zip(n, p):
        ks = np.arange(ni + 1)
        lp = lgamma(ni + 1) - lgamma(ks + 1) - lgamma(ni - ks + 1) + ks * np.log(pi) + (
            ni - ks) * np.log1p(-pi)
        ent.append(-(np.exp(lp) * lp).sum())
    close(d.entropy(), ent)
    close(d.mean, n * p)
    close(d.variance, n * p * (1 - p))
    b = Binomial(10, 0.3)
    assert b.batch_shape == (1,)
    close(b.mean, [3.0], rtol=1e-6)
    paddle.seed(8)
    draws = d.sample([20000]).numpy()
    assert draws.shape == (20000, 3) and np.all(draws <= n)
    np.testing.assert_allclose(draws.mean(0), n * p, rtol=0.02)


@pytest.mark.parametrize("make, error, message", [
    (lambda: Bernoulli(1.5), ValueError, r"range \[0, 1\]"),
    (lambda: Bernoulli(paddle.to_tensor([0.2, -0.1])), ValueError, r"range \[0, 1\]"),
    (lambda: Geometric(0.0), ValueError, r"\(0, 1\]"),
    (lambda: Poisson(-1.0), ValueError, "non-negative"),
    (lambda: Binomial(0, 0.5), ValueError, "greater than zero"),
    (lambda: Binomial(5, 1.5), ValueError, r"range \[0, 1\]"),
    (lambda: Multinomial(0, paddle.to_tensor([0.5, 0.5])), ValueError, "total_count"),
    (lambda: Multinomial(2.5, paddle.to_tensor([0.5, 0.5])), ValueError, "total_count"),
    (lambda: Multinomial(3, paddle.to_tensor(0.5)), ValueError, "at least 1-D"),
    (lambda: Categorical(paddle.to_tensor(0.5)), ValueError, "at least 1-D"),
    (lambda: Binomial(3, 0.5).kl_divergence(Binomial(4, 0.5)), ValueError, "same total_count"),
])
def test_bad_parameters(make, error, message):
    with pytest.raises(error, match=message):
        make()

"""The package surface: Paddle's names resolve, and `import sampan` leaves the distribution
modules unloaded until first use."""
import subprocess
import sys

import sampan as paddle

PADDLE_NAMES = """
Bernoulli Beta Binomial Categorical Cauchy Chi2 Dirichlet Distribution Exponential
ExponentialFamily Gamma Geometric Gumbel Independent Laplace LogNormal Multinomial
MultivariateNormal Normal Poisson StudentT TransformedDistribution Uniform kl_divergence
register_kl Transform AbsTransform AffineTransform ChainTransform ExpTransform
IndependentTransform PowerTransform ReshapeTransform SigmoidTransform SoftmaxTransform
StackTransform StickBreakingTransform TanhTransform
""".split()


def test_paddle_names_resolve_and_are_listed():
    for name in PADDLE_NAMES:
        assert getattr(paddle.distribution, name) is not None, name
    assert set(PADDLE_NAMES) <= set(paddle.distribution.__all__)
    assert set(PADDLE_NAMES) <= set(dir(paddle.distribution))
    assert paddle.distribution.transform.ExpTransform is paddle.distribution.ExpTransform
    from sampan.distribution import Normal, kl_divergence  # noqa: F401


def test_import_sampan_loads_no_distribution_module():
    code = ("import sys, sampan; print(sorted(m for m in sys.modules "
            "if m.startswith('sampan.distribution.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"

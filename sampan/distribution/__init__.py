"""paddle.distribution: probability distributions, transforms of random variables and KL
divergences, composed from sampan's tensor ops (log_prob, entropy and rsample are
differentiable; samples come from the generator `paddle.seed` seeds). See
docs/distribution.md.

The classes load on first use (`paddle.distribution.Normal`, `from paddle.distribution
import Beta`), keeping `import sampan` fast.
"""
import importlib

_TRANSFORMS = ("Transform", "AbsTransform", "AffineTransform", "ChainTransform",
               "ExpTransform", "IndependentTransform", "PowerTransform", "ReshapeTransform",
               "SigmoidTransform", "SoftmaxTransform", "StackTransform",
               "StickBreakingTransform", "TanhTransform")

_HOME = {
    "Distribution": "distribution", "ExponentialFamily": "exponential_family",
    "Normal": "normal", "Uniform": "normal",
    "Categorical": "categorical", "Multinomial": "categorical",
    "Bernoulli": "discrete", "Geometric": "discrete", "Poisson": "discrete",
    "Binomial": "discrete",
    "Gamma": "gamma", "Chi2": "gamma", "Exponential": "gamma", "Beta": "gamma",
    "Dirichlet": "gamma", "StudentT": "gamma",
    "Laplace": "location_scale", "Cauchy": "location_scale",
    "MultivariateNormal": "multivariate_normal", "Independent": "independent",
    "TransformedDistribution": "transformed_distribution",
    "LogNormal": "transformed_distribution", "Gumbel": "transformed_distribution",
    "kl_divergence": "kl", "register_kl": "kl",
    **dict.fromkeys(_TRANSFORMS, "transform"),
}

__all__ = sorted(_HOME)


def __getattr__(name):
    if name in _HOME:
        value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    if name in ("transform", "variable", "kl"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_HOME))

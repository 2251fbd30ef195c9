"""ExponentialFamily: distributions p(x) = h(x) exp(<theta, T(x)> - A(theta)), whose entropy and
KL divergence follow from the log normalizer A by differentiation."""
from .. import tensor as T
from ..core.dispatch import current_mode
from ..eager.autograd import grad
from .distribution import Distribution, sum_rightmost

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base of exponential-family distributions.

    Subclasses give `_natural_parameters` (a tuple of tensors theta), `_log_normalizer(*theta)`
    (A) and `_mean_carrier_measure` (E[log h(x)]). Then
    entropy = A(theta) - <theta, dA/dtheta> - E[log h(x)], and the KL divergence between
    two members of one family is the Bregman divergence of A (see `kl_divergence`).
    """

    @property
    def _natural_parameters(self):
        raise NotImplementedError(f"{type(self).__name__} does not give its natural parameters")

    def _log_normalizer(self, *natural_parameters):
        raise NotImplementedError(f"{type(self).__name__} does not give its log normalizer")

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError(f"{type(self).__name__} does not give its carrier measure")

    def entropy(self):
        """Entropy from the log normalizer: A(theta) - <theta, dA/dtheta> - E[log h(x)]."""
        params, log_norm, grads = log_normalizer_and_gradients(self)
        value = log_norm - self._mean_carrier_measure
        for p, g in zip(params, grads):
            value = value - sum_rightmost(p * g, len(self.event_shape))
        return value


def log_normalizer_and_gradients(dist):
    """(theta, A(theta), dA/dtheta) with theta detached from `dist`'s parameters (as in
    Paddle), so results built from them carry no gradient to `dist`'s parameters."""
    static = current_mode().is_static
    params = list(dist._natural_parameters) if static else [
        _leaf(p) for p in dist._natural_parameters]
    log_norm = dist._log_normalizer(*params)
    try:
        if static:
            from ..static.backward import gradients
            grads = gradients([T.sum(log_norm)], params)
        else:
            grads = grad([T.sum(log_norm)], params, retain_graph=True)
    except RuntimeError as e:
        raise TypeError(f"cannot differentiate the log normalizer of {type(dist).__name__}; "
                        f"register_kl a closed form for it") from e
    return params, log_norm, grads


def _leaf(p):
    """A detached copy of `p` that requires a gradient."""
    p = p.detach()
    p.stop_gradient = False
    return p

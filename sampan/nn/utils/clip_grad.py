"""In-place gradient clipping of a list of parameters (by global norm or by value)."""
from ...eager.grad_mode import no_grad
from ...ops._generated import api
from ..clip import clip_grad_norm_

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def clip_grad_value_(parameters, clip_value):
    """Clip every gradient of `parameters` (a tensor or an iterable) in place to
    [-clip_value, clip_value]; parameters without a gradient are skipped."""
    if hasattr(parameters, "grad"):
        parameters = [parameters]
    bound = float(clip_value)
    with no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad = api.clip(p.grad, -bound, bound)

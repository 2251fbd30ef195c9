"""Gradient clipping: by value, by each tensor's norm, by the global norm."""
from ..eager.grad_mode import no_grad
from ..ops._generated import api

__all__ = ["ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm"]


class _ClipBase:
    """Callable on [(param, grad)] → clipped [(param, grad)]; skips need_clip=False params."""

    def __call__(self, params_grads):
        with no_grad():
            return self._clip(params_grads)

    @staticmethod
    def _clippable(param, grad):
        return grad is not None and getattr(param, "need_clip", True)


class ClipGradByValue(_ClipBase):
    """Clip every gradient element into [min, max] (min defaults to −max)."""

    def __init__(self, max, min=None):  # noqa: A002
        self.max = float(max)
        self.min = -self.max if min is None else float(min)

    def _clip(self, params_grads):
        return [(p, api.clip(g, self.min, self.max) if self._clippable(p, g) else g)
                for p, g in params_grads]


def _norm(grad):
    return api.sqrt(api.sum(api.square(grad)))


def _global_norm(grads):
    """L2 norm of all gradients together."""
    return api.sqrt(api.sum(api.stack([api.sum(api.square(g)) for g in grads], 0)))


def _shrink(grad, norm, clip_norm):
    """grad · clip_norm / max(norm, clip_norm)."""
    limit = api.full_like(norm, clip_norm)
    return api.multiply(grad, api.cast(api.divide(limit, api.maximum(norm, limit)), grad.dtype))


class ClipGradByNorm(_ClipBase):
    """Rescale each gradient whose L2 norm exceeds clip_norm."""

    def __init__(self, clip_norm):
        self.clip_norm = float(clip_norm)

    def _clip(self, params_grads):
        return [(p, _shrink(g, _norm(g), self.clip_norm) if self._clippable(p, g) else g)
                for p, g in params_grads]


class ClipGradByGlobalNorm(_ClipBase):
    """Rescale all gradients together when their joint L2 norm exceeds clip_norm."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        self.clip_norm = float(clip_norm)
        self.group_name = group_name

    def _clip(self, params_grads):
        grads = [g for p, g in params_grads if self._clippable(p, g)]
        if not grads:
            return list(params_grads)
        norm = _global_norm(grads)
        return [(p, _shrink(g, norm, self.clip_norm) if self._clippable(p, g) else g)
                for p, g in params_grads]


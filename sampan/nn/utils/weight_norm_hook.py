"""weight_norm / remove_weight_norm: w = g * v / ||v||, recomputed before every forward.

As in Paddle, the parameter `name` is replaced by `name_g` (the norms, one per slice along
`dim`; a 0-d norm when dim is None or -1, which both mean the whole tensor) and `name_v`
(the direction), and a forward pre-hook sets `layer.<name>` to the recomputed weight, so
gradients reach g and v.
"""
from ...eager.grad_mode import no_grad
from ...ops._generated import api

__all__ = ["weight_norm", "remove_weight_norm"]

_EPS = 1e-12


def _norm_except_dim(v, dim):
    """L2 norm of v over every axis but `dim` (all axes when dim is -1), keepdim shape."""
    if dim == -1:
        return api.sqrt(api.scale(api.sum(api.square(v), [], None, True), 1.0, _EPS))
    axes = [a for a in range(len(v.shape)) if a != dim]
    return api.sqrt(api.sum(api.square(v), axes, None, True))


def _weight(v, g, dim):
    """g * v / ||v||, with the norm at least 1e-12 (Paddle's F.normalize epsilon)."""
    if dim == -1:
        norm = api.scale(api.sqrt(api.sum(api.square(v), [], None, True)), 1.0, _EPS)
        return api.multiply(api.divide(v, norm), g)
    norm = _norm_except_dim(v, dim)
    unit = api.divide(v, api.maximum(norm, api.full_like(norm, _EPS)))
    return api.multiply(unit, api.reshape(g, list(norm.shape)))


class WeightNorm:
    """The forward pre-hook: recomputes `layer.<name>` from `<name>_g` and `<name>_v`."""

    def __init__(self, name, dim):
        self.name, self.dim = name, dim

    def compute_weight(self, layer):
        return _weight(getattr(layer, self.name + "_v"), getattr(layer, self.name + "_g"),
                       self.dim)

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer))


def _new_parameter(layer, value):
    """A parameter of `layer` holding a copy of value."""
    param = layer.create_parameter(list(value.shape), dtype=value.dtype)
    with no_grad():
        param.set_value(value)
    return param


def _hook_of(layer, name):
    """(hook id, WeightNorm hook) registered on layer for parameter `name`, or None."""
    for key, hook in layer._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            return key, hook
    return None


def weight_norm(layer, name="weight", dim=0):
    """Reparameterise `layer.<name>` as g * v / ||v|| with the norm taken per slice along
    dim (None: over the whole tensor). Returns the layer."""
    if _hook_of(layer, name) is not None:
        raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter "
                           f"{name}")
    weight = layer._parameters.get(name)
    if weight is None:
        raise ValueError(f"weight_norm: {type(layer).__name__} has no parameter {name!r}")
    rank = len(weight.shape)
    dim = -1 if dim is None else dim
    if not -rank <= dim < rank:
        raise ValueError(f"weight_norm: dim must be in [-{rank}, {rank}) for a weight of "
                         f"shape {weight.shape}, got {dim}")
    dim = dim if dim == -1 else dim % rank
    hook = WeightNorm(name, dim)
    norm = _norm_except_dim(weight, dim)
    g = api.reshape(norm, [] if dim == -1 else [weight.shape[dim]])
    del layer._parameters[name]
    layer.add_parameter(name + "_v", _new_parameter(layer, weight))
    layer.add_parameter(name + "_g", _new_parameter(layer, g))
    setattr(layer, name, hook.compute_weight(layer))
    layer.register_forward_pre_hook(hook)
    return layer


def remove_weight_norm(layer, name="weight"):
    """Undo weight_norm: `layer.<name>` becomes one parameter again (g * v / ||v||)."""
    found = _hook_of(layer, name)
    if found is None:
        raise ValueError(f"weight_norm of '{name}' not found in {type(layer).__name__}")
    key, hook = found
    with no_grad():
        weight = hook.compute_weight(layer)
    delattr(layer, name)
    del layer._parameters[name + "_g"]
    del layer._parameters[name + "_v"]
    layer.add_parameter(name, _new_parameter(layer, weight))
    del layer._forward_pre_hooks[key]
    return layer

"""spectral_norm: the weight divided by its largest singular value, estimated by power
iteration before every training forward.

As in Paddle, `name` becomes the parameter `<name>_orig`, the power-iteration vectors are
the buffers `<name>_u` / `<name>_v`, and a forward pre-hook sets `layer.<name>`.
"""
from ...core.random import generator
from ...eager.grad_mode import no_grad
from ...ops._generated import api

__all__ = ["spectral_norm"]


def _normalize(x, eps):
    """x / max(||x||, eps) for a 1-D x."""
    norm = api.p_norm(x, 2.0, 0, 0.0, True)
    return api.divide(x, api.maximum(norm, api.full_like(norm, eps)))


class SpectralNorm:
    """The forward pre-hook: weight / sigma, sigma = u . (W v) from power iteration."""

    def __init__(self, name, n_power_iterations, dim, eps):
        self.name, self.n_power_iterations, self.dim, self.eps = (
            name, n_power_iterations, dim, eps)

    def matrix(self, weight):
        """weight as a 2-D [size of dim, rest] matrix."""
        if self.dim != 0:
            rest = [d for d in range(len(weight.shape)) if d != self.dim]
            weight = api.transpose(weight, [self.dim] + rest)
        return api.reshape(weight, [weight.shape[0], -1])

    def _power_iteration(self, mat, u, v):
        """Refine the buffers u and v in place (no gradient), as Paddle does in training."""
        with no_grad():
            for _ in range(self.n_power_iterations):
                v.set_value(_normalize(api.matmul(mat, u, True, False), self.eps))
                u.set_value(_normalize(api.matmul(mat, v), self.eps))

    def compute_weight(self, layer, do_power_iteration):
        weight = getattr(layer, self.name + "_orig")
        u, v = getattr(layer, self.name + "_u"), getattr(layer, self.name + "_v")
        mat = self.matrix(weight)
        if do_power_iteration:
            self._power_iteration(mat, u, v)
        sigma = api.sum(api.multiply(u, api.matmul(mat, v)), [])
        return api.divide(weight, sigma)

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer, layer.training))


def _random_unit(size, dtype, eps):
    from ...tensor.creation import to_tensor
    return _normalize(to_tensor(generator().standard_normal(size).astype(dtype.np)), eps)


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Normalise `layer.<name>` by its spectral norm; dim (default 1 for Linear and
    transposed convolutions, whose output axis is 1, else 0) is the output axis."""
    from ..layer.common import Linear
    from ..layer.conv import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                               f"parameter {name}")
    if dim is None:
        transposed = (Linear, Conv1DTranspose, Conv2DTranspose, Conv3DTranspose)
        dim = 1 if isinstance(layer, transposed) else 0
    weight = layer._parameters[name]
    hook = SpectralNorm(name, n_power_iterations, dim, eps)
    height, width = hook.matrix(weight).shape
    del layer._parameters[name]
    layer.add_parameter(name + "_orig", weight)
    setattr(layer, name, api.scale(weight, 1.0))
    layer.register_buffer(name + "_u", _random_unit(height, weight.dtype, eps))
    layer.register_buffer(name + "_v", _random_unit(width, weight.dtype, eps))
    layer.register_forward_pre_hook(hook)
    return layer

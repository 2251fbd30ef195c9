"""paddle.nn.utils: gradient clipping, parameter <-> vector copies, and the weight_norm /
spectral_norm reparameterisations (forward pre-hooks recomputing a layer's weight)."""
from .clip_grad import clip_grad_norm_, clip_grad_value_
from .spectral_norm_hook import spectral_norm
from .transform_parameters import parameters_to_vector, vector_to_parameters
from .weight_norm_hook import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector",
           "vector_to_parameters", "weight_norm", "remove_weight_norm", "spectral_norm"]

"""`paddle.static.nn`: static control flow (cond, while_loop, case, switch_case,
static_pylayer) and the static-graph layers (fc, conv, norm, embedding ...); the
submodule `control_flow` is Paddle's `paddle.static.nn.control_flow`."""
from ...nn.layer.extra import create_parameter  # the same function as paddle.create_parameter
from .. import py_func  # the package's lazy name: the function, not its submodule
from ..control_flow import case, cond, static_pylayer, switch_case, while_loop
from ..conv_layers import conv2d, conv2d_transpose, conv3d, conv3d_transpose
from ..layers import bilinear_tensor_product, embedding, fc, prelu, row_conv
from ..norm_layers import batch_norm, group_norm, instance_norm, layer_norm, spectral_norm
from . import control_flow

__all__ = ["cond", "while_loop", "case", "switch_case", "static_pylayer", "fc", "conv2d",
           "conv3d", "conv2d_transpose", "conv3d_transpose", "batch_norm", "layer_norm",
           "group_norm", "instance_norm", "spectral_norm", "embedding", "prelu",
           "bilinear_tensor_product", "row_conv", "create_parameter", "py_func", "control_flow"]

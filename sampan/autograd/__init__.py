"""`paddle.autograd`: custom differentiable functions (PyLayer), backward(), grad(), and
lazily evaluated Jacobian / Hessian matrices."""
from ..eager.autograd import grad, run_backward
from ..eager.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from ..eager.tensor import Tensor
from .functional import Hessian, Jacobian, hessian, jacobian
from .py_layer import PyLayer, PyLayerContext, PyLayerMeta
from .saved_tensors_hooks import saved_tensors_hooks

__all__ = ["PyLayer", "PyLayerContext", "PyLayerMeta", "Function", "backward", "grad",
           "no_grad", "enable_grad", "is_grad_enabled", "set_grad_enabled", "jacobian",
           "hessian", "Jacobian", "Hessian", "saved_tensors_hooks"]

Function = PyLayer  # Paddle's alias: a custom differentiable function


def backward(tensors, grad_tensors=None, retain_graph=False):
    """Accumulate the gradients of several tensors at once into the leaves' `.grad`."""
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    elif isinstance(grad_tensors, Tensor):  # one gradient goes with one tensor, as in Paddle
        grad_tensors = [grad_tensors]
    grad_tensors = list(grad_tensors)
    if len(grad_tensors) != len(tensors):
        raise ValueError(f"backward(): {len(tensors)} tensors but {len(grad_tensors)} "
                         f"grad_tensors")
    run_backward(tensors, grad_tensors, retain_graph)

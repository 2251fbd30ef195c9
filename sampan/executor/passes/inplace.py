"""In-place reuse: an elementwise op whose first input dies there writes into its buffer.

`sgd` whose output is its own parameter updates the parameter's buffer in place
(earlier readers of the parameter always run first: write-after-read order).

Only inputs produced in the same run by kernels known to return fresh arrays qualify
(never feeds, persistables, constants or views), and only when the op is that value's
sole reader, so no other instruction (sequential or parallel) can observe the write.
The in-place variants apply the same ufunc as the kernel, so results are bit-identical;
at run time they fall back to the kernel when dtypes or shapes do not allow it.
"""
import numpy as np

from ...ops.kernels.elementwise import RELU_CLIP_FROM
from ...ops.registry import OPS

__all__ = ["INPLACE", "FRESH_PRODUCERS", "inplace_kernel"]


def _binary(ufunc, kernel):
    """x (op)= y when y has x's dtype and broadcasts to x's shape (a [1, C, 1, 1] bias
    included), else the kernel."""
    def run(x, y):
        if x.dtype == y.dtype and x.ndim:
            try:  # NumPy refuses an output of another shape than the broadcast result
                return ufunc(x, y, out=x)
            except ValueError:
                pass
        return kernel(x, y)
    return run


def _unary(ufunc, kernel):
    """x = ufunc(x) for floating x, else the kernel."""
    def run(x):
        if x.ndim and x.dtype.kind == "f":
            return ufunc(x, out=x)
        return kernel(x)
    return run


def _relu(kernel):
    """x = max(x, 0) in x's buffer for floating x, else the kernel. Below the kernel's
    RELU_CLIP_FROM elements its ufunc (np.maximum) is called here, a call less per run."""
    def run(x):
        if x.ndim and x.dtype.kind == "f":
            if x.size < RELU_CLIP_FROM:
                return np.maximum(x, 0, out=x)
            return kernel(x, out=x)
        return kernel(x)
    return run


def _sgd(kernel):
    """param -= lr * grad into the persistable's own buffer (Paddle's ParamOut = Param)."""
    def run(param, learning_rate, grad):
        if (param.base is None and param.flags.writeable and param.dtype.kind == "f"
                and grad.shape == param.shape):
            return kernel(param, learning_rate, grad, out=(param,))
        return kernel(param, learning_rate, grad)
    return run


_MAKERS = {
    "add": lambda k: _binary(np.add, k),
    "subtract": lambda k: _binary(np.subtract, k),
    "multiply": lambda k: _binary(np.multiply, k),
    "relu": _relu,
    "tanh": lambda k: _unary(np.tanh, k),
    "exp": lambda k: _unary(np.exp, k),
}
if "sgd" in OPS:
    _MAKERS["sgd"] = _sgd
INPLACE = frozenset(_MAKERS)
FRESH_PRODUCERS = (INPLACE - {"sgd"}) | {"matmul", "divide", "conv2d", "hardswish",
                                          "hardsigmoid"}


def inplace_kernel(op_type):
    """The in-place variant of a kernel (same arguments, may overwrite the first)."""
    return _MAKERS[op_type](OPS[op_type].kernel)

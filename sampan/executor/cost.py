"""Estimated seconds per op from declared shapes: the parallel scheduler's cost model.

An op costs a fixed call overhead plus its work: multiply-adds of matrix products and
convolutions at one BLAS thread's rate, elements touched by everything else (more for
transcendental functions). Unknown (-1) dims count as UNKNOWN_DIM. The figures are rough
by design: they only have to tell a 5 µs op from a 500 µs one (docs/executor.md).
"""
import math

__all__ = ["op_seconds", "CALL_SECONDS"]

CALL_SECONDS = 3e-6          # dispatch of one instruction: Python call, kernel wrapper
ELEMENT_SECONDS = 1e-9       # one element read or written by a simple kernel
TRANSCENDENTAL_SECONDS = 8e-9  # one element of exp, tanh, log, sigmoid, ...
FLOP_SECONDS = 1 / 5e9       # one multiply or add in BLAS (one thread)
OPAQUE_SECONDS = 1e-4        # an op whose work the shapes cannot tell (control flow)
UNKNOWN_DIM = 64

_TRANSCENDENTAL = frozenset({
    "exp", "log", "tanh", "sigmoid", "sin", "cos", "tan", "pow", "sqrt", "rsqrt", "erf",
    "gelu", "silu", "softmax", "log_softmax", "softplus", "swish", "mish", "log1p",
    "expm1", "tanh_grad", "sigmoid_grad", "gelu_grad", "softmax_grad", "exp_grad",
    "log_grad", "silu_grad", "cross_entropy_with_softmax", "cross_entropy_with_softmax_grad"})
_MATMUL_GRAD = {"matmul_grad": 2, "bmm_grad": 2, "mv_grad": 2, "dot_grad": 2}
_MATMUL = {"matmul": 1, "bmm": 1, "mv": 1, "dot": 1, **_MATMUL_GRAD}
_CONV = {"conv2d": 1, "conv3d": 1, "conv2d_grad": 2, "conv3d_grad": 2}


def _shape(block, name):
    """Declared shape of `name` with unknown dims as UNKNOWN_DIM, or None."""
    if name is None or not block.has_var_recursive(name):
        return None
    return [UNKNOWN_DIM if d < 0 else d for d in block.var(name).shape]


def _slot_shape(block, slots, name):
    """Shape of the first variable bound to slot `name` of `slots`, or None."""
    names = slots.get(name) or ()
    return _shape(block, names[0]) if names else None


def _elements(block, names):
    """Largest element count among `names`."""
    sizes = [math.prod(s) for s in (_shape(block, n) for n in names) if s is not None]
    return max(sizes, default=0)


def _product_size(node, block):
    """Elements of the product an op computes (its output, or a grad op's out_grad)."""
    if node.type.endswith("_grad"):
        return _slot_shape(block, node.inputs, "out_grad")
    return _slot_shape(block, node.outputs, "out")


def _matmul_flops(node, block):
    """2 x output elements x the contraction dim of x."""
    x, out = _slot_shape(block, node.inputs, "x"), _product_size(node, block)
    if not x or out is None:
        return 0
    k = x[-2] if node.attrs.get("transpose_x", False) and len(x) > 1 else x[-1]
    return 2 * math.prod(out) * k


def _conv_flops(node, block):
    """2 x output elements x (input channels per group x kernel size)."""
    weight, out = _slot_shape(block, node.inputs, "filter"), _product_size(node, block)
    if weight is None or out is None:
        return 0
    return 2 * math.prod(out) * math.prod(weight[1:])


def op_seconds(node, block, known_types):
    """Estimated seconds of one instruction (`node`, its variables declared in `block`);
    `known_types`: op types whose work follows from their shapes (registry ops)."""
    if node.parts:
        return sum(op_seconds(p, block, known_types) for p in node.parts)
    if node.type not in known_types:
        return OPAQUE_SECONDS
    seconds = CALL_SECONDS
    if node.type in _MATMUL:
        return seconds + _MATMUL[node.type] * _matmul_flops(node, block) * FLOP_SECONDS
    if node.type in _CONV:
        return seconds + _CONV[node.type] * _conv_flops(node, block) * FLOP_SECONDS
    per = TRANSCENDENTAL_SECONDS if node.type in _TRANSCENDENTAL else ELEMENT_SECONDS
    names = node.in_names() + node.out_names()
    return seconds + per * _elements(block, names)

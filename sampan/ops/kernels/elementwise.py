"""NumPy kernels of elementwise ops: arithmetic, math, activations, comparisons and fills.

Ufuncs return NumPy scalars for 0-d inputs, so results go through `_arr`; constants are
Python floats so float32 inputs stay float32 (NumPy 2 treats Python scalars as weak).
"""
import math

import numpy as np

from ...core.dtype import default_float, from_numpy_dtype, promote_operands
from ...core.errors import InvalidArgument
from ..infer_meta.elementwise import fill_dtype

try:  # the ufunc np.clip calls: np.clip adds ~3.5 us of argument handling per call
    from numpy._core.umath import clip as _clip
except ImportError:  # NumPy 1.x
    from numpy.core.umath import clip as _clip

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_TANH_SCALE = math.sqrt(2.0 / math.pi)
_GELU_TANH_CUBIC = 0.044715


# ---------------------------------------------------------------- shared helpers

def _arr(value):
    """The result as an ndarray (ufuncs return NumPy scalars for 0-d inputs)."""
    return value if value.__class__ is np.ndarray else np.array(value)


def _keep_dtype(value, dtype):
    """value as an ndarray of `dtype` (no copy when it already is one; the check is much
    cheaper than np.asarray's own)."""
    if value.__class__ is _NDARRAY and value.dtype == dtype:
        return value
    return np.asarray(value, dtype=dtype)


def _as_float(x):
    """x itself when floating, else x converted to the default float dtype."""
    return x if x.dtype.kind in "fc" else x.astype(default_float().np)


_NDARRAY = np.ndarray


def _common(x, y):
    """x and y converted to their promoted dtype (untouched when their dtypes agree)."""
    if x.dtype == y.dtype:
        return x, y
    dtype = promote_operands(from_numpy_dtype(x.dtype), x.ndim,
                             from_numpy_dtype(y.dtype), y.ndim).np
    return x.astype(dtype, copy=False), y.astype(dtype, copy=False)


_SUM_PLANS = {}


def _sum_plan(grad_shape, shape):
    """(lifted shape or None, axes) that bring a gradient of grad_shape down to `shape`."""
    lifted, lead = None, len(grad_shape) - len(shape)
    if lead < 0:  # fewer dims than the input: lift with leading 1s first
        lifted = grad_shape = (1,) * -lead + grad_shape
        lead = 0
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and grad_shape[lead + i] != 1)
    return lifted, axes


def _sum_to(grad, shape):
    """grad summed over the leading and size-1 dims that broadcasting added to `shape` (the
    plan is cached per pair of shapes: every bias gradient of a training step asks again)."""
    if grad.shape == shape:
        return grad
    key = (grad.shape, shape)
    plan = _SUM_PLANS.get(key)
    if plan is None:
        if len(_SUM_PLANS) > 4096:
            _SUM_PLANS.clear()
        plan = _SUM_PLANS[key] = _sum_plan(grad.shape, tuple(shape))
    lifted, axes = plan
    if lifted is not None:
        grad = grad.reshape(lifted)
    return np.add.reduce(grad, axes).reshape(shape) if axes else grad.reshape(shape)


def _grad_for(x, grad):
    """grad reduced to x's shape and converted to x's dtype (the gradient of input x)."""
    if grad.shape != x.shape:
        grad = _sum_to(grad, x.shape)
    if grad.__class__ is _NDARRAY and grad.dtype == x.dtype:  # the common case, no call
        return grad
    return np.asarray(grad, dtype=x.dtype)


def _masked(keep, grad):
    """grad where `keep` holds, zero elsewhere (a multiply by the mask: ~10x np.where)."""
    if keep is True:
        return _arr(grad)
    return _arr(np.multiply(grad, keep, dtype=grad.dtype))


def _within(x, lower, upper):
    """Where lower <= x <= upper (a None bound is open)."""
    inside = True
    if lower is not None:
        inside = x >= lower
    if upper is not None:
        inside = inside & (x <= upper)
    return inside


def _kernel(name, doc, function):
    """Give a kernel built by a factory its op name and docstring."""
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


def _binary(ufunc, name, doc):
    """Kernel applying a binary ufunc to x and y converted to their promoted dtype."""
    def kernel(x, y):
        if x.dtype is not y.dtype:
            x, y = _common(x, y)
        out = ufunc(x, y)
        return out if out.__class__ is _NDARRAY else np.asarray(out)
    return _kernel(name, doc, kernel)


def _unary(ufunc, name, doc):
    """Kernel applying a unary ufunc that keeps (or decides) the dtype itself."""
    def kernel(x):
        return _arr(ufunc(x))
    return _kernel(name, doc, kernel)


def _unary_float(ufunc, name, doc):
    """Kernel applying a unary ufunc in floating point (integers become default float)."""
    def kernel(x):
        return _arr(ufunc(_as_float(x)))
    return _kernel(name, doc, kernel)


# ---------------------------------------------------------------- binary arithmetic

add = _binary(np.add, "add", "x + y with broadcasting.")
subtract = _binary(np.subtract, "subtract", "x - y with broadcasting.")
multiply = _binary(np.multiply, "multiply", "x * y with broadcasting.")


def _integer_division(ufunc, name, doc):
    """Kernel like `_binary`, refusing an integer divisor of 0 (NumPy would give 0 silently,
    Paddle raises); float division by zero still gives inf / nan."""
    def kernel(x, y):
        if x.dtype is not y.dtype:
            x, y = _common(x, y)
        if y.dtype.kind in "iub" and not y.all():
            raise InvalidArgument("y", "integer division by zero")
        return _arr(ufunc(x, y))
    return _kernel(name, doc, kernel)


floor_divide = _integer_division(np.floor_divide, "floor_divide",
                                 "floor(x / y) with broadcasting.")
remainder = _integer_division(np.remainder, "remainder",
                              "x mod y with broadcasting; the result takes the divisor's sign.")
elementwise_pow = _binary(np.power, "elementwise_pow", "x ** y with broadcasting.")
maximum = _binary(np.maximum, "maximum", "Elementwise larger of x and y.")
minimum = _binary(np.minimum, "minimum", "Elementwise smaller of x and y.")


def divide(x, y):
    """x / y with broadcasting; integer operands divide in the default float dtype."""
    x, y = _common(x, y)
    if x.dtype.kind not in "fc":
        x, y = _as_float(x), _as_float(y)
    return _arr(x / y)


def add_grad(x, y, out_grad):
    """Gradients of x + y."""
    return _grad_for(x, out_grad), _grad_for(y, out_grad)


def subtract_grad(x, y, out_grad):
    """Gradients of x - y."""
    return _grad_for(x, out_grad), _grad_for(y, -out_grad)


def _conj(a):
    """The complex conjugate of a complex array, any other array itself (gradients of complex
    inputs follow the conjugate convention: d/dx of x * y sends out_grad * conj(y))."""
    return a.conj() if a.dtype.kind == "c" else a


def multiply_grad(x, y, out_grad):
    """Gradients of x * y."""
    return _grad_for(x, out_grad * _conj(y)), _grad_for(y, out_grad * _conj(x))


def multiply_double_grad(x, y, out_grad, x_grad_grad, y_grad_grad):
    """Gradients of multiply_grad with respect to x, y and out_grad (absent grads are zero)."""
    ggx = np.zeros_like(x) if x_grad_grad is None else x_grad_grad
    ggy = np.zeros_like(y) if y_grad_grad is None else y_grad_grad
    return (_grad_for(x, out_grad * ggy), _grad_for(y, out_grad * ggx),
            _grad_for(out_grad, ggx * y + x * ggy))


def divide_grad(x, y, out, out_grad):
    """Gradients of x / y."""
    x_part = out_grad / _conj(y)
    return _grad_for(x, x_part), _grad_for(y, -x_part * _conj(out))


def elementwise_pow_grad(x, y, out, out_grad):
    """Gradients of x ** y; the y gradient is taken as zero where x <= 0 (log undefined)."""
    base, exponent = _common(x, y)
    log_base = np.log(base, out=np.zeros_like(base), where=base > 0)
    return (_grad_for(x, out_grad * exponent * base ** (exponent - 1)),
            _grad_for(y, out_grad * out * log_base))


def _winner_grads(x, y, out_grad, x_wins):
    """Route out_grad to the operand max/min picked (y on ties, as Paddle does)."""
    return (_grad_for(x, np.where(x_wins, out_grad, 0)),
            _grad_for(y, np.where(x_wins, 0, out_grad)))


def maximum_grad(x, y, out_grad):
    """Gradients of maximum(x, y)."""
    return _winner_grads(x, y, out_grad, x > y)


def minimum_grad(x, y, out_grad):
    """Gradients of minimum(x, y)."""
    return _winner_grads(x, y, out_grad, x < y)


def pow(x, y):
    """x ** y for a Python number y, in x's dtype."""
    return _keep_dtype(np.power(x, y), x.dtype)


def pow_grad(x, out_grad, y):
    """Gradient of x ** y for a constant y."""
    return _keep_dtype(out_grad * y * np.power(x, y - 1), x.dtype)


def scale(x, scale, bias, bias_after_scale):
    """scale * x + bias, or scale * (x + bias) when bias_after_scale is false; x's dtype (an
    integer x takes scale and bias truncated to integers first, as Paddle's kernel does)."""
    if x.dtype.kind in "iu":
        scale, bias = int(scale), int(bias)
    if bias == 0.0:
        out = x * scale
    else:
        out = x * scale + bias if bias_after_scale else (x + bias) * scale
    return _keep_dtype(out, x.dtype)


def scale_grad(out_grad, scale):
    """Gradient of scale: out_grad * scale."""
    return _keep_dtype(out_grad * scale, out_grad.dtype)


def increment(x, value):
    """x + value in x's dtype."""
    return _keep_dtype(x + value, x.dtype)


# ---------------------------------------------------------------- erf

_ERF_STEP = 0.25
_ERF_LIMIT = 6.125        # beyond, erf(x) is +-1 to float64 precision
_ERF_DEGREES = {np.dtype(np.float32): 7, np.dtype(np.float64): 13}   # ~1e-7 and ~4e-16 rel.


def _erf_taylor_columns(degree, dtype):
    """Taylor coefficients of erf about 0, 1/4, ..., 6, one array per power (built at import).

    The n-th derivative of erf at c is 2/sqrt(pi) exp(-c**2) (-1)**(n-1) H_{n-1}(c) with H the
    physicists' Hermite polynomials; the value itself comes from math.erf.
    """
    centers = np.arange(0.0, _ERF_LIMIT, _ERF_STEP)
    hermite = [np.ones_like(centers), 2.0 * centers]
    for k in range(1, degree - 1):
        hermite.append(2.0 * centers * hermite[k] - 2.0 * k * hermite[k - 1])
    density = _TWO_OVER_SQRT_PI * np.exp(-centers * centers)
    columns = [np.array([math.erf(c) for c in centers])]
    columns += [density * (-1.0) ** (n - 1) * hermite[n - 1] / math.factorial(n)
                for n in range(1, degree + 1)]
    return [column.astype(dtype) for column in columns]


_ERF_COLUMNS = {dtype: _erf_taylor_columns(degree, dtype) for dtype, degree in _ERF_DEGREES.items()}


def _erf(x):
    """erf of a float32/float64 array: a Taylor series about the nearest multiple of 1/4."""
    columns = _ERF_COLUMNS[x.dtype]
    magnitude = np.abs(x)
    nearest = np.rint(np.fmin(magnitude, _ERF_LIMIT) * (1.0 / _ERF_STEP))
    offset = np.minimum(magnitude, _ERF_LIMIT) - nearest * _ERF_STEP   # NaN stays NaN
    index = nearest.astype(np.intp)
    total = columns[-1][index]
    for column in columns[-2::-1]:
        total *= offset
        total += column[index]
    return np.copysign(total, x)


def _erf_any(x):
    """erf of a float array of any width (float16 goes through float32), in x's dtype."""
    if x.dtype in _ERF_COLUMNS:
        return _erf(x)
    return _erf(x.astype(np.float32)).astype(x.dtype)


def erf(x):
    """The error function (integers give the default float dtype)."""
    return _arr(_erf_any(_as_float(x)))


def erf_grad(x, out_grad):
    """Gradient of erf: 2 / sqrt(pi) * exp(-x**2)."""
    return _arr(out_grad * (_TWO_OVER_SQRT_PI * np.exp(-x * x)))


# ---------------------------------------------------------------- unary math

exp = _unary_float(np.exp, "exp", "e ** x.")
log = _unary_float(np.log, "log", "Natural logarithm.")
log2 = _unary_float(np.log2, "log2", "Base-2 logarithm.")
log10 = _unary_float(np.log10, "log10", "Base-10 logarithm.")
log1p = _unary_float(np.log1p, "log1p", "log(1 + x), accurate for small x.")
expm1 = _unary_float(np.expm1, "expm1", "exp(x) - 1, accurate for small x.")
sqrt = _unary_float(np.sqrt, "sqrt", "Square root.")
reciprocal = _unary_float(np.reciprocal, "reciprocal", "1 / x.")
sin = _unary_float(np.sin, "sin", "Sine.")
cos = _unary_float(np.cos, "cos", "Cosine.")
tan = _unary_float(np.tan, "tan", "Tangent.")
tanh = _unary_float(np.tanh, "tanh", "Hyperbolic tangent.")
square = _unary(np.square, "square", "x * x.")
abs = _unary(np.abs, "abs", "Absolute value.")
neg = _unary(np.negative, "neg", "-x.")
sign = _unary(np.sign, "sign", "-1, 0 or 1 by the sign of x.")
floor = _unary(np.floor, "floor", "Largest integer <= x (integers pass unchanged).")
ceil = _unary(np.ceil, "ceil", "Smallest integer >= x (integers pass unchanged).")
trunc = _unary(np.trunc, "trunc", "x rounded toward zero (integers pass unchanged).")
round = _unary(np.round, "round", "x rounded to the nearest integer, halves to even.")


def rsqrt(x):
    """1 / sqrt(x)."""
    return _arr(1.0 / np.sqrt(_as_float(x)))


def _sigmoid(x):
    """Logistic function of a float array as (1 + tanh(x / 2)) / 2: no overflow for large |x|."""
    s = np.tanh(x * 0.5)
    s *= 0.5
    s += 0.5
    return s


def sigmoid(x):
    """Logistic function 1 / (1 + exp(-x))."""
    return _arr(_sigmoid(_as_float(x)))


def exp_grad(out, out_grad):
    """Gradient of exp: out."""
    return _arr(out_grad * out)


def expm1_grad(out, out_grad):
    """Gradient of expm1: out + 1."""
    return _arr(out_grad * (out + 1.0))


def log_grad(x, out_grad):
    """Gradient of log: 1 / x."""
    return _arr(out_grad / x)


def log2_grad(x, out_grad):
    """Gradient of log2: 1 / (x ln 2)."""
    return _arr(out_grad / (x * _LN2))


def log10_grad(x, out_grad):
    """Gradient of log10: 1 / (x ln 10)."""
    return _arr(out_grad / (x * _LN10))


def log1p_grad(x, out_grad):
    """Gradient of log1p: 1 / (1 + x)."""
    return _arr(out_grad / (x + 1.0))


def sqrt_grad(out, out_grad):
    """Gradient of sqrt: 0.5 / out."""
    return _arr(0.5 * out_grad / out)


def rsqrt_grad(out, out_grad):
    """Gradient of rsqrt: -0.5 * out ** 3."""
    return _arr(-0.5 * out_grad * out * out * out)


def reciprocal_grad(out, out_grad):
    """Gradient of reciprocal: -out ** 2."""
    return _arr(-out_grad * out * out)


def square_grad(x, out_grad):
    """Gradient of square: 2 x."""
    return _arr(2.0 * x * out_grad)


def square_double_grad(x, out_grad, x_grad_grad):
    """Gradients of square_grad with respect to x and out_grad."""
    return _arr(2.0 * out_grad * x_grad_grad), _arr(2.0 * x * x_grad_grad)


def abs_grad(x, out_grad):
    """Gradient of abs: sign(x)."""
    return _arr(out_grad * np.sign(x))


def sin_grad(x, out_grad):
    """Gradient of sin: cos(x)."""
    return _arr(out_grad * np.cos(x))


def cos_grad(x, out_grad):
    """Gradient of cos: -sin(x)."""
    return _arr(-out_grad * np.sin(x))


def tan_grad(out, out_grad):
    """Gradient of tan: 1 + out ** 2."""
    return _arr(out_grad * (1.0 + out * out))


def tanh_grad(x, out_grad):
    """Gradient of tanh: 1 - tanh(x) ** 2."""
    t = np.tanh(x)
    return _arr(out_grad * (1.0 - t * t))


def tanh_double_grad(x, out_grad, x_grad_grad):
    """Gradients of tanh_grad with respect to x and out_grad."""
    t = np.tanh(x)
    slope = 1.0 - t * t
    return _arr(-2.0 * t * slope * out_grad * x_grad_grad), _arr(slope * x_grad_grad)


def sigmoid_grad(x, out_grad):
    """Gradient of sigmoid: s (1 - s)."""
    s = _sigmoid(x)
    return _arr(out_grad * s * (1.0 - s))


def sigmoid_double_grad(x, out_grad, x_grad_grad):
    """Gradients of sigmoid_grad with respect to x and out_grad."""
    s = _sigmoid(x)
    slope = s * (1.0 - s)
    return _arr(slope * (1.0 - 2.0 * s) * out_grad * x_grad_grad), _arr(slope * x_grad_grad)


def zero_grad(out_grad):
    """Gradient of a piecewise-constant op (floor, ceil, round, sign, trunc): zeros."""
    return np.zeros_like(out_grad)


# ---------------------------------------------------------------- activations

RELU_CLIP_FROM = 4096
"""Float arrays of this many elements or more take relu through the clip ufunc: one pass,
about 3x faster than np.maximum against a scalar zero on AVX-512 machines. Smaller ones go
through np.maximum, cheaper per call (clip added about 1 us to a batch-1 MLP's two relus).
The two differ only in the sign of zero for -0.0: clip keeps it, np.maximum gives 0.0 (as
Paddle does)."""


def relu(x, out=None):
    """max(x, 0), into `out` when given: np.maximum, or clip for float arrays of
    RELU_CLIP_FROM elements or more; NaN stays NaN either way."""
    if x.dtype.kind == "f" and x.size >= RELU_CLIP_FROM:
        return _arr(_clip(x, 0, np.inf, out=out))
    return _arr(np.maximum(x, 0, out=out))


def relu_grad(out, out_grad):
    """Gradient of relu: passes where out > 0."""
    return _masked(out > 0, out_grad)


def relu6(x):
    """min(max(x, 0), 6)."""
    return _arr(np.minimum(np.maximum(x, 0), 6))


def relu6_grad(out, out_grad):
    """Gradient of relu6: passes where 0 < out < 6."""
    return _masked((out > 0) & (out < 6), out_grad)


def leaky_relu(x, negative_slope):
    """x for x > 0, negative_slope * x otherwise."""
    return _arr(np.where(x > 0, x, x * negative_slope))


def leaky_relu_grad(x, out_grad, negative_slope):
    """Gradient of leaky_relu: 1 or negative_slope."""
    return _arr(np.where(x > 0, out_grad, out_grad * negative_slope))


def _exp_linear(x, linear_scale, saturation):
    """linear_scale * x for x > 0, saturation * (exp(x) - 1) otherwise (elu, selu)."""
    negative_part = saturation * np.expm1(np.minimum(x, 0))
    return _arr(np.where(x > 0, x * linear_scale, negative_part))


def _exp_linear_grad(out, out_grad, linear_scale, saturation):
    """Gradient of `_exp_linear` from its output: linear_scale, or out + saturation."""
    return _arr(np.where(out > 0, out_grad * linear_scale, out_grad * (out + saturation)))


def elu(x, alpha):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    return _exp_linear(x, 1.0, alpha)


def elu_grad(out, out_grad, alpha):
    """Gradient of elu."""
    return _exp_linear_grad(out, out_grad, 1.0, alpha)


def selu(x, scale, alpha):
    """scale * x for x > 0, scale * alpha * (exp(x) - 1) otherwise."""
    return _exp_linear(x, scale, scale * alpha)


def selu_grad(out, out_grad, scale, alpha):
    """Gradient of selu."""
    return _exp_linear_grad(out, out_grad, scale, scale * alpha)


def _gelu_tanh_inner(x):
    """tanh(sqrt(2 / pi) * (x + 0.044715 x**3)), the approximate gelu's gate."""
    return np.tanh(_GELU_TANH_SCALE * (x + _GELU_TANH_CUBIC * x * x * x))


def _gelu_exact_gate(x):
    """Phi(x) = (1 + erf(x / sqrt 2)) / 2, the standard normal CDF."""
    return 0.5 + 0.5 * _erf_any(x * _SQRT_HALF)


def gelu(x, approximate):
    """x * Phi(x), exactly (erf) or with the tanh approximation."""
    if approximate:
        return _arr(0.5 * x * (1.0 + _gelu_tanh_inner(x)))
    return _arr(x * _gelu_exact_gate(x))


def gelu_grad(x, out_grad, approximate):
    """Gradient of gelu."""
    if approximate:
        t = _gelu_tanh_inner(x)
        inner_slope = _GELU_TANH_SCALE * (1.0 + 3.0 * _GELU_TANH_CUBIC * x * x)
        return _arr(out_grad * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * inner_slope))
    density = _INV_SQRT_2PI * np.exp(-0.5 * x * x)
    return _arr(out_grad * (_gelu_exact_gate(x) + x * density))


def silu(x):
    """x * sigmoid(x) (also known as swish)."""
    return _arr(x * _sigmoid(x))


def silu_grad(x, out_grad):
    """Gradient of silu: s (1 + x (1 - s))."""
    s = _sigmoid(x)
    return _arr(out_grad * s * (1.0 + x * (1.0 - s)))


def softplus(x, beta, threshold):
    """log(1 + exp(beta x)) / beta, or x where beta x > threshold."""
    scaled = x * beta
    return _arr(np.where(scaled > threshold, x, np.logaddexp(0, scaled) / beta))


def softplus_grad(x, out_grad, beta, threshold):
    """Gradient of softplus: sigmoid(beta x), or 1 above the threshold."""
    scaled = x * beta
    return _arr(np.where(scaled > threshold, out_grad, out_grad * _sigmoid(scaled)))


def hardswish(x):
    """x * min(max(x + 3, 0), 6) / 6, in one buffer: clip is one fast pass, and no
    temporaries are allocated (about 3x faster than maximum, minimum and two products)."""
    out = _arr(np.add(x, 3.0))
    _clip(out, 0.0, 6.0, out=out)
    out *= x
    out *= 1.0 / 6.0
    return out


def hardswish_grad(x, out_grad):
    """Gradient of hardswish: 0 below -3, 1 above 3, (2x + 3) / 6 between."""
    slope = np.where(x < -3.0, 0, np.where(x > 3.0, 1, (2.0 * x + 3.0) / 6.0))
    return _arr(out_grad * slope)


def hardsigmoid(x, slope, offset):
    """min(max(slope * x + offset, 0), 1), in one buffer (as hardswish)."""
    out = _arr(np.multiply(x, slope))
    out += offset
    _clip(out, 0.0, 1.0, out=out)
    return out


def hardsigmoid_grad(out, out_grad, slope):
    """Gradient of hardsigmoid: slope where 0 < out < 1."""
    return _masked((out > 0) & (out < 1), out_grad * slope)


def mish(x):
    """x * tanh(softplus(x))."""
    return _arr(x * np.tanh(np.logaddexp(0, x)))


def mish_grad(x, out_grad):
    """Gradient of mish: t + x (1 - t**2) sigmoid(x) with t = tanh(softplus(x))."""
    t = np.tanh(np.logaddexp(0, x))
    return _arr(out_grad * (t + x * (1.0 - t * t) * _sigmoid(x)))


def softsign(x):
    """x / (1 + |x|)."""
    return _arr(x / (1.0 + np.abs(x)))


def softsign_grad(x, out_grad):
    """Gradient of softsign: 1 / (1 + |x|) ** 2."""
    denominator = 1.0 + np.abs(x)
    return _arr(out_grad / (denominator * denominator))


def logsigmoid(x):
    """log(sigmoid(x)) = -softplus(-x), computed stably."""
    return _arr(-np.logaddexp(0, -x))


def logsigmoid_grad(x, out_grad):
    """Gradient of logsigmoid: sigmoid(-x)."""
    return _arr(out_grad * _sigmoid(-x))


def clip(x, lower, upper):
    """x limited to [lower, upper] (a None bound is open), in x's dtype."""
    out = x if lower is None else np.maximum(x, lower)
    out = out if upper is None else np.minimum(out, upper)
    return x.copy() if out is x else _keep_dtype(out, x.dtype)


def clip_grad(x, out_grad, lower, upper):
    """Gradient of clip (and hardtanh): passes where lower <= x <= upper."""
    return _masked(_within(x, lower, upper), out_grad)


# ---------------------------------------------------------------- selection

def where(condition, x, y):
    """x where condition holds, else y (all three broadcast)."""
    x, y = _common(x, y)
    return _arr(np.where(condition, x, y))


def where_grad(condition, x, y, out_grad):
    """Gradients of where: out_grad routed to the chosen operand."""
    return (_grad_for(x, np.where(condition, out_grad, 0)),
            _grad_for(y, np.where(condition, 0, out_grad)))


# ---------------------------------------------------------------- comparisons and logic

equal = _binary(np.equal, "equal", "x == y with broadcasting.")
not_equal = _binary(np.not_equal, "not_equal", "x != y with broadcasting.")
less_than = _binary(np.less, "less_than", "x < y with broadcasting.")
less_equal = _binary(np.less_equal, "less_equal", "x <= y with broadcasting.")
greater_than = _binary(np.greater, "greater_than", "x > y with broadcasting.")
greater_equal = _binary(np.greater_equal, "greater_equal", "x >= y with broadcasting.")
logical_and = _binary(np.logical_and, "logical_and", "Truthiness of x and y, both true.")
logical_or = _binary(np.logical_or, "logical_or", "Truthiness of x or y.")
logical_xor = _binary(np.logical_xor, "logical_xor", "Exactly one of x and y is true.")
logical_not = _unary(np.logical_not, "logical_not", "x is false (zero).")
bitwise_and = _binary(np.bitwise_and, "bitwise_and", "Bitwise x & y of integers or bools.")
bitwise_or = _binary(np.bitwise_or, "bitwise_or", "Bitwise x | y of integers or bools.")
bitwise_xor = _binary(np.bitwise_xor, "bitwise_xor", "Bitwise x ^ y of integers or bools.")
bitwise_not = _unary(np.invert, "bitwise_not", "Bitwise ~x of integers (logical not of bools).")
isnan = _unary(np.isnan, "isnan", "x is NaN.")
isinf = _unary(np.isinf, "isinf", "x is +-infinity.")
isfinite = _unary(np.isfinite, "isfinite", "x is neither NaN nor infinite.")


def isclose(x, y, rtol, atol, equal_nan):
    """|x - y| <= atol + rtol * |y| elementwise, with broadcasting."""
    x, y = _common(x, y)
    return _arr(np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(x, y, rtol, atol, equal_nan):
    """Whether isclose holds everywhere, as a 0-d bool."""
    return np.asarray(isclose(x, y, rtol, atol, equal_nan).all())


# ---------------------------------------------------------------- dtype, copies and fills

def cast(x, dtype):
    """x converted to `dtype` (always a new array)."""
    return x.astype(dtype.np)


def cast_grad(x, out_grad):
    """Gradient of cast: out_grad converted back to x's dtype."""
    return out_grad.astype(x.dtype)


def assign(x):
    """A copy of x."""
    return x.copy()


def full(shape, fill_value, dtype):
    """A new array of `shape` filled with fill_value (dtype inferred from it when None)."""
    return np.full(shape, fill_value, dtype=(dtype or fill_dtype(fill_value)).np)


def full_like(x, fill_value, dtype):
    """An array shaped like x filled with fill_value, in `dtype` or x's dtype."""
    return np.full(x.shape, fill_value, dtype=dtype.np if dtype else x.dtype)

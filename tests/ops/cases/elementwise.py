"""Cases for elementwise ops: arithmetic, math, activations, comparisons, casts and fills."""
import math

import numpy as np

from sampan.core.dtype import bool_, float32, float64, int32
from tests.ops.case import OpCase, boolean, distinct, positive, rand, rand_away, randint

SELU_SCALE = 1.0507009873554805
SELU_ALPHA = 1.6732632423543772


def _f32(array):
    """The same values in float32."""
    return array.astype(np.float32)


def _in_dtype(function):
    """A reference computed in float64 and returned in the first input's dtype."""
    def ref(x, *rest, **attrs):
        return np.asarray(function(x.astype(np.float64), *rest, **attrs)).astype(x.dtype)
    return ref


def _avoiding(*kinks, low=-1.0, high=1.0, gap=0.05):
    """A maker of uniform inputs in [low, high) nudged at least `gap` away from the kinks."""
    def make(*shape):
        x = rand(*shape, low=low, high=high)
        for kink in kinks:
            x = np.where(np.abs(x - kink) < gap, x + 2 * gap, x)
        return x
    return make


def _promoted(function, dtype):
    """A reference applying `function` to both inputs converted to `dtype`."""
    return lambda x, y: function(x.astype(dtype), y.astype(dtype))


# ---------------------------------------------------------------- binary arithmetic

def _array_maker(make):
    """`make` returning an ndarray even for a 0-d shape (rand_away() gives a NumPy scalar)."""
    return lambda *shape: np.asarray(make(*shape))


def _binary_cases(op, ref, make_x=rand, make_y=rand):
    """Same shape, broadcasting both ways, 0-d, empty and float32 variants of a binary op."""
    make_x, make_y = _array_maker(make_x), _array_maker(make_y)
    return [
        OpCase(op, {"x": make_x(3, 4), "y": make_y(3, 4)}, ref=ref, name="same"),
        OpCase(op, {"x": make_x(2, 3, 4), "y": make_y(4)}, ref=ref, name="trailing"),
        OpCase(op, {"x": make_x(3, 1), "y": make_y(1, 4)}, ref=ref, name="outer"),
        OpCase(op, {"x": make_x(), "y": make_y(2, 3)}, ref=ref, name="scalar_x"),
        OpCase(op, {"x": make_x(), "y": make_y()}, ref=ref, name="0d"),
        OpCase(op, {"x": make_x(0, 3), "y": make_y(3)}, ref=ref, name="empty"),
        OpCase(op, {"x": _f32(make_x(2, 3)), "y": _f32(make_y(2, 3))}, ref=ref, grad=(),
               rtol=1e-5, name="float32"),
    ]


def _floor_mod(x, y):
    """Python's % rule: the remainder takes the divisor's sign."""
    return x - np.floor(x / y) * y


def _distinct_shifted(*shape):
    """Distinct values off the grid of `distinct`, so x and y never tie."""
    return distinct(*shape) + 0.021


BINARY = (
    _binary_cases("add", np.add)
    + _binary_cases("subtract", np.subtract)
    + _binary_cases("multiply", np.multiply)
    + _binary_cases("divide", np.divide, make_y=rand_away)
    + _binary_cases("elementwise_pow", np.power, make_x=positive)
    + _binary_cases("maximum", np.maximum, make_x=distinct, make_y=_distinct_shifted)
    + _binary_cases("minimum", np.minimum, make_x=distinct, make_y=_distinct_shifted)
    + [
        OpCase("add", {"x": rand(2, 3, dtype="float32"), "y": rand(3)},
               ref=_promoted(np.add, np.float64), grad=(), name="mixed_float"),
        OpCase("add", {"x": randint(2, 3), "y": rand(3, dtype="float32")},
               ref=_promoted(np.add, np.float32), grad=(), rtol=1e-5, name="int_float32"),
        OpCase("add", {"x": randint(2, 3, dtype="int32"), "y": randint(2, 3)},
               ref=_promoted(np.add, np.int64), name="int32_int64"),
        OpCase("add", {"x": boolean(2, 3), "y": boolean(2, 3)}, ref=np.logical_or, name="bool"),
        OpCase("multiply", {"x": rand(2, 3), "y": rand(2, 3)}, ref=np.multiply,
               grad=("x",), name="grad_x_only"),
        OpCase("subtract", {"x": randint(2, 3), "y": randint(3)}, ref=np.subtract, name="int"),
        OpCase("divide", {"x": randint(2, 3), "y": randint(3, low=1)},
               ref=lambda x, y: (x / y).astype(np.float32), rtol=1e-6, name="int_int"),
        OpCase("elementwise_pow", {"x": randint(2, 3), "y": randint(3)}, ref=np.power,
               name="int"),
        OpCase("maximum", {"x": randint(2, 3), "y": randint(2, 3)}, ref=np.maximum, name="int"),
        OpCase("floor_divide", {"x": rand(3, 4, low=-5, high=5), "y": rand_away(4, high=2)},
               ref=lambda x, y: np.floor(x / y), name="float"),
        OpCase("floor_divide", {"x": randint(3, 4, low=-9, high=9), "y": randint(4, low=1)},
               ref=lambda x, y: np.array([[a // b for a, b in zip(r, y)] for r in x]),
               name="int"),
        OpCase("floor_divide", {"x": np.array(-7), "y": np.array(2)},
               ref=lambda x, y: np.array(-4), name="0d"),
        OpCase("floor_divide", {"x": rand(0, 2), "y": rand_away(2)},
               ref=lambda x, y: np.floor(x / y), name="empty"),
        OpCase("remainder", {"x": rand(3, 4, low=-5, high=5), "y": rand_away(4, high=2)},
               ref=_floor_mod, name="float"),
        OpCase("remainder", {"x": np.array([-7, 7, -7, 7, 0]), "y": np.array([2, 2, -2, -2, 3])},
               ref=lambda x, y: np.array([1, 1, -1, -1, 0]), name="signs"),
        OpCase("remainder", {"x": np.array(-7.5), "y": rand(2, 3, low=1, high=2)},
               ref=_floor_mod, name="0d"),
    ]
)


# ---------------------------------------------------------------- scalar-attribute arithmetic

SCALAR_ARITH = [
    OpCase("pow", {"x": positive(3, 4)}, {"y": 2.5}, ref=lambda x, y=1.0: x ** y, name="float"),
    OpCase("pow", {"x": rand(2, 3)}, {"y": 3}, ref=lambda x, y=1.0: x ** y, name="int_exponent"),
    OpCase("pow", {"x": positive()}, {"y": -0.5}, ref=lambda x, y=1.0: x ** y, name="0d"),
    OpCase("pow", {"x": rand(2, 3)}, ref=lambda x, y=1.0: x ** y, name="default"),
    OpCase("pow", {"x": _f32(positive(4))}, {"y": 0.5}, ref=_in_dtype(lambda x, y: x ** y),
           grad=(), rtol=1e-5, name="float32"),
    OpCase("pow", {"x": randint(2, 3)}, {"y": 2}, ref=lambda x, y=1.0: x ** y, name="int"),
    OpCase("scale", {"x": rand(3, 4)}, {"scale": 2.5, "bias": 0.5},
           ref=lambda x, scale=1.0, bias=0.0, bias_after_scale=True: scale * x + bias,
           name="after"),
    OpCase("scale", {"x": rand(3, 4)}, {"scale": 2.5, "bias": 0.5, "bias_after_scale": False},
           ref=lambda x, scale=1.0, bias=0.0, bias_after_scale=True: scale * (x + bias),
           name="before"),
    OpCase("scale", {"x": rand()}, {"scale": -3.0}, ref=lambda x, scale=1.0, **_: scale * x,
           name="0d"),
    OpCase("scale", {"x": _f32(rand(2, 3))}, {"scale": 0.1, "bias": 1.0},
           ref=_in_dtype(lambda x, scale, bias: scale * x + bias), grad=(), rtol=1e-5,
           name="float32"),
    OpCase("scale", {"x": randint(2, 3)}, {"scale": 3.0, "bias": 1.0},
           ref=lambda x, scale, bias: 3 * x + 1, name="int"),
    OpCase("increment", {"x": rand(1)}, ref=lambda x, value=1.0: x + value, name="default"),
    OpCase("increment", {"x": rand()}, {"value": -2.5}, ref=lambda x, value=1.0: x + value,
           name="0d"),
    OpCase("increment", {"x": randint(1, 1)}, {"value": 3.0},
           ref=lambda x, value=1.0: x + 3, name="int"),
]


# ---------------------------------------------------------------- unary math

def _unary_cases(op, ref, make=rand, rtol=1e-6):
    """1-d, 2-d, 0-d, empty and float32 inputs of a unary op."""
    make = _array_maker(make)
    return [
        OpCase(op, {"x": make(5)}, ref=ref, rtol=rtol, name="1d"),
        OpCase(op, {"x": make(3, 4)}, ref=ref, rtol=rtol, name="2d"),
        OpCase(op, {"x": make()}, ref=ref, rtol=rtol, name="0d"),
        OpCase(op, {"x": make(0, 3)}, ref=ref, rtol=rtol, name="empty"),
        OpCase(op, {"x": _f32(make(2, 3))}, ref=_in_dtype(ref), grad=(), rtol=max(rtol, 1e-5),
               atol=1e-6, name="float32"),
    ]


def _erf_ref(x):
    """math.erf elementwise (the reference the vectorised kernel must match)."""
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _sigmoid_ref(x):
    """1 / (1 + exp(-x))."""
    return 1.0 / (1.0 + np.exp(-x))


ERF_WIDE = np.array([-8.0, -5.5, -3.2, -2.0, -1.999, -0.7, -1e-9, 0.0, 3e-8, 0.4, 1.3, 2.0,
                     2.001, 2.6, 4.1, 6.3, 6.99, 7.0, 9.5, 30.0])

UNARY = (
    _unary_cases("exp", np.exp)
    + _unary_cases("log", np.log, make=positive)
    + _unary_cases("log2", np.log2, make=positive)
    + _unary_cases("log10", np.log10, make=positive)
    + _unary_cases("log1p", np.log1p, make=positive)
    + _unary_cases("expm1", np.expm1)
    + _unary_cases("sqrt", np.sqrt, make=positive)
    + _unary_cases("rsqrt", lambda x: 1.0 / np.sqrt(x), make=positive)
    + _unary_cases("square", np.square)
    + _unary_cases("abs", np.abs, make=rand_away)
    + _unary_cases("neg", np.negative)
    + _unary_cases("reciprocal", np.reciprocal, make=rand_away)
    + _unary_cases("sin", np.sin)
    + _unary_cases("cos", np.cos)
    + _unary_cases("tan", np.tan)
    + _unary_cases("tanh", np.tanh)
    + _unary_cases("sigmoid", _sigmoid_ref)
    + _unary_cases("erf", _erf_ref)
    + [
        OpCase("erf", {"x": ERF_WIDE}, ref=_erf_ref, rtol=1e-14, atol=0, grad=(), name="wide"),
        OpCase("erf", {"x": rand(4, 5, low=-3, high=3)}, ref=_erf_ref, rtol=1e-13, atol=1e-16,
               name="core_and_tail"),
        OpCase("sigmoid", {"x": rand(6, low=-30, high=30)}, ref=_sigmoid_ref, atol=1e-12,
               name="wide"),
        OpCase("exp", {"x": randint(2, 3)}, ref=lambda x: np.exp(x).astype(np.float32),
               rtol=1e-6, name="int_to_float"),
        OpCase("sqrt", {"x": randint(4, low=1, high=9, dtype="int32")},
               ref=lambda x: np.sqrt(x).astype(np.float32), rtol=1e-6, name="int_to_float"),
        OpCase("abs", {"x": randint(2, 3, low=-5, high=5)}, ref=np.abs, name="int"),
        OpCase("neg", {"x": randint(2, 3, low=-5, high=5, dtype="int32")}, ref=np.negative,
               name="int"),
        OpCase("square", {"x": randint(4, low=-5, high=5)}, ref=np.square, name="int"),
    ]
)

# Piecewise-constant ops: inputs away from their jumps so the gradient check sees a flat
# function; `round` halves are checked separately for ties-to-even.
OFF_INTEGERS = _avoiding(-3, -2, -1, 0, 1, 2, 3, low=-3, high=3)
OFF_HALVES = _avoiding(-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, low=-3, high=3)
ROUNDING = (
    _unary_cases("floor", np.floor, make=OFF_INTEGERS)
    + _unary_cases("ceil", np.ceil, make=OFF_INTEGERS)
    + _unary_cases("trunc", np.trunc, make=OFF_INTEGERS)
    + _unary_cases("round", np.round, make=OFF_HALVES)
    + _unary_cases("sign", np.sign, make=rand_away)
    + [
        OpCase("round", {"x": np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])},
               ref=lambda x: np.array([-2.0, -2.0, -0.0, 0.0, 2.0, 2.0]), grad=(),
               name="half_to_even"),
        OpCase("sign", {"x": np.array([-3, 0, 4])}, ref=np.sign, name="int_zero"),
        OpCase("floor", {"x": randint(2, 3, low=-5, high=5)}, ref=np.floor, name="int"),
    ]
)


# ---------------------------------------------------------------- activations

def _softplus_ref(x, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, x above the threshold."""
    scaled = np.minimum(beta * x, threshold)
    return np.where(beta * x > threshold, x, np.log1p(np.exp(scaled)) / beta)


def _gelu_ref(x, approximate=False):
    """Exact (erf) or tanh-approximated gelu."""
    if approximate:
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + _erf_ref(x / math.sqrt(2)))


def _selu_ref(x, scale=SELU_SCALE, alpha=SELU_ALPHA):
    """scale * (x or alpha * (exp(x) - 1))."""
    return scale * np.where(x > 0, x, alpha * (np.exp(x) - 1))


def _hardswish_ref(x):
    """x * relu6(x + 3) / 6."""
    return x * np.minimum(np.maximum(x + 3, 0), 6) / 6


def _mish_ref(x):
    """x * tanh(log(1 + exp(x)))."""
    return x * np.tanh(np.log1p(np.exp(x)))


# Inputs that straddle the kinks at -3, 0, 3, 6 without touching them.
KINKS = np.array([-4.2, -3.1, -2.9, -1.0, -0.2, 0.3, 1.7, 2.9, 3.2, 5.5, 6.3, 7.0])

ACTIVATIONS = (
    _unary_cases("relu", lambda x: np.maximum(x, 0), make=rand_away)
    + _unary_cases("relu6", lambda x: np.clip(x, 0, 6), make=_avoiding(0, 6, low=-2, high=8))
    + _unary_cases("leaky_relu", lambda x, negative_slope=0.01: np.where(x > 0, x, 0.01 * x),
                   make=rand_away)
    + _unary_cases("elu", lambda x, alpha=1.0: np.where(x > 0, x, alpha * (np.exp(x) - 1)),
                   make=rand_away)
    + _unary_cases("gelu", _gelu_ref, make=lambda *s: rand(*s, low=-3, high=3))
    + _unary_cases("silu", lambda x: x * _sigmoid_ref(x), make=lambda *s: rand(*s, low=-4, high=4))
    + _unary_cases("softplus", _softplus_ref, make=lambda *s: rand(*s, low=-5, high=5))
    + _unary_cases("hardswish", _hardswish_ref, make=_avoiding(-3, 3, low=-5, high=5))
    + _unary_cases("hardsigmoid", lambda x, slope=0.1666667, offset=0.5:
                   np.clip(slope * x + offset, 0, 1), make=_avoiding(-3, 3, low=-5, high=5))
    + _unary_cases("hardtanh", lambda x, min=-1.0, max=1.0: np.clip(x, min, max),
                   make=_avoiding(-1, 1, low=-2, high=2))
    + _unary_cases("mish", _mish_ref, make=lambda *s: rand(*s, low=-4, high=4))
    + _unary_cases("softsign", lambda x: x / (1 + np.abs(x)), make=rand_away)
    + _unary_cases("logsigmoid", lambda x: np.log(_sigmoid_ref(x)),
                   make=lambda *s: rand(*s, low=-6, high=6))
    + _unary_cases("selu", _selu_ref, make=rand_away)
    + [
        OpCase("relu", {"x": randint(2, 3, low=-3, high=3)}, ref=lambda x: np.maximum(x, 0),
               name="int"),
        OpCase("relu", {"x": np.array([np.nan, -np.inf, -1.0, -0.0, 0.0, 2.0, np.inf],
                                      "float32")},
               ref=lambda x: np.maximum(x, 0), grad=(), name="special"),
        OpCase("relu6", {"x": KINKS}, ref=lambda x: np.clip(x, 0, 6), name="kinks"),
        OpCase("leaky_relu", {"x": rand_away(3, 4)}, {"negative_slope": 0.2},
               ref=lambda x, negative_slope: np.where(x > 0, x, negative_slope * x), name="slope"),
        OpCase("elu", {"x": rand_away(3, 4, high=3)}, {"alpha": 0.5},
               ref=lambda x, alpha: np.where(x > 0, x, alpha * (np.exp(x) - 1)), name="alpha"),
        OpCase("gelu", {"x": rand(3, 4, low=-3, high=3)}, {"approximate": True}, ref=_gelu_ref,
               name="tanh"),
        OpCase("gelu", {"x": rand()}, {"approximate": True}, ref=_gelu_ref, name="tanh_0d"),
        OpCase("gelu", {"x": np.array([-9.0, -6.0, -2.5, 2.5, 6.0, 9.0])}, ref=_gelu_ref,
               rtol=1e-12, atol=1e-15, name="tails"),
        OpCase("softplus", {"x": rand(3, 4, low=-3, high=3)}, {"beta": 2.0, "threshold": 3.0},
               ref=_softplus_ref, name="beta_threshold"),
        OpCase("softplus", {"x": np.array([-800.0, -40.0, 25.0, 800.0])}, ref=_softplus_ref,
               grad=(), atol=1e-300, name="extremes"),
        OpCase("hardswish", {"x": KINKS}, ref=_hardswish_ref, name="kinks"),
        OpCase("hardsigmoid", {"x": _avoiding(-1.5, 3.5, low=-4, high=4)(3, 4)},
               {"slope": 0.2, "offset": 0.3},
               ref=lambda x, slope, offset: np.clip(slope * x + offset, 0, 1), name="attrs"),
        OpCase("hardtanh", {"x": _avoiding(-0.5, 2, low=-3, high=3)(3, 4)},
               {"min": -0.5, "max": 2.0},
               ref=lambda x, min, max: np.clip(x, min, max), name="bounds"),
        OpCase("logsigmoid", {"x": np.array([-800.0, -30.0, 30.0, 800.0])},
               ref=lambda x: -np.logaddexp(0, -x), grad=(), name="extremes"),
        OpCase("selu", {"x": rand_away(3, 4)}, {"scale": 2.0, "alpha": 0.5}, ref=_selu_ref,
               name="attrs"),
    ]
)


# ---------------------------------------------------------------- clip and where

CLIP = [
    OpCase("clip", {"x": _avoiding(-0.5, 0.75, low=-2, high=2)(3, 4)}, {"min": -0.5, "max": 0.75},
           ref=lambda x, min=None, max=None: np.clip(x, min, max), name="both"),
    OpCase("clip", {"x": rand_away(3, 4)}, {"min": 0.05},
           ref=lambda x, min=None, max=None: np.maximum(x, min), name="min_only"),
    OpCase("clip", {"x": rand_away(3, 4)}, {"max": -0.05},
           ref=lambda x, min=None, max=None: np.minimum(x, max), name="max_only"),
    OpCase("clip", {"x": rand(2, 3)}, ref=lambda x, min=None, max=None: x, name="unbounded"),
    OpCase("clip", {"x": np.array(0.7)}, {"min": 0.0, "max": 0.5},
           ref=lambda x, min, max: np.array(0.5), name="0d"),
    OpCase("clip", {"x": rand(0, 2)}, {"min": 0.0, "max": 0.5},
           ref=lambda x, min, max: np.clip(x, min, max), name="empty"),
    OpCase("clip", {"x": randint(2, 3, low=-5, high=5)}, {"min": -2, "max": 3},
           ref=lambda x, min, max: np.clip(x, min, max), name="int"),
    OpCase("clip", {"x": _f32(rand_away(2, 3))}, {"min": -0.3, "max": 0.3},
           ref=lambda x, min, max: np.clip(x, np.float32(min), np.float32(max)), grad=(),
           name="float32"),
]


def _where_ref(condition, x, y):
    """np.where in the promoted dtype."""
    return np.where(condition, x, y)


WHERE = [
    OpCase("where", {"condition": boolean(3, 4), "x": rand(3, 4), "y": rand(3, 4)},
           ref=_where_ref, name="same"),
    OpCase("where", {"condition": boolean(3, 1), "x": rand(4), "y": rand(3, 4)},
           ref=_where_ref, name="broadcast"),
    OpCase("where", {"condition": boolean(2, 3), "x": rand(), "y": rand()},
           ref=_where_ref, name="scalars"),
    OpCase("where", {"condition": np.array(True), "x": rand(), "y": rand()},
           ref=_where_ref, name="0d"),
    OpCase("where", {"condition": boolean(0, 3), "x": rand(3), "y": rand(0, 3)},
           ref=_where_ref, name="empty"),
    OpCase("where", {"condition": boolean(2, 3), "x": randint(2, 3), "y": _f32(rand(2, 3))},
           ref=lambda c, x, y: np.where(c, x.astype(np.float32), y), grad=(), name="mixed"),
]


# ---------------------------------------------------------------- comparisons and logic

def _compare_cases(op, ufunc):
    """Float, broadcast, 0-d, empty, mixed-dtype and equal-valued operands of a comparison."""
    ties = np.array([0.5, 1.0, -2.0, 3.0])
    return [
        OpCase(op, {"x": rand(3, 4), "y": rand(3, 4)}, ref=ufunc, name="same"),
        OpCase(op, {"x": rand(3, 1), "y": rand(4)}, ref=ufunc, name="broadcast"),
        OpCase(op, {"x": rand(), "y": rand()}, ref=ufunc, name="0d"),
        OpCase(op, {"x": rand(0, 4), "y": rand(4)}, ref=ufunc, name="empty"),
        OpCase(op, {"x": ties, "y": np.array([0.5, 2.0, -2.0, 1.0], np.float32)}, ref=ufunc,
               name="ties_mixed"),
        OpCase(op, {"x": randint(2, 3), "y": randint(3, dtype="int32")}, ref=ufunc, name="int"),
    ]


def _logical_cases(op, ufunc):
    """Bool, numeric (truthiness), mixed-dtype, broadcast, 0-d and empty logical operands."""
    return [
        OpCase(op, {"x": boolean(3, 4), "y": boolean(3, 4)}, ref=ufunc, name="bool"),
        OpCase(op, {"x": randint(3, 4, high=2), "y": boolean(4)}, ref=ufunc, name="mixed"),
        OpCase(op, {"x": rand(3, 1) * boolean(3, 1), "y": randint(4, high=3, dtype="int32")},
               ref=ufunc, name="float_int"),
        OpCase(op, {"x": np.array(True), "y": np.array(False)}, ref=ufunc, name="0d"),
        OpCase(op, {"x": boolean(0, 2), "y": boolean(2)}, ref=ufunc, name="empty"),
    ]


def _bitwise_cases(op, ufunc):
    """Integer, bool, broadcast, mixed-width and 0-d bitwise operands."""
    return [
        OpCase(op, {"x": randint(3, 4, high=64), "y": randint(3, 4, high=64)}, ref=ufunc,
               name="int"),
        OpCase(op, {"x": randint(3, 4, low=-64, high=64, dtype="int32"), "y": randint(4, high=9)},
               ref=ufunc, name="broadcast_mixed"),
        OpCase(op, {"x": boolean(2, 3), "y": boolean(2, 3)}, ref=ufunc, name="bool"),
        OpCase(op, {"x": np.array(12), "y": np.array(10)}, ref=ufunc, name="0d"),
    ]


def _isclose_ref(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    """np.isclose with Paddle's defaults."""
    return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


NEAR_X = np.array([1.0, 1.0, 2.0, np.nan, np.inf, 0.0])
NEAR_Y = np.array([1.0 + 1e-6, 1.1, 2.0 + 1e-4, np.nan, np.inf, 1e-9])
SPECIAL = np.array([0.5, -np.inf, np.nan, np.inf, -2.0, 0.0])

LOGIC = (
    _compare_cases("equal", np.equal)
    + _compare_cases("not_equal", np.not_equal)
    + _compare_cases("less_than", np.less)
    + _compare_cases("less_equal", np.less_equal)
    + _compare_cases("greater_than", np.greater)
    + _compare_cases("greater_equal", np.greater_equal)
    + _logical_cases("logical_and", np.logical_and)
    + _logical_cases("logical_or", np.logical_or)
    + _logical_cases("logical_xor", np.logical_xor)
    + _bitwise_cases("bitwise_and", np.bitwise_and)
    + _bitwise_cases("bitwise_or", np.bitwise_or)
    + _bitwise_cases("bitwise_xor", np.bitwise_xor)
    + [
        OpCase("logical_not", {"x": boolean(3, 4)}, ref=np.logical_not, name="bool"),
        OpCase("logical_not", {"x": randint(5, high=3)}, ref=np.logical_not, name="int"),
        OpCase("logical_not", {"x": np.array(0.0)}, ref=np.logical_not, name="0d"),
        OpCase("bitwise_not", {"x": randint(3, 4, low=-9, high=9)}, ref=np.invert, name="int"),
        OpCase("bitwise_not", {"x": boolean(5)}, ref=np.invert, name="bool"),
        OpCase("bitwise_not", {"x": np.array(5, np.uint8)}, ref=np.invert, name="uint8_0d"),
        OpCase("isnan", {"x": SPECIAL}, ref=np.isnan, name="special"),
        OpCase("isnan", {"x": randint(2, 3)}, ref=np.isnan, name="int"),
        OpCase("isnan", {"x": np.array(np.nan, np.float32)}, ref=np.isnan, name="0d"),
        OpCase("isinf", {"x": SPECIAL}, ref=np.isinf, name="special"),
        OpCase("isinf", {"x": rand(0, 3)}, ref=np.isinf, name="empty"),
        OpCase("isfinite", {"x": SPECIAL}, ref=np.isfinite, name="special"),
        OpCase("isfinite", {"x": rand()}, ref=np.isfinite, name="0d"),
        OpCase("isclose", {"x": NEAR_X, "y": NEAR_Y}, ref=_isclose_ref, name="defaults"),
        OpCase("isclose", {"x": NEAR_X, "y": NEAR_Y}, {"equal_nan": True, "rtol": 0.1},
               ref=_isclose_ref, name="equal_nan"),
        OpCase("isclose", {"x": rand(3, 1), "y": rand(4)}, {"atol": 0.5}, ref=_isclose_ref,
               name="broadcast"),
        OpCase("isclose", {"x": np.array(1.0), "y": np.array(1.0 + 1e-9, np.float32)},
               ref=_isclose_ref, name="0d"),
        OpCase("allclose", {"x": NEAR_X[:3], "y": NEAR_Y[:3]}, {"rtol": 0.1},
               ref=lambda x, y, **tols: np.array(np.allclose(x, y, **tols)), name="true"),
        OpCase("allclose", {"x": NEAR_X, "y": NEAR_Y},
               ref=lambda x, y, **tols: np.array(np.allclose(x, y, **tols)), name="false"),
        OpCase("allclose", {"x": rand(2, 3), "y": rand(3)}, {"atol": 2.0},
               ref=lambda x, y, **tols: np.array(True), name="broadcast"),
        OpCase("allclose", {"x": rand(0), "y": rand(0)},
               ref=lambda x, y, **tols: np.array(True), name="empty"),
    ]
)


# ---------------------------------------------------------------- cast, copies and fills

FILLS = [
    OpCase("cast", {"x": rand(3, 4)}, {"dtype": float32}, ref=lambda x, dtype: _f32(x),
           grad=(), name="to_float32"),
    OpCase("cast", {"x": _f32(rand(3, 4))}, {"dtype": float64},
           ref=lambda x, dtype: x.astype(np.float64), grad=(), name="to_float64"),
    OpCase("cast", {"x": rand(2, 3) * 5}, {"dtype": int32},
           ref=lambda x, dtype: x.astype(np.int32), grad=(), name="to_int32"),
    OpCase("cast", {"x": randint(2, 3, high=2)}, {"dtype": bool_},
           ref=lambda x, dtype: x.astype(bool), name="to_bool"),
    OpCase("cast", {"x": rand()}, {"dtype": float64}, ref=lambda x, dtype: x, name="0d_same"),
    OpCase("cast", {"x": rand(0, 2)}, {"dtype": float32}, ref=lambda x, dtype: _f32(x),
           grad=(), name="empty"),
    OpCase("assign", {"x": rand(3, 4)}, ref=lambda x: x, name="2d"),
    OpCase("assign", {"x": rand()}, ref=lambda x: x, name="0d"),
    OpCase("assign", {"x": boolean(0, 2)}, ref=lambda x: x, name="empty_bool"),
    OpCase("full", {}, {"shape": (2, 3), "fill_value": 1.5},
           ref=lambda shape, fill_value=0.0, dtype=None: np.full(shape, 1.5, np.float32),
           name="float"),
    OpCase("full", {}, {"shape": (4,), "fill_value": 7},
           ref=lambda shape, fill_value, dtype=None: np.full(shape, 7, np.int64), name="int"),
    OpCase("full", {}, {"shape": (2, 2), "fill_value": True},
           ref=lambda shape, fill_value, dtype=None: np.full(shape, True), name="bool"),
    OpCase("full", {}, {"shape": (), "fill_value": 3, "dtype": float64},
           ref=lambda shape, fill_value, dtype: np.array(3.0), name="0d_dtype"),
    OpCase("full", {}, {"shape": (0, 3)},
           ref=lambda shape, fill_value=0.0, dtype=None: np.zeros(shape, np.float32),
           name="empty_default"),
    OpCase("full_like", {"x": rand(2, 3)}, {"fill_value": 2.0},
           ref=lambda x, fill_value, dtype=None: np.full_like(x, 2.0), name="float"),
    OpCase("full_like", {"x": rand(2, 3)}, {"fill_value": 4, "dtype": int32},
           ref=lambda x, fill_value, dtype: np.full(x.shape, 4, np.int32), name="dtype"),
    OpCase("full_like", {"x": randint()}, {"fill_value": -1},
           ref=lambda x, fill_value, dtype=None: np.array(-1), name="0d"),
]

CASES = BINARY + SCALAR_ARITH + UNARY + ROUNDING + ACTIVATIONS + CLIP + WHERE + LOGIC + FILLS

"""Emitters of elementwise ops: activations and math functions, arithmetic, comparisons,
logic, where, scale, clip, cast."""
import math

from .graph import Unexpressible
from .table import emits

# sampan op -> (ONNX op, first opset where it exists for the types sampan uses)
_UNARY = {"relu": ("Relu", 1), "sigmoid": ("Sigmoid", 1), "tanh": ("Tanh", 1),
          "exp": ("Exp", 1), "log": ("Log", 1), "sqrt": ("Sqrt", 1), "abs": ("Abs", 1),
          "neg": ("Neg", 1), "reciprocal": ("Reciprocal", 1), "floor": ("Floor", 1),
          "ceil": ("Ceil", 1), "sin": ("Sin", 7), "cos": ("Cos", 7), "tan": ("Tan", 7),
          "asin": ("Asin", 7), "acos": ("Acos", 7), "atan": ("Atan", 7),
          "sinh": ("Sinh", 9), "cosh": ("Cosh", 9), "asinh": ("Asinh", 9),
          "acosh": ("Acosh", 9), "atanh": ("Atanh", 9), "erf": ("Erf", 9),
          "sign": ("Sign", 9), "softsign": ("Softsign", 1), "isnan": ("IsNaN", 9),
          "isinf": ("IsInf", 10), "logical_not": ("Not", 1), "round": ("Round", 11),
          "assign": ("Identity", 1)}

# sampan op -> (ONNX op, opset for float operands, opset for integer operands)
_BINARY = {"add": ("Add", 7, 7), "subtract": ("Sub", 7, 7), "multiply": ("Mul", 7, 7),
           "divide": ("Div", 7, 7), "elementwise_pow": ("Pow", 7, 12),
           "maximum": ("Max", 8, 12), "minimum": ("Min", 8, 12),
           "equal": ("Equal", 11, 7), "greater_than": ("Greater", 7, 9),
           "less_than": ("Less", 7, 9), "greater_equal": ("GreaterOrEqual", 12, 12),
           "less_equal": ("LessOrEqual", 12, 12), "logical_and": ("And", 7, 7),
           "logical_or": ("Or", 7, 7), "logical_xor": ("Xor", 7, 7)}
_COMPARISONS = {"equal", "not_equal", "greater_than", "less_than", "greater_equal",
                "less_equal"}


def _is_float(dtype):
    return dtype.startswith(("float", "bfloat", "complex"))


@emits(*_UNARY)
def unary(g, op):
    onnx_op, since = _UNARY[op.type]
    g.require(since, onnx_op)
    g.node(onnx_op, [g.arg(op)], g.result(op))


def _operands(g, op):
    """x and y as ONNX values of one dtype: the output's for arithmetic (integer / integer
    divides in floats), the floating one of the two for comparisons."""
    x_type, y_type = g.dtype_of(op, "x"), g.dtype_of(op, "y")
    target = g.dtype_of(op, "out", outputs=True)
    if op.type in _COMPARISONS or target == "bool":
        target = y_type if _is_float(y_type) and not _is_float(x_type) else x_type
    values = [g.arg(op, "x"), g.arg(op, "y")]
    return [v if t == target else g.cast(v, target)
            for v, t in zip(values, (x_type, y_type))], target


@emits(*_BINARY)
def binary(g, op):
    onnx_op, float_since, int_since = _BINARY[op.type]
    (x, y), dtype = _operands(g, op)
    g.require(float_since if _is_float(dtype) else int_since, f"{onnx_op} of {dtype}")
    g.node(onnx_op, [x, y], g.result(op))


@emits("not_equal")
def not_equal(g, op):
    (x, y), dtype = _operands(g, op)
    g.require(11 if _is_float(dtype) else 7, f"Equal of {dtype}")
    g.node("Not", [g.node("Equal", [x, y])], g.result(op))


@emits("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not")
def bitwise(g, op):
    """On bool tensors the logical ops; on integers ONNX's Bitwise* (opset 18)."""
    logical = g.dtype_of(op) == "bool"
    name = {"bitwise_and": "And", "bitwise_or": "Or", "bitwise_xor": "Xor",
            "bitwise_not": "Not"}[op.type]
    if not logical:
        g.require(18, "Bitwise ops on integers")
        name = "Bitwise" + name
    inputs = [g.arg(op)] + ([] if op.type == "bitwise_not" else [g.arg(op, "y")])
    g.node(name, inputs, g.result(op))


@emits("floor_divide")
def floor_divide(g, op):
    (x, y), dtype = _operands(g, op)
    if _is_float(dtype):
        g.node("Floor", [g.node("Div", [x, y])], g.result(op))
        return
    # integer Div truncates: subtract one where the signs differ and a remainder is left
    g.require(10, "Mod")
    quotient = g.node("Div", [x, y])
    inexact = g.node("Not", [g.node("Equal", [g.node("Mod", [x, y], fmod=1),
                                              g.scalar_like(0, op.inputs["x"][0])])])
    signs = g.node("Less", [g.node("Mul", [g.node("Sign", [x]), g.node("Sign", [y])]),
                            g.scalar_like(0, op.inputs["x"][0])])
    fix = g.cast(g.node("And", [inexact, signs]), dtype)
    g.node("Sub", [quotient, fix], g.result(op))


@emits("remainder")
def remainder(g, op):
    """x mod y with the divisor's sign: Mod for integers, x - floor(x / y) * y for floats."""
    (x, y), dtype = _operands(g, op)
    if not _is_float(dtype):
        g.require(10, "Mod")
        g.node("Mod", [x, y], g.result(op))
        return
    floor = g.node("Floor", [g.node("Div", [x, y])])
    g.node("Sub", [x, g.node("Mul", [floor, y])], g.result(op))


@emits("where")
def where(g, op):
    g.require(9, "Where")
    g.node("Where", [g.arg(op, "condition"), g.arg(op, "x"), g.arg(op, "y")], g.result(op))


def _scalar(g, op, value):
    return g.scalar_like(value, op.inputs["x"][0])


def _x_as_output(g, op):
    """x and a maker of scalars, both in the output's dtype (a float factor of an
    integer tensor computes in floats when the op's output is floating)."""
    x, out_type = g.arg(op), g.dtype_of(op, "out", outputs=True)
    if g.dtype_of(op) == out_type:
        return x, lambda value: _scalar(g, op, value)
    return g.cast(x, out_type), lambda value: g.const(value, out_type)


@emits("scale")
def scale(g, op):
    attrs = op.attrs
    x, scalar = _x_as_output(g, op)
    factor, bias = scalar(attrs["scale"]), scalar(attrs["bias"])
    if attrs["bias_after_scale"]:
        g.node("Add", [g.node("Mul", [x, factor]), bias], g.result(op))
    else:
        g.node("Mul", [g.node("Add", [x, bias]), factor], g.result(op))


@emits("increment")
def increment(g, op):
    x, scalar = _x_as_output(g, op)
    g.node("Add", [x, scalar(op.attrs["value"])], g.result(op))


@emits("pow")
def power(g, op):
    """x ** y; an integer x is raised in float64 and the result cast back, as sampan's
    kernel truncates (x ** 0.5 of an int32 tensor is int32)."""
    out_type = g.dtype_of(op, "out", outputs=True)
    if _is_float(out_type):
        x, scalar = _x_as_output(g, op)
        g.node("Pow", [x, scalar(op.attrs["y"])], g.result(op))
        return
    raised = g.node("Pow", [g.cast(g.arg(op), "float64"), g.const(op.attrs["y"], "float64")])
    g.cast(raised, out_type, g.result(op))


@emits("cast")
def cast(g, op):
    g.cast(g.arg(op), g.dtype_of(op, "out", outputs=True), g.result(op))


@emits("clip", "hardtanh", "relu6")
def clip(g, op):
    low, high = {"relu6": (0.0, 6.0)}.get(op.type) or (op.attrs["min"], op.attrs["max"])
    g.clip(g.arg(op), low, high, op.inputs["x"][0], g.result(op))


@emits("leaky_relu", "elu", "selu", "hardsigmoid")
def parametric(g, op):
    attrs = op.attrs
    onnx_op, onnx_attrs = {
        "leaky_relu": ("LeakyRelu", {"alpha": attrs.get("negative_slope")}),
        "elu": ("Elu", {"alpha": attrs.get("alpha")}),
        "selu": ("Selu", {"alpha": attrs.get("alpha"), "gamma": attrs.get("scale")}),
        "hardsigmoid": ("HardSigmoid", {"alpha": attrs.get("slope"),
                                        "beta": attrs.get("offset")})}[op.type]
    g.node(onnx_op, [g.arg(op)], g.result(op), **{k: float(v) for k, v in onnx_attrs.items()})


@emits("hardswish")
def hardswish(g, op):
    """HardSwish from opset 14, else x * HardSigmoid(x) with Paddle's 1/6 and 0.5."""
    x = g.arg(op)
    if g.opset >= 14:
        g.node("HardSwish", [x], g.result(op))
        return
    gate = g.node("HardSigmoid", [x], alpha=1.0 / 6.0, beta=0.5)
    g.node("Mul", [x, gate], g.result(op))


@emits("silu")
def silu(g, op):
    x = g.arg(op)
    g.node("Mul", [x, g.node("Sigmoid", [x])], g.result(op))


def _softplus(g, op, x):
    """log(1 + exp(beta x)) / beta, x itself where beta x > threshold (sampan's softplus)."""
    beta, threshold = op.attrs.get("beta", 1.0), op.attrs.get("threshold", 20.0)
    scaled = g.node("Mul", [x, _scalar(g, op, beta)]) if beta != 1.0 else x
    soft = g.node("Softplus", [scaled])
    if beta != 1.0:
        soft = g.node("Div", [soft, _scalar(g, op, beta)])
    g.require(9, "Where")
    return g.node("Where", [g.node("Greater", [scaled, _scalar(g, op, threshold)]), x, soft])


@emits("softplus")
def softplus(g, op):
    g.node("Identity", [_softplus(g, op, g.arg(op))], g.result(op))


@emits("mish")
def mish(g, op):
    x = g.arg(op)
    g.node("Mul", [x, g.node("Tanh", [g.node("Softplus", [x])])], g.result(op))


@emits("logsigmoid")
def logsigmoid(g, op):
    g.node("Neg", [g.node("Softplus", [g.node("Neg", [g.arg(op)])])], g.result(op))


@emits("gelu")
def gelu(g, op):
    """0.5 x (1 + erf(x / sqrt 2)), or the tanh approximation."""
    x = g.arg(op)
    if op.attrs.get("approximate"):
        cube = g.node("Mul", [g.node("Mul", [x, x]), x])
        inner = g.node("Add", [x, g.node("Mul", [cube, _scalar(g, op, 0.044715)])])
        core = g.node("Tanh", [g.node("Mul", [inner, _scalar(g, op, math.sqrt(2 / math.pi))])])
    else:
        g.require(9, "Erf")
        core = g.node("Erf", [g.node("Mul", [x, _scalar(g, op, 1 / math.sqrt(2))])])
    half = g.node("Mul", [x, _scalar(g, op, 0.5)])
    g.node("Mul", [half, g.node("Add", [core, _scalar(g, op, 1.0)])], g.result(op))


@emits("rsqrt", "square", "log1p", "expm1", "log2", "log10", "trunc", "isfinite")
def composite(g, op):
    """Unary functions built from two or three ONNX ops."""
    x, out = g.arg(op), g.result(op)
    if op.type == "rsqrt":
        g.node("Reciprocal", [g.node("Sqrt", [x])], out)
    elif op.type == "square":
        g.node("Mul", [x, x], out)
    elif op.type == "log1p":
        g.node("Log", [g.node("Add", [x, _scalar(g, op, 1.0)])], out)
    elif op.type == "expm1":
        g.node("Sub", [g.node("Exp", [x]), _scalar(g, op, 1.0)], out)
    elif op.type in ("log2", "log10"):
        base = 2.0 if op.type == "log2" else 10.0
        g.node("Div", [g.node("Log", [x]), _scalar(g, op, math.log(base))], out)
    elif op.type == "trunc":
        g.require(9, "Sign")
        g.node("Mul", [g.node("Sign", [x]), g.node("Floor", [g.node("Abs", [x])])], out)
    else:
        g.require(10, "IsInf")
        bad = g.node("Or", [g.node("IsNaN", [x]), g.node("IsInf", [x])])
        g.node("Not", [bad], out)


@emits("dropout")
def dropout(g, op):
    """Inference dropout: identity (upscale_in_train) or x * (1 - p) (downscale_in_infer)."""
    if not op.attrs.get("is_test", True):
        raise Unexpressible("dropout in training mode (export runs the layer in eval mode; "
                            "is_test=False was forced)")
    g.refuse_read(op, ("mask",))
    x = g.arg(op)
    if op.attrs.get("mode") == "downscale_in_infer":
        g.node("Mul", [x, _scalar(g, op, 1.0 - op.attrs["p"])], g.result(op))
    else:
        g.node("Identity", [x], g.result(op))



@emits("atan2")
def atan2(g, op):
    """arctan2(x, y): Atan(x / y) moved into the quadrant of (y, x); ±pi/2 or 0 where y
    is 0."""
    g.require(11, "Equal of floats")
    (x, y), dtype = _operands(g, op)
    out_type = g.dtype_of(op, "out", outputs=True)
    if dtype != out_type:
        x, y = g.cast(x, out_type), g.cast(y, out_type)

    def const(value):
        return g.const(value, out_type)
    base = g.node("Atan", [g.node("Div", [x, y])])
    up = g.node("Where", [g.node("Less", [x, const(0.0)]), const(-math.pi), const(math.pi)])
    turned = g.node("Where", [g.node("Less", [y, const(0.0)]), g.node("Add", [base, up]), base])
    on_axis = g.node("Mul", [g.node("Sign", [x]), const(math.pi / 2)])
    g.node("Where", [g.node("Equal", [y, const(0.0)]), on_axis, turned], g.result(op))


@emits("isclose")
def isclose(g, op):
    """|x - y| <= atol + rtol |y|, or x == y (infinities), or both NaN with equal_nan."""
    g.require(11, "Equal of floats")
    (x, y), dtype = _operands(g, op)
    a = op.attrs
    limit = g.node("Add", [g.const(a["atol"], dtype),
                           g.node("Mul", [g.const(a["rtol"], dtype), g.node("Abs", [y])])])
    near = g.node("Not", [g.node("Greater", [g.node("Abs", [g.node("Sub", [x, y])]), limit])])
    close = g.node("Or", [near, g.node("Equal", [x, y])])
    if a["equal_nan"]:
        both = g.node("And", [g.node("IsNaN", [x]), g.node("IsNaN", [y])])
        close = g.node("Or", [close, both])
    g.node("Identity", [close], g.result(op))

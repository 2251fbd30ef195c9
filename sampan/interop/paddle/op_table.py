"""THE table from Paddle op types to sampan ops: data, checked against the op registry by
tests/interop/test_op_table.py, and the source of the coverage table in docs/interop.md.

`Direct(target, ins)` maps a Paddle op onto registry op `target`: `ins` names each Paddle
input in order, as one of the target's tensor arguments, or one of its attributes (Paddle
passes some attributes, e.g. a reshape's shape, as input values; they must be constants),
or None (an input with no sampan counterpart: it must be absent). Paddle attributes with
the target's attribute names are passed on; `renames` maps other Paddle names onto them.
Paddle's outputs map onto the target's in order. A `Special` names a builder method
(`sampan.interop.paddle.builder`) for ops that need more than that: constants, control
flow, parameters, feeds and fetches, LSTM/GRU. In-place variants (`pd_op.relu_`) use the
rule of their out-of-place op.
"""

__all__ = ["Direct", "Special", "PIR_OPS", "LEGACY_OPS", "rule_for"]


class Direct:
    """A Paddle op that is one registry op."""

    __slots__ = ("target", "ins", "renames", "fixed")

    def __init__(self, target, ins=None, renames=None, fixed=None):
        self.target, self.ins = target, ins
        self.renames, self.fixed = renames or {}, fixed or {}


class Special:
    """A Paddle op converted by builder method `method`; `emits` lists the registry ops it
    may append (checked against the registry)."""

    __slots__ = ("method", "emits")

    def __init__(self, method, emits=()):
        self.method, self.emits = method, tuple(emits)


def _unary(*names):
    return {f"pd_op.{n}": Direct(n) for n in names}


PIR_OPS = {
    # structure: feeds, fetches, parameters, constants, value lists, control flow
    "pd_op.data": Special("data"),
    "pd_op.feed": Special("data"),
    "pd_op.fetch": Special("fetch"),
    "builtin.parameter": Special("parameter"),
    "builtin.constant": Special("parameter"),
    "builtin.combine": Special("combine", ["stack"]),
    "builtin.split": Special("split_list"),
    "builtin.slice": Special("slice_list"),
    "pd_op.full": Special("full", ["full"]),
    "pd_op.full_int_array": Special("full_int_array", ["assign_value"]),
    "pd_op.full_with_tensor": Special("full_with_tensor", ["full_dynamic"]),
    "pd_op.assign_value": Special("assign_value", ["assign_value"]),
    "pd_op.shape": Special("shape", ["shape", "cast"]),
    "pd_op.shape64": Special("shape", ["shape", "cast"]),
    "pd_op.slice": Special("slice", ["slice", "squeeze"]),
    "pd_op.if": Special("if_", ["cond"]),
    "pd_op.while": Special("while_", ["while"]),
    "cf.yield": Special("yield_"),
    "pd_op.create_array": Special("create_array", ["create_array"]),
    "pd_op.array_write_": Special("array_write", ["array_write"]),
    "pd_op.array_read": Special("array_read", ["array_read"]),
    "pd_op.array_length": Special("array_length", ["array_length"]),
    "pd_op.array_to_tensor": Special("array_to_tensor", ["array_join"]),
    "pd_op.rnn": Special("rnn", ["matmul", "add", "split", "sigmoid", "tanh", "multiply",
                                 "subtract", "stack", "concat", "transpose", "squeeze",
                                 "relu"]),
    "pd_op.dropout": Direct("dropout", ("x", None, "p")),
    # math
    **_unary("relu", "relu6", "sigmoid", "tanh", "abs", "exp", "log", "sqrt", "rsqrt", "erf",
             "silu", "hardswish", "floor", "ceil", "sign", "square", "reciprocal",
             "logsigmoid", "softsign", "mish", "sin", "cos", "neg", "isnan", "isinf",
             "isfinite", "logical_not", "bitwise_not", "round"),
    **{f"pd_op.{n}": Direct(n) for n in (
        "add", "subtract", "multiply", "divide", "maximum", "minimum", "remainder",
        "floor_divide", "elementwise_pow", "greater_than", "greater_equal", "less_than",
        "less_equal", "equal", "not_equal", "logical_and", "logical_or", "logical_xor",
        "bitwise_and", "bitwise_or", "bitwise_xor", "where", "matmul", "bmm", "atan2")},
    "pd_op.swish": Direct("silu"),
    "pd_op.pow": Direct("pow", ("x", "y")),
    "pd_op.scale": Direct("scale", ("x", "scale")),
    "pd_op.clip": Direct("clip", ("x", "min", "max")),
    "pd_op.gelu": Direct("gelu"),
    "pd_op.leaky_relu": Direct("leaky_relu"),
    "pd_op.elu": Direct("elu"),
    "pd_op.selu": Direct("selu"),
    "pd_op.softplus": Direct("softplus"),
    "pd_op.hardsigmoid": Direct("hardsigmoid"),
    "pd_op.hardtanh": Direct("hardtanh"),
    "pd_op.softmax": Direct("softmax"),
    "pd_op.log_softmax": Direct("log_softmax"),
    "pd_op.cast": Direct("cast"),
    "pd_op.assign": Direct("assign"),
    # reductions
    "pd_op.mean": Direct("mean", ("x", "axis")),
    "pd_op.sum": Direct("sum", ("x", "axis")),
    "pd_op.max": Direct("max", ("x", "axis")),
    "pd_op.min": Direct("min", ("x", "axis")),
    "pd_op.prod": Direct("prod", ("x", "axis")),
    "pd_op.all": Direct("all"),
    "pd_op.any": Direct("any"),
    "pd_op.argmax": Direct("argmax", ("x", "axis")),
    "pd_op.argmin": Direct("argmin", ("x", "axis")),
    "pd_op.logsumexp": Direct("logsumexp"),
    "pd_op.cumsum": Direct("cumsum", ("x", "axis")),
    "pd_op.p_norm": Direct("p_norm"),
    "pd_op.topk": Direct("topk", ("x", "k")),
    # shapes and indexing
    "pd_op.reshape": Direct("reshape", ("x", "shape")),
    "pd_op.transpose": Direct("transpose"),
    "pd_op.flatten": Direct("flatten"),
    "pd_op.squeeze": Direct("squeeze", ("x", "axis")),
    "pd_op.unsqueeze": Direct("unsqueeze", ("x", "axis")),
    "pd_op.concat": Direct("concat", ("x", "axis")),
    "pd_op.stack": Direct("stack"),
    "pd_op.split": Direct("split", ("x", "sections", "axis")),
    "pd_op.split_with_num": Special("split_with_num", ["split"]),
    "pd_op.expand": Direct("expand", ("x", "shape")),
    "pd_op.tile": Direct("tile", ("x", "repeat_times")),
    "pd_op.gather": Direct("gather", ("x", "index", "axis")),
    "pd_op.gather_nd": Direct("gather_nd"),
    "pd_op.index_select": Direct("index_select"),
    "pd_op.strided_slice": Direct("strided_slice", ("x", "starts", "ends", "strides")),
    "pd_op.flip": Direct("flip"),
    "pd_op.roll": Direct("roll", ("x", "shifts")),
    "pd_op.tril": Direct("tril"),
    "pd_op.triu": Direct("triu"),
    "pd_op.one_hot": Direct("one_hot", ("x", "num_classes")),
    "pd_op.arange": Direct("arange", ("start", "end", "step")),
    "pd_op.embedding": Direct("embedding"),
    "pd_op.pad": Direct("pad", ("x", "value")),
    # neural network layers
    "pd_op.conv2d": Direct("conv2d"),
    "pd_op.depthwise_conv2d": Direct("conv2d"),
    "pd_op.conv2d_transpose": Direct("conv2d_transpose", ("x", "filter", "output_size")),
    "pd_op.conv3d": Direct("conv3d"),
    "pd_op.pool2d": Direct("pool2d", ("x", "kernel_size")),
    "pd_op.pool3d": Direct("pool3d"),
    "pd_op.batch_norm": Direct("batch_norm"),
    "pd_op.layer_norm": Direct("layer_norm"),
    "pd_op.group_norm": Direct("group_norm"),
}

PIR_OPS["legacy.constant"] = Special("constant")   # an attribute the legacy format kept


class Legacy:
    """A legacy ProgramDesc op as the PIR op it became: `ins` / `outs` are the slot names
    in the PIR op's positional order (None: no slot), `attr_inputs` the legacy attributes
    PIR passes as the following input values, `renames` legacy attribute names to PIR's.
    `list_input`: the first slot holds a list of values (concat's X). `adjust` rewrites
    the attribute dict first (legacy dtype codes, reduce_all)."""

    __slots__ = ("pir", "ins", "outs", "renames", "attr_inputs", "list_input", "adjust")

    def __init__(self, pir, ins=("X",), outs=("Out",), renames=None, attr_inputs=(),
                 list_input=False, adjust=None):
        self.pir, self.ins, self.outs = pir, ins, outs
        self.renames, self.attr_inputs = renames or {}, attr_inputs
        self.list_input, self.adjust = list_input, adjust


def _dtype_name(code):
    """The dtype name of a legacy VarType code (-1: none given)."""
    from .tensor_stream import PADDLE_DTYPES
    if code is None or code < 0:
        return None
    if code not in PADDLE_DTYPES:
        raise ValueError(f"unsupported Paddle data type code {code}")
    return PADDLE_DTYPES[code]


def _fill_attrs(attrs):
    """fill_constant: the dtype by name, the value from str_value when given (exact)."""
    attrs["dtype"] = _dtype_name(attrs.get("dtype"))
    text = attrs.pop("str_value", "") or ""
    if text:
        attrs["value"] = float(text) if attrs["dtype"] in ("float16", "float32", "float64") \
            else int(float(text)) if attrs["dtype"] != "bool" else text.lower() == "true"
    return attrs


def _cast_attrs(attrs):
    attrs["out_dtype"] = _dtype_name(attrs.get("out_dtype"))
    attrs.pop("in_dtype", None)
    return attrs


def _reduce_attrs(attrs):
    """reduce_*: every axis when reduce_all (dim may still list some); dtype by name."""
    if attrs.pop("reduce_all", False):
        attrs["dim"] = []
    attrs["out_dtype"] = _dtype_name(attrs.get("out_dtype"))
    attrs.pop("in_dtype", None)
    return attrs


def _reduce(pir):
    return Legacy(pir, attr_inputs=("dim",), renames={"keep_dim": "keepdim",
                                                      "out_dtype": "dtype"},
                  adjust=_reduce_attrs)


LEGACY_OPS = {
    "conv2d": Legacy("pd_op.conv2d", ("Input", "Filter"), ("Output",)),
    "depthwise_conv2d": Legacy("pd_op.depthwise_conv2d", ("Input", "Filter"), ("Output",)),
    "batch_norm": Legacy("pd_op.batch_norm", ("X", "Mean", "Variance", "Scale", "Bias"),
                         ("Y", "MeanOut", "VarianceOut", "SavedMean", "SavedVariance"),
                         {"data_layout": "data_format"}),
    "layer_norm": Legacy("pd_op.layer_norm", ("X", "Scale", "Bias"), ("Y", "Mean", "Variance")),
    "pool2d": Legacy("pd_op.pool2d", attr_inputs=("ksize",)),
    "matmul_v2": Legacy("pd_op.matmul", ("X", "Y"),
                        renames={"trans_x": "transpose_x", "trans_y": "transpose_y"}),
    "elementwise_add": Legacy("pd_op.add", ("X", "Y")),
    "elementwise_sub": Legacy("pd_op.subtract", ("X", "Y")),
    "elementwise_mul": Legacy("pd_op.multiply", ("X", "Y")),
    "elementwise_div": Legacy("pd_op.divide", ("X", "Y")),
    "elementwise_max": Legacy("pd_op.maximum", ("X", "Y")),
    "elementwise_min": Legacy("pd_op.minimum", ("X", "Y")),
    "hard_swish": Legacy("pd_op.hardswish"),
    "hard_sigmoid": Legacy("pd_op.hardsigmoid"),
    **{name: Legacy(f"pd_op.{name}") for name in (
        "relu", "relu6", "sigmoid", "tanh", "exp", "sqrt", "abs", "gelu", "softmax", "swish",
        "silu", "leaky_relu", "log", "square", "erf")},
    "flatten_contiguous_range": Legacy("pd_op.flatten"),
    "reshape2": Legacy("pd_op.reshape", attr_inputs=("shape",)),
    "transpose2": Legacy("pd_op.transpose", renames={"axis": "perm"}),
    "squeeze2": Legacy("pd_op.squeeze", attr_inputs=("axes",)),
    "unsqueeze2": Legacy("pd_op.unsqueeze", attr_inputs=("axes",)),
    "scale": Legacy("pd_op.scale", attr_inputs=("scale",)),
    "dropout": Legacy("pd_op.dropout", ("X", "Seed"), attr_inputs=("dropout_prob",),
                      renames={"dropout_implementation": "mode"}),
    "concat": Legacy("pd_op.concat", attr_inputs=("axis",), list_input=True),
    "lookup_table_v2": Legacy("pd_op.embedding", ("Ids", "W")),
    "slice": Legacy("pd_op.slice", ("Input",), attr_inputs=("starts", "ends")),
    # what the legacy cond and while bring (conditional_block, while and select_input
    # themselves become regions: legacy_blocks.py)
    "fill_constant": Legacy("pd_op.full", (), adjust=_fill_attrs),
    "assign": Legacy("pd_op.assign"),
    "cast": Legacy("pd_op.cast", renames={"out_dtype": "dtype"}, adjust=_cast_attrs),
    "logical_not": Legacy("pd_op.logical_not"),
    **{name: Legacy(f"pd_op.{name}", ("X", "Y")) for name in (
        "logical_and", "logical_or", "logical_xor", "equal", "not_equal", "less_than",
        "less_equal", "greater_than", "greater_equal")},
    "elementwise_mod": Legacy("pd_op.remainder", ("X", "Y")),
    "elementwise_floordiv": Legacy("pd_op.floor_divide", ("X", "Y")),
    "elementwise_pow": Legacy("pd_op.elementwise_pow", ("X", "Y")),
    "reduce_mean": _reduce("pd_op.mean"),
    "reduce_sum": _reduce("pd_op.sum"),
    "reduce_max": _reduce("pd_op.max"),
    "reduce_min": _reduce("pd_op.min"),
    "reduce_prod": _reduce("pd_op.prod"),
    # tensor arrays (write_to_array writes its Out in place: legacy_blocks.py)
    "read_from_array": Legacy("pd_op.array_read", ("X", "I")),
    "lod_array_length": Legacy("pd_op.array_length"),
    "tensor_array_to_tensor": Legacy("pd_op.array_to_tensor", outs=("Out", "OutIndex")),
}


def rule_for(table, op_type):
    """The rule of `op_type` (an in-place `_` variant falls back to its op), or None."""
    rule = table.get(op_type)
    if rule is None and op_type.endswith("_"):
        rule = table.get(op_type[:-1])
    return rule


def coverage_markdown():
    """The op coverage table of docs/interop.md, generated from PIR_OPS and LEGACY_OPS."""
    legacy_of = {}
    for name, entry in sorted(LEGACY_OPS.items()):
        legacy_of.setdefault(entry.pir, []).append(name)
    lines = ["| Paddle 3 (PIR) op | legacy op type(s) | sampan |", "|---|---|---|"]
    for name in sorted(PIR_OPS):
        rule = PIR_OPS[name]
        if isinstance(rule, Direct):
            how = f"`{rule.target}`"
        else:
            how = "builder: " + (", ".join(f"`{e}`" for e in rule.emits) or "structure")
        legacy = ", ".join(f"`{n}`" for n in legacy_of.get(name, [])) or "-"
        lines.append(f"| `{name}` | {legacy} | {how} |")
    return "\n".join(lines) + "\n"

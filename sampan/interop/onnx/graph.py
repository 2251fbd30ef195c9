"""ONNX graphs under construction: nodes with unique value names, constants, the opset
forms that changed between versions, and what the chosen opset cannot express.

`ExportState` is shared by the model's graph and every sub-graph (If branches, Loop
bodies); `Graph` is one of them, with its own nodes and a name table (sampan variable ->
ONNX value) that starts as a copy of the enclosing graph's, so sub-graphs read outer
values and never leak theirs.
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

__all__ = ["ExportState", "Graph", "Unexpressible", "ONNX_DTYPES", "onnx_dtype", "value_info",
           "var_info"]

ONNX_DTYPES = {"float32": TensorProto.FLOAT, "float64": TensorProto.DOUBLE,
               "float16": TensorProto.FLOAT16, "bfloat16": TensorProto.BFLOAT16,
               "int8": TensorProto.INT8, "int16": TensorProto.INT16,
               "int32": TensorProto.INT32, "int64": TensorProto.INT64,
               "uint8": TensorProto.UINT8, "bool": TensorProto.BOOL,
               "complex64": TensorProto.COMPLEX64, "complex128": TensorProto.COMPLEX128}


class Unexpressible(Exception):
    """An op (or one use of its attributes) has no ONNX form; the message says why."""


def onnx_dtype(dtype):
    """The TensorProto element type of a sampan DType (or dtype name)."""
    name = getattr(dtype, "name", None) or str(dtype)
    if name not in ONNX_DTYPES:
        raise Unexpressible(f"dtype {name} has no ONNX element type")
    return ONNX_DTYPES[name]


class ExportState:
    """What every graph of one export shares: the opset, the program's variables, the
    names in use, and the opset versions ops asked for above the chosen one."""

    def __init__(self, program, opset):
        self.program = program
        self.opset = opset
        self.problems = []       # "op (source line): why" for ops ONNX cannot express
        self.unmapped = set()    # op types met that the table lacks
        self.vars = {n: v for block in program.blocks for n, v in block.vars.items()}
        self.taken = set()
        self.needs = {}          # op type -> (opset version, why)
        self.shapeless = set()   # variables whose declared shape is not to be trusted
        self.read_names = {n for block in program.blocks for op in block.ops
                           for names in op.inputs.values() for n in names}

    def fresh(self, base):
        """A value name not used anywhere in the model, `base` when free."""
        name, k = base, 0
        while name in self.taken:
            k += 1
            name = f"{base}__{k}"
        self.taken.add(name)
        return name


class Graph:
    """One ONNX graph being built: `nodes`, and `env` mapping sampan names to values."""

    def __init__(self, state, env=None):
        self.state = state
        self.env = dict(env or {})
        self.nodes = []
        self.op_type = None      # the sampan op being converted (for `require`)

    @property
    def opset(self):
        return self.state.opset

    def require(self, version, why):
        """Record that the op being converted needs opset `version` (for `why`)."""
        if self.opset < version:
            old = self.state.needs.get(self.op_type, (0, ""))
            if version > old[0]:
                self.state.needs[self.op_type] = (version, why)

    # -- sampan variables --
    def var(self, name):
        return self.state.vars[name]

    def value(self, name):
        """The ONNX value holding sampan variable `name`."""
        return self.env[name]

    def define(self, name):
        """A fresh ONNX value that from now on holds sampan variable `name`."""
        self.env[name] = self.state.fresh(name)
        return self.env[name]

    def bind(self, name, value):
        self.env[name] = value

    # -- the op being converted --
    def arg(self, op, slot="x"):
        """The ONNX value of the op's one tensor in input `slot`."""
        return self.value(op.inputs[slot][0])

    def args(self, op, slot="x"):
        return [self.value(n) for n in op.inputs.get(slot) or []]

    def result(self, op, slot="out"):
        """A fresh ONNX value for the op's output `slot` (its one tensor)."""
        return self.define(op.outputs[slot][0])

    def shape_of(self, op, slot="x", outputs=False):
        """The static shape (-1: unknown) of the op's tensor in `slot`."""
        names = op.outputs[slot] if outputs else op.inputs[slot]
        return tuple(self.var(names[0])._shape)

    def dtype_of(self, op, slot="x", outputs=False):
        names = op.outputs[slot] if outputs else op.inputs[slot]
        return self.var(names[0]).dtype.name

    def refuse_read(self, op, slots):
        """Unexpressible when another op reads one of these outputs of `op` (outputs only
        training needs, e.g. a dropout mask or batch statistics)."""
        for slot in slots:
            if any(n in self.state.read_names for n in op.outputs.get(slot) or []):
                raise Unexpressible(f"its output {slot!r} is read (inference exports the "
                                    f"main output only)")

    # -- nodes --
    def node(self, op_type, inputs, out=None, outputs=None, **attrs):
        """Append a node; returns its output name (`out`, else a fresh one), or the list
        `outputs` when given (names, or an int: that many fresh ones)."""
        if isinstance(outputs, int):
            outputs = [self.state.fresh(f"{op_type.lower()}_out") for _ in range(outputs)]
        names = outputs if outputs is not None else [out or self.state.fresh(
            f"{op_type.lower()}_out")]
        self.nodes.append(helper.make_node(op_type, list(inputs), names,
                                           name=self.state.fresh(f"{op_type}_node"),
                                           **{k: v for k, v in attrs.items() if v is not None}))
        return names if outputs is not None else names[0]

    def const(self, value, dtype=None):
        """A Constant node holding `value` (array-like) as `dtype` (a numpy dtype name)."""
        array = np.asarray(value, dtype=dtype)
        return self.node("Constant", [], value=numpy_helper.from_array(
            array, self.state.fresh("const")))

    def ints(self, values):
        """A 1-D int64 Constant (shapes, axes, indices)."""
        return self.const(np.asarray(list(values), np.int64).reshape(-1))

    def scalar_like(self, value, sampan_name):
        """A 0-D Constant with the dtype of sampan variable `sampan_name`."""
        return self.const(value, self.var(sampan_name).dtype.name)

    # -- forms that changed between opsets --
    def with_axes(self, op_type, inputs, axes, since, out=None, **attrs):
        """`op_type` taking `axes` as an attribute before opset `since`, an input from it
        (Squeeze/Unsqueeze/ReduceSum/Split at 13, the other reductions at 18)."""
        if axes is None:
            return self.node(op_type, inputs, out, **attrs)
        if self.opset >= since:
            return self.node(op_type, list(inputs) + [self.ints(axes)], out, **attrs)
        return self.node(op_type, inputs, out, axes=list(axes), **attrs)

    def slice(self, x, starts, ends, axes, steps=None, out=None):
        """Slice with constant bounds (attributes before opset 10, inputs from it)."""
        if steps is not None and any(s != 1 for s in steps):
            self.require(10, "Slice with steps")
        if self.opset < 10:
            return self.node("Slice", [x], out, starts=list(starts), ends=list(ends),
                             axes=list(axes))
        inputs = [x, self.ints(starts), self.ints(ends), self.ints(axes)]
        if steps is not None:
            inputs.append(self.ints(steps))
        return self.node("Slice", inputs, out)

    def clip(self, x, low, high, sampan_name, out=None):
        """Clip to [low, high] (either may be None): attributes before opset 11."""
        if not self.var(sampan_name).dtype.name.startswith("float"):
            self.require(12, "Clip of an integer tensor")
        if self.opset < 11:
            return self.node("Clip", [x], out, min=None if low is None else float(low),
                             max=None if high is None else float(high))
        bounds = ["" if b is None else self.scalar_like(b, sampan_name) for b in (low, high)]
        while bounds and bounds[-1] == "":
            bounds.pop()
        return self.node("Clip", [x] + bounds, out)

    def cast(self, x, dtype_name, out=None):
        return self.node("Cast", [x], out, to=ONNX_DTYPES[dtype_name])


def value_info(name, dtype, shape=None):
    """A typed value (shape None: any shape; -1 or a string in it: a symbolic dim)."""
    dims = None if shape is None else [d if isinstance(d, str) else None if d < 0 else d
                                       for d in shape]
    return helper.make_tensor_value_info(name, onnx_dtype(dtype), dims)


def var_info(name, var):
    """The type of value `name` holding sampan variable `var`: a tensor sequence for a
    tensor array, else a tensor of any shape."""
    if getattr(var, "kind", None) == "array":
        return helper.make_tensor_sequence_value_info(name, onnx_dtype(var.dtype), None)
    return value_info(name, var.dtype)


def ir_version_for(opset):
    """The IR version onnx pairs with `opset` (what the runtimes of that opset read)."""
    return helper.OP_SET_ID_VERSION_MAP[("ai.onnx", opset)]


def check(model):
    """onnx.checker with full shape inference (raises onnx's ValidationError)."""
    onnx.checker.check_model(model, full_check=True)


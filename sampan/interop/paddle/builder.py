"""A `PaddleGraph` turned into a sampan `Program`: ops are appended through the ordinary
static dispatch (so every output's shape and dtype is inferred and checked), following
the rules of `op_table`.

Paddle values that are constants (`full`, `full_int_array`, their lists) stay NumPy
arrays while building: they become attributes where Paddle passes an attribute as an
input, and a `full`/`assign_value` op only where an op reads them as tensors.
"""
import numpy as np

from ...core.dispatch import mode_guard
from ...ops.registry import OPS
from ...static.framework import Program, Variable
from ...static.mode import STATIC, constant_var
from ...static.program_state import default_main_program, program_guard
from .op_table import Direct, rule_for

__all__ = ["ModelSignature", "build_program", "ConversionError"]


class ConversionError(ValueError):
    """The graph cannot be converted (a malformed program, or a construct the rule of an
    op does not cover); the message names the op."""


class ModelSignature:
    """What the builder learnt: inputs (name, shape, dtype), output Variables, and the
    persistable parameters (name -> declared TensorType) in the params file's order."""

    def __init__(self):
        self.inputs, self.outputs, self.parameters = [], [], {}
        self.defaults = {}   # non-persistable Paddle "parameters": fed as zeros


class _Builder:
    """Walks blocks, binding Paddle value ids to Variables, constants or lists."""

    def __init__(self, table):
        self.table = table
        self.env = {}
        self.sig = ModelSignature()
        self.materialised = {}
        self.yielded = None

    # -- values ------------------------------------------------------------------------
    def value(self, op, index):
        vid = op.inputs[index] if index < len(op.inputs) else None
        if vid is None:
            return None
        if vid not in self.env:
            raise ConversionError(f"{op.type}: input {index} reads value %{vid} before it "
                                  f"is defined")
        return self.env[vid]

    def tensor(self, value):
        """A Variable for a Variable or a constant (built in the current block, once)."""
        if isinstance(value, Variable) or value is None:
            return value
        if isinstance(value, _Missing):
            raise ConversionError(f"{value.op.type}: output {value.index} is read, but the "
                                  f"sampan op has no such output")
        if isinstance(value, list):
            return [self.tensor(v) for v in value]
        block = default_main_program().current_block()
        key = (id(value), block.idx)
        if key not in self.materialised:
            self.materialised[key] = (value, constant_var(np.asarray(value)))
        return self.materialised[key][1]

    def constant(self, op, value, what):
        """A constant's NumPy value; a run-time value is a ConversionError."""
        if isinstance(value, list):
            return np.array([self.constant(op, v, what) for v in value]).reshape(-1)
        if isinstance(value, np.ndarray):
            return value
        raise ConversionError(f"{op.type}: {what} is computed at run time; sampan needs a "
                              f"constant there")

    def bind(self, op, results):
        results = list(results)
        for k, (vid, _) in enumerate(op.outputs):
            self.env[vid] = results[k] if k < len(results) else _Missing(op, k)

    # -- walking -----------------------------------------------------------------------
    def run_block(self, block):
        """Convert a block's ops; returns the values its `yield` produced (or None)."""
        outer, self.yielded = self.yielded, None
        for op in block.ops:
            rule = rule_for(self.table, op.type)
            try:
                if isinstance(rule, Direct):
                    self.bind(op, self.direct(op, rule))
                else:
                    self.bind(op, getattr(self, "op_" + rule.method)(op))
            except ConversionError:
                raise
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                raise ConversionError(f"{op.type}: {type(exc).__name__}: {exc}") from None
        yielded, self.yielded = self.yielded, outer
        return yielded

    def op_yield_(self, op):
        self.yielded = [self.value(op, i) for i in range(len(op.inputs))]
        return []

    def direct(self, op, rule):
        target = OPS[rule.target]
        names = rule.ins or target.tensor_names
        tensors = {n: None for n in target.tensor_names}
        attrs = {}
        for name, value in op.attrs.items():
            name = rule.renames.get(name, name)
            if name in target.attr_names:
                attrs[name] = _plain_attr(value)
        attrs.update(rule.fixed)
        for index, name in enumerate(names):
            value = self.value(op, index)
            if name is None or value is None:
                if value is not None:
                    raise ConversionError(f"{op.type}: input {index} has no sampan "
                                          f"counterpart")
                continue
            if name in tensors:
                tensors[name] = self.tensor(value)
            else:
                kind = target.attr_types[target.attr_names.index(name)]
                attrs[name] = _attr_value(self.constant(op, value, f"input {name!r}"), kind)
        out = STATIC.run_op(target, tuple(tensors.values()), target.attrs_tuple(attrs))
        return [out] if target.single_output else out

    # -- structure -----------------------------------------------------------------------
    def op_data(self, op):
        name, shape, dtype = op.attrs["name"], op.attrs["shape"], op.attrs["dtype"]
        block = default_main_program().global_block()
        var = block.create_var(name, [int(d) for d in shape], dtype, is_data=True,
                               stop_gradient=True)
        self.sig.inputs.append((name, list(var._shape), var.dtype.name))
        return [var]

    def op_fetch(self, op):
        self.sig.outputs.append(self.tensor(self.value(op, 0)))
        return [self.sig.outputs[-1]]

    def op_parameter(self, op):
        name = op.attrs["name"]
        vtype = op.outputs[0][1]
        if vtype is None or vtype.dtype is None or any(d < 0 for d in vtype.shape):
            raise ConversionError(f"parameter {name!r} has no static dense type")
        if not op.attrs.get("persistable", True):
            value = np.zeros(vtype.shape, vtype.dtype)
            self.sig.defaults[name] = value
            return [value]
        self.sig.parameters[name] = vtype
        block = default_main_program().global_block()
        return [block.create_parameter(name, list(vtype.shape), vtype.dtype)]

    def op_combine(self, op):
        return [[self.value(op, i) for i in range(len(op.inputs))]]

    def op_split_list(self, op):
        items = self.value(op, 0)
        if not isinstance(items, list) or len(items) != len(op.outputs):
            raise ConversionError(f"{op.type}: input is not a list of {len(op.outputs)}")
        return items

    def op_slice_list(self, op):
        return [self.value(op, 0)[int(op.attrs["index"])]]

    def op_full(self, op):
        shape, dtype = op.attrs["shape"], op.attrs["dtype"]
        return [np.full([int(d) for d in shape], op.attrs["value"], _np_dtype(dtype))]

    def op_constant(self, op):
        value = op.attrs["value"]
        if value is None:
            raise ConversionError("a legacy op lacks an attribute its rule needs")
        return [np.array(value)]

    def op_full_int_array(self, op):
        return [np.array(_plain_attr(op.attrs["value"]), _np_dtype(op.attrs["dtype"]))
                .reshape(-1)]

    def op_assign_value(self, op):
        values = np.array(_plain_attr(op.attrs["values"]), _np_dtype(op.attrs["dtype"]))
        return [values.reshape([int(d) for d in op.attrs["shape"]])]

    def op_full_with_tensor(self, op):
        fill, shape = self.value(op, 0), self.value(op, 1)
        dtype = _np_dtype(op.attrs["dtype"])
        fill = self.constant(op, fill, "the fill value").reshape(-1)[0]
        try:
            return [np.full(self.constant(op, shape, "shape").astype(int), fill, dtype)]
        except ConversionError:
            shape = self.tensor(shape)
            if isinstance(shape, list):
                shape = STATIC.run_op(OPS["stack"], (shape,), (0,))
            return [STATIC.run_op(OPS["full_dynamic"], (shape,),
                                  OPS["full_dynamic"].attrs_tuple(
                                      {"fill_value": fill.item(), "dtype": dtype.name}))]

    def op_shape(self, op):
        x = self.value(op, 0)
        dims = list(x.shape) if isinstance(x, (Variable, np.ndarray)) else None
        if dims is not None and all(d >= 0 for d in dims):
            return [np.array(dims, "int64")]
        shape = STATIC.run_op(OPS["shape"], (self.tensor(x),), ())
        return [STATIC.run_op(OPS["cast"], (shape,), OPS["cast"].attrs_tuple(
            {"dtype": "int64"}))]

    def op_slice(self, op):
        x = self.value(op, 0)
        starts = self.constant(op, self.value(op, 1), "starts").tolist()
        ends = self.constant(op, self.value(op, 2), "ends").tolist()
        axes = _plain_attr(op.attrs["axes"])
        decrease = _plain_attr(op.attrs.get("decrease_axis", []))
        if isinstance(x, np.ndarray):
            index = [slice(None)] * x.ndim
            for axis, start, end in zip(axes, starts, ends):
                index[axis] = slice(start, end)
            return [np.squeeze(x[tuple(index)], tuple(decrease)) if decrease else
                    x[tuple(index)]]
        out = STATIC.run_op(OPS["slice"], (self.tensor(x),), OPS["slice"].attrs_tuple(
            {"axes": axes, "starts": starts, "ends": ends}))
        if decrease:
            out = STATIC.run_op(OPS["squeeze"], (out,), (tuple(decrease),))
        return [out]

    def op_split_with_num(self, op):
        x = self.tensor(self.value(op, 0))
        axis = int(self.constant(op, self.value(op, 1), "axis").reshape(-1)[0])
        num = int(op.attrs["num"])
        size = x.shape[axis]
        if size < 0 or size % num:
            raise ConversionError(f"{op.type}: cannot split dim {size} into {num} parts")
        return [STATIC.run_op(OPS["split"], (x,), ((size // num,) * num, axis))]

    # -- control flow --------------------------------------------------------------------
    def op_if_(self, op):
        from ...static.control_flow.cond import cond
        if len(op.blocks) != 2:
            raise ConversionError("pd_op.if must have a true and a false block")
        pred = self.tensor(self.value(op, 0))
        branches = [lambda b=b: self.branch_values(op, b) for b in op.blocks]
        outs = cond(pred, branches[0], branches[1])
        return outs if isinstance(outs, (list, tuple)) else [outs]

    def branch_values(self, op, block):
        values = self.run_block(block) or []
        unset = [k for k, v in enumerate(values) if v is None]
        if unset:
            raise ConversionError(f"{op.type}: output(s) {unset} are read but set by one "
                                  f"branch only")
        return [self.tensor(v) for v in values]

    def op_while_(self, op):
        from ...static.control_flow.while_loop import while_loop
        (body,) = op.blocks
        inits = [self.tensor(self.value(op, i)) for i in range(len(op.inputs))]
        if len(body.args) != len(inits) - 1:
            raise ConversionError("pd_op.while: body arguments do not match the loop values")

        def step(_, *values):
            for (vid, _), value in zip(body.args, values):
                self.env[vid] = value
            yielded = self.run_block(body)
            if yielded is None or len(yielded) != len(inits):
                raise ConversionError("pd_op.while: the body does not yield every value")
            return [self.tensor(v) for v in yielded]

        results = while_loop(lambda c, *values: c, step, inits)
        return list(results)[1:]

    # -- tensor arrays -------------------------------------------------------------------
    def op_create_array(self, op):
        """An empty array; the item shape the program declares (if any) is kept, so what
        reads the array after a loop that fills it knows the items' rank."""
        from ...static.control_flow.tensor_array import create_array
        declared = op.outputs[0][1]
        known = declared is not None and declared.items is None and declared.dtype
        dtype = _plain_attr(op.attrs.get("dtype")) or (declared.dtype if known else None)
        if dtype is None:
            raise ConversionError(f"{op.type}: the array's item dtype is not given")
        array = create_array(dtype)
        if known:
            array._shape = tuple(declared.shape)
        return [array]

    def op_array_write(self, op):
        from ...static.control_flow.tensor_array import array_with
        array, x, i = (self.tensor(self.value(op, k)) for k in range(3))
        return [array_with(array, i, x)]

    def op_array_read(self, op):
        from ...static.control_flow.tensor_array import array_read
        return [array_read(self.tensor(self.value(op, 0)), self.tensor(self.value(op, 1)))]

    def op_array_length(self, op):
        from ...static.control_flow.tensor_array import array_length
        return [array_length(self.tensor(self.value(op, 0)))]

    def op_array_to_tensor(self, op):
        """The items concatenated (stacked with use_stack) on `axis`; the second output,
        each item's size on the axis, has no counterpart."""
        from ...static.control_flow.array_join import array_join
        return [array_join(self.tensor(self.value(op, 0)), int(op.attrs.get("axis", 1)),
                           bool(op.attrs.get("use_stack", False)))]

    def op_rnn(self, op):
        from .recurrent import convert_rnn
        return convert_rnn(self, op)


class _Missing:
    """An output of a Paddle op that has no sampan counterpart (an error if read)."""

    def __init__(self, op, index):
        self.op, self.index = op, index


def _plain_attr(value):
    """A decoded attribute as sampan takes it ('undefined' dtype as None)."""
    if isinstance(value, list):
        return [_plain_attr(v) for v in value]
    if isinstance(value, str) and value.lower().startswith("undefined"):
        return None
    return value


_LIST_ATTRS = {"int[]", "IntArray", "float[]"}


def _attr_value(array, attr_type):
    """A constant input used as an attribute: a list for list types, else its one value."""
    if attr_type in _LIST_ATTRS:
        return array.reshape(-1).tolist()
    if array.size != 1:
        raise ValueError(f"a {attr_type} attribute needs one value, got shape {array.shape}")
    return array.reshape(-1)[0].item()


def _np_dtype(name):
    return np.dtype("bool" if name == "bool" else name)


def build_program(graph, table):
    """(Program, ModelSignature) of a PaddleGraph, built with the rules of `table`."""
    program = Program()
    builder = _Builder(table)
    with mode_guard(STATIC), program_guard(program, Program()):
        builder.run_block(graph.block)
    return program, builder.sig

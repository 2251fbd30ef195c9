"""A sampan inference program written as Paddle 3's PIR model (`<prefix>.json` +
`<prefix>.pdiparams`), so Paddle Inference serves a model trained in sampan.

Each sampan op goes back through the reading table (`op_table.PIR_OPS`): the Paddle op
whose Direct rule targets it, with the attributes Paddle passes as values emitted as
`full_int_array` / `full` ops. Attribute type tags follow the sampan attribute types,
with the exceptions Paddle's op definitions need (`_ATTR_TAGS`), plus the attributes and
outputs Paddle's ops have and sampan's lack (`_PADDLE_EXTRAS`). Ops with no way back
raise one ValueError naming all of them.
"""
import json
import os

import numpy as np

from ...serialization import atomic_write_all
from .op_table import PIR_OPS, Direct
from .pir_json import DTYPES
from .tensor_stream import tensors_bytes

__all__ = ["write_pir_model", "unsupported_for_paddle"]

_TYPE_TAGS = {v: "0." + k for k, v in DTYPES.items()}
_PLACE = {"#": "1.a_place", "D": [1, 0, ""]}   # the CPU
# Attribute tags that differ from what the sampan attribute type suggests.
_ATTR_TAGS = {("pd_op.embedding", "padding_idx"): "0.a_i64",
              ("pd_op.pool2d", "strides"): "i64[]", ("pd_op.pool2d", "paddings"): "i64[]"}
# Attributes and trailing outputs Paddle's ops have that sampan's do not.
_PADDLE_EXTRAS = {
    "pd_op.batch_norm": ({"trainable_statistics": ("0.a_bool", False)},
                         [("uint8", [-1])]),
    "pd_op.dropout": ({"fix_seed": ("0.a_bool", False), "seed": ("0.a_i32", 0)}, []),
    "pd_op.embedding": ({"sparse": ("0.a_bool", False)}, []),
}
# sampan outputs Paddle's op does not have (dropped from the end).
_PADDLE_OUTPUTS = {"pd_op.conv2d": 1, "pd_op.depthwise_conv2d": 1, "pd_op.batch_norm": 5,
                   "pd_op.dropout": 2, "pd_op.layer_norm": 3}
_STRUCTURAL = {"full", "cond", "while", "shape", "slice", "full_dynamic", "assign_value",
               "getitem"}


def _reverse_table():
    """{sampan op: (Paddle op, Direct rule)} for rules named after their target."""
    out = {}
    for name, rule in PIR_OPS.items():
        if isinstance(rule, Direct) and name == f"pd_op.{rule.target}":
            out[rule.target] = (name, rule)
    return out


REVERSE = _reverse_table()


def unsupported_for_paddle(program):
    """Op types of `program` (all blocks) that cannot be written for Paddle."""
    return sorted({op.type for block in program.blocks for op in block.ops
                   if op.type not in REVERSE and op.type not in _STRUCTURAL})


def _tensor_type(dtype, shape):
    return {"#": "0.t_dtensor", "D": [{"#": _TYPE_TAGS[dtype]}, list(shape), "NCHW", [], 0]}


def _attr(tag, value):
    return {"#": tag, "D": value}


def _tag_for(attr_type, value):
    """The PIR attribute node of a sampan attribute value of `attr_type`."""
    if attr_type == "bool":
        return _attr("0.a_bool", bool(value))
    if attr_type == "int":
        return _attr("0.a_i32", int(value))
    if attr_type == "float":
        return _attr("0.a_f32", float(value))
    if attr_type == "str":
        return _attr("0.a_str", value)
    if attr_type == "int[]":
        return _attr("0.a_array", [_attr("0.a_i32", int(v)) for v in value])
    if attr_type == "float[]":
        return _attr("0.a_array", [_attr("0.a_f32", float(v)) for v in value])
    if attr_type == "DataType":
        return _attr("1.a_dtype", _dtype_name(value) if value is not None
                     else "Undefined(ALL_DTYPE)")
    raise ValueError(f"attribute type {attr_type} cannot be written for Paddle")


def _dtype_name(value):
    return getattr(value, "name", None) or str(value)


def _tagged(tag, attr_type, value):
    """The attribute node: an explicit tag of `_ATTR_TAGS`, else by the sampan type."""
    if tag == "i64[]":
        return _attr("0.a_array", [_attr("0.a_i64", int(v)) for v in value])
    if tag is not None:
        return _attr(tag, value)
    return _tag_for(attr_type, value)


class _Writer:
    """Accumulates ops (of the block being written) with fresh value ids; `ids` maps each
    sampan variable name to the id of its current value."""

    def __init__(self, program):
        self.program, self.ops, self.ids = program, [], {}
        self.next_id, self.next_arg, self.regions = 1, -1, 0
        self.vars = {n: v for block in program.blocks for n, v in block.vars.items()}

    def new_value(self, dtype, shape):
        vid, self.next_id = self.next_id, self.next_id + 1
        return vid, {"%": vid, "TT": _tensor_type(dtype, shape)}

    def var_value(self, name):
        var = self.vars[name]
        vid, node = self.new_value(var.dtype.name, var._shape)
        self.ids[name] = vid
        return node

    def sub_block(self, block, write_ops, args=()):
        """A PIR region holding one block: `write_ops()` emits its ops (ending in a yield)."""
        outer, self.ops = self.ops, []
        write_ops()
        ops, self.ops = self.ops, outer
        self.regions += 1
        return {"#": f"region_{self.regions}", "blocks": [
            {"#": f"block_{self.regions}", "args": list(args), "ops": ops}]}

    def yield_(self, names):
        self.ops.append({"#": "2.yield", "A": [], "I": [{"%": self.ids[n]} for n in names],
                         "O": [], "OA": []})

    def block_of(self, attr):
        return attr if hasattr(attr, "ops") else self.program.block(attr)

    def cond(self, op):
        """sampan `cond` -> pd_op.if with a region per branch yielding its results."""
        pred = self.ids[op.input("Cond")[0]]
        regions = []
        for branch in ("true", "false"):
            block = self.block_of(op.attrs[f"{branch}_block"])
            outs = op.attrs[f"{branch}_outs"]
            regions.append(self.sub_block(block, lambda b=block, o=outs: (
                [self.op(inner) for inner in b.ops], self.yield_(o))))
        outs = [self.var_value(n) for n in op.output("Out")]
        self.emit("1.if", [pred], outs, {})
        self.ops[-1]["regions"] = regions

    def op_cond(self, op):
        self.cond(op)

    def op_while(self, op):
        self.while_(op)

    def op_full(self, op):
        name = op.outputs["out"][0]
        shape, fill = op.attrs["shape"], op.attrs["fill_value"]
        self.full(name, list(shape), fill, self.vars[name].dtype.name)

    def full(self, name, shape, fill, dtype):
        out = self.var_value(name) if name else self.new_value(dtype, shape)[1]
        self.emit("1.full", [], [out], {
            "shape": _attr("1.a_intarray", shape), "value": _attr("0.a_f64", float(fill)),
            "dtype": _attr("1.a_dtype", dtype), "place": _PLACE})
        return out["%"]

    def op_assign_value(self, op):
        """A constant: `full_int_array` for an integer vector, else `full` when every
        value is the same (other constants have no writer yet)."""
        values, dtype = np.asarray(op.attrs["values"]), _dtype_name(op.attrs["dtype"])
        shape = list(op.attrs["shape"])
        if dtype == "int64" and len(shape) == 1:
            out = self.var_value(op.outputs["out"][0])
            self.emit("1.full_int_array", [], [out], {
                "value": _attr("0.a_array", [_attr("0.a_i64", int(v)) for v in values.ravel()]),
                "dtype": _attr("1.a_dtype", "int64"), "place": _PLACE})
        elif values.size and (values == values.ravel()[0]).all():
            self.full(op.outputs["out"][0], shape, values.ravel()[0], dtype)
        else:
            raise ValueError("jit.save(format='paddle'): a constant tensor with varying "
                             "values (assign_value) cannot be written for Paddle yet")

    def op_shape(self, op):
        out = self.var_value(op.outputs["out"][0])
        self.emit("1.shape64", [self.ids[op.input("input")[0]]], [out], {})

    def op_full_dynamic(self, op):
        dtype = self.vars[op.outputs["out"][0]].dtype.name
        value = self.full(None, [1], op.attrs["fill_value"], dtype)
        out = self.var_value(op.outputs["out"][0])
        self.emit("1.full_with_tensor", [value, self.ids[op.input("shape")[0]]], [out],
                  {"dtype": _attr("1.a_dtype", dtype)})

    def op_slice(self, op):
        self.slice(op.input("input")[0], op.outputs["out"][0], op.attrs["axes"],
                   op.attrs["starts"], op.attrs["ends"], [])

    def slice(self, source, target, axes, starts, ends, decrease):
        def i64s(values):
            return _attr("0.a_array", [_attr("0.a_i64", int(v)) for v in values])
        inputs = [self.ids[source], self.constant(starts, "int[]"), self.constant(ends, "int[]")]
        out = self.var_value(target)
        self.emit("1.slice", inputs, [out], {"axes": i64s(axes), "infer_flags": i64s(
            [1] * len(axes)), "decrease_axis": i64s(decrease)})

    def op_getitem(self, op):
        """x[...] with integers and step-1 slices only: Paddle's `slice`."""
        axes, starts, ends, decrease = [], [], [], []
        for axis, item in enumerate(op.attrs["index"]):
            if item[0] == "int":
                axes.append(axis), starts.append(item[1]), decrease.append(axis)
                ends.append(item[1] + 1 if item[1] != -1 else 2**31 - 1)
            elif item[0] == "slice" and item[3] in (None, 1):
                if item[1] is None and item[2] is None:
                    continue
                axes.append(axis), starts.append(0 if item[1] is None else item[1])
                ends.append(2**31 - 1 if item[2] is None else item[2])
            else:
                raise ValueError(f"jit.save(format='paddle'): indexing with {item[0]!r} "
                                 f"cannot be written for Paddle yet")
        self.slice(op.input("x")[0], op.outputs["out"][0], axes, starts, ends, decrease)

    def inline_condition(self, block, cond_vars, values, cond_out):
        """The id of a while's condition computed from `values` (inlining its block)."""
        for name, value in zip(cond_vars, values):
            self.ids[name] = self.ids[value]
        for inner in block.ops:
            self.op(inner)
        return self.ids[cond_out]

    def while_(self, op):
        """sampan `while` (condition block + body block) -> pd_op.while, whose condition
        is computed before the loop and again at the end of the body."""
        attrs, xs = op.attrs, op.input("X")
        cond_block, body = self.block_of(attrs["cond_block"]), self.block_of(attrs["body_block"])
        pred = self.inline_condition(cond_block, attrs["cond_vars"], xs, attrs["cond_out"])
        args = []
        for name in attrs["body_vars"]:
            var = self.vars[name]
            self.ids[name], self.next_arg = self.next_arg, self.next_arg - 1
            args.append({"#": self.ids[name], "TT": _tensor_type(var.dtype.name, var._shape)})

        def body_ops():
            for inner in body.ops:
                self.op(inner)
            again = self.inline_condition(cond_block, attrs["cond_vars"], attrs["body_outs"],
                                          attrs["cond_out"])
            self.ops.append({"#": "2.yield", "A": [], "O": [], "OA": [], "I": [{"%": again}] + [
                {"%": self.ids[n]} for n in attrs["body_outs"]]})
        region = self.sub_block(body, body_ops, args)
        inputs = [pred] + [self.ids[n] for n in xs]
        outs = [self.var_value(n) for n in op.output("Out")]
        self.emit("1.while", inputs, outs, {})
        self.ops[-1]["regions"] = [region]

    def emit(self, tag, inputs, outputs, attrs):
        self.ops.append({"#": tag, "A": [{"AT": v, "N": k} for k, v in attrs.items()],
                         "I": [{"%": i} for i in inputs], "O": outputs,
                         "OA": [{"AT": _attr("0.a_array", [_attr("0.a_bool", True)
                                                           for _ in outputs]),
                                 "N": "stop_gradient"}]})

    def axis_value(self, op, target, name):
        """An attribute passed as a value; a negative `axis` counted from the front (Paddle
        3.3.1's split computes wrong results from a negative axis value)."""
        value = op.attrs[name]
        if name == "axis" and isinstance(value, int) and value < 0:
            first = op.inputs.get(target.tensor_names[0]) or []
            if len(first) == 1:
                value += len(self.vars[first[0]]._shape)
        return value

    def combine(self, names):
        """The id of a `builtin.combine` of variables (a Tensor[] input)."""
        types = [_tensor_type(self.vars[n].dtype.name, self.vars[n]._shape) for n in names]
        vid, self.next_id = self.next_id, self.next_id + 1
        self.emit("0.combine", [self.ids[n] for n in names],
                  [{"%": vid, "TT": {"#": "0.t_vec", "D": types}}], {})
        return vid

    def split_list(self, names):
        """A vector output's node, unpacked into `names` by a `builtin.split`."""
        types = [_tensor_type(self.vars[n].dtype.name, self.vars[n]._shape) for n in names]
        vid, self.next_id = self.next_id, self.next_id + 1
        node = {"%": vid, "TT": {"#": "0.t_vec", "D": types}}
        return node, lambda: self.emit("0.split", [vid], [self.var_value(n) for n in names], {})

    def constant(self, value, attr_type):
        """A value id holding an attribute Paddle passes as an input."""
        if attr_type in ("int[]", "IntArray"):
            values = [int(v) for v in value]
            vid, node = self.new_value("int64", [len(values)])
            self.emit("1.full_int_array", [], [node], {
                "value": _attr("0.a_array", [_attr("0.a_i64", v) for v in values]),
                "dtype": _attr("1.a_dtype", "int64"), "place": _PLACE})
            return vid
        dtype = "int32" if attr_type == "int" else "float32"
        vid, node = self.new_value(dtype, [1])
        self.emit("1.full", [], [node], {
            "shape": _attr("1.a_intarray", [1]), "value": _attr("0.a_f64", float(value)),
            "dtype": _attr("1.a_dtype", dtype), "place": _PLACE})
        return vid

    def op(self, op):
        special = getattr(self, f"op_{op.type}", None)
        if special is not None:
            special(op)
            return
        from ...ops.registry import OPS
        name, rule = REVERSE[op.type]
        target = OPS[op.type]
        inputs, attrs = [], {}
        for arg in rule.ins or target.tensor_names:
            if arg is None:
                inputs.append(0)
            elif arg in target.tensor_names:
                names = op.inputs.get(arg) or []
                kind = target.tensor_kinds[target.tensor_names.index(arg)]
                inputs.append(self.combine(names) if kind == "Tensor[]" else
                              self.ids[names[0]] if names else 0)
            else:
                kind = target.attr_types[target.attr_names.index(arg)]
                inputs.append(self.constant(self.axis_value(op, target, arg), kind))
        paddle_names = {v: k for k, v in rule.renames.items()}
        for attr_name, attr_type in zip(target.attr_names, target.attr_types):
            if rule.ins and attr_name in rule.ins:
                continue
            tag = _ATTR_TAGS.get((name, attr_name))
            value = op.attrs[attr_name]
            attrs[paddle_names.get(attr_name, attr_name)] = _tagged(tag, attr_type, value)
        extra_attrs, extra_outputs = _PADDLE_EXTRAS.get(name, ({}, []))
        attrs.update({k: _attr(tag, v) for k, (tag, v) in extra_attrs.items()})
        count = _PADDLE_OUTPUTS.get(name, len(target.output_names))
        outs, unpack = [], []
        for out_name, kind in list(zip(target.output_names, target.output_kinds))[:count]:
            if kind == "Tensor[]":
                node, then = self.split_list(op.outputs[out_name])
                outs.append(node)
                unpack.append(then)
            else:
                outs.append(self.var_value(op.outputs[out_name][0]))
        outs += [self.new_value(dtype, shape)[1] for dtype, shape in extra_outputs]
        self.emit("1." + name[len("pd_op."):], inputs, outs, attrs)
        for then in unpack:
            then()


def write_pir_model(prefix, method, values):
    """Write an ExportedMethod (forward only) as `prefix.json` + `prefix.pdiparams`."""
    program = method.program
    missing = unsupported_for_paddle(program)
    if missing:
        raise ValueError(f"jit.save(format='paddle'): these ops cannot be written for Paddle "
                         f"yet: {', '.join(missing)}")
    block = program.global_block()
    writer = _Writer(program)
    names = sorted(method.parameters)
    for name in names:
        var = block.var(name)
        node = writer.var_value(name)
        writer.ops.append({"#": "p", "A": [0, 1, 1, name], "DA": [], "O": node,
                           "OA": [1, 0, 1], "QA": []})
    for entry in method.inputs:
        node = writer.var_value(entry["name"])
        writer.emit("1.data", [], [node], {
            "name": _attr("0.a_str", entry["name"]),
            "shape": _attr("1.a_intarray", list(entry["shape"])),
            "dtype": _attr("1.a_dtype", entry["dtype"]),
            "place": _attr("1.a_place", [0, 0, ""])})   # as Paddle writes feeds
    for op in block.ops:
        writer.op(op)
    for col, name in enumerate(method.outputs):
        var = block.var(name)
        _, node = writer.new_value(var.dtype.name, var._shape)
        writer.emit("1.fetch", [writer.ids[name]], [node], {
            "name": _attr("0.a_str", f"fetch_name_{col}"), "col": _attr("0.a_i32", col)})
    doc = {"base_code": {"magic": "pir", "trainable": True, "version": 4},
           "program": {"regions": [{"#": "region_0", "blocks": [
               {"#": "block_0", "args": [], "ops": writer.ops}]}]}}
    folder = os.path.dirname(os.fspath(prefix))
    if folder:
        os.makedirs(folder, exist_ok=True)
    blob = tensors_bytes([np.ascontiguousarray(values[n]) for n in names])
    atomic_write_all({f"{prefix}.pdiparams": blob,
                      f"{prefix}.json": json.dumps(doc, separators=(",", ":")).encode("utf-8")})

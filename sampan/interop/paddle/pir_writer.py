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

from ...serialization import atomic_open
from .op_table import PIR_OPS, Direct
from .pir_json import DTYPES
from .tensor_stream import tensors_bytes

__all__ = ["write_pir_model", "unsupported_for_paddle"]

_TYPE_TAGS = {v: "0." + k for k, v in DTYPES.items()}
_PLACE = {"#": "1.a_place", "D": [0, 0, ""]}
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
_STRUCTURAL = {"full", "cond", "while"}


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
        return _attr("1.a_dtype", "undefined" if value is None else _dtype_name(value))
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

    def constant(self, value, attr_type):
        """A value id holding an attribute Paddle passes as an input."""
        if attr_type in ("int[]", "IntArray"):
            values = [int(v) for v in value]
            vid, node = self.new_value("int64", [len(values)])
            self.emit("1.full_int_array", [], [node], {
                "value": _attr("0.a_array", [_attr("0.a_i64", v) for v in values]),
                "dtype": _attr("1.a_dtype", "int64"), "place": _PLACE})
            return vid
        vid, node = self.new_value("float32", [1])
        self.emit("1.full", [], [node], {
            "shape": _attr("1.a_intarray", [1]), "value": _attr("0.a_f64", float(value)),
            "dtype": _attr("1.a_dtype", "float32"), "place": _PLACE})
        return vid

    def op(self, op):
        if op.type in ("cond", "while"):
            (self.cond if op.type == "cond" else self.while_)(op)
            return
        if op.type == "full":
            shape, fill, dtype = (op.attrs[k] for k in ("shape", "fill_value", "dtype"))
            out = self.var_value(op.outputs["out"][0])
            self.emit("1.full", [], [out], {
                "shape": _attr("1.a_intarray", list(shape)), "value": _attr("0.a_f64",
                                                                            float(fill)),
                "dtype": _attr("1.a_dtype", _dtype_name(dtype)), "place": _PLACE})
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
                inputs.append(self.ids[names[0]] if names else 0)
            else:
                kind = target.attr_types[target.attr_names.index(arg)]
                inputs.append(self.constant(op.attrs[arg], kind))
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
        outs = [self.var_value(op.outputs[n][0]) for n in target.output_names[:count]]
        outs += [self.new_value(dtype, shape)[1] for dtype, shape in extra_outputs]
        self.emit("1." + name[len("pd_op."):], inputs, outs, attrs)


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
            "dtype": _attr("1.a_dtype", entry["dtype"]), "place": _PLACE})
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
    with atomic_open(f"{prefix}.pdiparams") as file:
        file.write(blob)
    with atomic_open(f"{prefix}.json") as file:
        file.write(json.dumps(doc, separators=(",", ":")).encode("utf-8"))

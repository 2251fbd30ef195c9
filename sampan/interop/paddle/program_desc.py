"""The legacy protobuf `ProgramDesc` (`<prefix>.pdmodel` of Paddle < 3, or Paddle 3 with
FLAGS_enable_pir_api=0) parsed into a `PaddleGraph` with our own wire reader.

Each legacy op is rewritten as the Paddle 3 op it became (`op_table.LEGACY_OPS`: the
PIR op type, which input and output slots map to its positional values, attribute
renames, and attributes that PIR passes as input values), so both formats share the PIR
rules. Unknown op types keep a `legacy.` prefix and are reported by UnsupportedPaddleOp.
"""
import struct

import numpy as np

from .graph import PaddleBlock, PaddleGraph, PaddleOp, TensorType
from .op_table import LEGACY_OPS
from .tensor_stream import decode_tensor_desc
from .wire import fields, signed64

__all__ = ["parse_program_desc"]

LOD_TENSOR, FEED_MINIBATCH, FETCH_LIST = 7, 9, 10
_SKIPPED_VARS = {FEED_MINIBATCH, FETCH_LIST}


def _text(raw):
    return bytes(raw).decode("utf-8")


def _message(raw, schema):
    """{field name: [values]} of a message, for the (number: name) fields of `schema`."""
    out = {}
    for number, kind, value in fields(raw):
        name = schema.get(number)
        if name is not None:
            out.setdefault(name, []).append((kind, value))
    return out


_ATTR = {1: "name", 2: "type", 3: "i", 4: "f", 5: "s", 6: "ints", 7: "floats", 8: "strings",
         10: "b", 11: "bools", 12: "block_idx", 13: "l", 14: "blocks_idx", 15: "longs",
         16: "float64s", 19: "float64"}


def _scalars(entries, kind_of_item):
    """Values of a repeated numeric field (packed or not)."""
    out = []
    for kind, value in entries:
        if kind == 2:   # packed
            raw = bytes(value)
            if kind_of_item == "f32":
                out.extend(struct.unpack(f"<{len(raw) // 4}f", raw[:len(raw) // 4 * 4]))
            elif kind_of_item == "f64":
                out.extend(struct.unpack(f"<{len(raw) // 8}d", raw[:len(raw) // 8 * 8]))
            else:
                out.extend(signed64(v) for _, _, v in _varints(raw))
        elif kind_of_item == "f32":
            out.append(struct.unpack("<f", value.to_bytes(4, "little"))[0])
        elif kind_of_item == "f64":
            out.append(struct.unpack("<d", value.to_bytes(8, "little"))[0])
        else:
            out.append(signed64(value))
    return out


def _varints(raw):
    from .tensor_stream import _packed_as_fields
    return fields(_packed_as_fields(raw))


def _attr(raw):
    """(name, value) of an OpDesc.Attr."""
    msg = _message(raw, _ATTR)
    name = _text(msg["name"][0][1])
    kind = msg["type"][0][1]
    one = {0: ("i", "int"), 1: ("f", "f32"), 2: ("s", "str"), 6: ("b", "bool"),
           8: ("block_idx", "int"), 9: ("l", "int"), 15: ("float64", "f64")}
    many = {3: ("ints", "int"), 4: ("floats", "f32"), 5: ("strings", "str"),
            7: ("bools", "bool"), 10: ("blocks_idx", "int"), 11: ("longs", "int"),
            12: ("float64s", "f64")}
    if kind in one:
        key, item = one[kind]
        values = _decode(msg.get(key, []), item)
        return name, values[0] if values else None
    if kind in many:
        key, item = many[kind]
        return name, _decode(msg.get(key, []), item)
    return name, None


def _decode(entries, item):
    if item == "str":
        return [_text(v) for _, v in entries]
    if item == "bool":
        return [bool(v) for v in _scalars(entries, "int")]
    return _scalars(entries, item)


def _var_type(raw):
    """(kind, TensorType or None) of a VarDesc.VarType."""
    msg = _message(raw, {1: "type", 3: "lod_tensor"})
    kind = msg["type"][0][1]
    if kind != LOD_TENSOR or "lod_tensor" not in msg:
        return kind, None
    tensor = _message(msg["lod_tensor"][0][1], {1: "tensor"})
    dtype, dims = decode_tensor_desc(tensor["tensor"][0][1])
    return kind, TensorType(dtype, dims)


def _vars(raws):
    """{name: (kind, TensorType, persistable)} of a block's VarDescs."""
    out = {}
    for raw in raws:
        msg = _message(raw, {1: "name", 2: "type", 3: "persistable"})
        kind, vtype = _var_type(msg["type"][0][1])
        out[_text(msg["name"][0][1])] = (kind, vtype, bool(msg.get("persistable",
                                                                   [(0, 0)])[0][1]))
    return out


def _slots(raws):
    """{slot name: [argument names]} of an OpDesc's inputs or outputs."""
    out = {}
    for raw in raws:
        msg = _message(raw, {1: "parameter", 2: "arguments"})
        out[_text(msg["parameter"][0][1])] = [_text(v) for _, v in msg.get("arguments", [])]
    return out


class _Converter:
    """Turns OpDescs into PaddleOps, inventing value ids for attribute constants."""

    def __init__(self, variables):
        self.vars = variables
        self.count = 0

    def type_of(self, name):
        entry = self.vars.get(name)
        return entry[1] if entry else None

    def constant(self, value):
        self.count += 1
        vid = f"@const{self.count}"
        return vid, PaddleOp("legacy.constant", [], [(vid, None)], {"value": value})

    def op(self, raw):
        """[PaddleOp] for one OpDesc (constants first)."""
        msg = _message(raw, {1: "inputs", 2: "outputs", 3: "type", 4: "attrs"})
        kind = _text(msg["type"][0][1])
        ins, outs = _slots(v for _, v in msg.get("inputs", [])), \
            _slots(v for _, v in msg.get("outputs", []))
        attrs = dict(_attr(v) for _, v in msg.get("attrs", []))
        if kind == "feed":
            name = outs["Out"][0]
            vtype = self.type_of(name)
            return [PaddleOp("pd_op.data", [], [(name, vtype)],
                             {"name": name, "shape": vtype.shape, "dtype": vtype.dtype})]
        if kind == "fetch":
            return [PaddleOp("pd_op.fetch", [ins["X"][0]], [], {})]
        entry = LEGACY_OPS.get(kind)
        if entry is None:
            return [PaddleOp(f"legacy.{kind}", [], [], {})]
        _check_slots(kind, entry, ins, attrs, self)
        made = []
        if entry.list_input:
            self.count += 1
            vid = f"@list{self.count}"
            made.append(PaddleOp("builtin.combine", ins.get(entry.ins[0], []), [(vid, None)],
                                 {}))
            ins = {**ins, entry.ins[0]: [vid]}
        inputs = [_first(ins.get(slot)) if slot else None for slot in entry.ins]
        for attr_name in entry.attr_inputs:
            vid, const = self.constant(attrs.pop(attr_name, None))
            made.append(const)
            inputs.append(vid)
        renamed = {entry.renames.get(k, k): v for k, v in attrs.items()}
        outputs = [(_first(outs.get(slot)), self.type_of(_first(outs.get(slot))))
                   for slot in entry.outs]
        made.append(PaddleOp(entry.pir, inputs, outputs, renamed))
        return made


def _check_slots(kind, entry, ins, attrs, convert):
    """Refuse what the rule would otherwise ignore: arguments in slots it does not read,
    and elementwise broadcasts aligned on a non-trailing axis."""
    for slot, names in ins.items():
        if names and slot not in entry.ins:
            raise ValueError(f"{kind}: input slot {slot!r} is not supported")
    if kind.startswith("elementwise_") and attrs.get("axis", -1) != -1:
        x, y = (convert.type_of(_first(ins.get(s))) for s in ("X", "Y"))
        if x is None or y is None or attrs["axis"] != len(x.shape) - len(y.shape):
            raise ValueError(f"{kind}: broadcasting Y at axis {attrs['axis']} is not "
                             f"supported")


def _first(names):
    return names[0] if names else None


def parse_program_desc(raw):
    """The PaddleGraph of a serialized ProgramDesc (raises ValueError when malformed)."""
    blocks = [v for n, k, v in fields(raw) if n == 1 and k == 2]
    if not blocks:
        raise ValueError("not a Paddle ProgramDesc (no blocks)")
    if len(blocks) > 1:
        raise ValueError("legacy programs with sub-blocks (control flow) are not supported")
    block = _message(blocks[0], {3: "vars", 4: "ops"})
    variables = _vars(v for _, v in block.get("vars", []))
    convert = _Converter(variables)
    ops = [PaddleOp("builtin.parameter", [], [(name, vtype)],
                    {"name": name, "persistable": True})
           for name, (kind, vtype, persistable) in sorted(variables.items())
           if persistable and kind not in _SKIPPED_VARS]
    for _, raw_op in block.get("ops", []):
        ops.extend(convert.op(raw_op))
    return PaddleGraph(PaddleBlock([], ops), "legacy")

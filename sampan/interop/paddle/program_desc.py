"""The legacy protobuf `ProgramDesc` (`<prefix>.pdmodel` of Paddle < 3, or Paddle 3 with
FLAGS_enable_pir_api=0) parsed into a `PaddleGraph` with our own wire reader.

Each legacy op is rewritten as the Paddle 3 op it became (`op_table.LEGACY_OPS`: the
PIR op type, which input and output slots map to its positional values, attribute
renames, and attributes that PIR passes as input values), so both formats share the PIR
rules; sub-blocks (`conditional_block`, `while`) become PIR regions (`legacy_blocks`).
Unknown op types keep a `legacy.` prefix and are reported by UnsupportedPaddleOp.
"""
import struct

from .graph import PaddleBlock, PaddleGraph, TensorType
from .legacy_blocks import RawBlock, RawOp, convert_program
from .legacy_branches import merge_branches
from .tensor_stream import decode_tensor_desc
from .wire import fields, signed64

__all__ = ["parse_program_desc"]

LOD_TENSOR, FEED_MINIBATCH, FETCH_LIST, TENSOR_ARRAY = 7, 9, 10, 13
_DESC_FIELDS = {LOD_TENSOR: "lod_tensor", TENSOR_ARRAY: "tensor_array"}
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
    """(kind, TensorType or None) of a VarDesc.VarType (a tensor array's: its items')."""
    msg = _message(raw, {1: "type", 3: "lod_tensor", 4: "tensor_array"})
    kind = msg["type"][0][1]
    field = _DESC_FIELDS.get(kind)
    if field not in msg:
        return kind, None
    tensor = _message(msg[field][0][1], {1: "tensor"})
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


def _op(raw):
    """The RawOp of an OpDesc."""
    msg = _message(raw, {1: "inputs", 2: "outputs", 3: "type", 4: "attrs"})
    return RawOp(_text(msg["type"][0][1]), _slots(v for _, v in msg.get("inputs", [])),
                 _slots(v for _, v in msg.get("outputs", [])),
                 dict(_attr(v) for _, v in msg.get("attrs", [])))


def _block(raw):
    """The RawBlock of a BlockDesc."""
    block = _message(raw, {3: "vars", 4: "ops"})
    return RawBlock(_vars(v for _, v in block.get("vars", [])),
                    [_op(v) for _, v in block.get("ops", [])])


def parse_program_desc(raw):
    """The PaddleGraph of a serialized ProgramDesc (raises ValueError when malformed)."""
    blocks = [_block(v) for n, k, v in fields(raw) if n == 1 and k == 2]
    if not blocks:
        raise ValueError("not a Paddle ProgramDesc (no blocks)")
    ops = merge_branches(convert_program(blocks, _SKIPPED_VARS, TENSOR_ARRAY))
    return PaddleGraph(PaddleBlock([], ops), "legacy")

"""Paddle 3's PIR program file (`<prefix>.json`, `base_code.magic == "pir"`) parsed into a
`PaddleGraph`.

The file is compact JSON: an op is {"#": "<dialect>.<name>", "I": [{"%": id}], "O":
[{"%": id, "TT": type}], "A": [{"N": name, "AT": {"#": kind, "D": data}}], "regions":
[{"blocks": [...]}]}; dialect 0 is `builtin`, 1 `pd_op`, 2 `cf`, and "p" is a parameter.
Types are {"#": "0.t_dtensor", "D": [{"#": "0.t_f32"}, dims, layout, lod, offset]} or
"0.t_vec" lists. Anything else in the document is reported as a malformed file.
"""
from .graph import PaddleBlock, PaddleGraph, PaddleOp, TensorType
from .pir_arrays import carry_array_writes

__all__ = ["MalformedProgram", "is_pir_document", "parse_pir"]

DIALECTS = {"0": "builtin", "1": "pd_op", "2": "cf"}
DTYPES = {"t_f32": "float32", "t_f64": "float64", "t_f16": "float16", "t_bf16": "bfloat16",
          "t_i8": "int8", "t_ui8": "uint8", "t_i16": "int16", "t_i32": "int32",
          "t_i64": "int64", "t_bool": "bool", "t_c64": "complex64", "t_c128": "complex128"}
MAX_DEPTH = 64


class MalformedProgram(ValueError):
    """The program document is not what Paddle writes; the message says where."""


def is_pir_document(doc):
    """True for a parsed JSON document that is a Paddle PIR program."""
    return (type(doc) is dict and type(doc.get("base_code")) is dict
            and doc["base_code"].get("magic") == "pir")


def _expect(ok, what):
    if not ok:
        raise MalformedProgram(what)


def _op_type(tag):
    _expect(type(tag) is str and len(tag) < 200, "op tag is not a short string")
    if tag == "p":
        return "builtin.parameter"
    dialect, _, name = tag.partition(".")
    _expect(bool(name), f"op tag {tag!r} has no dialect")
    return f"{DIALECTS.get(dialect, 'dialect' + dialect)}.{name}"


def _type(node, depth=0):
    """A TensorType (or None for a type this reader does not model)."""
    _expect(depth < MAX_DEPTH and type(node) is dict, "bad value type")
    kind = node.get("#")
    if kind in ("0.t_dtensor", "1.t_dense_tensor_array"):   # an array: its items' type
        data = node.get("D")
        _expect(type(data) is list and len(data) >= 2 and type(data[0]) is dict
                and type(data[1]) is list, "bad dense tensor type")
        dtype = DTYPES.get(str(data[0].get("#", "")).partition(".")[2])
        _expect(all(type(d) is int and -1 <= d < 2**62 for d in data[1]) and len(data[1]) <= 64,
                f"bad dims {data[1]!r:.80}")
        return TensorType(dtype, data[1])
    if kind == "0.t_vec":
        _expect(type(node.get("D")) is list, "bad vector type")
        return TensorType(items=[_type(t, depth + 1) for t in node["D"]])
    return None


def _attr(node, depth=0):
    """A plain Python value of an attribute node."""
    _expect(depth < MAX_DEPTH and type(node) is dict and "#" in node, "bad attribute")
    kind, data = node["#"], node.get("D")
    if kind == "0.a_array":
        _expect(type(data) is list, "bad array attribute")
        return [_attr(item, depth + 1) for item in data]
    if kind in ("0.a_bool", "0.a_i32", "0.a_i64", "0.a_f32", "0.a_f64", "0.a_str",
                "1.a_dtype", "1.a_intarray", "1.a_place", "1.a_datalayout"):
        _expect(_plain(data), f"bad {kind} attribute")
        return data
    if kind == "1.a_scalar":
        _expect(type(data) is list and len(data) == 2 and _plain(data[1]), "bad scalar")
        return data[1]
    return _Opaque(kind)


def _plain(value):
    return type(value) in (bool, int, float, str) or (
        type(value) is list and all(type(v) in (bool, int, float, str) for v in value))


class _Opaque:
    """An attribute kind this reader does not decode (an error only if a rule reads it)."""

    __slots__ = ("kind",)

    def __init__(self, kind):
        self.kind = kind

    def __repr__(self):
        return f"<attribute {self.kind}>"


def _values(items, what, key="%"):
    """(id, TensorType) of value entries (block arguments are keyed "#", others "%")."""
    _expect(type(items) is list, f"{what} is not a list")
    out = []
    for item in items:
        _expect(type(item) is dict and type(item.get(key)) is int, f"bad {what} entry")
        out.append((item[key], _type(item["TT"]) if "TT" in item else None))
    return out


def _op(node, depth):
    _expect(type(node) is dict, "op is not an object")
    kind = _op_type(node.get("#"))
    if kind == "builtin.parameter":
        attrs, outs = node.get("A"), node.get("O")
        _expect(type(attrs) is list and len(attrs) == 4 and type(attrs[3]) is str,
                "bad parameter op")
        flags = node.get("OA")
        _expect(type(flags) is list and len(flags) >= 1, "bad parameter flags")
        outputs = _values([outs], "parameter output")
        return PaddleOp(kind, [], outputs, {"name": attrs[3], "persistable": bool(flags[0])})
    inputs = [i if i != 0 else None for i, _ in _values(node.get("I", []), "inputs")]
    outs = node.get("O", [])
    outputs = _values(outs if type(outs) is list else [outs], "outputs")
    attrs = {}
    for entry in node.get("A", []):
        _expect(type(entry) is dict and type(entry.get("N")) is str, "bad attribute entry")
        attrs[entry["N"]] = _attr(entry.get("AT"))
    regions = node.get("regions", [])
    _expect(type(regions) is list, "regions is not a list")
    blocks = [_block(b, depth + 1) for r in regions for b in _region_blocks(r)]
    return PaddleOp(kind, inputs, outputs, attrs, blocks)


def _region_blocks(region):
    _expect(type(region) is dict and type(region.get("blocks")) is list, "bad region")
    return region["blocks"]


def _block(node, depth):
    _expect(depth < MAX_DEPTH, f"blocks nest deeper than {MAX_DEPTH}")
    _expect(type(node) is dict and type(node.get("ops")) is list, "bad block")
    args = _values(node.get("args", []), "block arguments", key="#")
    return PaddleBlock(args, [_op(op, depth) for op in node["ops"]])


def parse_pir(doc):
    """The PaddleGraph of a parsed PIR document (raises MalformedProgram)."""
    _expect(is_pir_document(doc), 'not a Paddle PIR program (no base_code.magic "pir")')
    program = doc.get("program")
    _expect(type(program) is dict and type(program.get("regions")) is list
            and len(program["regions"]) == 1, "program must hold one region")
    blocks = _region_blocks(program["regions"][0])
    _expect(len(blocks) == 1, "the program's region must hold one block")
    block = _block(blocks[0], 0)
    carry_array_writes(block)
    return PaddleGraph(block, "pir")

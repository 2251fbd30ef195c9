"""What an op of each type must hold: its input and output slots, its attributes and their
kinds. A Program read from a file is checked against it op by op (`check_op_fields`), so a
damaged file fails at load time naming the op and the field, instead of at the first run.

Registry ops take their fields from their OpDef; op types outside the YAML registry
(control flow, print, assert, ...) declare theirs with `declare_fields` where they register.
"""
from ..core.dtype import DType
from ..core.errors import InvalidArgument
from ..ops.registry import OPS, REQUIRED
from .framework import Block

__all__ = ["OpFields", "declare_fields", "check_op_fields", "check_sub_blocks", "fields_of"]

# how many names a slot holds
ONE, OPTIONAL, MANY = "one", "optional", "many"
_COUNTS = {"Tensor": ONE, "Tensor?": OPTIONAL, "Tensor[]": MANY}


def _is_int(v):
    return type(v) is int


def _is_names(v):
    return type(v) is list and all(type(n) is str for n in v)


# attribute kinds of non-registry ops -> predicate on the decoded value
ATTR_KINDS = {
    "block": lambda v: isinstance(v, Block),
    "blocks": lambda v: type(v) is list and bool(v) and all(isinstance(b, Block) for b in v),
    "name": lambda v: type(v) is str,
    "names": _is_names,
    "int": _is_int,
    "ints": lambda v: type(v) in (list, tuple) and all(_is_int(i) for i in v),
    "bool": lambda v: type(v) is bool,
    "str": lambda v: type(v) is str,
}


def _is_number(v):
    return type(v) in (int, float)


# attribute types of registry ops (YAML) -> predicate on the value read from a file (None
# is accepted where the attribute's default is None or it has none: "optional" ints, axes)
ATTR_TYPES = {
    "bool": lambda v: type(v) is bool,
    "int": _is_int,
    "float": _is_number,
    "str": lambda v: type(v) is str,
    "Scalar": lambda v: type(v) in (int, float, bool),
    "int[]": lambda v: type(v) is tuple and all(_is_int(i) for i in v),
    "IntArray": lambda v: type(v) is tuple and all(_is_int(i) for i in v),
    "float[]": lambda v: type(v) is tuple and all(_is_number(i) for i in v),
    "DataType": lambda v: isinstance(v, DType),
    "Any": lambda v: True,
}


# attributes any op may carry, whatever its type (static.device_guard sets op_device)
COMMON_ATTRS = {"op_device": "str"}


class OpFields:
    """Slots {name: ONE/OPTIONAL/MANY} of inputs and outputs, and attributes: for registry
    ops {name: required?} normalised by the OpDef, for others {name: kind}."""

    __slots__ = ("inputs", "outputs", "attrs", "opdef", "sub_blocks", "conditions",
                 "same_length", "matching", "nullable")

    def __init__(self, inputs, outputs, attrs, opdef=None, sub_blocks=(), conditions=(),
                 same_length=(), matching=()):
        self.inputs, self.outputs, self.attrs, self.opdef = inputs, outputs, attrs, opdef
        self.sub_blocks, self.conditions, self.same_length = sub_blocks, conditions, same_length
        self.matching, self.nullable = matching, frozenset()


_DECLARED = {}


def declare_fields(op_type, inputs, outputs, attrs, sub_blocks=(), conditions=(),
                   same_length=(), matching=()):
    """Declare the fields of a non-registry op type: {slot: count} and {attr: kind}.

    `sub_blocks` lists (block attribute, feed fields, fetch attribute) for each sub-block
    the op runs: the slots or attributes whose names the sub-block receives, and the
    attribute naming what it returns; `conditions` the fields naming a condition, which
    must hold one element; `same_length` fields that list one name per value (an output
    slot among them may be empty: passes drop outputs nobody reads); `matching` pairs of
    such fields whose k-th variables must agree in dtype and shape, -1 matching any size
    (see `check_sub_blocks`).
    """
    _DECLARED[op_type] = OpFields(dict(inputs), dict(outputs), dict(attrs),
                                  sub_blocks=tuple(sub_blocks), conditions=tuple(conditions),
                                  same_length=tuple(same_length), matching=tuple(matching))


def fields_of(op_type):
    """The OpFields of an op type, or None for a type that declares none."""
    if op_type in _DECLARED:
        return _DECLARED[op_type]
    opdef = OPS.get(op_type)
    if opdef is None:
        return None
    fields = OpFields({n: _COUNTS[k] for n, k in zip(opdef.tensor_names, opdef.tensor_kinds)},
                      {n: _COUNTS[k] for n, k in zip(opdef.output_names, opdef.output_kinds)},
                      dict(zip(opdef.attr_names, opdef.attr_types)), opdef)
    fields.nullable = {n for n, d in zip(opdef.attr_names, opdef.attr_defaults)
                       if d is None or d == REQUIRED}
    _DECLARED[op_type] = fields
    return fields


def _check_slots(table, declared, what):
    """Problems of a {slot: [names]} table against its declaration (every slot present)."""
    unknown = sorted(set(table) - set(declared))
    if unknown:
        yield f"unknown {what} slot(s) {unknown!r:.200}"
    for slot, count in declared.items():
        if slot not in table:
            yield f"{what} slot {slot!r} is missing"
            continue
        n = len(table[slot])
        if (count == ONE and n != 1) or (count == OPTIONAL and n > 1):
            yield f"{what} slot {slot!r} holds {n} names, expected " \
                  f"{'one' if count == ONE else 'at most one'}"


def _check_attrs(attrs, fields):
    """Problems of an attribute mapping against the declaration (every attribute present
    with a value of its kind)."""
    unknown = sorted(set(attrs) - set(fields.attrs) - set(COMMON_ATTRS))
    if unknown:
        yield f"unknown attribute(s) {unknown!r:.200}"
    for name, kind in COMMON_ATTRS.items():
        if name in attrs and not ATTR_KINDS[kind](attrs[name]):
            yield f"attribute {name!r} must be {kind}, got {attrs[name]!r:.80}"
    missing = [name for name in fields.attrs if name not in attrs]
    if missing:
        yield f"attribute(s) {missing!r:.200} missing"
        return
    kinds = ATTR_TYPES if fields.opdef is not None else ATTR_KINDS
    for name, kind in fields.attrs.items():
        if not (attrs[name] is None and name in fields.nullable or kinds[kind](attrs[name])):
            yield f"attribute {name!r} must be {kind}, got {attrs[name]!r:.80}"
    if fields.opdef is not None:
        try:
            fields.opdef.attrs_tuple(attrs)
        except (TypeError, ValueError, InvalidArgument, OverflowError) as exc:
            yield f"bad attribute value: {exc}"


def check_op_fields(op_type, inputs, outputs, attrs):
    """The problems (strings) of an op's slots and attributes against its declared fields;
    none for an op type that declares no fields."""
    fields = fields_of(op_type)
    if fields is None:
        return []
    return [*_check_slots(inputs, fields.inputs, "input"),
            *_check_slots(outputs, fields.outputs, "output"), *_check_attrs(attrs, fields)]


def _names_of(op, field):
    """The names an op holds under `field`: a slot, or a name / names attribute."""
    for table in (op.inputs, op.outputs):
        if field in table:
            return list(table[field])
    value = op.attrs.get(field)
    return [value] if isinstance(value, str) else list(value or [])


def check_sub_blocks(op):
    """The problems of a control-flow op's sub-blocks: each may read from outside only what
    the op feeds it, and must declare (or see) every name it returns; a condition must have
    one element."""
    fields = fields_of(op.type)
    if fields is None:
        return
    lengths = {field: len(_names_of(op, field)) for field in fields.same_length}
    if len({n for f, n in lengths.items() if n or f not in op.outputs}) > 1:
        yield f"fields {lengths} must list as many names each"
    yield from _mismatched(op, fields.matching)
    for name in (n for field in fields.conditions for n in _names_of(op, field)):
        var = _find_var(op.block.program, name)
        if var is None or any(d == 0 or d > 1 for d in var._shape):
            yield f"condition {name!r:.80} must be a variable of one element, got " \
                  f"{'none' if var is None else var.shape}"
    for attr, feeds, fetch in fields.sub_blocks:
        block = op.attrs[attr][0] if attr == "blocks" else op.attrs[attr]
        fed = {n for field in feeds for n in _names_of(op, field)}
        unfed = _unfed_reads(block, fed)
        if unfed:
            yield f"sub-block {block.idx} ({attr}) reads {unfed[:5]!r:.200}, which the op " \
                  f"does not pass"
        written = {n for sub_op in block.ops for n in sub_op.output_arg_names}
        unknown = [n for n in _names_of(op, fetch) if n not in written and n not in fed]
        if unknown:
            yield f"{fetch} names {unknown[:5]!r:.200}, neither written in sub-block " \
                  f"{block.idx} nor passed to it"


def _unfed_reads(block, fed):
    """Names the block's ops read before any op of the block writes them, and not fed."""
    written, unfed = set(fed), {}
    for op in block.ops:
        unfed.update((n, None) for n in op.input_arg_names if n not in written)
        written.update(op.output_arg_names)
    return list(unfed)


def _find_var(program, name):
    """The variable `name` of any block of the program, or None."""
    return next((b.vars[name] for b in program.blocks if name in b.vars), None)


def _mismatched(op, pairs):
    """Problems of variables that stand for the same value but differ in dtype or shape."""
    program = op.block.program
    for first, second in pairs:
        for a, b in zip(_names_of(op, first), _names_of(op, second)):
            va, vb = _find_var(program, a), _find_var(program, b)
            if va is None or vb is None:
                yield f"{first} / {second} name {a if va is None else b!r:.60}, not a variable"
            elif va.dtype is not vb.dtype or not _may_hold(va._shape, vb._shape):
                yield f"{first} {a!r:.60} is {va.shape} {va.dtype.name} but {second} " \
                      f"{b!r:.60} is {vb.shape} {vb.dtype.name}"


def _may_hold(shape, other):
    """True if one value could have both static shapes: dims equal or -1; with different
    ranks (a widened loop variable) the longer one's extra leading dims are -1."""
    if len(shape) < len(other):
        shape, other = other, shape
    extra = len(shape) - len(other)
    return all(d == -1 for d in shape[:extra]) and all(
        x == y or x < 0 or y < 0 for x, y in zip(shape[extra:], other))

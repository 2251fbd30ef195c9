"""Program <-> versioned JSON (dict) format, checked on load against the op registry.

Format (version 1): {"format": "sampan.program", "version": 1, "random_seed": int,
"blocks": [{"idx", "parent_idx", "forward_block_idx", "vars": [...], "ops": [...]}]}.
A var is {"name", "shape", "dtype", "persistable", "stop_gradient", "kind", "is_data",
"parameter": {...} or null}; an op is {"type", "inputs", "outputs", "attrs"}. Attribute
values are JSON values, with {"__block__": i}, {"__blocks__": [i, ...]} and
{"__dtype__": name} for blocks and dtypes. Loading never executes anything from the file.
"""
import json

from ..core import dtype as dtypes
from ..ops.registry import OPS
from .framework import Block, Parameter, Program
from .op_fields import check_op_fields

__all__ = ["program_to_dict", "program_from_dict", "program_to_json", "program_from_json",
           "copy_program", "ProgramFormatError", "register_op_type", "FORMAT_VERSION"]

FORMAT_VERSION = 1
_EXTRA_OP_TYPES = set()


class ProgramFormatError(ValueError):
    """A serialized Program is malformed, from an unknown version, or names unknown ops."""


def register_op_type(name):
    """Allow an op type that is not in the YAML registry (control flow ops)."""
    _EXTRA_OP_TYPES.add(name)


def _load_op_type_modules():
    """Load the modules that register op types outside the YAML registry (control flow,
    print, auc, py_func): they load on first use, not with sampan, and a Program read from
    a file may hold their ops. Imported through the package (its lazy names), so that
    `static.py_func` stays the function, not the module of the same name."""
    from . import control_flow, metric, print_op, py_func  # noqa: F401


def _encode(value):
    if isinstance(value, Block):
        return {"__block__": value.idx}
    if isinstance(value, dtypes.DType):
        return {"__dtype__": value.name}
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, Block) for v in value):
            return {"__blocks__": [v.idx for v in value]}
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"attribute value of type {type(value).__name__} cannot be serialized")


def _var_dict(var):
    param = None
    if isinstance(var, Parameter):
        param = {"trainable": var.trainable, "need_clip": var.need_clip,
                 "optimize_attr": var.optimize_attr}
    return {"name": var.name, "shape": list(var._shape), "dtype": var.dtype.name,
            "persistable": var.persistable, "stop_gradient": var.stop_gradient,
            "kind": var.kind, "is_data": var.is_data, "parameter": param}


def program_to_dict(program):
    """A JSON-compatible dict describing every block, variable and op."""
    blocks = []
    for b in program.blocks:
        blocks.append({
            "idx": b.idx, "parent_idx": b.parent_idx, "forward_block_idx": b.forward_block_idx,
            "vars": [_var_dict(v) for v in b.vars.values()],
            "ops": [{"type": op.type, "inputs": op.inputs, "outputs": op.outputs,
                     "attrs": {k: _encode(v) for k, v in sorted(op.attrs.items())}}
                    for op in b.ops]})
    return {"format": "sampan.program", "version": FORMAT_VERSION,
            "random_seed": program.random_seed, "blocks": blocks}


def _fail(msg):
    raise ProgramFormatError(msg)


def _expect(cond, msg):
    if not cond:
        _fail(msg)


_BLOCK_KEYS = {"idx", "parent_idx", "forward_block_idx", "vars", "ops"}
_OP_KEYS = {"type", "inputs", "outputs", "attrs"}
_VAR_KEYS = {"name", "shape", "dtype", "persistable", "stop_gradient", "kind", "is_data",
             "parameter"}


def _expect_keys(entry, keys, where):
    """entry is a mapping with exactly `keys` (what program_to_dict writes)."""
    _expect(isinstance(entry, dict), f"{where}: expected a mapping")
    _expect(entry.keys() == keys, f"{where}: keys {sorted(entry)!r:.200} are not "
                                  f"{sorted(keys)}")


def _decode(value, program, where):
    if isinstance(value, dict):
        if "__block__" in value:
            idx = value["__block__"]
            _expect(isinstance(idx, int) and 0 <= idx < len(program.blocks),
                    f"{where}: block reference {idx!r} out of range")
            return program.blocks[idx]
        if "__blocks__" in value:
            return [_decode({"__block__": i}, program, where) for i in value["__blocks__"]]
        if "__dtype__" in value:
            try:
                return dtypes.to_dtype(value["__dtype__"])
            except TypeError:
                _fail(f"{where}: unknown dtype {value['__dtype__']!r}")
        return {k: _decode(v, program, where) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v, program, where) for v in value]
    return value


def _typed_attrs(op_type, attrs):
    """Give registered ops their attribute types back (lists -> tuples for int[], IntArray
    and float[])."""
    opdef = OPS.get(op_type)
    if opdef is None:
        return attrs
    for name, typ in zip(opdef.attr_names, opdef.attr_types):
        if typ in ("int[]", "IntArray", "float[]") and isinstance(attrs.get(name), list):
            attrs[name] = tuple(attrs[name])
    return attrs


def _names_table(table, where):
    _expect(isinstance(table, dict), f"{where}: expected a mapping of slots to names")
    for slot, names in table.items():
        _expect(isinstance(names, list) and all(isinstance(n, str) for n in names),
                f"{where}: slot {slot!r} must list variable names")
    return table


def _load_var(block, v, where):
    _expect_keys(v, _VAR_KEYS, f"{where} variable")
    _expect(isinstance(v["name"], str), f"{where}: bad variable name")
    shape = v.get("shape")
    _expect(isinstance(shape, list) and all(isinstance(d, int) and d >= -1 for d in shape),
            f"{where}: variable {v['name']!r} has a bad shape {shape!r}")
    try:
        dt = dtypes.to_dtype(v.get("dtype"))
    except TypeError:
        _fail(f"{where}: variable {v['name']!r} has unknown dtype {v.get('dtype')!r}")
    _expect(v.get("kind", "dense") in ("dense", "array", "scopes"),
            f"{where}: variable {v['name']!r} has unknown kind {v.get('kind')!r}")
    param = v.get("parameter")
    if param:
        p = block.create_parameter(v["name"], shape, dt, bool(param.get("trainable", True)),
                                   need_clip=bool(param.get("need_clip", True)),
                                   optimize_attr=dict(param.get("optimize_attr") or {}))
        p.stop_gradient = bool(v.get("stop_gradient", not p.trainable))
        return
    block.create_var(v["name"], shape, dt, bool(v.get("persistable", False)),
                     bool(v.get("stop_gradient", True)), v.get("kind", "dense"),
                     bool(v.get("is_data", False)))


def program_from_dict(data):
    """Rebuild a Program; raises ProgramFormatError on any malformed or unknown content."""
    _load_op_type_modules()
    _expect(isinstance(data, dict) and data.get("format") == "sampan.program",
            "not a sampan program (missing format tag)")
    _expect(data.get("version") == FORMAT_VERSION,
            f"unsupported program format version {data.get('version')!r} "
            f"(this sampan reads version {FORMAT_VERSION})")
    blocks = data.get("blocks")
    _expect(isinstance(blocks, list) and blocks, "program has no blocks")
    program = Program()
    seed = data.get("random_seed", 0)
    _expect(type(seed) is int and 0 <= seed < 2**63, f"bad random_seed {seed!r:.40}")
    program.random_seed = seed
    for i, b in enumerate(blocks):
        _expect_keys(b, _BLOCK_KEYS, f"block {i}")
        _expect(b["idx"] == i, f"block {i}: bad index")
        _expect(type(b["vars"]) is list and type(b["ops"]) is list,
                f"block {i}: vars and ops must be lists")
        parent = b.get("parent_idx", -1)
        _expect(isinstance(parent, int) and -1 <= parent < i or (i == 0 and parent == -1),
                f"block {i}: bad parent index {parent!r}")
        if i:
            program.blocks.append(Block(program, i, parent))
        forward = b["forward_block_idx"]
        _expect(type(forward) is int and -1 <= forward < len(blocks),
                f"block {i}: bad forward block index {forward!r:.40}")
        program.blocks[i].forward_block_idx = forward
    for i, b in enumerate(blocks):
        block = program.blocks[i]
        for v in b.get("vars", []):
            _load_var(block, v, f"block {i}")
        for k, op in enumerate(b.get("ops", [])):
            where = f"block {i} op {k}"
            _expect_keys(op, _OP_KEYS, where)
            _expect(isinstance(op["type"], str), f"{where}: bad op type")
            _expect(op["type"] in OPS or op["type"] in _EXTRA_OP_TYPES,
                    f"{where}: unknown op type {op['type']!r}")
            attrs = op.get("attrs", {})
            _expect(isinstance(attrs, dict), f"{where}: attrs must be a mapping")
            attrs = _typed_attrs(op["type"], {k2: _decode(v2, program, where)
                                              for k2, v2 in attrs.items()})
            inputs = _names_table(op.get("inputs"), where)
            outputs = _names_table(op.get("outputs"), where)
            problems = check_op_fields(op["type"], inputs, outputs, attrs)
            _expect(not problems, f"{where} ({op['type']}): {'; '.join(problems)}")
            block.append_op(op["type"], inputs, outputs, attrs)
    program._current = 0
    return program


_SCALARS = frozenset({bool, int, float, str, type(None)})


def _copied_attr(value, program):
    """`value` as `_decode(_encode(value))` gives it, blocks mapped into `program`."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Block):
        return program.blocks[value.idx]
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, Block) for v in value):
            return [program.blocks[v.idx] for v in value]
        return [_copied_attr(v, program) for v in value]
    return _decode(_encode(value), program, "clone")


def _copy_var(block, var):
    """Declare in `block` the variable a file round trip of `var` gives."""
    if isinstance(var, Parameter):
        p = block.create_parameter(var.name, var._shape, var.dtype, bool(var.trainable),
                                   need_clip=bool(var.need_clip),
                                   optimize_attr=dict(var.optimize_attr or {}))
        p.stop_gradient = bool(var.stop_gradient)
        return
    block.create_var(var.name, var._shape, var.dtype, bool(var.persistable),
                     bool(var.stop_gradient), var.kind, bool(var.is_data))


def copy_program(program):
    """The Program `program_from_dict(program_to_dict(program))` returns, built directly
    (no intermediate dicts, no format checks): Program.clone's copy, in time linear in
    the program's size. Like a file, the copy keeps no op origins or regularizers."""
    copy = Program()
    copy.random_seed = int(program.random_seed or 0)
    for b in program.blocks[1:]:
        copy.blocks.append(Block(copy, b.idx, b.parent_idx))
    for b, block in zip(program.blocks, copy.blocks):
        block.forward_block_idx = int(b.forward_block_idx)
    for b, block in zip(program.blocks, copy.blocks):
        for var in b.vars.values():
            _copy_var(block, var)
        for op in b.ops:
            attrs = {k: _copied_attr(op.attrs[k], copy) for k in sorted(op.attrs)}
            block.append_op(op.type, op.inputs, op.outputs, _typed_attrs(op.type, attrs))
    copy._current = 0
    return copy


def program_to_json(program):
    """The program as a JSON string (deterministic)."""
    return json.dumps(program_to_dict(program), sort_keys=True, separators=(",", ":"))


def program_from_json(text):
    """Parse a JSON string written by program_to_json."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProgramFormatError(f"program file is not valid JSON: {exc}") from None
    return program_from_dict(data)

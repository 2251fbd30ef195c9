"""Parse and cross-validate the op YAML files into plain data for the generator."""
import ast
import pathlib
import re

import yaml

OPS_DIR = pathlib.Path(__file__).resolve().parent.parent / "sampan" / "ops"
TENSOR_TYPES = ("Tensor", "Tensor?", "Tensor[]")
ATTR_TYPES = ("bool", "int", "float", "str", "int[]", "IntArray", "float[]", "Scalar", "DataType",
              "Any")
FORWARD_KEYS = {"op", "doc", "args", "output", "infer_meta", "kernel", "backward",
                "no_grad_inputs", "intermediate", "view", "communicates"}
BACKWARD_KEYS = {"backward_op", "forward", "args", "output", "infer_meta", "kernel",
                 "backward", "no_grad_inputs", "no_need_buffer", "doc", "communicates"}
_ARG_RE = re.compile(r"^\s*(Tensor\[\]|Tensor\?|Tensor|int\[\]|float\[\]|[A-Za-z]+)\s+(\w+)"
                     r"\s*(?:=\s*(.+?))?\s*$")
_OUT_RE = re.compile(r"^\s*(Tensor\[\]|Tensor)\s*\(\s*(\w+)\s*\)\s*$")
_NO_DEFAULT = "<required>"


class SpecError(ValueError):
    """A YAML op entry is malformed or disagrees with its forward/backward partner."""


def _split_top(text):
    """Split on commas that are not inside brackets or quotes."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def _literal(op, text):
    """A default value written as a Python literal (true/false/none accepted)."""
    fixed = {"true": "True", "false": "False", "none": "None", "null": "None"}.get(text, text)
    try:
        return ast.literal_eval(fixed)
    except (ValueError, SyntaxError):
        raise SpecError(f"op {op}: default {text!r} is not a literal") from None


def parse_args(op, text):
    """'(Tensor x, int axis = 0)' -> [(type, name, default or _NO_DEFAULT)]."""
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        raise SpecError(f"op {op}: args must be wrapped in parentheses: {text!r}")
    args = []
    for part in _split_top(text[1:-1]):
        m = _ARG_RE.match(part)
        if not m or m.group(1) not in TENSOR_TYPES + ATTR_TYPES:
            raise SpecError(f"op {op}: cannot parse argument {part.strip()!r}")
        typ, name, default = m.groups()
        if default is not None:
            default = _literal(op, default.strip())
        elif typ == "Tensor?":
            default = None
        else:
            default = _NO_DEFAULT
        args.append((typ, name, default))
    seen_attr = False
    for typ, name, _ in args:
        if typ in TENSOR_TYPES and seen_attr:
            raise SpecError(f"op {op}: tensor argument {name} must come before attributes")
        seen_attr = seen_attr or typ not in TENSOR_TYPES
    return args


def parse_outputs(op, text):
    """'Tensor(out), Tensor[](mask)' -> [(type, name)]."""
    outs = []
    for part in _split_top(text):
        m = _OUT_RE.match(part)
        if not m:
            raise SpecError(f"op {op}: cannot parse output {part.strip()!r}")
        outs.append(m.groups())
    return outs


def _name_list(value):
    """A YAML list or comma-separated string of names -> list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return list(value)


def _common(entry, name, keys):
    """Fields shared by forward and backward entries, with unknown keys rejected."""
    unknown = set(entry) - keys
    if unknown:
        raise SpecError(f"op {name}: unknown keys {sorted(unknown)}")
    for key in ("args", "output", "infer_meta", "kernel"):
        if key not in entry:
            raise SpecError(f"op {name}: missing key {key!r}")
    spec = {
        "name": name,
        "args": parse_args(name, entry["args"]),
        "outputs": parse_outputs(name, entry["output"]),
        "infer_meta": str(entry["infer_meta"]),
        "kernel": str(entry["kernel"]),
        "backward": entry.get("backward"),
        "no_grad_inputs": _name_list(entry.get("no_grad_inputs")),
        "intermediate": _name_list(entry.get("intermediate")),
        "doc": str(entry.get("doc", "")).strip(),
        "forward": None,
        "view": entry.get("view"),
        "communicates": bool(entry.get("communicates", False)),
    }
    names = [a[1] for a in spec["args"]] + [o[1] for o in spec["outputs"]]
    if len(set(a[1] for a in spec["args"])) != len(spec["args"]):
        raise SpecError(f"op {name}: duplicate argument names")
    out_names = [o[1] for o in spec["outputs"]]
    if len(set(out_names)) != len(out_names):
        raise SpecError(f"op {name}: duplicate output names")
    tensor_names = {a[1] for a in spec["args"] if a[0] in TENSOR_TYPES}
    for n in spec["no_grad_inputs"]:
        if n not in tensor_names:
            raise SpecError(f"op {name}: no_grad_inputs names {n!r}, not a tensor argument")
    for n in spec["intermediate"]:
        if n not in out_names:
            raise SpecError(f"op {name}: intermediate names {n!r}, not an output")
    del names
    return spec


_FWD_RE = re.compile(r"^\s*(\w+)\s*(\(.*\))\s*->\s*(.+)$")


def _backward_spec(entry):
    """Parse one backward.yaml entry including its `forward:` signature."""
    name = entry.get("backward_op")
    if not name:
        raise SpecError(f"backward entry without backward_op: {entry}")
    spec = _common(entry, name, BACKWARD_KEYS)
    m = _FWD_RE.match(str(entry.get("forward", "")))
    if not m:
        raise SpecError(f"op {name}: forward must read 'op (args) -> outputs'")
    spec["forward"] = {"name": m.group(1), "args": parse_args(name, m.group(2)),
                       "outputs": parse_outputs(name, m.group(3))}
    return spec


def _check_pair(fwd, bwd):
    """Cross-check a forward op (or backward op acting as one) with its backward entry."""
    name = bwd["name"]
    decl = bwd["forward"]
    if decl["name"] != fwd["name"]:
        raise SpecError(f"op {name}: declares forward {decl['name']!r} but is the backward "
                        f"of {fwd['name']!r}")
    if [(t, n) for t, n, _ in decl["args"]] != [(t, n) for t, n, _ in fwd["args"]]:
        raise SpecError(f"op {name}: forward signature {decl['args']} does not match "
                        f"{fwd['name']}'s args {fwd['args']}")
    if decl["outputs"] != fwd["outputs"]:
        raise SpecError(f"op {name}: forward outputs {decl['outputs']} do not match "
                        f"{fwd['name']}'s outputs {fwd['outputs']}")
    fwd_args = {n: t for t, n, _ in fwd["args"]}
    allowed = dict(fwd_args)
    allowed.update({n: t for t, n in fwd["outputs"]})
    allowed.update({f"{n}_grad": t for t, n in fwd["outputs"]})
    for typ, arg, _ in bwd["args"]:
        if arg not in allowed:
            raise SpecError(f"op {name}: argument {arg!r} is neither an input, an output, "
                            f"an output gradient nor an attribute of {fwd['name']}")
        if allowed[arg].rstrip("?") != typ.rstrip("?"):
            raise SpecError(f"op {name}: argument {arg!r} has type {typ}, but {fwd['name']} "
                            f"declares {allowed[arg]}")
    want = [(t, f"{n}_grad") for t, n, _ in fwd["args"]
            if t in TENSOR_TYPES and n not in fwd["no_grad_inputs"]]
    got = [(t.rstrip("?"), n) for t, n in bwd["outputs"]]
    want = [(t.rstrip("?"), n) for t, n in want]
    if got != want:
        raise SpecError(f"op {name}: outputs {got} must be one gradient per differentiable "
                        f"input of {fwd['name']}, in order: {want}")


def load_specs(ops_dir=OPS_DIR):
    """Read ops.yaml and backward.yaml and return cross-checked op specs."""
    forward = yaml.safe_load((ops_dir / "ops.yaml").read_text()) or []
    backward = yaml.safe_load((ops_dir / "backward.yaml").read_text()) or []
    specs = {}
    for entry in forward:
        if not isinstance(entry, dict) or "op" not in entry:
            raise SpecError(f"ops.yaml entry without op: {entry}")
        spec = _common(entry, entry["op"], FORWARD_KEYS)
        if spec["name"] in specs:
            raise SpecError(f"op {spec['name']}: declared twice")
        specs[spec["name"]] = spec
    for entry in backward:
        spec = _backward_spec(entry)
        if spec["name"] in specs:
            raise SpecError(f"op {spec['name']}: declared twice")
        specs[spec["name"]] = spec
    for spec in specs.values():
        if spec["backward"] is None:
            continue
        bwd = specs.get(spec["backward"])
        if bwd is None or bwd["forward"] is None:
            raise SpecError(f"op {spec['name']}: backward {spec['backward']!r} is not in "
                            f"backward.yaml")
        _check_pair(spec, bwd)
    for spec in specs.values():
        if spec["forward"] is not None and specs.get(spec["forward"]["name"], {}).get(
                "backward") != spec["name"]:
            raise SpecError(f"op {spec['name']}: its forward {spec['forward']['name']!r} does "
                            f"not name it as backward")
    return specs


def load_operators(ops_dir=OPS_DIR):
    """Read tensor_operators.yaml: Python operator methods mapped to ops."""
    return yaml.safe_load((ops_dir / "tensor_operators.yaml").read_text()) or []

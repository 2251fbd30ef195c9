"""Generate sampan/ops/_generated/ from the op YAML files (Jinja2 templates).

Usage: python tools/gen_ops.py [--out DIR]
"""
import argparse
import importlib.util
import pathlib
import sys

import jinja2

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from op_spec import OPS_DIR, TENSOR_TYPES, load_operators, load_specs  # noqa: E402

TEMPLATES = pathlib.Path(__file__).resolve().parent / "templates"


def _out_taking():
    """The public names that take Paddle 3's `out=` (sampan/ops/out_param.py, read by path)."""
    path = OPS_DIR / "out_param.py"
    spec = importlib.util.spec_from_file_location("_out_param", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return frozenset(module.OUT_TAKING)


OUT_TAKING = _out_taking()
OUTPUTS = ("registry_data.py", "api.py", "methods.py", "grad_makers.py")
NORMALISE = {"int[]": "int_tuple", "IntArray": "size_tuple", "float[]": "float_tuple",
             "DataType": "dtype_or_none",
             "int": "as_int", "float": "as_float", "bool": "as_bool", "Scalar": "as_scalar"}


def _signature(spec):
    """The Python parameter list of a generated function: YAML args then name=None."""
    params, optional_seen = [], False
    for typ, name, default in spec["args"]:
        if default == "<required>":
            if optional_seen:
                raise ValueError(f"op {spec['name']}: required argument {name!r} follows one "
                                 f"with a default")
            params.append(name)
        else:
            optional_seen = True
            params.append(f"{name}={default!r}")
    return ", ".join(params + ["name=None"])


def _attr_exprs(spec):
    """Expressions building the normalised attribute tuple."""
    exprs = []
    for typ, name, _ in spec["args"]:
        if typ in TENSOR_TYPES:
            continue
        fn = NORMALISE.get(typ)
        if typ == "bool":  # a bool passes as it is, without a call (hot eager attributes)
            exprs.append(f"({name} if {name}.__class__ is bool else as_bool({name}))")
        else:
            exprs.append(f"{fn}({name})" if fn else name)
    return exprs


def _tuple(exprs):
    """Source of a tuple literal."""
    if not exprs:
        return "()"
    return "(" + ", ".join(exprs) + ("," if len(exprs) == 1 else "") + ")"


def _returns(spec):
    """How a generated function picks the visible outputs of dispatch's result."""
    outs = spec["outputs"]
    visible = [i for i, (_, n) in enumerate(outs) if n not in spec["intermediate"]]
    single = len(outs) == 1 and outs[0][0] == "Tensor"
    if single:
        return None
    if len(visible) == len(outs) and len(outs) > 1:
        return "tuple"
    return visible


def _function(spec):
    """Template context of one public op function: `pre`, a statement before the result
    expression `expr` (or None); with `out`, the function also takes Paddle 3's `out=`."""
    tensors = [n for t, n, _ in spec["args"] if t in TENSOR_TYPES]
    call = f'dispatch(OPS["{spec["name"]}"], {_tuple(tensors)}, {_tuple(_attr_exprs(spec))})'
    returns, pre = _returns(spec), None
    if returns is None:
        expr = call
    elif returns == "tuple":
        expr = f"tuple({call})"
    elif len(returns) == 1:
        expr = f"{call}[{returns[0]}]"
    else:
        pre, expr = f"outs = {call}", ", ".join(f"outs[{i}]" for i in returns)
    out = spec["name"] in OUT_TAKING and not spec["communicates"]
    return {"name": spec["name"], "doc": spec["doc"] or f"The {spec['name']} op.",
            "signature": _signature(spec) + (", *, out=None" if out else ""),
            "pre": pre, "expr": expr, "out": out,
            # communication ops are reached through paddle.distributed, not paddle.*
            "exported": not spec["communicates"]}


def _grad_maker(fwd, bwd):
    """Template context of one static grad-op maker."""
    fwd_tensors = {n for t, n, _ in fwd["args"] if t in TENSOR_TYPES}
    fwd_outputs = {n for _, n in fwd["outputs"]}
    inputs, attrs = [], []
    for typ, name, _ in bwd["args"]:
        if name in fwd_tensors:
            inputs.append((name, f"op.input({name!r})"))
        elif name in fwd_outputs:
            inputs.append((name, f"op.output({name!r})"))
        elif typ in TENSOR_TYPES:
            inputs.append((name, f"grad_of(op.output({name[:-5]!r}))"))
        else:
            attrs.append(name)
    outputs = [(n, f"grad_of(op.input({n[:-5]!r}))") for _, n in bwd["outputs"]]
    attr_pairs = [(a, f"op.attr({a!r})") for a in attrs]
    return {"fwd": fwd["name"], "bwd": bwd["name"], "inputs": _mapping(inputs, 12),
            "outputs": _mapping(outputs, 12), "attrs": _mapping(attr_pairs, 12)}


def _spec_lines(spec):
    """One `key: value,` line per field of a spec, values as Python literals."""
    return [f"{key!r}: {spec[key]!r}," for key in sorted(spec)]


def _mapping(pairs, indent):
    """Source of a dict literal, one entry per line."""
    if not pairs:
        return "{}"
    sep = ",\n" + " " * (indent + 1)
    return "{" + sep.join(f"{k!r}: {v}" for k, v in pairs) + "}"


def render(specs, operators):
    """Return {file name: source} for every generated module."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    names = sorted(specs)
    forward = [specs[n] for n in names if specs[n]["forward"] is None]
    data = {n: {k: specs[n][k] for k in ("args", "outputs", "infer_meta", "kernel", "backward",
                                          "no_grad_inputs", "intermediate", "doc", "view")}
            for n in names}
    for n in names:
        fwd = specs[n]["forward"]
        data[n]["forward"] = {"name": fwd["name"]} if fwd else None
        if specs[n]["communicates"]:  # written only where true: most ops do not communicate
            data[n]["communicates"] = True
    entries = [(n, _spec_lines(data[n])) for n in names]
    makers = [_grad_maker(specs[n], specs[specs[n]["backward"]])
              for n in names if specs[n]["backward"]]
    for op in operators:
        spec = specs.get(op["op"])
        if spec is None:
            raise ValueError(f"tensor_operators.yaml: {op['method']} names unknown op "
                             f"{op['op']!r}")
        op["attrs"] = _tuple([repr(d) for t, _, d in spec["args"] if t not in TENSOR_TYPES])
        if op.get("scalar"):
            op["scalar_attr_index"] = [n for t, n, _ in specs[op["scalar"]]["args"]
                                       if t not in TENSOR_TYPES]
    operator_ops = sorted({o["op"] for o in operators} | {o["scalar"] for o in operators
                                                         if o.get("scalar")})
    ctx = {"entries": entries, "operator_ops": operator_ops, "functions": [_function(s) for s in forward],
           "makers": makers, "operators": operators,
           "attr_helpers": sorted(set(NORMALISE.values()))}
    return {name: env.get_template(name + ".j2").render(**ctx) for name in OUTPUTS}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(OPS_DIR / "_generated"))
    args = parser.parse_args(argv)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in render(load_specs(), load_operators()).items():
        (out / name).write_text(text)
    (out / "__init__.py").write_text('"""Generated from the op YAML files; do not edit."""\n')


if __name__ == "__main__":
    main()

"""Bind a Node to a callable over flat arrays: kernel + attribute tuple, prebuilt once."""
import functools

import numpy as np

from ..core.errors import NotFoundError
from ..ops.registry import OPS
from .passes.bn_act import FUSED_BN_ACT
from .passes.prune_outputs import needed_outputs

__all__ = ["EXEC_RULES", "Bound", "bind", "run_node"]

EXEC_RULES = {}
"""type -> rule(node, ctx) returning a Bound; filled by control-flow modules (cond, while).

`ctx` is the CompileContext (program, block, strategy, `compile_block(idx, feeds, fetches)`)
and the returned Bound's fn receives the arrays of `in_names` and returns one array per
`out_names` entry (a tuple when there are several)."""


class Bound:
    """fn(*arrays of in_names) -> value (single) or tuple aligned with out_names."""

    __slots__ = ("fn", "in_names", "out_names", "single")

    def __init__(self, fn, in_names, out_names, single):
        self.fn = fn
        self.in_names = list(in_names)
        self.out_names = list(out_names)
        self.single = single


def _with_attrs(kernel, n_tensors, attrs, need=None):
    """kernel taking `n_tensors` arrays, with its trailing arguments `attrs` pre-bound
    positionally (kernels take `(*tensors, *attrs)`) and `need=` when given: a lambda of
    fixed arity over closure cells (a keyword partial copies its keyword dict and the
    kernel parses keywords on every call)."""
    if not attrs and need is None:
        return kernel
    return _binder(n_tensors, len(attrs), need is not None)(kernel, need, *attrs)


@functools.lru_cache(maxsize=None)
def _binder(n_tensors, n_attrs, with_need):
    """make(kernel, need, *attrs) -> that fixed-arity lambda; generated once per argument
    count, not per instruction (an eval per instruction made binding a large share of the
    build)."""
    tensors = "".join(f"t{k}, " for k in range(n_tensors))
    bound = "".join(f"a{k}, " for k in range(n_attrs))
    params = "".join(f", a{k}" for k in range(n_attrs))
    option = "need=need" if with_need else ""
    # source built from argument counts only; the values are bound through the closure
    return eval(f"lambda kernel, need{params}: lambda {tensors}: "  # noqa: S307
                f"kernel({tensors}{bound}{option})", {})


def _layout(node, opdef):
    """Per tensor argument: its names and kind; raises when a required one is unbound (an
    output gradient of a backward op may be: no op produced it, the kernel gets None)."""
    may_unbind = {opdef.tensor_names[pos] for pos, _ in opdef.bw_grad_slots}
    layout = []
    for name, kind in zip(opdef.tensor_names, opdef.tensor_kinds):
        names = [n for n in node.inputs.get(name, []) if n is not None]
        if kind == "Tensor" and len(names) != 1 and not (name in may_unbind and not names):
            raise ValueError(f"op {node.type}: input {name!r} needs one variable, got {names}")
        layout.append((kind, names))
    return layout


def _trailing_unbound(layout):
    """How many single (not list) arguments at the end of `layout` are unbound: they are
    bound as None keywords, so the kernel needs no regrouping wrapper for them."""
    count = 0
    for kind, names in reversed(layout):
        if kind == "Tensor[]" or names:
            break
        count += 1
    return count


def _regroup(fn, layout):
    """fn taking flat arrays -> fn taking the kernel's grouped args (lists, None)."""
    spans, pos = [], 0
    for kind, names in layout:
        spans.append((kind == "Tensor[]", pos, pos + len(names), bool(names)))
        pos += len(names)

    def grouped(*flat):
        return fn(*[list(flat[a:b]) if many else (flat[a] if present else None)
                    for many, a, b, present in spans])
    return grouped


def _outputs(node, opdef, fn):
    """(fn returning a flat tuple, flat output names with None for unbound outputs)."""
    names = []
    for name, kind in zip(opdef.output_names, opdef.output_kinds):
        bound = node.outputs.get(name, [])
        names.append(list(bound) if kind == "Tensor[]" else (bound[0] if bound else None))
    if "Tensor[]" not in opdef.output_kinds:
        return fn, names
    lists = [kind == "Tensor[]" for kind in opdef.output_kinds]

    def flat(*args):
        out = []
        for many, value in zip(lists, opdef.result_tuple(fn(*args))):
            out.extend(value) if many else out.append(value)
        return tuple(out)
    flat_names = [n for many, ns in zip(lists, names) for n in (ns if many else [ns])]
    return flat, flat_names


def bind_op(node):
    """Bound for a registered op."""
    opdef = OPS.get(node.type)
    if opdef is None:
        raise NotFoundError(f"the executor cannot run op type {node.type!r}: it is not a "
                            f"registered op and has no exec rule")
    layout = _layout(node, opdef)
    unbound = [n for n in opdef.output_names if not node.outputs.get(n)]
    bound = len(layout) - _trailing_unbound(layout)
    fn = _with_attrs(opdef.kernel, bound,
                     (None,) * (len(layout) - bound) + opdef.attrs_tuple(node.attrs),
                     needed_outputs(opdef, unbound) if unbound else None)
    layout = layout[:bound]
    if any(kind == "Tensor[]" or not names for kind, names in layout):
        fn = _regroup(fn, layout)
    in_names = [n for _, names in layout for n in names]
    if opdef.single_output:
        return Bound(fn, in_names, [node.outputs[opdef.output_names[0]][0]], True)
    fn, out_names = _outputs(node, opdef, fn)
    return Bound(fn, in_names, out_names, False)


def bind_fused(node):
    """Bound running a fused chain: each part's kernel in order, no intermediate slots."""
    parts = [bind_op(part) for part in node.parts]
    ext = node.inputs["x"]
    steps = []
    for k, part in enumerate(parts):
        link = parts[k - 1].out_names[0] if k else None
        srcs = tuple(-1 if n == link else ext.index(n) for n in part.in_names)
        steps.append((part.fn, srcs))

    def fused(*arrays):
        value = None
        for fn, srcs in steps:
            value = fn(*[value if s < 0 else arrays[s] for s in srcs])
        return value
    return Bound(fused, ext, parts[-1].out_names, True)


def bind_bn_act(node):
    """Bound running batch_norm, then its activation on the normalised output (one
    instruction: that intermediate never takes a register slot)."""
    norm, act = (bind_op(part) for part in node.parts)

    def fused(*arrays):
        out, *rest = norm.fn(*arrays)
        return (act.fn(out), *rest)
    return Bound(fused, norm.in_names, act.out_names + norm.out_names[1:], False)


def _declared_2d(block, name):
    """True when Variable `name` of `block` is declared with exactly two dimensions."""
    if not block.has_var(name):
        return False
    shape = block.var(name).shape
    return shape is not None and len(shape) == 2


def bind_plain_matmul(node, block):
    """Bound calling np.dot itself for a matmul of two operands declared 2-D without
    transposes: what the kernel calls for them (the same products bit for bit), two
    Python calls fewer per run. None for any other matmul."""
    if node.attrs.get("transpose_x") or node.attrs.get("transpose_y"):
        return None
    names = [*node.inputs.get("x", ()), *node.inputs.get("y", ())]
    out = node.outputs.get("out", ())
    if len(names) != 2 or len(out) != 1 or not all(_declared_2d(block, n) for n in names):
        return None
    return Bound(np.dot, names, out, True)


def bind(node, ctx=None):
    """Bound for any node: fused chain, exec-rule op or registered op."""
    if node.type == FUSED_BN_ACT:
        return bind_bn_act(node)
    if node.parts:
        return bind_fused(node)
    rule = EXEC_RULES.get(node.type)
    if rule is not None:
        return rule(node, ctx)
    if node.type == "matmul" and ctx is not None:
        plain = bind_plain_matmul(node, ctx.block)
        if plain is not None:
            return plain
    return bind_op(node)


def run_node(node, values, ctx=None):
    """Execute one node on {name: array}; returns {output name: array}."""
    bound = bind(node, ctx)
    result = bound.fn(*[values[n] for n in bound.in_names])
    results = (result,) if bound.single else result
    return {n: v for n, v in zip(bound.out_names, results) if n is not None}

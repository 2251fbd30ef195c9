"""cond: run one of two sub-blocks; its outputs merge into the parent block.

Op `cond`: inputs Cond (the predicate) and Input (every outer variable either branch
reads); outputs Out (merged results) and Scope (the taken branch and its values, read by
`cond_grad`); attrs true_block/false_block and true_outs/false_outs (branch result names).
"""
from ...core.unique_name import generate
from ..framework import Variable
from ..mode import user_origin
from ..program_state import default_main_program
from .nest import flatten, pack, structure
from .rules import (Bound, SubPlan, block_names, grad_block, grad_feeds, grad_out,
                    wants_grad, in_dynamic_mode, outer_reads, read_grad, register, run_plan,
                    sub_block, truth)

__all__ = ["cond"]

_BRANCHES = ("false", "true")


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """`true_fn()` if pred else `false_fn()`; in static mode one `cond` op with two blocks."""
    return build_cond(pred, true_fn, false_fn, name)


def build_cond(pred, true_fn, false_fn, name=None, same_meta=True, same_rank=True):
    """`cond`; with `same_meta=False` (case / switch_case, as in Paddle) branch results
    may differ in rank and dtype: the output is declared with the true branch's dtype and
    unknown dims, and holds whichever value the taken branch produced. `same_rank=False`
    (a converted if, as in Paddle) allows differing ranks only."""
    if in_dynamic_mode():
        fn = true_fn if bool(pred) else false_fn
        return None if fn is None else fn()
    if not isinstance(pred, Variable):
        raise TypeError(f"cond(): pred must be a Variable, got {type(pred).__name__}")
    blocks, results = {}, {}
    for branch, fn in (("true", true_fn), ("false", false_fn)):
        blocks[branch], results[branch] = sub_block(fn or (lambda: None))
    outs = _merge(results["true"], results["false"], name, same_meta, same_rank)
    var_pos = [k for k, leaf in enumerate(flatten(outs)) if isinstance(leaf, Variable)]
    branch_outs = {b: [flatten(results[b])[k].name for k in var_pos] for b in _BRANCHES}
    reads = [n for b in _BRANCHES for n in outer_reads(blocks[b], branch_outs[b])]
    parent = default_main_program().current_block()
    scope = parent.create_var(generate("cond_scope"), kind="scopes")
    parent.append_op(
        "cond", {"Cond": [pred.name], "Input": list(dict.fromkeys(reads))},
        {"Out": [flatten(outs)[k].name for k in var_pos], "Scope": [scope.name]},
        {"true_block": blocks["true"], "false_block": blocks["false"],
         "true_outs": branch_outs["true"], "false_outs": branch_outs["false"]},
        user_origin())
    return outs


def _merge(true_out, false_out, name, same_meta, same_rank=True):
    """Parent-block outputs for two branch results; mismatches are reported per output."""
    if structure(true_out) != structure(false_out):
        raise ValueError(f"cond(): true_fn and false_fn return different structures: "
                         f"{structure(true_out)} vs {structure(false_out)}")
    problems, merged = [], []
    prefix = generate(name or "cond")
    parent = default_main_program().current_block()
    for k, (a, b) in enumerate(zip(flatten(true_out), flatten(false_out))):
        problem = _mismatch(a, b, same_meta, same_rank)
        if problem:
            problems.append(f"output {k}: {problem}")
        elif isinstance(a, Variable):
            shape = _merged_shape(a._shape, b._shape)
            merged.append(parent.create_var(f"{prefix}.tmp_{k}", shape, a.dtype, kind=a.kind,
                                            stop_gradient=a.stop_gradient and b.stop_gradient))
        else:
            merged.append(a)
    if problems:
        raise ValueError("cond(): the branches' outputs do not match:\n  " +
                         "\n  ".join(problems))
    return pack(true_out, merged)


def _describe(v):
    return f"{v.kind} {v.shape} {v.dtype.name}" if isinstance(v, Variable) else repr(v)


def _merged_shape(a, b):
    """Dims both branches agree on, -1 elsewhere (all -1 when the ranks differ)."""
    if len(a) != len(b):
        return [-1] * len(a)
    return [x if x == y else -1 for x, y in zip(a, b)]


def _mismatch(a, b, same_meta=True, same_rank=True):
    """Why branch outputs a and b cannot merge, or None."""
    both = f"true branch {_describe(a)} vs false branch {_describe(b)}"
    if isinstance(a, Variable) != isinstance(b, Variable):
        return f"a Variable in one branch only ({both})"
    if not isinstance(a, Variable):
        return None if a is b or a == b else f"Python values differ ({both})"
    if a.kind != b.kind:
        return f"kind differs ({both})"
    if not same_meta:
        return None
    if a.dtype != b.dtype:
        return f"kind or dtype differs ({both})"
    if same_rank and a.kind == "dense" and len(a._shape) != len(b._shape):
        return f"rank differs ({both})"
    return None


def _cond_rule(node, ctx):
    """Executor rule: run the taken branch's plan; stash its values when Scope is read."""
    ins, outs, scope = node.inputs["Input"], node.outputs.get("Out", []), \
        node.outputs.get("Scope", [])
    names = block_names(node, "Input")
    plans = [SubPlan(ctx, node.attrs[f"{b}_block"], names,
                     node.attrs[f"{b}_outs"] if outs else [], bool(scope)) for b in _BRANCHES]

    def run(pred, *values):
        taken = int(truth(pred))
        fetched, stash = plans[taken].run(dict(zip(names, values)))
        return (*fetched, (taken, stash)) if scope else tuple(fetched)
    return Bound(run, node.inputs["Cond"] + ins, outs + scope, False)


def _cond_grad(block, op, table):
    """Append `cond_grad`: a grad block per branch, run for the branch taken forward."""
    wanted = [n for n in op.input("Input") if wants_grad(block.var(n))]
    if not wanted:
        return
    out_grads = [read_grad(table, n) for n in op.output("Out")]
    attrs = {}
    for b in _BRANCHES:
        outs = op.attr(f"{b}_outs")
        g, seeds, grads = grad_block(op.attr(f"{b}_block"), outs, wanted, wanted)
        attrs.update({f"{b}_block": g, f"{b}_seeds": seeds, f"{b}_grads": grads})
    block.append_op("cond_grad", {"Scope": op.output("Scope"), "Input": op.input("Input"),
                                  "Out@GRAD": out_grads},
                    {"Input@GRAD": [grad_out(table, n) for n in wanted]}, attrs, op.origin)


def _cond_grad_rule(node, ctx):
    """Executor rule: feed the taken branch's grad block and return the input gradients."""
    ins, douts = node.inputs["Input"], node.inputs["Out@GRAD"]
    names = block_names(node, "Input")
    live = bool(node.outputs.get("Input@GRAD"))
    plans = [ctx.compile_block(node.attrs[f"{b}_block"].idx,
                               grad_feeds(node.attrs[f"{b}_block"]),
                               node.attrs[f"{b}_grads"] if live else []) for b in _BRANCHES]
    seeds = [node.attrs[f"{b}_seeds"] for b in _BRANCHES]

    def run(scope, *values):
        taken, stash = scope
        env = dict(zip(names, values))
        env.update(stash)
        env.update(zip(seeds[taken], values[len(ins):]))
        return tuple(run_plan(plans[taken], env))
    return Bound(run, node.inputs["Scope"] + ins + douts,
                 node.outputs.get("Input@GRAD", []), False)


register("cond", _cond_rule, _cond_grad,
         ({"Cond": "one", "Input": "many"}, {"Out": "many", "Scope": "one"},
          {"true_block": "block", "false_block": "block", "true_outs": "names",
           "false_outs": "names"},
          [(f"{b}_block", ["Input"], f"{b}_outs") for b in ("true", "false")], ["Cond"],
          ["Out", "true_outs", "false_outs"]))
register("cond_grad", _cond_grad_rule)

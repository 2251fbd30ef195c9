"""while_loop: repeat a body sub-block while a condition sub-block holds.

Op `while`: inputs X (initial loop variables) and Input (outer variables read by the
condition or the body); outputs Out (final loop variables) and Scope (per-iteration
values for `while_grad`); attrs cond_block/body_block, cond_vars/body_vars (each block's
loop-variable placeholders), cond_out and body_outs. `while_grad` runs the body's grad
block once per iteration in reverse, carrying loop-variable gradients and summing the
gradients of outer variables.
"""
from ...core.unique_name import generate
from ..framework import Variable
from ..mode import constant_var, user_origin
from ..program_state import default_main_program
from .nest import flatten, pack, structure
from .rules import (Bound, SubPlan, add_grads, block_names, differentiable, grad_block,
                    grad_feeds, grad_out, in_dynamic_mode, wants_grad, outer_reads, read_grad,
                    register, run_plan, sub_block, truth, zeros_for)

__all__ = ["while_loop"]


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Run `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; returns loop_vars."""
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop(): cond and body must be callables")
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise TypeError("while_loop(): loop_vars must be a non-empty list or tuple")
    if in_dynamic_mode():
        values = list(loop_vars)
        while bool(cond(*values)):
            values = _as_list(body(*values), len(values))
        return values
    return _static_while(cond, body, list(loop_vars), name)


def _as_list(result, count):
    """A body's result as a list (a single value is allowed for one loop variable)."""
    result = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(result) != count:
        raise ValueError(f"while_loop(): body returns {len(result)} values for {count} "
                         f"loop variables")
    return result


def _placeholders(template, carried):
    """Block-local variables standing for the loop variables inside a sub-block; those at
    the indices in `carried` carry gradients whatever their initial value does."""
    block = default_main_program().current_block()
    return [block.create_var(generate("loop_var"), v._shape, v.dtype, kind=v.kind,
                             stop_gradient=v.stop_gradient and k not in carried, is_data=True)
            for k, v in enumerate(template)]


def _newly_carried(holders, outs, carried):
    """Indices of loop variables that enter the body without a gradient but leave it with
    one (s = zeros, then s = s + f(x) in the body): their placeholders must carry
    gradients, or every iteration but the last would lose its contribution."""
    return {k for k, (holder, out) in enumerate(zip(holders, outs))
            if k not in carried and holder.stop_gradient and differentiable(holder)
            and isinstance(out, Variable) and not out.stop_gradient}


def _static_while(cond, body, loop_vars, name):
    """Build the `while` op and return the final loop variables (same nesting)."""
    leaves = [v if isinstance(v, Variable) else constant_var(v) for v in flatten(loop_vars)]

    def build(fn, carried=frozenset()):
        holders = _placeholders(leaves, carried)
        names = [h.name for h in holders]  # fn may rebind the objects (array_write)
        result = fn(*pack(loop_vars, holders))
        return [h.block.vars[n] for h, n in zip(holders, names)], result
    cond_block, (cond_vars, pred) = sub_block(build, cond)
    if not isinstance(pred, Variable) or pred.dtype.name != "bool":
        raise TypeError(f"while_loop(): cond must return a bool Variable, got {pred!r}")
    carried = frozenset()
    while True:  # trace the body until the loop variables that carry gradients settle
        body_block, (body_vars, result) = sub_block(build, body, carried)
        result = _as_list(result, len(loop_vars))
        if structure(result) != structure(list(loop_vars)):
            raise ValueError(f"while_loop(): body returns {structure(result)}, loop_vars are "
                             f"{structure(list(loop_vars))}")
        more = _newly_carried(body_vars, flatten(result), carried)
        if not more:
            break
        default_main_program()._discard_blocks(body_block.idx)
        carried = carried | more
    body_outs = _body_outputs(body_block, body_vars, flatten(result))
    for holder, out in zip(cond_vars, body_vars):
        holder._shape = out._shape
    parent = default_main_program().current_block()
    prefix = generate(name or "while")
    stop = all(v.stop_gradient for v in leaves) and all(o.stop_gradient for o in body_outs)
    finals = [parent.create_var(f"{prefix}.tmp_{k}", h._shape, h.dtype, kind=h.kind,
                                stop_gradient=stop) for k, h in enumerate(body_vars)]
    scope = parent.create_var(generate("while_scope"), kind="scopes")
    reads = outer_reads(cond_block, [pred.name]) + outer_reads(body_block,
                                                               [o.name for o in body_outs])
    parent.append_op(
        "while", {"X": [v.name for v in leaves], "Input": list(dict.fromkeys(reads))},
        {"Out": [v.name for v in finals], "Scope": [scope.name]},
        {"cond_block": cond_block, "body_block": body_block, "cond_out": pred.name,
         "cond_vars": [v.name for v in cond_vars], "body_vars": [v.name for v in body_vars],
         "body_outs": [o.name for o in body_outs]}, user_origin())
    return pack(list(loop_vars), finals)


def widen(shape, other):
    """The static shape of a loop variable that takes values of `shape` and `other`: dims
    that differ become -1; with different ranks the shapes are aligned on their last dims
    and the extra leading dims are -1 (h of [16, 128] that becomes x[i] of [1, 16, 128]
    is [-1, 16, 128])."""
    if len(shape) < len(other):
        shape, other = other, shape
    extra = len(shape) - len(other)
    return (-1,) * extra + tuple(a if a == b else -1 for a, b in zip(shape[extra:], other))


def _body_outputs(block, holders, outs):
    """Body results as Variables checked against the loop variables: dims and ranks widen
    (`widen`), a change of dtype or kind is refused."""
    problems, made = [], []
    for k, (holder, out) in enumerate(zip(holders, outs)):
        if not isinstance(out, Variable):
            saved = block.program._current
            block.program._current = block.idx
            out = constant_var(out)
            block.program._current = saved
        if out.kind != holder.kind or out.dtype != holder.dtype:
            problems.append(f"loop variable {k}: enters as {holder.kind} {holder.dtype.name} "
                            f"{holder.shape}, the body returns {out.kind} {out.dtype.name} "
                            f"{out.shape}")
        elif out.kind == "dense":
            holder._shape = widen(holder._shape, out._shape)
        made.append(out)
    if problems:
        raise TypeError("while_loop(): a loop variable must keep its dtype (cast it before "
                        "the loop, or inside the body to the dtype it enters with):\n  " +
                        "\n  ".join(problems))
    return made


def _while_rule(node, ctx):
    """Executor rule: loop over the compiled condition and body plans."""
    a, xs, ins = node.attrs, node.inputs["X"], node.inputs["Input"]
    names = block_names(node, "Input")
    outs, scope = node.outputs.get("Out", []), node.outputs.get("Scope", [])
    test = SubPlan(ctx, a["cond_block"], a["cond_vars"] + names, [a["cond_out"]], False)
    body = SubPlan(ctx, a["body_block"], a["body_vars"] + names, a["body_outs"], bool(scope))

    def run(*values):
        loop, outer, steps = list(values[:len(xs)]), dict(zip(names, values[len(xs):])), []
        while truth(test.run({**outer, **dict(zip(a["cond_vars"], loop))})[0][0]):
            env = dict(zip(a["body_vars"], loop))
            loop, stash = body.run({**outer, **env})
            if scope:
                steps.append({**env, **stash})
        return (*(loop if outs else ()), *((steps,) if scope else ()))
    return Bound(run, xs + ins, outs + scope, False)


def _while_grad(block, op, table):
    """Append `while_grad` with the body's grad block (gradients of placeholders and of
    differentiable outer inputs)."""
    xs, ins, holders = op.input("X"), op.input("Input"), op.attr("body_vars")
    x_index = [k for k, n in enumerate(xs) if differentiable(block.var(n))]
    wanted = [n for n in ins if wants_grad(block.var(n))]
    if not x_index and not wanted:
        return
    out_grads = [read_grad(table, n) for n in op.output("Out")]
    sources = [holders[k] for k in x_index] + wanted
    g, seeds, grads = grad_block(op.attr("body_block"), op.attr("body_outs"), sources,
                                 holders + wanted)
    block.append_op(
        "while_grad", {"X": xs, "Input": ins, "Scope": op.output("Scope"),
                       "Out@GRAD": out_grads},
        {"X@GRAD": [grad_out(table, xs[k]) for k in x_index],
         "Input@GRAD": [grad_out(table, n) for n in wanted]},
        {"body_block": g, "seeds": seeds, "grads": grads, "x_index": x_index}, op.origin)


def _while_grad_rule(node, ctx):
    """Executor rule: walk the stashed iterations backwards through the grad block."""
    a, xs, ins = node.attrs, node.inputs["X"], node.inputs["Input"]
    names, n_loop = block_names(node, "Input"), len(xs)
    plan = ctx.compile_block(a["body_block"].idx, grad_feeds(a["body_block"]), a["grads"])
    x_live = bool(node.outputs.get("X@GRAD"))
    in_live = bool(node.outputs.get("Input@GRAD"))
    wanted = [n for n in names if wants_grad(ctx.block.var(n))]

    def run(steps, *values):
        outer = dict(zip(names, values[n_loop:n_loop + len(ins)]))
        dloop, acc = list(values[n_loop + len(ins):]), None
        for env in reversed(steps):
            grads = run_plan(plan, {**outer, **env, **dict(zip(a["seeds"], dloop))})
            dloop = grads[:n_loop]
            acc = [add_grads(s, t) for s, t in zip(acc or [None] * len(grads), grads[n_loop:])]
        acc = acc or [zeros_for(outer[n]) for n in wanted]
        return ((*[dloop[k] for k in a["x_index"]],) if x_live else ()) + (
            tuple(acc) if in_live else ())
    return Bound(run, node.inputs["Scope"] + xs + ins + node.inputs["Out@GRAD"],
                 node.outputs.get("X@GRAD", []) + node.outputs.get("Input@GRAD", []), False)


register("while", _while_rule, _while_grad,
         ({"X": "many", "Input": "many"}, {"Out": "many", "Scope": "one"},
          {"cond_block": "block", "body_block": "block", "cond_out": "name",
           "cond_vars": "names", "body_vars": "names", "body_outs": "names"},
          [("cond_block", ["cond_vars", "Input"], "cond_out"),
           ("body_block", ["body_vars", "Input"], "body_outs")], ["cond_out"],
          ["X", "Out", "cond_vars", "body_vars", "body_outs"],
          [("X", "cond_vars"), ("X", "body_vars")]))
register("while_grad", _while_grad_rule)

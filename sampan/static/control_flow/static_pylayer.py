"""static_pylayer: a forward sub-block with a user-written backward sub-block.

Op `static_pylayer`: inputs Input (the forward inputs, then other outer reads); outputs
Out; attr blocks = [forward block, backward block]. The backward block reads its output
gradients as `<out>@GRAD` and writes `<in>@GRAD` for each forward input; the grad op
`static_pylayer_grad` (attr blocks = [backward block]) runs it.
"""
from ...core.unique_name import generate
from ..backward import grad_name
from ..framework import Variable
from ..mode import user_origin
from ..program_state import default_main_program
from .nest import flatten, replace_leaves
from .rules import (Bound, SubPlan, block_names, grad_out, in_dynamic_mode, outer_reads,
                    read_grad, register, run_plan, sub_block)

__all__ = ["static_pylayer"]


def static_pylayer(forward_fn, inputs, backward_fn=None, name=None):
    """forward_fn(*inputs) in its own block; backward_fn(*output grads) gives input grads.

    `inputs` may nest Variables in lists, tuples and dicts; the op's inputs are those
    Variables in flatten order, and backward_fn returns one gradient (or None) for each,
    in any nesting that flattens to that order. forward_fn's result may hold other values
    (None, numbers) beside its Variables: they are returned as they are."""
    inputs = list(inputs)
    if in_dynamic_mode():
        return forward_fn(*inputs)
    flat_inputs = [v for v in flatten(inputs) if isinstance(v, Variable)]
    fwd, result = sub_block(forward_fn, *inputs)
    results = [r for r in flatten(result) if isinstance(r, Variable)]
    if not results:
        raise TypeError(f"static_pylayer(): forward_fn must return Variables, got {result!r}")
    parent = default_main_program().current_block()
    prefix = generate(name or "static_pylayer")
    outs = [parent.create_var(f"{prefix}.tmp_{k}", r._shape, r.dtype,
                              stop_gradient=backward_fn is None or r.stop_gradient)
            for k, r in enumerate(results)]
    blocks = [fwd]
    if backward_fn is not None:
        blocks.append(sub_block(_backward_body, backward_fn, outs, flat_inputs)[0])
    reads = [v.name for v in flat_inputs] + outer_reads(fwd, [r.name for r in results])
    parent.append_op("static_pylayer", {"Input": list(dict.fromkeys(reads))},
                     {"Out": [o.name for o in outs]},
                     {"blocks": blocks, "fwd_outs": [r.name for r in results]}, user_origin())
    return replace_leaves(result, lambda r: isinstance(r, Variable), outs)


def _backward_body(backward_fn, outs, inputs):
    """Record backward_fn(<out>@GRAD ...) and bind its results to `<in>@GRAD` names."""
    block = default_main_program().current_block()
    grads = [block.create_var(grad_name(o.name), o._shape, o.dtype, is_data=True,
                              stop_gradient=False) for o in outs]
    result = flatten(backward_fn(*grads))
    wrong = [g for g in result if g is not None and not isinstance(g, Variable)]
    if wrong:
        raise TypeError(f"static_pylayer(): backward_fn must return Tensors or None as "
                        f"gradients, got {type(wrong[0]).__name__} {wrong[0]!r}")
    if len(result) != len(inputs):
        raise ValueError(f"static_pylayer(): backward_fn returns {len(result)} gradients for "
                         f"{len(inputs)} Tensor inputs (one gradient or None per Tensor "
                         f"input, in the order the nested inputs flatten to)")
    for x, g in zip(inputs, result):
        if g is not None:
            _check_grad(x, g)
            _bind_name(block, g, grad_name(x.name))


def _check_grad(x, g):
    """A gradient must have its input's dtype and (where both are known) shape."""
    if g.dtype != x.dtype:
        raise TypeError(f"static_pylayer(): the gradient of input {x.name} has dtype "
                        f"{g.dtype.name}, the input {x.dtype.name}")
    agree = len(g._shape) == len(x._shape) and all(
        a < 0 or b < 0 or a == b for a, b in zip(g._shape, x._shape))
    if not agree:
        raise ValueError(f"static_pylayer(): the gradient of input {x.name} has shape "
                         f"{list(g._shape)}, the input {list(x._shape)}")


def _bind_name(block, value, name):
    """Make `name` hold `value`: rename the local op output, or assign when not local."""
    writer = next((op for op in block.ops if value.name in op.output_arg_names), None)
    if writer is None or not block.has_var(value.name):
        var = block.create_var(name, value._shape, value.dtype)
        block.append_op("assign", {"x": [value.name]}, {"out": [name]}, {})
        return var
    old = value.name
    for op in block.ops:
        op.inputs = {k: [name if n == old else n for n in v] for k, v in op.inputs.items()}
        op.outputs = {k: [name if n == old else n for n in v] for k, v in op.outputs.items()}
    del block.vars[old]
    value.name = name
    block.adopt_var(value)
    return value


def _pylayer_rule(node, ctx):
    """Executor rule: run the forward block."""
    ins, outs = node.inputs["Input"], node.outputs.get("Out", [])
    names = block_names(node, "Input")
    plan = SubPlan(ctx, node.attrs["blocks"][0], names,
                   node.attrs["fwd_outs"] if outs else [], False)
    return Bound(lambda *values: tuple(plan.run(dict(zip(names, values)))[0]), ins, outs,
                 False)


def _pylayer_grad(block, op, table):
    """Append `static_pylayer_grad` running the backward block (when there is one)."""
    if len(op.attr("blocks")) < 2:
        return
    bwd = op.attr("blocks")[1]
    wrt = [n for n in op.input("Input") if bwd.has_var(grad_name(n))]
    block.append_op("static_pylayer_grad",
                    {"Out@GRAD": [read_grad(table, n) for n in op.output("Out")],
                     "Input": outer_reads(bwd)},
                    {"Input@GRAD": [grad_out(table, n) for n in wrt]},
                    {"blocks": [bwd], "wrt": wrt}, op.origin)


def _pylayer_grad_rule(node, ctx):
    """Executor rule: feed `<out>@GRAD` and outer reads, fetch `<in>@GRAD`."""
    bwd, ins, names = node.attrs["blocks"][0], node.inputs["Input"], block_names(node, "Input")
    seeds = [n for n, v in bwd.vars.items() if v.is_data]
    live = bool(node.outputs.get("Input@GRAD"))
    plan = ctx.compile_block(bwd.idx, seeds + names,
                             [grad_name(n) for n in node.attrs["wrt"]] if live else [])

    def run(*values):
        env = dict(zip(seeds, values[len(ins):]))
        env.update(zip(names, values[:len(ins)]))
        return tuple(run_plan(plan, env))
    return Bound(run, ins + node.inputs["Out@GRAD"], node.outputs.get("Input@GRAD", []),
                 False)


register("static_pylayer", _pylayer_rule, _pylayer_grad,
         ({"Input": "many"}, {"Out": "many"}, {"blocks": "blocks", "fwd_outs": "names"},
          [("blocks", ["Input"], "fwd_outs")], (), ["Out", "fwd_outs"]))
register("static_pylayer_grad", _pylayer_grad_rule)

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
from .nest import flatten, pack
from .rules import (Bound, SubPlan, block_names, grad_out, in_dynamic_mode, outer_reads,
                    read_grad, register, run_plan, sub_block)

__all__ = ["static_pylayer"]


def static_pylayer(forward_fn, inputs, backward_fn=None, name=None):
    """forward_fn(*inputs) in its own block; backward_fn(*output grads) gives input grads."""
    inputs = list(inputs)
    if in_dynamic_mode():
        return forward_fn(*inputs)
    fwd, result = sub_block(forward_fn, *inputs)
    results = flatten(result)
    if not results or not all(isinstance(r, Variable) for r in results):
        raise TypeError("static_pylayer(): forward_fn must return Variables")
    parent = default_main_program().current_block()
    prefix = generate(name or "static_pylayer")
    outs = [parent.create_var(f"{prefix}.tmp_{k}", r._shape, r.dtype,
                              stop_gradient=backward_fn is None or r.stop_gradient)
            for k, r in enumerate(results)]
    blocks = [fwd]
    if backward_fn is not None:
        blocks.append(sub_block(_backward_body, backward_fn, outs, inputs)[0])
    reads = [v.name for v in inputs] + outer_reads(fwd, [r.name for r in results])
    parent.append_op("static_pylayer", {"Input": list(dict.fromkeys(reads))},
                     {"Out": [o.name for o in outs]},
                     {"blocks": blocks, "fwd_outs": [r.name for r in results]}, user_origin())
    return outs[0] if isinstance(result, Variable) else pack(result, outs)


def _backward_body(backward_fn, outs, inputs):
    """Record backward_fn(<out>@GRAD ...) and bind its results to `<in>@GRAD` names."""
    block = default_main_program().current_block()
    grads = [block.create_var(grad_name(o.name), o._shape, o.dtype, is_data=True,
                              stop_gradient=False) for o in outs]
    result = backward_fn(*grads)
    result = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(result) != len(inputs):
        raise ValueError(f"static_pylayer(): backward_fn returns {len(result)} gradients for "
                         f"{len(inputs)} inputs")
    for x, g in zip(inputs, result):
        if g is not None:
            _bind_name(block, g, grad_name(x.name))


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

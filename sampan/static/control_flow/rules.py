"""Shared machinery of control-flow ops: registration, sub-blocks, sub-plans, grad blocks.

Every control-flow op type registers in one call (`register`): its exec rule (how the
Executor runs it), its grad rule (how static backward differentiates it) and its op type
for serialization. Sub-blocks run as separately compiled Plans; forward ops stash the
values written in their sub-blocks in a "scopes" output that the grad op feeds to the
grad block, so nothing is recomputed (random ops inside branches stay consistent).
"""
import numpy as np

from ...executor.bind import EXEC_RULES, Bound
from ...executor.run import run_sequential
from ..backward import GradTable, _emit_grad_op, _relevant_ops, grad_name, register_grad_rule
from ..program_state import default_main_program
from ..op_fields import declare_fields
from ..serialize import register_op_type

__all__ = ["in_dynamic_mode", "register", "kernel_rule", "sub_block", "outer_reads", "run_plan",
           "SubPlan", "grad_block", "grad_feeds", "Bound", "block_names",
           "read_grad", "grad_out", "differentiable", "truth", "add_grads", "zeros_for"]


def in_dynamic_mode():
    """framework_mode.in_dynamic_mode, imported late (framework_mode imports static)."""
    from ...framework_mode import in_dynamic_mode as dynamic
    return dynamic()


def register(op_type, exec_rule, grad_rule=None, fields=None):
    """Register everything an op type needs: exec rule, grad rule, serializable type and,
    for op types that files hold, its fields `(inputs, outputs, attrs)` checked on load
    (see op_fields.declare_fields)."""
    register_op_type(op_type)
    if fields is not None:  # (inputs, outputs, attrs[, sub_blocks])
        declare_fields(op_type, *fields)
    EXEC_RULES[op_type] = exec_rule
    if grad_rule is not None:
        register_grad_rule(op_type, grad_rule)


def kernel_rule(fn, in_slots, out_slots, single=None):
    """Exec rule calling fn(*values of in_slots) -> one value per output name (a bare
    value when there is one output, unless `single` is False)."""
    def rule(node, ctx):
        ins = [n for slot in in_slots for n in node.inputs.get(slot, [])]
        outs = [n for slot in out_slots for n in (node.outputs.get(slot) or [None])]
        return Bound(fn, ins, outs, len(outs) == 1 if single is None else single)
    return rule


def sub_block(fn, *args, parent_idx=None):
    """(new sub-block, fn(*args)) with fn's ops recorded into the sub-block."""
    program = default_main_program()
    saved = program._current
    block = program._create_block(parent_idx)
    try:
        return block, fn(*args)
    finally:
        program._current = saved


def _unique(names):
    return list(dict.fromkeys(names))


def outer_reads(block, extra=()):
    """Names the block's ops (or `extra`) read that the block does not declare, in order."""
    reads = [n for op in block.ops for n in op.input_arg_names] + list(extra)
    return _unique(n for n in reads if not block.has_var(n))


def local_writes(block):
    """Names written by the block's ops and declared by the block."""
    return _unique(n for op in block.ops for n in op.output_arg_names if block.has_var(n))


def block_names(node, slot):
    """The names under which a control-flow node's sub-blocks read its `slot` inputs: the
    Operator's own. The node's inputs say which values to pass, and a pass may have renamed
    them (common-subexpression elimination maps a repeated value to the first one's name)."""
    return list(node.op.input(slot)) if node.op is not None else node.inputs.get(slot, [])


def run_plan(plan, feeds):
    """Run a compiled sub-block Plan on {name: value}; returns the fetched values (a
    sequence)."""
    if plan.externals:
        missing = [e[0] for e in plan.externals]
        raise ValueError(f"sub-block reads {missing}, which its control-flow op does not pass")
    regs = plan.template[:]
    for name, slot, _ in plan.feed_specs:
        regs[slot] = feeds[name]
    run_sequential(plan, regs)
    return plan.fetch_get(regs)


class SubPlan:
    """A sub-block compiled once: run(feeds) -> (fetched values, stashed local values)."""

    def __init__(self, ctx, block, feeds, fetches, stash):
        self.stash = local_writes(block) if stash else []
        self.count = len(fetches)
        self.feeds = _unique(feeds)
        self.plan = ctx.compile_block(block.idx, self.feeds, list(fetches) + self.stash)

    def run(self, env):
        """Fetched values and {local name: value} (empty unless stashing)."""
        values = run_plan(self.plan, env)
        return values[:self.count], dict(zip(self.stash, values[self.count:]))


def differentiable(var):
    """True for variables that carry gradients: floating dense tensors and arrays."""
    return var.kind == "array" or (var.kind == "dense" and var.dtype.is_floating)


def wants_grad(var):
    """True for outer inputs of a sub-block whose gradient someone can use: differentiable
    and not stop_gradient (fed data in a loop body needs no per-iteration gradient)."""
    return differentiable(var) and not var.stop_gradient


def grad_out(table, name):
    """Name for a new gradient contribution to `name` (array grads are arrays too)."""
    out = table.output_name(name)
    table.block.var(out).kind = table.block.var(name).kind
    return out


def read_grad(table, name):
    """Name holding the summed gradient of `name`; arrays sum with array_add."""
    if table.block.var(name).kind != "array":
        return table.read(name)
    parts, target = table.parts.get(name, []), table.grad_var(name)
    if parts == [target]:
        return target
    table._new_var(name, target)
    table.block.var(target).kind = "array"
    table.block.append_op("array_add" if parts else "create_array", {"X": parts},
                          {"Out": [target]}, {})
    table.parts[name] = [target]
    return target


def grad_block(fwd, seeds, sources, fetches):
    """Grad sub-block of block `fwd`: (block, seed grad names, fetched grad names).

    Gradients of `seeds` (forward names) are fed under the seed grad names; the block
    computes the gradients of `fetches`. Forward values it reads are fed too: they are
    declared in the grad block as data (`is_data`), so it verifies on its own.
    """
    def emit():
        table = GradTable(fwd.program.current_block())
        seed_names = [grad_out(table, n) for n in seeds]
        for i in _relevant_ops(fwd, _unique(seeds), set(sources), set()):
            _emit_grad_op(table.block, fwd.ops[i], table)
        return seed_names, [read_grad(table, n) for n in fetches]
    block, (seed_names, grads) = sub_block(emit, parent_idx=fwd.idx)
    block.forward_block_idx = fwd.idx
    for name in seed_names:
        block.vars[name].is_data = True
    for name in outer_reads(block, grads):
        if fwd.has_var(name):
            v = fwd.vars[name]
            block.create_var(name, v._shape, v.dtype, kind=v.kind, is_data=True)
    return block, seed_names, grads


def grad_feeds(block):
    """Names a grad block is fed: its data variables and what it reads from outside."""
    return [n for n, v in block.vars.items() if v.is_data] + outer_reads(block)


def truth(pred):
    """Python bool of a one-element predicate array."""
    value = np.asarray(pred)
    if value.size != 1:
        raise ValueError(f"a control-flow condition must hold one element, got shape "
                         f"{list(value.shape)}")
    return bool(value.reshape(-1)[0])


def zeros_for(value):
    """A zero gradient shaped like a forward value (an empty list for arrays)."""
    return [] if isinstance(value, list) else np.zeros_like(value)


def add_grads(a, b):
    """Sum of two gradients (None is zero; arrays add position-wise)."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, list):
        longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
        return [add_grads(x, shorter[k] if k < len(shorter) else None)
                for k, x in enumerate(longer)]
    return a + b

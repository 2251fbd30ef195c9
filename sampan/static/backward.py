"""Static autodiff: append grad ops (from the registry's grad-op makers) to a Program.

Only ops on a path from a variable that needs a gradient to the target get grad ops;
several contributions to one gradient are summed before anything reads it.
"""
import functools

from ..core.gc_pause import gc_paused
from ..ops._generated.grad_makers import GRAD_MAKERS
from ..ops.registry import OPS
from .framework import Variable

__all__ = ["append_backward", "gradients", "grad_name", "register_grad_rule", "GradTable"]

GRAD_SUFFIX = "@GRAD"

# Ops outside the YAML registry (control flow) emit their own grad ops:
# rule(block, op, table) appends the grad op(s) of `op`, reading output gradients with
# table.read(name) and naming input-gradient contributions with table.output_name(name).
GRAD_RULES = {}



@functools.cache
def optional_output_grads(bw_op):
    """The output-gradient arguments `bw_op` declares optional (`Tensor?` in backward.yaml):
    its kernel treats None as zeros, so when no op produced that gradient the argument
    stays unbound instead of reading a full_like of zeros (cross_entropy's rarely used
    softmax output, for one, would cost a fill and ~5 array ops per training step)."""
    return tuple(name for name, kind in zip(bw_op.tensor_names, bw_op.tensor_kinds)
                 if kind == "Tensor?" and name.endswith("_grad"))


def register_grad_rule(op_type, rule):
    """Register how to append the backward of a non-registry op type."""
    GRAD_RULES[op_type] = rule


def _differentiable(op):
    return op.type in GRAD_MAKERS or op.type in GRAD_RULES


def grad_name(name):
    """Name of the gradient variable of `name`."""
    return name + GRAD_SUFFIX


def _needs_grad_vars(block, no_grad):
    """Variables that are not stop_gradient (and not excluded)."""
    return {n for n, v in block.vars.items() if not v.stop_gradient and n not in no_grad}


def _stops_gradient(block, name):
    """True when the variable `name` (looked up through parent blocks) is stop_gradient."""
    return block.has_var_recursive(name) and block.var(name).stop_gradient


def _relevant_ops(block, targets, sources, no_grad):
    """Indices of ops lying on a path from `sources` to `targets`; a variable marked
    stop_gradient (`x.detach()`, or set by the user) carries no gradient further."""
    reach = set(sources)
    forward = set()
    for i, op in enumerate(block.ops):
        if _differentiable(op) and any(n in reach for n in op.input_arg_names):
            carried = [n for n in op.output_arg_names
                       if n not in no_grad and not _stops_gradient(block, n)]
            if carried:
                forward.add(i)
                reach.update(carried)
    wanted = set(targets)
    relevant = []
    for i in sorted(forward, reverse=True):
        op = block.ops[i]
        if any(n in wanted for n in op.output_arg_names):
            relevant.append(i)
            wanted.update(op.input_arg_names)
    return relevant


class GradTable:
    """Pending gradient contributions per forward variable, summed on first read."""

    def __init__(self, block):
        self.block = block
        self.parts = {}
        self._existing = set(block.vars)
        self._grad_names = {}

    def grad_var(self, fwd_name):
        """Name of the gradient of `fwd_name` here: `<name>@GRAD`, made unique when the block
        already had that name (a program already holding gradient ops, e.g. paddle.grad
        under to_static: the second backward must not overwrite the first's values)."""
        name = self._grad_names.get(fwd_name)
        if name is None:
            name = base = grad_name(fwd_name)
            k = 0
            while name in self._existing:
                k += 1
                name = f"{base}@{k}"
            self._existing.add(name)
            self._grad_names[fwd_name] = name
        return name

    def _new_var(self, fwd_name, name):
        fwd = self.block.var(fwd_name)
        if not self.block.has_var(name):
            self.block.create_var(name, fwd._shape, fwd.dtype, stop_gradient=False)
        return name

    def output_name(self, fwd_name):
        """Name a grad op should write its contribution for `fwd_name` to."""
        parts = self.parts.setdefault(fwd_name, [])
        base = self.grad_var(fwd_name)
        name = base if not parts else f"{base}@RENAME@{len(parts)}"
        parts.append(self._new_var(fwd_name, name))
        return name

    def _separate_first_part(self, fwd_name, parts, name):
        """The sum's name when the first contribution was written under it: that part is
        renamed where an op writes it (else, a fed seed, the sum gets another name). One
        name holding two values would make a later backward through these grad ops (double
        grad) count the contribution twice."""
        for op in reversed(self.block.ops):
            for names in op.outputs.values():
                if name in names:
                    parts[0] = names[names.index(name)] = self._new_var(fwd_name,
                                                                       f"{name}@RENAME@0")
                    self.block._touch()
                    return name
        return self._new_var(fwd_name, f"{name}@TOTAL")

    def read(self, fwd_name):
        """Name holding the full gradient of `fwd_name` (zeros if nothing contributed)."""
        parts = self.parts.get(fwd_name, [])
        target = self.grad_var(fwd_name)
        if len(parts) == 1:
            return parts[0]
        if not parts:
            self._new_var(fwd_name, target)
            self.block.append_op("full_like", {"x": [fwd_name]}, {"out": [target]},
                                 {"fill_value": 0.0, "dtype": None})
        elif len(parts) > 1:
            if parts[0] == target:
                target = self._separate_first_part(fwd_name, parts, target)
            total = parts[0]
            for k, part in enumerate(parts[1:]):
                out = target if k == len(parts) - 2 else f"{target}@SUM@{k}"
                self._new_var(fwd_name, out)
                self.block.append_op("add", {"x": [total], "y": [part]}, {"out": [out]}, {})
                total = out
        self.parts[fwd_name] = [target]
        return target


def _grad_reads(table, fwd_names, may_unbind):
    """Gradient names for one output-gradient argument; [] (None to the kernel) when
    `may_unbind` and no op produced any of them."""
    if may_unbind and not any(n in table.parts for n in fwd_names):
        return []
    return [table.read(n) for n in fwd_names]


def _emit_grad_op(block, op, table):
    """Append the grad op of forward `op`, reading and writing gradients through `table`.

    The maker is called with an identity `grad_of`, so its gradient slots name forward
    variables; the table then supplies the real (summed / renamed) gradient names.
    """
    rule = GRAD_RULES.get(op.type)
    if rule is not None:
        rule(block, op, table)
        return
    bw_type, inputs, outputs, attrs = GRAD_MAKERS[op.type](op, list)
    fwd_outputs = OPS[op.type].output_names
    unbound = optional_output_grads(OPS[bw_type])
    reads = {slot: (_grad_reads(table, names, slot in unbound)
                    if slot.endswith("_grad") and slot[:-5] in fwd_outputs else names)
             for slot, names in inputs.items()}
    writes = {slot: [table.output_name(n) for n in names] for slot, names in outputs.items()}
    block.append_op(bw_type, reads, writes, attrs, origin=op.origin)


def _collection(values, arg, api):
    """The items of a list/tuple/set argument (None: none); one Variable is a TypeError, as
    in Paddle (iterating it would not give Variables)."""
    if values is None:
        return []
    if not isinstance(values, (list, tuple, set, frozenset)):
        raise TypeError(f"{api}(): {arg} must be a list, tuple or set, got "
                        f"{type(values).__name__}; wrap one Variable in a list")
    return list(values)


def _no_grad_names(no_grad_set, api):
    """Names of the variables in `no_grad_set` (Variables or names)."""
    return {v.name if isinstance(v, Variable) else v
            for v in _collection(no_grad_set, "no_grad_set", api)}


@gc_paused
def _backward(targets, target_grads, sources, no_grad):
    """Shared core of append_backward and gradients; returns the grad table."""
    block = targets[0].block.program.global_block()
    table = GradTable(block)
    for t, g in zip(targets, target_grads):
        if g is None:
            name = table.grad_var(t.name)
            table._new_var(t.name, name)
            block.append_op("full_like", {"x": [t.name]}, {"out": [name]},
                            {"fill_value": 1.0, "dtype": None})
            table.parts[t.name] = [name]
            _inherit_device(block, len(block.ops) - 1, _producer(block, t.name))
        else:
            table.parts[t.name] = [g.name]
    relevant = _relevant_ops(block, [t.name for t in targets], sources, no_grad)
    for i in relevant:
        first = len(block.ops)
        _emit_grad_op(block, block.ops[i], table)
        _inherit_device(block, first, block.ops[i])
    return table


def _producer(block, name):
    """The last op of `block` writing `name`, or None."""
    for op in reversed(block.ops):
        if name in op.output_arg_names:
            return op
    return None


def _inherit_device(block, first, fwd):
    """Ops from index `first` on run where forward op `fwd` does (its `op_device`, set by
    device_guard), as Paddle places an op's gradient with the op."""
    device = None if fwd is None else fwd.attrs.get("op_device")
    if device is not None:
        for op in block.ops[first:]:
            op.attrs.setdefault("op_device", device)


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None,
                    checkpoints=None, distop_context=None):
    """Append the backward of scalar `loss`; return [(parameter, gradient variable)]."""
    block = loss.block.program.global_block()
    if parameter_list is None:
        params = [p for p in block.all_parameters() if p.trainable]
    else:
        params = [block.var(p) if isinstance(p, str) else p
                  for p in _collection(parameter_list, "parameter_list", "append_backward")]
    no_grad = _no_grad_names(no_grad_set, "append_backward")
    sources = _needs_grad_vars(block, no_grad)
    table = _backward([loss], [None], sources, no_grad)
    pairs = []
    for p in params:
        if p.name in table.parts:
            pairs.append((p, block.var(table.read(p.name))))
    return pairs


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """Gradient variables of sum(targets) w.r.t. each input (None where unreachable)."""
    targets = [targets] if isinstance(targets, Variable) else list(targets)
    inputs = [inputs] if isinstance(inputs, Variable) else list(inputs)
    if target_gradients is None:
        target_gradients = [None] * len(targets)
    elif isinstance(target_gradients, Variable):
        target_gradients = [target_gradients]
    block = targets[0].block.program.global_block()
    no_grad = _no_grad_names(no_grad_set, "gradients")
    sources = _needs_grad_vars(block, no_grad) | {v.name for v in inputs}
    table = _backward(targets, target_gradients, sources, no_grad)
    return [block.var(table.read(v.name)) if v.name in table.parts else None for v in inputs]


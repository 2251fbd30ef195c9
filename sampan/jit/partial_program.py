"""Run a concrete program as one eager op (compiled Executor plans); its backward runs the
program's grad ops as a second plan over the forward values it kept."""
import numpy as np

from ..eager.autograd import NodeBase, edge_of
from ..eager.grad_mode import STATE
from ..eager.tensor import Tensor, wrap
from ..executor.executor import _results
from ..executor.plan import compile as compile_plan
from ..executor.run import run_sequential
from ..static.backward import grad_name, gradients
from ..static.framework import Variable
from ..static.program_state import program_guard
from ..static.input_spec import InputSpec
from .errors import attach_op_origin

__all__ = ["PartialProgram", "map_structure", "leaves"]


def map_structure(fn, obj):
    """`obj` with `fn` applied to each Tensor, Variable or InputSpec inside lists/tuples/dicts
    (containers holding none are returned as they are, so Python state stays shared)."""
    if isinstance(obj, (Tensor, Variable, InputSpec)):
        return fn(obj)
    if isinstance(obj, (list, tuple)):
        mapped = [map_structure(fn, v) for v in obj]
        same = all(a is b for a, b in zip(mapped, obj))
        return obj if same else type(obj)(mapped)
    if isinstance(obj, dict):
        mapped = {k: map_structure(fn, v) for k, v in obj.items()}
        return obj if all(mapped[k] is v for k, v in obj.items()) else mapped
    return obj


def leaves(obj):
    """The Tensors/Variables/InputSpecs of a structure, in order."""
    found = []
    map_structure(found.append, obj)
    return found


def run_plan(plan, values):
    """Run `plan` with feeds and external reads taken from `values` ({name: array}); returns
    (fetched arrays, register file). Arrays are shared, never copied on the way in."""
    regs = plan.template[:]
    for name, slot, _ in plan.feed_specs:
        regs[slot] = values[name]
    for name, slot, _, _ in plan.externals:
        regs[slot] = values[name]
    try:
        run_sequential(plan, regs)
    except Exception as exc:
        attach_op_origin(exc, plan)
        raise
    return _results(plan, regs, True), regs


class _Compiled:
    """The plans of one set of differentiated sources: forward, and backward if any."""

    def __init__(self, forward, backward=None, saved=(), seeds=(), grads=()):
        self.forward, self.backward = forward, backward
        self.saved, self.seeds, self.grads = list(saved), list(seeds), list(grads)
        self.backward_reads = [n for n, *_ in backward.externals] if backward else []


class RunProgramNode(NodeBase):
    """The autograd node of one run: runs the backward plan over that run's saved values."""

    __slots__ = ("compiled", "env")

    def __repr__(self):
        return "run_program"

    def apply(self, grads, create_graph):
        """Input/parameter gradients (aligned with edges) from the output gradients."""
        if create_graph:
            raise NotImplementedError("create_graph (double backward) through a to_static "
                                      "function is not supported (sampan/jit/partial_program.py)")
        env = dict(self.env)
        for name, g, (shape, dtype) in zip(self.compiled.seeds, grads, self.out_meta):
            env[name] = np.zeros(shape, dtype) if g is None else np.asarray(g, dtype)
        fetched, _ = run_plan(self.compiled.backward, env)
        found = iter(fetched)
        return [None if n is None else next(found) for n in self.compiled.grads]

    def release(self):
        super().release()
        self.env = None


class PartialProgram:
    """A concrete program run through plans compiled once per set of differentiated sources."""

    def __init__(self, program, inputs, outputs, state, build_strategy=None):
        self.program = program
        self.feed_names = [v.name for v in inputs]
        self.outputs = outputs
        self.out_vars = [v for v in leaves(outputs) if isinstance(v, Variable)]
        self.state = state
        self.strategy = build_strategy
        self._compiled = {}

    def _compile(self, sources):
        """(cached) plans for these source names (empty: inference, no backward)."""
        key = tuple(sources)
        if key not in self._compiled:
            self._compiled[key] = self._build(key)
        return self._compiled[key]

    def _build(self, sources):
        """Compile the forward plan, plus the backward plan and what it needs when training."""
        outs = [v.name for v in self.out_vars]
        if not sources:
            return _Compiled(compile_plan(self.program, self.feed_names, outs, self.strategy))
        grad_program, seeds, grads = self._backward_program(sources)
        fetch = [n for n in grads if n is not None]
        backward = compile_plan(grad_program, seeds, fetch, self.strategy)
        state = {n for n, _ in self.state}
        saved = [n for n, *_ in backward.externals if n not in state]
        forward = compile_plan(self.program, self.feed_names, outs + saved, self.strategy)
        return _Compiled(forward, backward, saved, seeds, grads)

    def _backward_program(self, sources):
        """A program of only the grad ops; (program, output-grad names, source-grad names)."""
        train = self.program.clone()
        block = train.global_block()
        start = len(block.ops)
        targets = [block.var(v.name) for v in self.out_vars if not v.stop_gradient]
        # Seeds use the table's own gradient names: gradients() reads those back.
        seeds = [block.create_var(grad_name(t.name), t.shape, t.dtype, is_data=True)
                 for t in targets]
        with program_guard(train):  # control-flow grad rules add sub-blocks to it
            grads = gradients(targets, [block.var(n) for n in sources], seeds)
        for _ in range(start):
            block.remove_op(0)
        return train, [s.name for s in seeds], [g.name if g is not None else None
                                                for g in grads]

    def __call__(self, inputs):
        """Run forward on eager `inputs` (Tensors, feed order); outputs are eager Tensors."""
        sources = self._sources(inputs)
        compiled = self._compile([n for n, _ in sources])
        values = {n: t._data for n, t in zip(self.feed_names, inputs)}
        values.update((n, t._data) for n, t in self.state)
        fetched, regs = run_plan(compiled.forward, values)
        if compiled.forward.writeback:
            tensors = dict(self.state)
            for name, slot in compiled.forward.writeback:
                tensors[name]._set_data(regs[slot])
        outs = [wrap(a) for a in fetched[:len(self.out_vars)]]
        if sources:
            values.update(zip(compiled.saved, fetched[len(self.out_vars):]))
            self._record(compiled, sources, outs, values)
        arrays = {v.name: t for v, t in zip(self.out_vars, outs)}
        return map_structure(lambda v: arrays[v.name] if isinstance(v, Variable) else v,
                             self.outputs)

    def _sources(self, inputs):
        """[(name, tensor)] needing gradients in this call (empty when nothing records)."""
        if not (STATE.enabled and any(not v.stop_gradient for v in self.out_vars)):
            return []
        fed = [(n, t) for n, t in zip(self.feed_names, inputs) if not t.stop_gradient]
        return fed + [(n, t) for n, t in self.state if not t.stop_gradient]

    def _record(self, compiled, sources, outs, env):
        """Link differentiable outputs to a RunProgramNode keeping the backward's inputs."""
        diff_outs = [t for t, v in zip(outs, self.out_vars) if not v.stop_gradient]
        node = RunProgramNode()
        node.compiled = compiled
        node.env = {n: env[n] for n in compiled.backward_reads}
        node.edges = [edge_of(t) for _, t in sources]
        node.out_meta = [(t._data.shape, t._data.dtype) for t in diff_outs]
        node.hooks = None
        node.link_outputs(diff_outs)

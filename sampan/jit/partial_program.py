"""Run a concrete program as one eager op (compiled Executor plans); its backward runs the
program's grad ops as a second plan over the forward values it kept."""
import itertools
import operator

import numpy as np

from ..core.gc_pause import gc_paused
from ..eager.autograd import NodeBase, edge_of
from ..eager.grad_mode import STATE
from ..eager import tensor as eager_tensor
from ..eager.tensor import Tensor, wrap
from ..executor.executor import _results
from ..executor.plan import compile as compile_plan, slot_getter
from ..executor.run import run_sequential
from ..static.backward import grad_name, gradients
from ..static.control_flow.nest import rebuilt
from ..static.framework import Variable
from ..static.program_state import program_guard
from ..static.input_spec import InputSpec
from .errors import attach_op_origin

__all__ = ["PartialProgram", "ArrayGradientError", "map_tensors", "leaves", "mark_test",
           "returned", "write_back"]


_TENSORS = (Tensor, Variable, InputSpec)


def map_tensors(fn, obj, kinds=_TENSORS):
    """`obj` with `fn` applied to each leaf of `kinds` (Tensors, Variables and InputSpecs)
    inside lists/tuples/dicts (containers holding none are returned as they are, so Python
    state stays shared)."""
    if isinstance(obj, kinds):
        return fn(obj)
    if isinstance(obj, (list, tuple)):
        mapped = [map_tensors(fn, v, kinds) for v in obj]
        same = all(a is b for a, b in zip(mapped, obj))
        return obj if same else rebuilt(obj, mapped)
    if isinstance(obj, dict):
        mapped = {k: map_tensors(fn, v, kinds) for k, v in obj.items()}
        return obj if all(mapped[k] is v for k, v in obj.items()) else mapped
    return obj


def leaves(obj):
    """The Tensors/Variables/InputSpecs of a structure, in order."""
    found = []
    map_tensors(found.append, obj)
    return found


def mark_test(program):
    """Switch every op with an `is_test` attribute to inference behaviour (a plain
    function's eval())."""
    for block in program.blocks:
        for op in block.ops:
            if "is_test" in op.attrs:
                op.attrs["is_test"] = True


def _run(plan, regs):
    """Run `plan` on a filled register file; returns the fetched arrays (persistables
    copied). Arrays are shared, never copied on the way in."""
    try:
        run_sequential(plan, regs)
    except Exception as exc:
        attach_op_origin(exc, plan)
        raise
    if plan.fetch_copies:
        return _results(plan, regs, True)
    return list(plan.fetch_get(regs))


def _reads(specs, numbered):
    """(register slot, value number) of each start register in a plan's `specs`."""
    return [(slot, numbered[name]) for name, slot, *_ in specs]


_STOP_GRADIENT = operator.attrgetter("stop_gradient")
_DATA = operator.attrgetter("_data")


class _InferenceRun:
    """The forward plan of calls that record nothing and write no state, prepared once:
    its register template holds the state arrays (read again only after some tensor's
    data was replaced), so a call copies the template, drops the input arrays in, runs
    the plan and wraps the fetched arrays."""

    def __init__(self, compiled, n_inputs, state_tensors, out_names):
        self.plan = compiled.forward
        self.input_reads = [(slot, k) for slot, k in compiled.fwd_reads if k < n_inputs]
        self.state_reads = [(slot, state_tensors[k - n_inputs])
                            for slot, k in compiled.fwd_reads if k >= n_inputs]
        self.out_names = out_names
        self.template = None
        self.bound_at = None  # eager_tensor.replacements when the template was filled

    def run(self, inputs):
        """The output Tensors of one run on eager `inputs` (feed order)."""
        if self.bound_at != eager_tensor.replacements:
            self.template = self.plan.template[:]
            for slot, tensor in self.state_reads:
                self.template[slot] = tensor._data
            self.bound_at = eager_tensor.replacements
        regs = self.template[:]
        for slot, k in self.input_reads:
            regs[slot] = inputs[k]._data
        return _named_outputs(_run(self.plan, regs), self.out_names)


def _named_outputs(arrays, names):
    """Tensors of fetched arrays, named after their Variables as in Paddle (jit.save's
    output_spec=[out] finds them by name)."""
    outs = []
    for array, name in zip(arrays, names):  # a loop: map(wrap, ...) calls wrap from C
        out = wrap(array)
        out._name = name
        outs.append(out)
    return outs


class _Compiled:
    """The plans of one set of differentiated sources and where their registers come from.

    Each call numbers its values: the input arrays, the state arrays, then (when there is a
    backward) the forward's extra fetches saved for it. `fwd_reads` pairs the forward
    plan's start registers with value numbers; `saved_values` picks the values the backward
    reads (into registers `bwd_slots`), `seed_slots` are its output gradient registers,
    `sources` the value numbers whose gradients it computes (`source_tensors` picks their
    tensors) and `reached` which of them it fetches (the others get None; `all_reached`
    when none does)."""

    def __init__(self, names, sources, forward, backward=None, saved=(), seeds=(),
                 reached=()):
        self.forward, self.backward, self.sources = forward, backward, sources
        numbered = {n: k for k, n in enumerate(list(names) + list(saved))}
        self.fwd_reads = _reads(forward.feed_specs + forward.externals, numbered)
        if backward is not None:
            reads = _reads(backward.externals, numbered)
            self.bwd_slots = [slot for slot, _ in reads]
            self.saved_values = slot_getter([k for _, k in reads])
            self.source_tensors = slot_getter(sources)
            slots = {name: slot for name, slot, _ in backward.feed_specs}
            self.seed_slots = [slots[n] for n in seeds]
            self.reached = reached
            self.all_reached = all(reached)


class RunProgramNode(NodeBase):
    """The autograd node of one run: runs the backward plan over that run's saved values."""

    __slots__ = ("compiled", "saved")

    def __repr__(self):
        return "run_program"

    def apply(self, grads, create_graph):
        """Input/parameter gradients (aligned with edges) from the output gradients."""
        return self._backward(grads, create_graph, keep=True)

    def apply_once(self, grads, create_graph):
        """apply, handing the saved values over to the backward plan, which drops each
        after its last reader (as eager nodes free theirs one by one)."""
        return self._backward(grads, create_graph, keep=False)

    def _backward(self, grads, create_graph, keep):
        """Run the backward plan on the output gradients and the forward's saved values
        (`keep`: the node keeps them for another backward)."""
        if create_graph:
            raise NotImplementedError("create_graph (double backward) through a to_static "
                                      "function is not supported (sampan/jit/partial_program.py)")
        compiled = self.compiled
        regs = compiled.backward.template[:]
        for slot, g, (shape, dtype) in zip(compiled.seed_slots, grads, self.out_meta):
            regs[slot] = np.zeros(shape, dtype) if g is None else np.asarray(g, dtype)
        # no loop variable: it would keep the last saved value alive through the run
        list(map(regs.__setitem__, compiled.bwd_slots, self.saved))
        if not keep:  # the register file holds the only references now
            self.saved = None
        found = _run(compiled.backward, regs)
        if compiled.all_reached:
            return found
        found = iter(found)
        return [next(found) if reached else None for reached in compiled.reached]

    def release(self):
        super().release()
        self.saved = None


def _store_positions(stores, feed_names, returned_names):
    """([(store, position)], extra Variables): the position of each StoredTensor's Tensor
    among a run's inputs then outputs. An input or returned Variable is that very Tensor
    (as eagerly, `self.last = y; return y` stores the returned object); the others are
    extra outputs, fetched after the returned ones."""
    positions = {name: k for k, name in enumerate(feed_names)}
    for k, name in enumerate(returned_names):
        positions.setdefault(name, len(feed_names) + k)
    end = len(feed_names) + len(returned_names)
    placed, extra = [], []
    for store in stores:
        if store.var.name not in positions:
            positions[store.var.name] = end + len(extra)
            extra.append(store.var)
        placed.append((store, positions[store.var.name]))
    return placed, extra


class ArrayGradientError(NotImplementedError):
    """A program returns a tensor array whose items need gradients: run_program's backward
    takes gradients of dense outputs only."""


def returned(var, values):
    """What a call returns for Variable `var` (`values`: the run's Tensors by name): a tensor
    array, whose run value is a list of arrays, as the list of Tensors eager code holds."""
    value = values[var.name]
    return list(map(wrap, value._data)) if var.kind == "array" else value


class WrittenInput:
    """An input Tensor an in-place op of the program changed: `index` among the inputs,
    `var` the Variable of its final value (fetched like a StoredTensor's)."""

    __slots__ = ("index", "var")

    def __init__(self, index, var):
        self.index, self.var = index, var


def _same_array(a, b):
    """True when two arrays hold the same shape, dtype and values (NaN equal to NaN)."""
    return a is b or (a.shape == b.shape and a.dtype == b.dtype and
                      np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))


def write_back(tensor, value):
    """Give the caller's input `tensor` its final value, as an eager in-place op would; an
    input whose final value equals its own (passed through a cond op) is left as it is."""
    if value is not tensor and not _same_array(tensor._data, value._data):
        tensor._take_over(value)


class PartialProgram:
    """A concrete program run through plans compiled once per set of differentiated sources.

    `training` is the mode it was traced in (a Layer's train()/eval() selects another
    cached program, with its own PartialProgram); `program` is the Program it runs, also
    `train_program` or `infer_program` by that mode, as Paddle's partial program layer
    names them."""

    def __init__(self, program, inputs, outputs, state, build_strategy=None, training=True,
                 stores=(), written=()):
        self.program = program
        self._training = training
        self._test_copy = None
        self.feed_names = [v.name for v in inputs]
        self.outputs = outputs
        # the returned Variables, then those of the attributes each run sets (StoredTensor
        # objects) that are neither returned nor inputs: fetched like outputs, not returned
        self.out_vars = [v for v in leaves(outputs) if isinstance(v, Variable)]
        for v in self.out_vars:
            if v.kind == "array" and not v.stop_gradient:
                raise ArrayGradientError(
                    f"to_static: the function returns a list built in a loop whose "
                    f"condition is a Tensor ({v.name}), and its items need gradients; return "
                    f"paddle.stack(items) or paddle.concat(items) instead")
        self.n_returned = len(self.out_vars)
        # ... and the final values of the inputs changed in place (WrittenInput)
        written = [WrittenInput(k, var) for k, var in written]
        self.stores, extra = _store_positions([*stores, *written], self.feed_names,
                                              [v.name for v in self.out_vars])
        self.out_vars += extra
        self.out_names = [v.name for v in self.out_vars]
        self.state = state
        self.names = self.feed_names + [n for n, _ in state]
        self.state_tensors = [t for _, t in state]
        self.state_by_name = dict(state)
        self.strategy = build_strategy
        self._compiled = {}
        self._inference = None  # the _InferenceRun of calls that record nothing, once made
        # fixed once traced: whether any output (all outputs) can carry a gradient, and
        # whether the result is one bare Variable (no structure to rebuild per call)
        self.differentiable = any(not v.stop_gradient for v in self.out_vars)
        self.all_differentiable = all(not v.stop_gradient for v in self.out_vars)
        self.single_output = isinstance(outputs, Variable) and outputs.kind == "dense"
        # outputs the program marks differentiable (to_tensor(..., stop_gradient=False)):
        # they say so even in a call that records no backward, as eagerly
        self.marked_outputs = [k for k, v in enumerate(self.out_vars) if not v.stop_gradient]

    @property
    def training(self):
        """True when traced in training mode."""
        return self._training

    @property
    def train_program(self):
        """The training-mode Program: `program` (its backward is compiled from it)."""
        if not self._training:
            raise RuntimeError("this program was traced in eval mode; its training-mode "
                               "program is another cache entry: call the layer's train() "
                               "(or the function's) and run it")
        return self.program

    @property
    def infer_program(self):
        """The inference-mode Program: `program` when traced in eval mode, else a copy of
        it with every op's `is_test` set (made once)."""
        if not self._training:
            return self.program
        if self._test_copy is None:
            self._test_copy = self.program.clone(for_test=True)
        return self._test_copy

    def _compile(self, sources):
        """(cached) plans for these source value numbers (empty: inference, no backward)."""
        compiled = self._compiled.get(sources)
        if compiled is None:
            compiled = self._compiled[sources] = self._build(sources)
        return compiled

    @gc_paused
    def _build(self, sources):
        """Compile the forward plan, plus the backward plan and what it needs when training."""
        outs = [v.name for v in self.out_vars]
        if not sources:
            return _Compiled(self.names, sources,
                             compile_plan(self.program, self.feed_names, outs, self.strategy))
        grad_program, seeds, grads = self._backward_program([self.names[k] for k in sources])
        fetch = [n for n in grads if n is not None]
        backward = compile_plan(grad_program, seeds, fetch, self.strategy)
        given = set(self.names)
        saved = [n for n, *_ in backward.externals if n not in given]
        forward = compile_plan(self.program, self.feed_names, outs + saved, self.strategy)
        return _Compiled(self.names, sources, forward, backward, saved, seeds,
                         [n is not None for n in grads])

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
        block.remove_ops(0, start)
        return train, [s.name for s in seeds], [g.name if g is not None else None
                                                for g in grads]

    def __call__(self, inputs):
        """Run forward on eager `inputs` (Tensors, feed order); outputs are eager Tensors."""
        outs = self.run_flat(inputs)
        if self.single_output:
            return outs[0]
        arrays = {v.name: t for v, t in zip(self.out_vars, outs)}
        return map_tensors(lambda v: returned(v, arrays) if isinstance(v, Variable) else v,
                           self.outputs)

    def run_flat(self, inputs):
        """Run forward on eager `inputs`; the returned output Tensors as a list (`out_vars`
        order), after setting the stored attributes to theirs."""
        if not (self.differentiable and STATE.enabled):
            # nothing records: the inference plan, no per-tensor flags read
            inference = self._inference
            if inference is None:
                inference = self._inference = self._prepare_inference()
            if inference:
                return inference.run(inputs)
            sources = ()
        else:
            sources = self._sources([*inputs, *self.state_tensors])
        compiled = self._compiled.get(sources) or self._compile(sources)
        values = [*map(_DATA, inputs), *map(_DATA, self.state_tensors)]
        forward = compiled.forward
        regs = forward.template[:]
        for slot, k in compiled.fwd_reads:
            regs[slot] = values[k]
        fetched = _run(forward, regs)
        for name, slot in forward.writeback:
            self.state_by_name[name]._set_data(regs[slot])
        n_out = len(self.out_vars)
        outs = _named_outputs(fetched[:n_out], self.out_names)
        if compiled.backward is not None:
            values += fetched[n_out:]
            self._record(compiled, [*inputs, *self.state_tensors], outs, values)
        elif self.marked_outputs and STATE.enabled:
            for k in self.marked_outputs:
                outs[k].stop_gradient = False
        if self.stores:
            given = [*inputs, *outs]
            for store, at in self.stores:
                if store.__class__ is WrittenInput:
                    write_back(inputs[store.index], given[at])
                else:
                    store.store(given[at])
            del outs[self.n_returned:]
        return outs

    def _prepare_inference(self):
        """The _InferenceRun of calls recording nothing; False when such a call writes state
        (batch_norm's running statistics in train mode) or sets stored attributes."""
        compiled = self._compile(())
        if compiled.forward.writeback or self.stores:
            return False
        return _InferenceRun(compiled, len(self.feed_names), self.state_tensors,
                             self.out_names)

    def _sources(self, tensors):
        """Value numbers of the tensors needing gradients in this call (empty when nothing
        records)."""
        if not (self.differentiable and STATE.enabled):
            return ()
        return tuple(itertools.compress(itertools.count(),
                                        map(operator.not_, map(_STOP_GRADIENT, tensors))))

    def _record(self, compiled, tensors, outs, values):
        """Link differentiable outputs to a RunProgramNode keeping the backward's inputs."""
        diff_outs = outs if self.all_differentiable else [
            t for t, v in zip(outs, self.out_vars) if not v.stop_gradient]
        node = RunProgramNode()
        node.compiled = compiled
        node.saved = compiled.saved_values(values)
        node.edges = list(map(edge_of, compiled.source_tensors(tensors)))
        node.out_meta = [(t._data.shape, t._data.dtype) for t in diff_outs]
        node.hooks = None
        node.link_outputs(diff_outs)

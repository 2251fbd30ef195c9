"""The segment builder: during a full_graph=False trace it cuts the Program where Python
needs a value, runs the piece built so far, and hands Python the real value."""
import contextlib
import sys

from ...core import unique_name
from ...core.dispatch import mode_guard
from ...core.random import get_rng_state, set_rng_state
from ...eager.grad_mode import set_grad_enabled
from ...eager.mode import EAGER
from ...static.framework import reading_values
from ...static.mode import user_origin
from .. import log
from ..pyct import origin
from ..partial_program import map_tensors
from . import breaks
from .breaks import OPERATIONS, BreakInBlock, GraphBreak, GraphBreakError
from .effects import EffectAudit
from .segment import Segment
from .tree import Cut, EagerCall, End, Values

__all__ = ["SegmentBuilder", "written_inputs"]


def _user_site():
    """(file, line, function, source) of the user code asking for a value; lines of
    converted code are mapped back to the user's file."""
    found = user_origin()
    if found is None:
        return None
    mapped = origin.lookup(found[0], found[1])
    if mapped is None:
        return found
    return mapped.filename, mapped.lineno, mapped.function_name, mapped.source_line


def written_inputs(block, input_names, final_names):
    """(input name, name of its final value) of the inputs an in-place op changed in the
    trace of `block` (`final_names`: the names their Variable objects ended with)."""
    return [(name, final) for name, final in zip(input_names, final_names)
            if not _carried(block, final, name)]


def _carried(block, name, source):
    """True when Variable `name` is `source` itself, or `source` passed unchanged through
    cond ops (a Tensor if that might change an object in place renames it)."""
    producers = {out: op for op in block.ops for out in op.output_arg_names}
    while name != source:
        op = producers.get(name)
        if op is None or op.type != "cond":
            return False
        k = op.output("Out").index(name)
        name = op.attr("true_outs")[k]
        if name != op.attr("false_outs")[k]:
            return False
    return True


class SegmentBuilder:
    """Cuts one trace into segments. `live`, the call's input tensors (in the order of the
    trace's data Variables), lets a cut run the pieces before it; without them (a trace from InputSpecs, jit.save) a
    cut raises GraphBreakError naming the break."""

    def __init__(self, fn_name, live, training, grad_enabled, strategy):
        self.fn_name, self.live, self.training = fn_name, live, training
        self.grad_enabled, self.strategy = grad_enabled, strategy
        self.resume_point = None  # () -> where the function could go on as Python, or None
        self.rng = get_rng_state()
        self.overwritten = {}  # id -> (state tensor, its data before a segment wrote it)
        self.steps, self.start = [], 0
        self.program = self.values = None
        self.audit = EffectAudit()

    @contextlib.contextmanager
    def tracing(self, program, state, input_names, data_vars):
        """Inside: Python reading a Variable's value cuts `program` here (with names that
        repeat from one trace to the next, so traces of the same path line up).
        `input_names` and `data_vars` (the data Variables, which an in-place op on an input
        renames) are filled as the trace makes its inputs."""
        self.program, self.state, self.input_names = program, state, input_names
        self.data_vars = data_vars
        previous = breaks.set_active(self)
        audited = self.audit.installed() if self.live is not None else contextlib.nullcontext()
        try:
            with unique_name.guard(), reading_values(self.cut), audited:
                yield self
        finally:
            breaks.set_active(previous)

    def cut(self, var, kind, args=(), reason=None):
        """The one graph-break mechanism: the value Python asks of `var` (`kind` as in
        `reading_values`), after running the ops recorded since the previous cut."""
        where = GraphBreak(_user_site(), self._with_kept_reason(reason or OPERATIONS[kind]))
        if self.program._current != 0 or self.live is None:
            self.cut_refused(where)
        self._flush()
        resume = self.resume_point() if self.resume_point is not None else None
        cut = Cut(var.name, kind, args, where, resume)
        value = cut.read(self.values[var.name])
        cut.traced_key = cut.key(self.values)
        self.steps.append(cut)
        log.event(1, f"to_static: graph break in {self.fn_name} at {where}")
        return value

    def cut_refused(self, where):
        """Raise for a break where no segment can end: inside a sub-block (BreakInBlock,
        caught by the construct that opened it) or with no values (GraphBreakError)."""
        if self.program._current != 0:
            raise BreakInBlock(where)
        raise GraphBreakError(
                f"to_static function {self.fn_name!r} breaks the graph at {where}; one "
                f"Program is needed here (jit.save, or a trace from InputSpecs): move the "
                f"read out of the function, or run it under to_static(full_graph=True) to see "
                f"which construct fails")

    def call_eagerly(self, fn, args, kwargs, reason):
        """`fn(*args, **kwargs)` run eagerly on the values of its Variable arguments (a call
        that cannot be one op, such as a PyLayer whose forward breaks the graph); its Tensor
        results continue the trace as new Variables."""
        where = GraphBreak(_user_site(), reason)
        if self.program._current != 0 or self.live is None:
            self.cut_refused(where)
        self._flush()
        block = self.program.global_block()
        step = EagerCall(fn, args, kwargs, [], where)
        # runs again at every walk, so its Python effects are not skipped: not audited
        with mode_guard(EAGER), reading_values(None), set_grad_enabled(self.grad_enabled), \
                self.audit.paused():
            previous = breaks.set_active(None)
            try:
                result = step.run(self.values)
            finally:
                breaks.set_active(previous)

        def as_variable(tensor):
            var = block.create_var(unique_name.generate("eager_call.tmp"), tensor.shape,
                                   tensor.dtype, stop_gradient=tensor.stop_gradient)
            step.outputs.append(var.name)
            self.values[var.name] = tensor
            return var
        outputs = map_tensors(as_variable, result)
        self.steps.append(step)
        log.event(1, f"to_static: graph break in {self.fn_name} at {where}")
        return outputs

    @staticmethod
    def _with_kept_reason(operation):
        """`operation`, plus why its function runs unconverted when it does."""
        frame = sys._getframe(2)
        while frame is not None:
            reason = breaks.kept_reason(frame.f_code)
            if reason is not None:
                return f"{operation}, in {frame.f_code.co_name}, which runs as Python: {reason}"
            frame = frame.f_back
        return operation

    def _flush(self):
        """Run the ops recorded since the previous cut as one segment."""
        if self.values is None:
            self.values = Values(dict(zip(self.input_names, self.live)), self.state)
        stop = len(self.program.global_block().ops)
        if stop == self.start:
            return
        with self.audit.paused(), set_grad_enabled(self.grad_enabled):
            segment = Segment(self.program, self.start, stop, self.state, self.training,
                              self.strategy)
            for tensor in segment.writes:
                self.overwritten.setdefault(id(tensor), (tensor, tensor._data))
            segment.run(self.values)
        self.steps.append(segment)
        self.start = stop

    def undo(self):
        """Put back what the segments run so far changed (state tensors, the random
        generator), so the call can run eagerly from the start; False when the trace's
        Python changed objects outside it (running it again would repeat that)."""
        if self.audit.effects or self.audit.changed_outside or self.audit.pending:
            return False
        for tensor, data in self.overwritten.values():
            tensor._set_data(data)
        set_rng_state(self.rng)
        return True

    @property
    def broke(self):
        """True once the trace has been cut at least once."""
        return any(isinstance(step, (Cut, EagerCall)) for step in self.steps)

    @property
    def eager_reason(self):
        """Why calls of this trace's signature run eagerly (its Python has effects a walk
        of segments would skip), or None."""
        if self.audit.effects:
            return f"its Python has effects a cached call would skip: {self.audit.effects[0]}"
        return None

    def returned(self, outputs, refreshed):
        """The traced function returned `outputs`: judge the writes its Python made
        (`refreshed`: the objects whose Tensor attributes each run sets, stored_tensors)."""
        if self.live is not None:
            with self.audit.paused():
                self.audit.settle(outputs, refreshed)

    def finish(self, outputs):
        """The call's eager outputs after the last segment ran, and the path traced
        (segments and cuts, ending in End(outputs)); None when the trace never broke,
        changed no input in place and had no Python effects (then it is one Program)."""
        written = written_inputs(self.program.global_block(), self.input_names,
                                 [var.name for var in self.data_vars])
        if not written and not self.broke and not self.audit.effects:
            return None
        self._flush()
        end = End(outputs, written)
        self.steps.append(end)
        return end.finish(self.values), self.steps

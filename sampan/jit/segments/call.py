"""Calls of a full_graph=False StaticFunction: one Program when the trace never breaks, else
a tree of segments walked by guard values, traced again where the walk leaves the tree; a
signature whose Python a walk cannot stand for runs eagerly."""
import inspect
import linecache
import sys
import warnings

from ...core.random import get_rng_state, set_rng_state
from ...static.mode import is_sampan_file
from .. import log
from ..cache import with_specs
from ..partial_program import ArrayGradientError
from ..pyct.source import SourceUnavailableError
from ..stored_tensors import replace_variables, store_values, write_back_arguments
from .breaks import GraphBreak, GraphBreakError
from .resume import resume_point
from .segment import Segment
from .tree import (Cut, EagerCall, Miss, MissingValue, Values, merge, path_to_tree,
                   resume_at, walk)

__all__ = ["SegmentedCalls", "CallStats", "SegmentTree"]


# distinct values one cut may take before its signature stops guarding on it and runs eagerly
MAX_VALUES_PER_CUT = 3


class CallStats:
    """What one call did: `segments` run (1: one Program), whether it `traced`, `eager`:
    None, or why the call ran the Python function eagerly instead of compiled segments, and
    `resumed`: None, or the break after which the rest of the function ran as Python."""

    __slots__ = ("segments", "traced", "eager", "resumed")

    def __init__(self, segments, traced, eager=None, resumed=None):
        self.segments, self.traced, self.eager, self.resumed = segments, traced, eager, resumed

    def __repr__(self):
        eager = f", eager={self.eager!r}" if self.eager is not None else ""
        resumed = f", resumed={str(self.resumed)!r}" if self.resumed is not None else ""
        return f"CallStats(segments={self.segments}, traced={self.traced}{eager}{resumed})"


_ONE_PROGRAM = CallStats(1, False)


def _user_stacklevel():
    """The warnings stacklevel, seen from its caller, of the innermost frame outside sampan."""
    frame, level = sys._getframe(2), 2
    while frame is not None and is_sampan_file(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level


def _generator_break(fn):
    """The break of a generator function, which runs eagerly (its body runs as it is
    iterated, after the call returned), or None for other functions."""
    if not (inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn)):
        return None
    code = fn.__code__
    line = code.co_firstlineno
    site = code.co_filename, line, code.co_name, linecache.getline(code.co_filename, line)
    return GraphBreak(site, "a generator function: its body runs while the generator is "
                            "iterated, after the call returned, so it runs eagerly")


def _resume_probe(fn, args, kwargs):
    """() -> where a trace of StaticFunction `fn` on these arguments could go on as Python
    at the value read being made (a ResumePoint), or None."""
    converted = fn.converted_callable()
    code = getattr(converted, "__func__", converted).__code__
    instance, arguments = fn._instance, [*args, *kwargs.values()]
    return lambda: resume_point(fn._fn, code, instance, arguments)


class SegmentTree:
    """The segments of one input signature: the tree, the names of the call inputs, the
    state tensors the segments read, and those they write back (BatchNorm statistics)."""

    def __init__(self, root, input_names, state):
        self.root, self.input_names, self.state = root, input_names, state
        segments = _segments(root)
        found = {id(t): t for segment in segments for t in segment.writes}
        self.writes = list(found.values())
        self.random = any(segment.random for segment in segments)


def _segments(root):
    """Every segment of the tree."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        if node.segment is not None:
            found.append(node.segment)
    return found


class SegmentedCalls:
    """The full_graph=False side of one StaticFunction: its trees and the last call's stats."""

    def __init__(self, function, tensor_leaves):
        self.function, self.tensor_leaves = function, tensor_leaves
        self.trees = {}
        self.eager = {}  # key -> (why its calls run eagerly, the breaks its trace found)
        self.last_call, self.last_breaks = None, []
        self.generator = _generator_break(function._fn)

    def __len__(self):
        """Input signatures traced: trees, and signatures that run eagerly."""
        return len(self.trees) + len(self.eager)

    def call(self, args, kwargs):
        """Run one call: a cached Program or tree when its guards hold, else trace."""
        if self.generator is not None:
            return self._run_eagerly((self.generator.operation, [self.generator]), args,
                                     kwargs)
        fn = self.function
        traced_args = with_specs(args, fn._input_spec, fn._arg_names) \
            if fn._input_spec is not None else args
        key = fn._key(traced_args, kwargs)
        tensors = self.tensor_leaves(args, kwargs)
        program = fn._cache.get(key)
        if program is not None:
            self.last_call, self.last_breaks = _ONE_PROGRAM, []
            return program.partial_program(tensors)
        eager = self.eager.get(key)
        if eager is not None:
            return self._run_eagerly(eager, args, kwargs)
        tree = self.trees.get(key)
        reason = None
        if tree is not None:
            # what the segments before a miss change, put back before tracing again
            saved = [(t, t._data) for t in tree.writes] if tree.writes else ()
            rng = get_rng_state() if tree.random else None
            result = walk(tree.root, Values(zip(tree.input_names, tensors), tree.state))
            if result.__class__ is not Miss:
                return self._walked(result)
            for tensor, data in saved:
                tensor._set_data(data)
            if rng is not None:
                set_rng_state(rng)
            if result.seen >= MAX_VALUES_PER_CUT:
                if self._resume(tree, result.node):
                    return self._walked(walk(tree.root, Values(zip(tree.input_names, tensors),
                                                               tree.state)))
                return self._run_eagerly(self._unstable(key, result.cut), args, kwargs)
            reason = (f"the value read at {result.cut.where} was "
                      f"{result.cut.describe(result.key)}, a branch not traced yet")
        return self._trace(key, traced_args, kwargs, tensors, tree, reason)

    def _walked(self, result):
        """The outputs of a walk of segments, its stats noted."""
        outputs, segments, self.last_breaks, resumed = result
        self.last_call = CallStats(segments, False, resumed=resumed)
        return outputs

    def _resume(self, tree, node):
        """Make the walks of `tree` go on as Python after `node`'s cut, whose value keeps
        changing; False when the cut has no ResumePoint or its tail cannot be made."""
        cut = node.cut
        if cut.__class__ is not Cut or cut.resume is None:
            return False
        try:
            cut.resume.tail()
        except (SourceUnavailableError, SyntaxError):
            return False
        tree.root = resume_at(tree.root, node)
        log.event(1, f"to_static: {self.function._fn.__qualname__} goes on as Python after "
                     f"{cut.where}: its value keeps changing")
        return True

    def _unstable(self, key, cut):
        """Make calls of `key` run eagerly: the value read at `cut` keeps changing, and each
        new value would trace and compile again."""
        fn = self.function._fn.__qualname__
        reason = (f"the value read at {cut.where} took more than {MAX_VALUES_PER_CUT} "
                  f"values, each a new trace")
        warnings.warn(f"to_static function {fn!r} runs eagerly from now on for this input "
                      f"signature: {reason}. Return such a value as a Tensor and read it "
                      f"outside the function to keep the compiled segments",
                      stacklevel=_user_stacklevel())
        del self.trees[key]
        self.eager[key] = reason, [cut.where]
        return self.eager[key]

    def _run_eagerly(self, eager, args, kwargs):
        """Call the Python function itself: its effects, values and gradients are eager's."""
        reason, self.last_breaks = eager
        self.last_call = CallStats(0, False, reason)
        return self.function.dygraph_function(*args, **kwargs)

    def _trace(self, key, args, kwargs, tensors, tree, reason):
        """Trace the function on this call's values, cutting where Python reads one."""
        fn = self.function
        log.event(1, f"to_static: tracing {fn._fn.__qualname__} (full_graph=False)")
        builder = fn._segment_builder(tensors)
        builder.resume_point = _resume_probe(fn, args, kwargs)
        try:
            traced = fn._trace(args, kwargs, builder, reason)
            done = builder.finish(traced[3])
            if done is None:  # no break, no effect: the one Program full_graph=True builds
                program = fn._concrete_of(traced)
                fn._cache.add(key, program)
                self.last_call, self.last_breaks = CallStats(1, True), []
                return program.partial_program(tensors)
        except (MissingValue, ArrayGradientError) as exc:
            # tensor arrays needing gradients: no Program or segment can hand them over
            if not builder.undo():
                raise
            self.eager[key] = str(exc).split("\n")[0], []
            return self._run_eagerly(self.eager[key], args, kwargs)
        outputs, steps = done
        replace_variables(builder.audit.changed_outside, builder.values)
        write_back_arguments((args, kwargs), traced[5], builder.audit.changed_outside, builder.values)
        store_values(fn._instance, builder.values, fn._fn.__qualname__)
        fn._cache.forget_last()
        self.last_breaks = [step.where for step in steps if isinstance(step, (Cut, EagerCall))]
        segments = sum(isinstance(step, Segment) for step in steps)
        reason = builder.eager_reason
        if reason is not None:  # a walk would skip effects: its Python runs every call
            log.event(1, f"to_static: {fn._fn.__qualname__} runs eagerly: {reason}")
            self.trees.pop(key, None)
            self.eager[key] = reason, self.last_breaks
            self.last_call = CallStats(segments, True, reason)
            return outputs
        root = merge(tree.root if tree is not None else None, path_to_tree(steps))
        self.trees[key] = SegmentTree(root, traced[2], traced[4])
        self.last_call = CallStats(segments, True)
        return outputs

    def no_program(self):
        """Raise for the last call, which ran no Program: GraphBreakError naming its first
        break, or a ValueError when its path only wrote inputs back (then an input_spec
        builds the one Program)."""
        name = self.function._fn.__qualname__
        if self.last_breaks:
            raise GraphBreakError(f"to_static function {name!r} breaks the graph at "
                                  f"{self.last_breaks[0]}; an inference Program needs one "
                                  f"graph")
        raise ValueError(f"to_static function {name!r} changes an input Tensor in place, so "
                         f"its calls run as a path that writes it back, not as one Program; "
                         f"give input_spec to build the Program")

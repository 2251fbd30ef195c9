"""The conversion report: what each trace of a to_static function made of every construct of
the user's source (file:line), why, and why each trace happened.

The runtime operators note a decision at the moment they make it into the trace running on
their thread (`recording`); with none running the note is one thread-local read, and calls
that run compiled Programs never reach the operators. StaticFunction keeps a `TraceLog`
(which also warns when a function is traced too often); `report()` and `jit.explain` turn it
into a `ConversionReport`."""
import contextlib
import linecache
import sys
import threading
import warnings

from ..eager.tensor import Tensor
from ..static.framework import Variable
from ..static.mode import is_sampan_file, user_origin
from .cache import describe_arguments, key_changes
from .pyct import origin

__all__ = ["ConversionReport", "Entry", "Trace", "TraceLog", "MAX_TRACES", "recording"]

MAX_TRACES = 5  # more traces than this warn, naming what caused the last one
KEPT_TRACES = 32  # a log keeps the first trace and the most recent ones


class Entry:
    """One construct of the user's source and what a trace made of it.

    `construct`: if, if expression, while, for, list, PyLayer, function, graph break.
    `became`: cond op, Python if (true branch), while op, unrolled loop (3 iterations),
    tensor array, static_pylayer op, kept Python, segment cut, ... `reason`: why (which
    value was a Tensor). `traces`: the numbers of the traces that decided so."""

    __slots__ = ("filename", "lineno", "function", "source", "construct", "became", "reason",
                 "traces")

    def __init__(self, site, construct, became, reason, traces):
        self.filename, self.lineno, self.function, self.source = site
        self.construct, self.became, self.reason = construct, became, reason
        self.traces = traces

    @property
    def where(self):
        """`file:line` of the construct."""
        return f"{self.filename}:{self.lineno}"

    def __repr__(self):
        return f"Entry({self.where}, {self.construct} -> {self.became})"


class Trace:
    """One trace: its number, why it happened (`cause`), the arguments it was made for, the
    decisions noted while it ran and its graph breaks (GraphBreak, in order). The cause and
    arguments are put in words when read, from the cache keys."""

    __slots__ = ("number", "notes", "breaks", "_key", "_previous", "_guard", "_names")

    def __init__(self, number, key, previous, guard, arg_names):
        self.number, self._key, self._previous = number, key, previous
        self._guard, self._names = guard, arg_names
        self.notes, self.breaks = [], []

    @property
    def cause(self):
        """Why this trace happened: "first call", what differs in the cache key from the
        previous trace's, or the graph-break guard that failed."""
        if self._guard is not None:
            return f"graph-break guard failed: {self._guard}"
        if self._previous is None:
            return "first call"
        return "; ".join(key_changes(self._previous, self._key, self._names)) or \
            "no program cached for these arguments"

    @property
    def arguments(self):
        """The arguments (and train/eval mode) the trace was made for."""
        return describe_arguments(self._key, self._names)

    @property
    def entries(self):
        """The decisions of this trace, one Entry per distinct decision, in source order."""
        return _merged([self])

    def __repr__(self):
        return f"Trace(#{self.number}: {self.cause})"


def _merged(traces):
    """The distinct decisions of `traces` as Entries (each naming the traces that made it),
    grouped by file in order of first appearance, then by line."""
    found, sites = {}, {}
    for trace in traces:
        for raw in dict.fromkeys(trace.notes):
            numbers = found.setdefault(_resolved(raw, sites), [])
            if trace.number not in numbers:
                numbers.append(trace.number)
    files = {}
    for site, *_ in found:
        files.setdefault(site[0], len(files))
    order = sorted(found, key=lambda note: (files[note[0][0]], note[0][1]))
    return [Entry(*note, tuple(found[note])) for note in order]


def _resolved(note, sites):
    """A note as (site, construct, became, reason): notes are kept as the operators made
    them (cheap), with the code object of a converted helper function for its site and,
    for a loop, the construct LOOP and the reasons (if a for, if a while)."""
    where, construct, became, reason = note
    if not isinstance(where, tuple):
        site = sites.get(where)
        if site is None:
            site = sites[where] = _site_of(where)
        where = site
    if construct is LOOP:
        construct = _loop_kind(where)
        reason = reason[construct == "while"]
    return where, construct, became, reason


class ConversionReport:
    """What the traces of one to_static function did: `entries` (every construct and what it
    became, with file:line and the reason), `traces` (all kept, the first included),
    `retraces` (every trace after the first: `cause` says what changed, `arguments` what
    the trace was made for), `breaks` (the graph breaks, full_graph=False). `str()` is a
    readable table."""

    def __init__(self, function, traces, total):
        self.function, self.traces, self.total = function, traces, total

    @property
    def entries(self):
        """Every distinct decision of the kept traces, in source order."""
        return _merged(self.traces)

    @property
    def retraces(self):
        """The traces after the first, each with its cause."""
        return [trace for trace in self.traces if trace.number > 1]

    @property
    def breaks(self):
        """The graph-break entries (one per distinct break site)."""
        return [entry for entry in self.entries if entry.construct == "graph break"]

    def __repr__(self):
        return f"ConversionReport({self.function}: {self.total} trace(s))"

    def __str__(self):
        if not self.traces:
            return f"to_static report of {self.function}: not traced yet (call it first)"
        lines = [f"to_static report of {self.function}: {self.total} trace(s)", ""]
        lines += _table(["where", "code", "construct", "became", "why"] +
                        (["traces"] if self.total > 1 else []),
                        [_row(entry, self.total) for entry in self.entries])
        lines += ["", "traces:"]
        if self.total > len(self.traces):
            lines.append(f"  ({self.total - len(self.traces)} trace(s) not kept)")
        lines += [f"  #{t.number}  {t.cause}\n       {t.arguments}" for t in self.traces]
        return "\n".join(lines)


def _row(entry, total):
    """The table cells of one entry."""
    name = entry.filename.replace("\\", "/").rsplit("/", 1)[-1]
    code = entry.source.strip()
    cells = [f"{name}:{entry.lineno}", code if len(code) <= 32 else code[:29] + "...",
             entry.construct, entry.became, entry.reason]
    if total > 1:
        cells.append("all" if len(entry.traces) == total else
                     ",".join(f"#{n}" for n in entry.traces))
    return cells


def _table(header, rows):
    """Text lines of a table whose columns are as wide as their widest cell (the last
    column unpadded)."""
    widths = [max(len(row[k]) for row in [header] + rows) for k in range(len(header) - 1)]
    return ["  ".join([c.ljust(w) for c, w in zip(row, widths)] + [row[-1]]).rstrip()
            for row in [header] + rows]


class TraceLog:
    """The traces of one StaticFunction (the first and the last KEPT_TRACES - 1); past
    MAX_TRACES each new one warns, naming its cause."""

    def __init__(self, fn_name, arg_names):
        self.fn_name, self.arg_names = fn_name, arg_names
        self.traces, self.total, self._last_key = [], 0, None

    def begin(self, key, guard=None):
        """A new Trace for cache key `key`; `guard` names the failed graph-break guard that
        caused it, if one did."""
        self.total += 1
        trace = Trace(self.total, key, self._last_key, guard, self.arg_names)
        self.traces.append(trace)
        if len(self.traces) > KEPT_TRACES:
            del self.traces[1]
        self._last_key = key
        if self.total > MAX_TRACES:
            advice = ("Return such values as Tensors instead of reading them" if guard else
                      "Pass Python values that change as Tensors, or give an input_spec with "
                      "None dims")
            warnings.warn(f"to_static function {self.fn_name!r} was traced {self.total} times "
                          f"(more than {MAX_TRACES}); this trace was caused by {trace.cause}. "
                          f"{advice}", stacklevel=_user_level())
        return trace

    def report(self):
        """The ConversionReport of the traces so far."""
        return ConversionReport(self.fn_name, list(self.traces), self.total)


def _user_level():
    """The `stacklevel` of a warning raised here that points at the user's call."""
    frame, level = sys._getframe(2), 2
    while frame is not None and is_sampan_file(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level


class _Active(threading.local):
    """Per thread: the Trace being recorded (None: nothing is)."""

    trace = None


_ACTIVE = _Active()


@contextlib.contextmanager
def recording(trace, builder=None):
    """Inside: the operators note their decisions into `trace`; at the end the graph
    breaks of `builder` (a SegmentBuilder, full_graph=False) become its breaks."""
    previous, _ACTIVE.trace = _ACTIVE.trace, trace
    try:
        yield trace
    finally:
        _ACTIVE.trace = previous
        if builder is not None:
            _note_breaks(trace, builder)


def _note_breaks(trace, builder):
    """The cuts and eager calls of a traced path, as breaks and entries of `trace`; the
    Python effects that make its signature run eagerly, as entries."""
    from .segments.tree import Cut, EagerCall
    if builder.eager_reason is not None:
        for effect in builder.audit.effects:
            trace.notes.append(((effect.filename, effect.lineno, effect.function,
                                 effect.source), "Python effect",
                                "the signature runs eagerly (a cached call would skip it)",
                                effect.operation))
    for step in builder.steps:
        if isinstance(step, (Cut, EagerCall)):
            where = step.where
            trace.breaks.append(where)
            became = ("segment cut: the value goes to Python" if isinstance(step, Cut) else
                      "eager call between segments")
            trace.notes.append(((where.filename, where.lineno, where.function, where.source),
                                "graph break", became, where.operation))


# --- what the runtime operators note (each returns at once when no trace records) ---
# A note is (site, construct, became, reason), as cheap as can be: the site may be the code
# object of a converted helper function (resolved to the user's line when a report is made)

LOOP = "loop"  # the construct of a loop note: for or while, told by its source line
_BRANCHES = {True: "Python if (true branch)", False: "Python if (false branch)"}
_BOOL_TESTS = {True: "the test is a Python bool (True)", False: "the test is a Python bool (False)"}


def mark():
    """A point in the running trace's notes to roll back to (None when none records)."""
    trace = _ACTIVE.trace
    return None if trace is None else len(trace.notes)


def rollback(point):
    """Forget the notes made since `point`: the construct that made them was abandoned (a
    graph break inside a sub-block makes the enclosing if/loop Python, which runs again)."""
    trace = _ACTIVE.trace
    if trace is not None and point is not None:
        del trace.notes[point:]


def _site_of(code):
    """(file, line, function, source) of the user code a converted helper function (its
    code object) came from."""
    info = origin.lookup(code.co_filename, code.co_firstlineno)
    if info is None:
        return code.co_filename, code.co_firstlineno, code.co_name, ""
    return info.filename, info.lineno, info.function_name, info.source_line


def _describe(value):
    """A test value as the reason names it."""
    if isinstance(value, Variable):
        return f"a Tensor ({value.dtype.name}, shape {list(value.shape)})"
    if isinstance(value, Tensor):
        return f"a Tensor whose value is known while building (shape {value.shape})"
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"a Python {type(value).__name__} ({text})"


def _loop_kind(site):
    """'for' or 'while': the statement a converted loop came from (a for loop is converted
    into an index-driven while; its origin is the `for` line, which starts with `for`)."""
    first = site[3].split(None, 1)[:1]
    return "for" if first in (["for"], ["async"]) else "while"


def python_if(fn, test, taken, construct="if"):
    """An if (or `a if c else b`) on a Python value: only the branch taken was traced."""
    trace = _ACTIVE.trace
    if trace is not None:
        trace.notes.append((fn.__code__, construct, _BRANCHES[taken],
                            _BOOL_TESTS[test] if test.__class__ is bool else
                            f"the test is {_describe(test)}"))


def cond(fn, test, construct="if"):
    """An if on a Tensor: both branches became one cond op."""
    trace = _ACTIVE.trace
    if trace is not None:
        trace.notes.append((fn.__code__, construct, "cond op", f"the test is {_describe(test)}"))


def python_after_break(fn, why, construct=None):
    """An if/while on a Tensor that runs as Python under full_graph=False, its test read at
    a break: its body reads a value (`why` a GraphBreak inside a sub-block) or changes an
    object in a way no op can carry (`why` the converter's error). `construct` None: a loop."""
    trace = _ACTIVE.trace
    if trace is not None:
        reason = (f"its body reads a value: {why.operation} at line {why.lineno}"
                  if hasattr(why, "operation") else f"no op can express it: {str(why)[:200]}")
        if construct is None:
            trace.notes.append((fn.__code__, LOOP, "Python loop (test read at a graph break)",
                                (reason, reason)))
        else:
            trace.notes.append((fn.__code__, construct,
                                f"Python {construct} (test read at a graph break)", reason))


def unrolled(cond_fn, iterations):
    """A loop whose test was a Python value every time: its body was traced `iterations`
    times, one after the other."""
    trace = _ACTIVE.trace
    if trace is not None:
        trace.notes.append((cond_fn.__code__, LOOP, f"unrolled loop ({iterations} iterations)",
                            _UNROLLED))


_UNROLLED = ("its length is known while building",
             "the test is a Python value at every iteration")


def tensor_loop(cond_fn, test, unrolled):
    """A loop whose test is a Tensor: one while op, after `unrolled` iterations run as
    Python (a test that became a Tensor in the body, like a break flag)."""
    trace = _ACTIVE.trace
    if trace is not None:
        after = (f"; its first {unrolled} iteration(s) ran as Python, unrolled" if unrolled
                 else "")
        trace.notes.append((cond_fn.__code__, LOOP, "while op", (
            f"the test is {_describe(test)}: the length is a Tensor, or a break/return is "
            f"under an if on a Tensor{after}", f"the test is {_describe(test)}{after}")))


def tensor_array(cond_fn, name):
    """A list appended to in a Tensor loop: a tensor array carried by the while op."""
    trace = _ACTIVE.trace
    if trace is not None:
        trace.notes.append((cond_fn.__code__, "list", "tensor array",
                            f"list {name!r} is appended to in a loop whose test is a Tensor"))


def pylayer(cls, became, reason):
    """A PyLayer's apply run eagerly (`became` says when; `reason` why)."""
    trace = _ACTIVE.trace
    if trace is not None:
        trace.notes.append((user_origin() or ("?", 0, "?", ""), "PyLayer", became,
                            f"{cls.__name__}: {reason}"))


def pylayer_op(cls, args, kwargs):
    """A PyLayer's apply that became one static_pylayer op, on the Tensors `args` and
    `kwargs` hold (the report names those arguments)."""
    trace = _ACTIVE.trace
    if trace is not None:
        from ..static.control_flow.nest import flatten
        code = cls.forward.__code__
        names = code.co_varnames[1:code.co_argcount]
        named = [names[k] if k < len(names) else f"#{k}" for k, arg in enumerate(args)
                 if any(isinstance(v, Variable) for v in flatten(arg))]
        named += [key for key, arg in kwargs.items()
                  if any(isinstance(v, Variable) for v in flatten(arg))]
        trace.notes.append((user_origin() or ("?", 0, "?", ""), "PyLayer", "static_pylayer op",
                            f"{cls.__name__}: Tensor argument(s) {', '.join(named)}"))


def kept_python(fn, reason):
    """A function called from converted code that runs unconverted (no source, a
    generator, a construct the converters refuse under full_graph=False)."""
    trace = _ACTIVE.trace
    code = getattr(fn, "__code__", None)
    if trace is not None and code is not None:
        source = linecache.getline(code.co_filename, code.co_firstlineno).strip()
        trace.notes.append(((code.co_filename, code.co_firstlineno, fn.__qualname__, source),
                            "function", "kept Python", reason))

"""Where and why a to_static graph breaks, and the exceptions of a break that cannot be made.

A leaf module: the runtime operators read it, the segment builder fills it."""
import contextlib
import threading

__all__ = ["GraphBreak", "GraphBreakError", "BreakInBlock", "active", "building_block",
           "keep_as_python", "kept_reason"]

OPERATIONS = {"bool": "bool() of a Tensor (a Python if/while/and/or on it)",
              "float": "float() of a Tensor", "int": "int() of a Tensor",
              "complex": "complex() of a Tensor", "index": "a Tensor used as a Python index",
              "numpy": "Tensor.numpy()", "item": "Tensor.item()", "tolist": "Tensor.tolist()"}


class GraphBreak:
    """One break: the user's file, line, function and source text, and the operation."""

    __slots__ = ("filename", "lineno", "function", "source", "operation")

    def __init__(self, origin, operation):
        self.filename, self.lineno, self.function, self.source = origin or ("?", 0, "?", "")
        self.operation = operation

    def __repr__(self):
        return f"GraphBreak({self.filename}:{self.lineno}, {self.operation})"

    def __str__(self):
        text = f": {self.source.strip()}" if self.source else ""
        return f"{self.filename}:{self.lineno} in {self.function}{text} ({self.operation})"


class GraphBreakError(RuntimeError):
    """A graph break where one Program is needed (jit.save, a trace from InputSpecs only)."""


class BreakInBlock(Exception):
    """A value was needed while a sub-block (a cond/while body, a PyLayer's forward) was
    being built; the construct that opened the block catches it and runs as Python."""

    def __init__(self, graph_break):
        super().__init__(str(graph_break))
        self.graph_break = graph_break


class _Active(threading.local):
    """Per thread: the segment builder of the full_graph=False trace running (or None)."""

    builder = None


_ACTIVE = _Active()


def active():
    """The segment builder while this thread traces in full_graph=False mode, else None:
    its `cut(var, kind, reason=...)` is the one way to break the graph."""
    return _ACTIVE.builder


@contextlib.contextmanager
def building_block():
    """Around building a sub-block (a cond branch, a while body, a PyLayer's forward) that a
    break inside (or any error) abandons: the Python effects seen inside are forgotten then,
    because the construct runs that code again as Python (audited again, or replayed at
    every call) or the call fails."""
    builder = _ACTIVE.builder
    if builder is None:
        yield
        return
    mark = builder.audit.mark()
    try:
        yield
    except BaseException:  # a break, or a construct no op expresses: it runs as Python
        builder.audit.forget(mark)
        raise


def set_active(builder):
    """Make `builder` (or None) this thread's; returns the previous one."""
    previous, _ACTIVE.builder = _ACTIVE.builder, builder
    return previous


_KEPT = {}  # code object -> why its function runs as Python, unconverted


def keep_as_python(fn, reason):
    """Record that `fn` runs unconverted (no source, a generator): a break inside it says so."""
    code = getattr(fn, "__code__", None)
    if code is not None:
        _KEPT[code] = reason


def kept_reason(code):
    """Why the function of `code` runs unconverted, or None."""
    return _KEPT.get(code)

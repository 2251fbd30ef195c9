"""Shared runtime helpers: Variable tests, undefined names, the pending return value."""
import sys

from ...static.framework import Variable
from ..pyct import origin
from ..segments import breaks

__all__ = ["is_variable", "Undefined", "UndefinedVariableError", "NO_RETURN", "ReturnValue",
           "Dygraph2StaticException", "UnsupportedConstruct", "RequirePython",
           "ReraiseUnsupported", "load_values", "where"]


class UndefinedVariableError(NameError, TypeError):
    """A variable of converted code was used where it has no value: a NameError as Python
    raises, and a TypeError as Paddle raises when such a value reaches an op."""


class Undefined:
    """The value of a name unbound at a converted if/while; any use raises a clear error."""

    __slots__ = ("name", "location")

    def __init__(self, name, file, line):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "location", f"{file}:{line}")

    def error(self):
        """The error raised when this value is used."""
        return UndefinedVariableError(
            f"variable {self.name!r} is used but has no value: at {self.location} it was "
            f"unbound before the if/loop, or assigned in only one branch of an if whose "
            f"condition is a Tensor (assign it in both branches or before the if)")

    def _fail(self, *args, **kwargs):
        raise self.error()

    __getattr__ = __call__ = __bool__ = __len__ = __iter__ = __getitem__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __rtruediv__ = __matmul__ = __rmatmul__ = __neg__ = __pow__ = __index__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __float__ = __int__ = __array__ = _fail

    def __repr__(self):
        return f"Undefined({self.name!r}, {self.location})"


class _NoReturn:
    """The pending return value of a converted function before any `return` ran."""

    def __repr__(self):
        return "NO_RETURN"


NO_RETURN = _NoReturn()


def ReturnValue(value):
    """What the function returns at its single exit (None if no return ran)."""
    return None if value is NO_RETURN else value


def is_variable(value):
    """True for a static Variable (a value known only when the Program runs)."""
    return isinstance(value, Variable)


class Dygraph2StaticException(Exception):
    """Code to_static cannot turn into a Program as written (Paddle's name for the error),
    e.g. the branches of an if on a Tensor returning different numbers of values."""


class UnsupportedConstruct(Dygraph2StaticException, NotImplementedError):
    """A construct to_static cannot convert; it escapes the user's own `except` clauses."""


def RequirePython(test, what):
    """`test` of an if/while kept in Python; a Tensor there is an unsupported construct,
    which under full_graph=False breaks the graph to read the test's value."""
    if is_variable(test):
        builder = breaks.active()
        if builder is not None:
            return builder.cut(test, "bool", reason=f"unsupported: {what}")
        raise UnsupportedConstruct(f"sampan.jit.to_static does not support {what}")
    return test


def ReraiseUnsupported():
    """First statement of every converted `except` clause: an UnsupportedConstruct raised in
    the `try` body must reach the user, not be swallowed by `except Exception:`."""
    handled = sys.exc_info()[1]
    if isinstance(handled, UnsupportedConstruct):
        raise handled


def where(fn):
    """(file, line) of the user code the converted helper function `fn` came from."""
    code = fn.__code__
    info = origin.lookup(code.co_filename, code.co_firstlineno)
    return (info.filename, info.lineno) if info else (code.co_filename, code.co_firstlineno)


def load_values(getters, names, fn):
    """Call each getter; a name not yet bound reads as an Undefined placed at `fn`'s line."""
    values = []
    for getter, name in zip(getters, names):
        try:
            values.append(getter())
        except NameError:
            values.append(Undefined(name, *where(fn)))
    return tuple(values)

"""Tracing mode: run every op eagerly and append the same op to a Program being recorded.

`TracingMode` is a mode like EagerMode and StaticMode (see `core/dispatch.py`): its
`run_op` hands the op to the eager mode, so results and autograd are exactly eager, then
records it through the static mode into a `Recorder`'s Program. The recorder knows which
Variable holds each eager value by the identity of the value's NumPy array: op results
are fresh arrays, and `x[i] = v` / `x.add_(y)` make `x` take over the array of the op's
result, so an in-place update is followed without special cases. An eager tensor whose
array no traced op produced (a parameter, a buffer, a tensor from outside the traced
code) becomes a persistable Variable fed with the tensor's current array at every run.

Python runs as usual while tracing, so control flow is frozen to the path taken. Values
leaving the trace (`numpy()`, `item()`, `bool(t)`, ...) do not pass through the op funnel;
`watching_values` reports them with a `TracingWarning` at the user's line.
"""
import contextlib
import functools
import threading
import warnings

from .. import static
from ..core.dispatch import current_mode
from ..eager.mode import EAGER
from ..eager.tensor import Tensor
from ..static.control_flow.nest import flatten
from ..static.framework import Program, Variable
from ..static.mode import STATIC, user_origin
from ..static.program_state import program_guard
from .program_translator import _declare

__all__ = ["TracingMode", "Recorder", "TracingWarning", "watching_values"]


class TracingWarning(UserWarning):
    """A traced value left the trace: the recorded Program keeps what it was while tracing."""


class Recorder:
    """The Program being recorded and the Variable holding each eager array.

    `state` lists (variable name, tensor) of every persistable Variable the Program reads:
    a run feeds each tensor's array as it is then (shared, never copied).
    """

    def __init__(self):
        self.program = Program()
        self.state = []
        self._by_array = {}     # id(array) -> (array, Variable); the array pins the id
        self._captured = {}     # id(tensor) -> (tensor, array it had when captured)
        self._dependent = set()  # names of the Variables computed from the inputs
        self._escapes = {}      # (file, line) -> how a traced value left the trace

    def feed(self, tensor, name, shape):
        """A data Variable `name` of `shape` (-1: any size) for input `tensor`."""
        with program_guard(self.program):
            var = static.data(name, shape, tensor.dtype)
        self._bind(tensor, var, True)
        return var

    def var_of(self, tensor):
        """The Variable holding eager `tensor`'s current value (captured on first read)."""
        found = self._by_array.get(id(tensor._data))
        if found is not None:
            return found[1]
        if id(tensor) in self._captured:
            raise _modified_error(tensor)
        return self._capture(tensor)

    def _capture(self, tensor):
        var = _declare(self.program.global_block(), tensor)
        self._captured[id(tensor)] = (tensor, tensor._data)
        self._by_array[id(tensor._data)] = (tensor._data, var)
        self.state.append((var.name, tensor))
        return var

    def _bind(self, tensor, var, dependent):
        self._by_array[id(tensor._data)] = (tensor._data, var)
        if dependent:
            self._dependent.add(var.name)

    def record(self, op, tensors, attrs, outs):
        """Append `op` over the Variables of `tensors`; its Variables now hold `outs`."""
        args = tuple(self._vars_in(value) for value in tensors)
        with program_guard(self.program):
            made = STATIC.run_op(op, args, attrs)
        dependent = any(v.name in self._dependent for v in _variables(args))
        for tensor, var in zip(flatten(outs), flatten(made)):
            self._bind(tensor, var, dependent)

    def _vars_in(self, value):
        if isinstance(value, Tensor):
            return self.var_of(value)
        if isinstance(value, (list, tuple)):
            return [self._vars_in(v) for v in value]
        return value  # Python scalars, arrays and None: StaticMode makes them constants

    def escaped(self, tensor, how):
        """Note that a value computed from the inputs left the trace through `how` (warned
        by `finish`, once per user line)."""
        found = self._by_array.get(id(tensor._data))
        if found is not None and found[1].name in self._dependent:
            origin = user_origin()
            self._escapes.setdefault(origin[:2] if origin else ("<unknown>", 0), how)

    def finish(self):
        """After the trace: raise if a captured parameter, buffer or tensor was changed,
        else warn about the values that left the trace."""
        for tensor, array in self._captured.values():
            if tensor._data is not array:
                raise _modified_error(tensor)
        for where, how in self._escapes.items():
            warnings.warn_explicit(_escape_message(how), TracingWarning, *where)


_HOW = {"numpy": "t.numpy()", "item": "t.item()", "tolist": "t.tolist()",
        "__array__": "np.asarray(t)", "__float__": "float(t)", "__int__": "int(t)",
        "__index__": "using t as an index", "__complex__": "complex(t)"}


def _escape_message(how):
    if how == "__bool__":
        what = ("a tensor computed from the inputs decides a Python condition: the traced "
                "Program keeps only the branch taken while tracing")
    else:
        what = (f"{_HOW[how]} turns a tensor computed from the inputs into a Python value: "
                f"wherever it flows back into the computation, the traced Program holds the "
                f"value it had while tracing")
    return f"TracedLayer: {what} (paddle.jit.to_static keeps data-dependent control flow)"


def _modified_error(tensor):
    return RuntimeError(
        f"TracedLayer: tensor {tensor.name!r} (shape {tensor.shape}) was modified in place "
        f"while tracing (a parameter or buffer updated by the layer, e.g. BatchNorm's running "
        f"statistics in training mode, or set_value on a tensor); a traced Program does not "
        f"update state: call layer.eval() and avoid in-place updates of state before tracing")


def _variables(args):
    """The Variables among an op's (possibly list-valued) arguments."""
    for value in args:
        if isinstance(value, Variable):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, Variable))


class TracingMode:
    """Runs ops eagerly and records them into `recorder`'s Program."""

    is_static = False  # APIs behave as in dygraph mode (to_tensor makes eager tensors, ...)

    def __init__(self, recorder):
        self.recorder = recorder

    def run_op(self, op, tensors, attrs):
        """Run the op eagerly, then append it to the Program over the inputs' Variables."""
        outs = EAGER.run_op(op, tensors, attrs)
        self.recorder.record(op, tensors, attrs, outs)
        return outs


# Conversions of a Tensor to Python or NumPy values never reach the op funnel, so they are
# watched by wrapping these methods on the Tensor class while some thread traces.
_CONVERSIONS = ("__bool__", *_HOW)
_watch_lock = threading.Lock()
_watchers = [0]
_originals = {}


def _watched(name, original):
    @functools.wraps(original)
    def method(self, *args, **kwargs):
        mode = current_mode()
        if mode.__class__ is TracingMode:
            mode.recorder.escaped(self, name)
        return original(self, *args, **kwargs)
    return method


@contextlib.contextmanager
def watching_values():
    """Inside: a traced thread's Tensor-to-Python conversions report to its recorder."""
    with _watch_lock:
        if _watchers[0] == 0:
            for name in _CONVERSIONS:
                _originals[name] = Tensor.__dict__[name]
                setattr(Tensor, name, _watched(name, _originals[name]))
        _watchers[0] += 1
    try:
        yield
    finally:
        with _watch_lock:
            _watchers[0] -= 1
            if _watchers[0] == 0:
                for name, original in _originals.items():
                    setattr(Tensor, name, original)

"""Program-cache keys, input_spec checks and the retrace warning of StaticFunction."""
import inspect
import itertools
import warnings

from ..eager.tensor import Tensor
from ..static.input_spec import InputSpec

__all__ = ["with_specs", "check_spec_list", "value_key", "RetraceMonitor", "MAX_TRACES",
           "ProgramCache", "data_names"]

MAX_TRACES = 5


def _spec_for(name, spec, tensor):
    """The InputSpec a tensor argument is traced with: `spec`, or, when the tensor's dtype
    differs, `spec`'s shape with the tensor's dtype (Paddle traces that dtype rather than
    refusing it). A rank or fixed dim the tensor contradicts raises ValueError."""
    shape = list(tensor.shape)
    if len(shape) != len(spec.shape) or any(
            want >= 0 and want != got for want, got in zip(spec.shape, shape)):
        raise ValueError(f"argument {name!r}: input_spec expects shape "
                         f"{list(spec.shape)} (rank "
                         f"{len(spec.shape)}), got a Tensor of shape {shape}")
    if tensor.dtype == spec.dtype:
        return spec
    return InputSpec(spec.shape, tensor.dtype, spec.name, spec.stop_gradient)


def with_specs(args, input_spec, names):
    """Positional args with each InputSpec of `input_spec` standing in for its tensor."""
    merged = []
    for k, (arg, spec) in enumerate(itertools.zip_longest(args, input_spec or ())):
        use_spec = isinstance(spec, InputSpec) and (arg is None or isinstance(arg, Tensor))
        if use_spec and arg is not None:
            spec = _spec_for(names[k] if k < len(names) else f"#{k}", spec, arg)
        merged.append(spec if use_spec else arg)
    return merged


def check_spec_list(input_spec, api):
    """Refuse one InputSpec or Tensor as `input_spec`: Paddle takes a list or tuple, and a
    Tensor would be iterated into one spec per row."""
    if input_spec is not None and not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"{api}(): argument 'input_spec' must be a list or tuple of "
                        f"InputSpec or Tensor, got {type(input_spec).__name__}; wrap it in a "
                        f"list")


def value_key(obj):
    """Cache-key part of an argument: tensors by signature, other values by value."""
    if isinstance(obj, Tensor):
        return ("tensor", obj._data.shape, obj._data.dtype, obj.stop_gradient)
    if isinstance(obj, InputSpec):
        return ("spec", obj.shape, obj.dtype.name, obj.stop_gradient)
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, *[value_key(v) for v in obj])
    if isinstance(obj, dict):
        return ("dict",) + tuple((k, value_key(v)) for k, v in sorted(obj.items()))
    try:
        hash(obj)
    except TypeError:
        return ("id", id(obj))
    return (type(obj).__name__, obj)


def data_names(args, kwargs, arg_names):
    """Names of the data Variables of a trace, one per Tensor or InputSpec in
    `map_structure` order, as Paddle names them: an InputSpec's own name, else the
    argument's name, `name_i` for item i of a list or tuple, the key for a dict value
    (unique: a repeated name gets a `_k` suffix)."""
    names, used = [], set()

    def add(name):
        unique, k = name, 1
        while unique in used:
            unique, k = f"{name}_{k}", k + 1
        used.add(unique)
        names.append(unique)

    def walk(obj, name):
        if isinstance(obj, (Tensor, InputSpec)):
            add(getattr(obj, "name", None) if isinstance(obj, InputSpec) and obj.name else name)
        elif isinstance(obj, (list, tuple)):
            for k, item in enumerate(obj):
                walk(item, f"{name}_{k}")
        elif isinstance(obj, dict):
            for key, item in obj.items():
                walk(item, str(key))
    for k, arg in enumerate(args):
        walk(arg, arg_names[k] if k < len(arg_names) else f"args_{k}")
    for key, value in kwargs.items():
        walk(value, key)
    return names


def parameter_names(fn):
    """Positional parameter names of `fn` (without a bound self)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


class RetraceMonitor:
    """Counts traces of one function; past MAX_TRACES warns naming what changed."""

    def __init__(self, fn_name, names):
        self.fn_name, self.names = fn_name, names
        self.traces, self.last = 0, None

    def _changed(self, args, kwargs):
        """Names of the arguments whose key differs from the previous trace's."""
        if self.last is None:
            return []
        old_args, old_kwargs = self.last
        changed = [self.names[k] if k < len(self.names) else f"#{k}"
                   for k, (a, b) in enumerate(itertools.zip_longest(old_args, args))
                   if a != b]
        return changed + sorted(k for k in set(old_kwargs) | set(kwargs)
                                if old_kwargs.get(k) != kwargs.get(k))

    def traced(self, args, kwargs, guard=None):
        """Record one trace of arguments (keys per argument); warn when too many. `guard`
        names the failed graph-break guard that caused the trace, if one did."""
        keys = ([value_key(a) for a in args], {k: value_key(v) for k, v in kwargs.items()})
        changed = self._changed(*keys) or ["the layer's train/eval mode"]
        self.traces, self.last = self.traces + 1, keys
        if self.traces > MAX_TRACES:
            cause = (f"{guard}. Return such values as Tensors instead of reading them" if guard
                     else f"a change of argument(s) {', '.join(map(repr, changed))}. Pass "
                          f"Python values that change as Tensors, or give an input_spec "
                          f"with None dims")
            warnings.warn(f"to_static function {self.fn_name!r} was traced {self.traces} times "
                          f"(more than {MAX_TRACES}); this trace was caused by {cause}",
                          stacklevel=4)


class ProgramCache:
    """The ConcretePrograms of one StaticFunction by signature key (`program_cache`), and
    which was used last."""

    def __init__(self):
        self._programs = {}
        self._last_key = None

    def __len__(self):
        return len(self._programs)

    def __contains__(self, key):
        return key in self._programs

    def get(self, key):
        """The program of `key` (now the last used one), or None."""
        program = self._programs.get(key)
        if program is not None:
            self._last_key = key
        return program

    def add(self, key, program):
        """Store the program built for `key`."""
        self._programs[key] = program
        self._last_key = key

    def last(self):
        """(key, (concrete program, its partial program)) of the program used last, as
        Paddle's cache returns it; None before any."""
        if self._last_key is None:
            return None
        program = self._programs[self._last_key]
        return self._last_key, (program, program.partial_program)

    def last_program(self):
        """The ConcreteProgram used last, or None."""
        return None if self._last_key is None else self._programs[self._last_key]

    def forget_last(self):
        """No program was used last (a call ran as graph segments instead)."""
        self._last_key = None

    def concrete_programs(self):
        """Every ConcreteProgram built, oldest first."""
        return list(self._programs.values())

    def clear(self):
        """Forget every program."""
        self._programs.clear()
        self._last_key = None

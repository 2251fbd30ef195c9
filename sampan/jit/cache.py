"""Program-cache keys (and what differs between two of them), input_spec checks."""
import itertools

from ..eager.tensor import Tensor
from ..static.input_spec import InputSpec

__all__ = ["with_specs", "check_spec_list", "value_key", "describe_key", "key_changes",
           "describe_arguments", "ProgramCache", "data_names"]


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


def describe_key(part):
    """A cache-key part (from `value_key`) as a user reads it: `Tensor[2, 3] float32`."""
    tag = part[0]
    if tag in ("tensor", "spec"):
        shape = ", ".join("None" if d < 0 else str(d) for d in part[1])
        grad = "" if part[3] else " (requires grad)"
        return f"{'Tensor' if tag == 'tensor' else 'InputSpec'}[{shape}] {part[2]}{grad}"
    if tag in ("list", "tuple"):
        items = ", ".join(describe_key(item) for item in part[1:])
        return f"[{items}]" if tag == "list" else f"({items}{',' if len(part) == 2 else ''})"
    if tag == "dict":
        return "{" + ", ".join(f"{k!r}: {describe_key(v)}" for k, v in part[1:]) + "}"
    if tag == "id":
        return "an unhashable object (compared by identity)"
    text = repr(part[1])
    return text if len(text) <= 40 else text[:37] + "..."


def _part_changes(name, old, new):
    """What differs between two key parts of argument `name`, as phrases."""
    if old is None or new is None:
        return [f"{name} {'added' if old is None else 'removed'}: "
                f"{describe_key(new if old is None else old)}"]
    if old[0] in ("tensor", "spec") and old[0] == new[0]:
        fields = ("shape", "dtype", "stop_gradient")
        return [f"{name}: {field} {_field(field, a)} -> {_field(field, b)}"
                for field, a, b in zip(fields, old[1:], new[1:]) if a != b]
    if old[0] == new[0] and old[0] in ("list", "tuple") and len(old) == len(new):
        return [c for k, (a, b) in enumerate(zip(old[1:], new[1:])) if a != b
                for c in _part_changes(f"{name}[{k}]", a, b)]
    if old[0] == new[0] == "dict" and [k for k, _ in old[1:]] == [k for k, _ in new[1:]]:
        return [c for (k, a), (_, b) in zip(old[1:], new[1:]) if a != b
                for c in _part_changes(f"{name}[{k!r}]", a, b)]
    return [f"{name}: {describe_key(old)} -> {describe_key(new)}"]


def _field(field, value):
    """One field of a tensor key, as printed."""
    if field == "shape":
        return "[" + ", ".join("None" if d < 0 else str(d) for d in value) + "]"
    return str(value)


def _modes(modes):
    """The train/eval flags of a key, in words."""
    flags = modes if isinstance(modes, tuple) else (modes,)
    return "train" if all(flags) else "eval" if not any(flags) else "mixed train/eval"


def _named_parts(key, names):
    """{argument name: key part} of a cache key (positional, then keyword arguments)."""
    args, kwargs = key[0][1:], key[1][1:] if key[1] else ()
    named = {(names[k] if k < len(names) else f"#{k}"): part for k, part in enumerate(args)}
    named.update((k, part) for k, part in kwargs)
    return named


def key_changes(old, new, names):
    """What differs between two StaticFunction cache keys (arguments, then train/eval), as
    phrases: "argument 'x': shape [2, 3] -> [4, 3]"."""
    before, after = _named_parts(old, names), _named_parts(new, names)
    changes = [c for name in list(before) + [n for n in after if n not in before]
               if before.get(name) != after.get(name)
               for c in _part_changes(f"argument {name!r}", before.get(name), after.get(name))]
    if old[2] != new[2]:
        flags = old[2] if isinstance(old[2], tuple) else (old[2],)
        now = new[2] if isinstance(new[2], tuple) else (new[2],)
        switched = _modes(old[2]) != _modes(new[2])
        changes.append(f"train/eval: {_modes(old[2])} -> {_modes(new[2])}" if switched else
                       f"train/eval flag of {sum(a != b for a, b in zip(flags, now))} "
                       f"sublayer(s) changed")
    return changes


def describe_arguments(key, names):
    """The arguments a cache key was made from, and the mode: "x: Tensor[2, 3] float32,
    n: 3 (train)"."""
    parts = ", ".join(f"{name}: {describe_key(part)}"
                      for name, part in _named_parts(key, names).items())
    return f"{parts} ({_modes(key[2])})"


def data_names(args, kwargs, arg_names):
    """Names of the data Variables of a trace, one per Tensor or InputSpec in
    `map_tensors` order, as Paddle names them: an InputSpec's own name, else the
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

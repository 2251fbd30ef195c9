"""Tensors a traced function stores on objects (`self.last = y * 2`): found after the trace
as attributes holding the Program's Variables, fetched as hidden outputs of each run and set
back onto their objects as that run's eager Tensors, so the object holds what eager
execution would have stored there."""
import warnings
import weakref

from ..nn.layer.layers import Layer
from ..static.control_flow.nest import flatten
from .operators.common import is_variable

__all__ = ["find_stores", "store_values", "StoredTensor", "owners", "replace_variables",
           "write_back_arguments"]

_LAYER_TABLES = ("_parameters", "_buffers", "_sub_layers")  # a Layer's own bookkeeping


class StoredTensor:
    """One attribute a run sets: `owner.name` (owner held weakly when it allows) gets the
    eager Tensor of Variable `var`."""

    __slots__ = ("_owner", "name", "var")

    def __init__(self, owner, name, var):
        try:
            ref = weakref.ref(owner)
        except TypeError:
            ref = lambda: owner  # noqa: E731 - an object without weak references
        self._owner, self.name, self.var = ref, name, var

    def store(self, tensor):
        """Set the attribute to this run's `tensor` (nothing when the owner is gone)."""
        owner = self._owner()
        if owner is not None:
            # a plain attribute, as the trace left it: a buffer registered here would be
            # fed as state by later traces, and rebinding it here would leave them stale
            object.__setattr__(owner, self.name, tensor)


def owners(instance):
    """The objects whose attributes a run refreshes: a Layer and its sublayers, or the
    object a converted method is bound to."""
    if isinstance(instance, Layer):
        return instance.sublayers(include_self=True)
    return [] if instance is None else [instance]


def _holds_variable(value):
    """True when a list/tuple/dict (nested) holds a Variable."""
    return any(map(is_variable, flatten(value)))


def _stored_variables(instance, qualname):
    """(owner, attribute name, Variable) of each attribute of the objects `instance`
    reaches that holds a Variable. A container attribute holding Variables keeps them (as
    in Paddle), with a warning: its Python changes (appends, item writes) do not rerun on
    cached calls, so no run could keep it as eager execution would."""
    for owner in owners(instance):
        for name, value in list(getattr(owner, "__dict__", {}).items()):
            if is_variable(value):
                yield owner, name, value
            elif (isinstance(value, (list, tuple, dict)) and name not in _LAYER_TABLES
                  and _holds_variable(value)):
                warnings.warn(
                    f"to_static: {qualname} stores a Tensor computed in the function inside "
                    f"{type(owner).__name__}.{name} (a {type(value).__name__}); it holds the "
                    f"traced static Variable after the call, not a value: a converted "
                    f"function refreshes only Tensors stored directly as attributes "
                    f"(self.{name} = tensor), since a container's Python changes do not "
                    f"rerun on cached calls. Store each Tensor in its own attribute, or "
                    f"return it", stacklevel=2)


def find_stores(instance, program, qualname):
    """[StoredTensor] for each attribute that holds a non-persistable Variable of
    `program`'s global block after its trace."""
    block = program.global_block()
    return [StoredTensor(owner, name, var)
            for owner, name, var in _stored_variables(instance, qualname)
            if var.block is block and not var.persistable]


def store_values(instance, values, qualname):
    """Set each attribute holding a Variable to its eager Tensor in `values` ({name:
    Tensor}, the values a full_graph=False trace computed segment by segment)."""
    for owner, name, var in _stored_variables(instance, qualname):
        tensor = dict.get(values, var.name)
        if tensor is not None:
            StoredTensor(owner, name, var).store(tensor)


def _eager(values):
    """A Variable's eager Tensor from `values` ({name: Tensor}); other items as they are."""
    def value(item):
        return dict.get(values, item.name, item) if is_variable(item) else item
    return value


def _replace_items(container, value, depth=0):
    """Put eager Tensors in place of the Variables of a list or dict, nested ones too."""
    if depth > 32:
        return
    items = container.items() if isinstance(container, dict) else enumerate(container)
    for key, item in list(items):
        if isinstance(item, (list, dict)):
            _replace_items(item, value, depth + 1)
        else:
            container[key] = value(item)


def replace_variables(objects, values):
    """In the lists, dicts and attributes of `objects` (ones a traced call's Python changed,
    which then runs eagerly), put each Variable's eager Tensor from `values` in its place,
    so the traced call leaves what an eager one would."""
    value = _eager(values)
    for obj in objects:
        if isinstance(obj, (list, dict)):
            _replace_items(obj, value)
        for name, item in list(getattr(obj, "__dict__", {}).items()):
            if is_variable(item):
                object.__setattr__(obj, name, value(item))
            elif isinstance(item, (list, dict)) and name not in _LAYER_TABLES:
                _replace_items(item, value)


def write_back_arguments(originals, traced, changed, values):
    """Give the caller's lists and dicts the changes the trace made to their copies (a
    container of Tensors is traced as a copy holding Variables): `originals` and `traced`
    are the call's arguments and the traced ones, `changed` the objects the trace's Python
    changed, `values` the eager Tensors by Variable name."""
    value, changed = _eager(values), {id(obj) for obj in changed}
    pairs = [(originals, traced)]
    while pairs:
        original, copy = pairs.pop()
        if original is copy:
            continue
        if isinstance(original, (list, tuple)) and isinstance(copy, (list, tuple)):
            pairs.extend(zip(original, copy))
            if isinstance(original, list) and id(copy) in changed:
                original[:] = map(value, copy)
        elif isinstance(original, dict) and isinstance(copy, dict):
            pairs.extend((original[k], copy[k]) for k in original if k in copy)
            if id(copy) in changed:
                original.clear()
                original.update((k, value(v)) for k, v in copy.items())

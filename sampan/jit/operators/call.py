"""`f(...)` in converted code: user functions and layers are converted before they run."""
import functools
import inspect
import types

from ...autograd.py_layer import PyLayerMeta
from ...nn.layer.layers import Layer
from ...ops._generated import api
from ...tensor import array as tensor_array
from .arrays import array_taking, reader
from .autograd import eager_grad, static_grad
from .common import is_variable
from .pylayer import pylayer_apply
from .reads import value_read

__all__ = ["Call", "ignore_module"]

_SKIPPED_MODULES = {"sampan", "numpy", "builtins"}
_JOINS = {api.stack: True, api.concat: False}  # reading a list built in a Tensor loop
_ARRAY_FUNCTIONS = {tensor_array.array_write, tensor_array.array_read, tensor_array.array_length}


def ignore_module(modules):
    """Never convert functions defined in these modules (or their submodules)."""
    for module in modules if isinstance(modules, (list, tuple, set)) else [modules]:
        _SKIPPED_MODULES.add(module if isinstance(module, str) else module.__name__)


def _skipped(fn):
    """True for callables that run as they are: builtins, numpy, sampan, ignored modules,
    not_to_static."""
    if getattr(fn, "_not_to_static", False):
        return True
    module = getattr(fn, "__module__", None) or ""
    parts = module.split(".")
    return any(".".join(parts[:k]) in _SKIPPED_MODULES for k in range(1, len(parts) + 1))


def _convert_or_keep(fn):
    """The converted function, or `fn` itself when it cannot be converted (see
    program_translator.convert_or_keep)."""
    from ..program_translator import convert_or_keep
    return convert_or_keep(fn)


def _user_forward(layer):
    """True when `layer`'s forward is user code to convert (not sampan's, not replaced)."""
    return not _skipped(type(layer).forward) and "forward" not in layer.__dict__


def _layer_call(layer):
    """A layer whose user-defined forward is converted; hooks still run. A sampan layer
    holding user layers (nn.Sequential, LayerList) runs as it is, with the forwards of
    those sublayers converted for the call."""
    if "forward" in layer.__dict__:
        return layer
    targets = [layer] if _user_forward(layer) else [
        sub for sub in layer.sublayers() if _user_forward(sub)]
    if not targets:
        return layer
    converted = [types.MethodType(_convert_or_keep(type(t).forward), t) for t in targets]

    def call(*args, **kwargs):
        for target, forward in zip(targets, converted):
            target.__dict__["forward"] = forward
        try:
            return layer(*args, **kwargs)
        finally:
            for target in targets:
                del target.__dict__["forward"]
    return call


def _special(fn):
    """The stand-in of a callable with a static meaning (None for the others): a PyLayer's
    apply, a value read of a Variable (`x.numpy()`), stack/concat reading a list built in
    a Tensor loop, the tensor-array functions given one, or paddle.grad."""
    if isinstance(fn, types.MethodType):
        owner = fn.__self__
        if isinstance(owner, PyLayerMeta):
            return functools.partial(pylayer_apply, owner) if fn.__name__ == "apply" else None
        return value_read(fn) if is_variable(owner) else None
    if fn.__hash__ is None:  # a callable may be unhashable (a list)
        return None
    if fn in _JOINS:
        return reader(fn, _JOINS[fn])
    if fn in _ARRAY_FUNCTIONS:
        return array_taking(fn)
    if fn is eager_grad:
        return static_grad
    return None


def Call(fn):
    """What converted code calls in place of `fn`."""
    from ..program_translator import StaticFunction
    special = _special(fn)
    if special is not None:
        return special
    if isinstance(fn, StaticFunction):
        return fn.converted_callable()
    if isinstance(fn, Layer):
        return _layer_call(fn)
    if inspect.isclass(fn) or _skipped(fn):
        return fn
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return types.MethodType(_convert_or_keep(fn.__func__), fn.__self__)
    if isinstance(fn, types.FunctionType):
        return _convert_or_keep(fn)
    return fn

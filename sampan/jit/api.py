"""Public entry points: to_static and the switches, logging and checks around it."""
import functools
import os

from ..core.lazy import lazy_exports
from ..executor.strategy import BuildStrategy
from ..nn.layer.layers import Layer
from .cache import check_spec_list
from .log import set_code_level, set_verbosity
from .marker import not_to_static
from .operators.call import ignore_module
from .program_translator import StaticFunction, enable_to_static

__all__ = ["to_static", "not_to_static", "enable_to_static", "ignore_module", "set_code_level",
           "set_verbosity", "check_consistency", "explain"]
lazy_exports(globals(), {".consistency": ["check_consistency"]})  # loads dataclasses


_TO_STATIC_OPTIONS = ("property", "full_graph")
_BACKENDS = ("CINN", None)


def to_static(function=None, input_spec=None, build_strategy=None, backend=None, **kwargs):
    """Convert a function, a Layer method or a Layer (its forward) to run as a static Program.

    `kwargs` takes Paddle's `property` (run as plain Python) and `full_graph`: False (the
    default, as in Paddle 3) breaks the graph where Python needs a tensor's value and runs the
    pieces as compiled segments; True converts the whole function into one Program and
    raises where it cannot. Unset, it is False unless the environment variable
    `ENABLE_FALL_BACK` is false (Paddle's switch, read when decorating). `backend='CINN'` is
    accepted and compiles as None.
    """
    check_spec_list(input_spec, "to_static")
    _check_to_static_arguments(build_strategy, backend, kwargs)
    options = _options(input_spec, build_strategy, kwargs)

    def decorate(obj):
        if isinstance(obj, Layer):
            forward = obj.forward
            if isinstance(forward, StaticFunction):
                forward = forward.dygraph_function
            obj.__dict__["forward"] = StaticFunction(forward, **options)
            return obj
        if isinstance(obj, StaticFunction):
            obj = obj.dygraph_function
        if isinstance(obj, functools.partial):  # its function converted, its arguments bound
            return functools.partial(decorate(obj.func), *obj.args, **obj.keywords)
        if not callable(obj):
            raise TypeError(f"to_static(): argument 'function' must be a function, a method "
                            f"or a Layer, got {type(obj).__name__}")
        return StaticFunction(obj, **options)
    return decorate if function is None else decorate(function)


def explain(function, *args, **kwargs):
    """Convert `function` and call it once on `args` / `kwargs`; returns its
    ConversionReport: per construct of the source (file:line) what it became (cond op,
    while op, Python if, unrolled loop, tensor array, static_pylayer, kept Python, graph
    break) and why, and why each trace happened. `print()` it for a table.

    `function` may be a function, a Layer (its forward; the layer is left as it was) or
    already converted by to_static (its options, and the traces it made before, are kept);
    otherwise it is converted with to_static's defaults.

    Example::

        report = paddle.jit.explain(net, paddle.rand([4, 8]))
        print(report)
        [e.became for e in report.entries]
    """
    if isinstance(function, Layer):
        return _explain_layer(function, args, kwargs)
    if not isinstance(function, StaticFunction):
        function = to_static(function)
    function(*args, **kwargs)
    return function.report()


def _explain_layer(layer, args, kwargs):
    """explain() of a Layer: its to_static forward, or one made for this call only."""
    forward = layer.forward
    if isinstance(forward, StaticFunction):
        layer(*args, **kwargs)
        return forward.report()
    converted = StaticFunction(forward, **_options(None, None, {}))
    own = layer.__dict__.get("forward")  # a forward set on the instance stays
    layer.__dict__["forward"] = converted
    try:
        layer(*args, **kwargs)
    finally:
        if own is None:
            del layer.__dict__["forward"]
        else:
            layer.__dict__["forward"] = own
    return converted.report()


def _fall_back_enabled():
    """Paddle's `ENABLE_FALL_BACK` environment switch (default on): off, to_static without
    an explicit full_graph converts whole functions (full_graph=True)."""
    value = os.environ.get("ENABLE_FALL_BACK", "True").strip().lower()
    if value in ("1", "true", "on", "yes"):
        return True
    if value in ("0", "false", "off", "no"):
        return False
    raise ValueError(f"environment variable ENABLE_FALL_BACK={value!r}: expected true or false")


def _options(input_spec, build_strategy, kwargs):
    """The StaticFunction options of a to_static call (full_graph unset: the default)."""
    full_graph = kwargs.get("full_graph")
    return dict(input_spec=input_spec, build_strategy=build_strategy,
                full_graph=not _fall_back_enabled() if full_graph is None else full_graph,
                property=kwargs.get("property", False))


def _check_to_static_arguments(build_strategy, backend, kwargs):
    """Paddle's checks of to_static's arguments, with errors naming the argument."""
    if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
        raise TypeError(f"to_static(): argument 'build_strategy' must be a "
                        f"paddle.static.BuildStrategy, got {type(build_strategy).__name__}")
    if backend not in _BACKENDS:
        raise ValueError(f"to_static(): argument 'backend' must be 'CINN' or None, got "
                         f"{backend!r}")
    unknown = sorted(set(kwargs) - set(_TO_STATIC_OPTIONS))
    if unknown:
        raise TypeError(f"to_static() got unexpected keyword arguments {unknown}; it takes "
                        f"{list(_TO_STATIC_OPTIONS)} besides its named parameters")

"""StaticFunction: converts a function once, builds one Program per input signature, runs it."""
import ast
import contextlib
import functools
import inspect
import types
import weakref

import numpy as np

from .. import static
from ..core.dispatch import current_mode, mode_guard
from ..core.gc_pause import gc_paused
from ..eager.grad_mode import STATE as GRAD_STATE, enable_grad
from ..eager.tensor import Tensor
from ..nn.layer.layers import Layer
from ..static.framework import Program
from ..static.mode import STATIC, capturing_tensors
from . import log, operators, pipeline, report
from .arguments import CallSignature
from .cache import (ProgramCache, check_spec_list, data_names, value_key,
                    with_specs)
from .converters.common import JST
from .errors import attach_user_frames, translate_origins
from .operators.arrays import ArrayList
from .operators.common import Undefined, is_variable
from .partial_program import PartialProgram, leaves, map_tensors, mark_test
from .pyct import loader, origin, source, templates
from .pyct.source import SourceUnavailableError
from .segments import breaks
from .stored_tensors import find_stores, owners
from .segments.builder import SegmentBuilder, written_inputs
from .segments.call import SegmentedCalls
from .pyct.naming import Namer
from .pyct.transformer import Context

__all__ = ["StaticFunction", "ConcreteProgram", "convert_function", "convert_or_keep",
           "enable_to_static"]

_CONVERTED = "__sampan_converted__"  # the attribute caching a function's conversion


class _Switch:
    """Process-wide on/off switch of to_static (off: functions run eagerly)."""

    enabled = True


def enable_to_static(enable_to_static_bool):
    """Turn dynamic-to-static conversion on or off globally."""
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError(f"enable_to_static expects a bool, got {enable_to_static_bool!r}")
    _Switch.enabled = enable_to_static_bool


@contextlib.contextmanager
def to_static_disabled():
    """Run a block with every converted function running its original Python (eagerly):
    for tools that inspect a network's eager behaviour, like `summary` and `flops`."""
    saved = _Switch.enabled
    _Switch.enabled = False
    try:
        yield
    finally:
        _Switch.enabled = saved


def convert_function(fn):
    """The converted version of plain function `fn` (`__sampan_code__` holds its source),
    cached on `fn` itself: a weak mapping from fn would keep fn alive through the converted
    function's references to it."""
    converted = fn.__dict__.get(_CONVERTED)
    if converted is None:
        converted = _convert(fn)
        setattr(fn, _CONVERTED, converted)
    return converted


def _convert(fn):
    """Parse, run the converter pipeline and load the result with the original closure."""
    info = source.get_source(fn)
    log.event(1, f"to_static: converting {fn.__qualname__} ({info.filename}:{info.lineno})")
    tree = origin.parse(info)
    ctx = Context(info, Namer.from_tree(tree, extra=info.fn.__globals__))
    tree = _as_def(tree, ctx.namer)
    tree = pipeline.run(tree, ctx)
    code = loader.unparse(tree)
    _drop_default_expressions(tree.args)
    cells = source.closure_vars(info.fn).cells
    converted = loader.load(tree, tree.name, _globals_with_jst(info.fn.__globals__), cells)
    converted.__defaults__ = info.fn.__defaults__
    converted.__kwdefaults__ = info.fn.__kwdefaults__
    converted.__sampan_code__ = code
    return converted


def convert_or_keep(fn):
    """The converted `fn`, or `fn` itself when it cannot be converted: no source (always),
    or a construct the converters refuse (while a full_graph=False trace runs, where Python
    that stays Python breaks the graph instead of failing)."""
    try:
        return convert_function(fn)
    except SourceUnavailableError as exc:
        reason = f"no source ({exc})"
    except NotImplementedError as exc:
        if not breaks.active():
            raise
        reason = str(exc).split("\n")[0]
    breaks.keep_as_python(fn, reason)
    report.kept_python(fn, reason)
    log.event(1, f"to_static: {getattr(fn, '__qualname__', fn)} runs as Python (not converted)")
    return fn


def _globals_with_jst(module_globals):
    """The function's own module globals, given the runtime namespace's name `_jst`: the
    converted code then reads globals as they are when it runs (a retrace sees a changed
    global) and `global` statements rebind the module's names. A copy is used only when the
    module already binds `_jst` to something else."""
    if module_globals.setdefault(JST, operators) is operators:
        return module_globals
    return {**module_globals, JST: operators}


def _drop_default_expressions(args):
    """Replace default values by None placeholders: the original function's evaluated
    defaults are copied over, and their expressions may name what only existed where the
    function was made (`lambda v, k=k: ...` in a comprehension)."""
    args.defaults = [ast.Constant(None) for _ in args.defaults]
    args.kw_defaults = [None if d is None else ast.Constant(None) for d in args.kw_defaults]


def _as_def(tree, namer):
    """The function's def node without decorators (a lambda becomes `def f(args): return e`)."""
    if isinstance(tree, ast.Lambda):
        lambda_node = tree
        tree = templates.replace("def name(): return body", name=namer.new_symbol("lambda_fn"),
                                 body=tree.body)[0]
        tree.args = lambda_node.args
        origin.copy_origin(lambda_node, tree)
    tree.decorator_list = []
    return tree


class ConcreteProgram:
    """One traced Program: its data inputs, output structure and the eager state it reads
    (`parameters`, a list of Tensors that can be replaced before `new_partial_program`)."""

    def __init__(self, main_program, startup_program, inputs, outputs, state,
                 build_strategy=None, arguments=((), {}), training=True, stores=(),
                 written=()):
        self.main_program = main_program
        self.startup_program = startup_program
        self.inputs = inputs
        # (args, kwargs) of the trace, data Variables standing for its tensors
        self.arguments = arguments
        self.outputs = outputs
        self.state_names = [name for name, _ in state]
        self.parameters = [tensor for _, tensor in state]
        self.build_strategy = build_strategy
        self.training = training
        # attributes the function set to its Tensors (StoredTensor): each run refreshes them
        self.stores = list(stores)
        # (input position, its final Variable) of the inputs an in-place op changed: each
        # run writes them back into the caller's Tensors, as eagerly
        self.written = list(written)
        self.partial_program = self.new_partial_program()

    @property
    def state(self):
        """[(variable name, eager tensor)]: what each run feeds besides the inputs."""
        params = self.parameters
        is_list = isinstance(params, (list, tuple))
        if not is_list or not all(isinstance(p, Tensor) for p in params):
            got = (f"[{', '.join(type(p).__name__ for p in params)}]" if is_list
                   else type(params).__name__)
            raise TypeError(f"ConcreteProgram.parameters must be a list or tuple of Tensors, "
                            f"one per variable {self.state_names}; got {got}")
        if len(params) != len(self.state_names):
            raise ValueError(f"ConcreteProgram.parameters has {len(params)} Tensors, but the "
                             f"program reads {len(self.state_names)}: {self.state_names}")
        return list(zip(self.state_names, params))

    def new_partial_program(self):
        """A PartialProgram running this program on the current `parameters`."""
        return PartialProgram(self.main_program, self.inputs, self.outputs, self.state,
                              self.build_strategy, self.training, self.stores, self.written)


def _declare(block, tensor):
    """A persistable Variable named after eager parameter/buffer `tensor`."""
    name = tensor.name
    if block.has_var(name):
        name = f"{name}@{len(block.vars)}"
    if getattr(tensor, "trainable", None) is not None:
        return block.create_parameter(name, tensor.shape, tensor.dtype,
                                      trainable=not tensor.stop_gradient)
    return block.create_var(name, tensor.shape, tensor.dtype, persistable=True,
                            stop_gradient=tensor.stop_gradient)


@contextlib.contextmanager
def _static_state(layer, block):
    """Inside: the layer tree's parameters and buffers are Variables, and so is every other
    eager tensor an op reads (parameters of layers outside the tree, closure tensors);
    yields [(name, tensor)], the tensors each run feeds."""
    swapped, state, made = [], [], {}

    def declared(tensor):
        var = made.get(id(tensor))
        if var is None:
            var = made[id(tensor)] = _declare(block, tensor)
            state.append((var.name, tensor))
        return var

    tables = ([] if not isinstance(layer, Layer) else
              [t for sub in layer.sublayers(include_self=True)
               for t in (sub._parameters, sub._buffers)])
    try:
        for table in tables:
            for key, tensor in list(table.items()):
                if isinstance(tensor, Tensor):
                    swapped.append((table, key, tensor))
                    table[key] = declared(tensor)
        with capturing_tensors(declared):
            yield state
    finally:
        for table, key, tensor in swapped:
            table[key] = tensor


def _arrays_as_variables(outputs):
    """`outputs` with each list a Tensor loop built (an ArrayList) as its array Variable,
    which a call returns as a list of Tensors."""
    return map_tensors(lambda array: array.var, outputs, (ArrayList,))


def _check_outputs(outputs):
    """`outputs`, after raising the error of any Undefined value among them."""
    for value in _all_leaves(outputs):
        if isinstance(value, Undefined):
            raise value.error()
    return outputs


def _check_escaped(program, outputs):
    """Raise when a returned Variable belongs to a sub-block: it was computed inside a
    Tensor if/loop and left it through a Python object the converter does not track."""
    for value in _all_leaves(outputs):
        if not is_variable(value) or value.block.idx == 0:
            continue
        origin = next((op.origin for op in value.block.ops
                       if value.name in op.output_arg_names and op.origin), None)
        where = f"{origin[0]}:{origin[1]} ({origin[3].strip()})" if origin else "a sub-block"
        raise ValueError(
            f"to_static: the returned value {value.name!r} was computed at {where}, inside an "
            f"if/loop whose condition is a Tensor, and left it through a Python object "
            f"changed where the converter cannot see it (in a called function, for "
            f"example); assign it to a variable, or change the object in the if/loop body "
            f"itself")


def _check_no_new_parameters(qualname, program, state):
    """Raise when the traced function created a parameter (a Layer made inside it): eagerly
    it would be new at every call, and a Program has nothing to feed it from."""
    fed = {name for name, _ in state}
    for param in program.global_block().all_parameters():
        if param.name in fed:
            continue
        origin = next((op.origin for block in program.blocks for op in block.ops
                       if param.name in op.input_arg_names and op.origin), None)
        where = f" (used at {origin[0]}:{origin[1]}: {origin[3].strip()})" if origin else ""
        raise ValueError(
            f"to_static: {qualname} creates parameter {param.name!r} while it runs{where}; "
            f"a converted function can only use parameters that exist before the call: "
            f"create the Layer in __init__ (or outside the function)")


def _all_leaves(obj):
    """Every non-container value of a nested list/tuple/dict."""
    if isinstance(obj, (list, tuple)):
        return [leaf for item in obj for leaf in _all_leaves(item)]
    if isinstance(obj, dict):
        return [leaf for item in obj.values() for leaf in _all_leaves(item)]
    return [obj]


_PLAIN = {Tensor}


def _arrays_as_tensors(obj):
    """`obj` with each NumPy array (in lists/tuples/dicts) made a Tensor: as in Paddle,
    array arguments are program inputs, not constants."""
    return map_tensors(Tensor, obj, np.ndarray)


def _tensor_leaves(args, kwargs):
    """The Tensors among the arguments, in order (plain Tensor arguments: no walk; the
    class test runs in C)."""
    if not kwargs and set(map(type, args)) <= _PLAIN:
        return list(args)
    return [t for t in leaves((args, kwargs)) if isinstance(t, Tensor)]


class StaticFunction:
    """A function (or Layer method) that runs as a static Program built on first call."""

    def __init__(self, function, input_spec=None, build_strategy=None, full_graph=True,
                 property=False):
        if isinstance(function, types.MethodType):
            # Weak: per-instance StaticFunctions live in a WeakKeyDictionary keyed by the instance.
            self._fn, self._instance_ref = function.__func__, weakref.ref(function.__self__)
        else:
            self._fn, self._instance_ref = function, lambda: None
        self._input_spec = list(input_spec) if input_spec is not None else None
        self._build_strategy = build_strategy
        self._full_graph = full_graph
        self._property = property
        self._training = True
        self._cache = ProgramCache()
        self._bound = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, self._fn)
        self._signature = CallSignature(self._fn, skip_self=self._instance is not None)
        self._signature.check_input_spec(self._input_spec)
        self._arg_names = self._signature.names
        self._traces = report.TraceLog(self._fn.__qualname__, self._arg_names)
        self._segments = SegmentedCalls(self, _tensor_leaves)

    def _options(self):
        """The decoration's arguments, to make another StaticFunction of the same kind."""
        return dict(input_spec=self._input_spec, build_strategy=self._build_strategy,
                    full_graph=self._full_graph, property=self._property)

    @property
    def _instance(self):
        """The layer (or object) this function is bound to, or None."""
        instance = self._instance_ref()
        if instance is None and isinstance(self._instance_ref, weakref.ref):
            raise RuntimeError(
                f"{self._fn.__qualname__}: the object this to_static method was bound to "
                f"has been deleted (as in `MyClass().method(x)`); keep a reference to it")
        return instance

    def __get__(self, instance, owner):
        if instance is None or self._instance is not None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = self._bound[instance] = StaticFunction(
                types.MethodType(self._fn, instance), **self._options())
        return bound

    def __deepcopy__(self, memo):
        """A copy bound to the copy of its layer (`copy.deepcopy(to_static(net))`), with no
        programs yet: the copied programs and the weak link would run the original layer.
        A plain function copies as its original function, as in Paddle."""
        instance = self._instance
        if instance is None:
            return self._fn
        return StaticFunction(types.MethodType(self._fn, memo.get(id(instance), instance)),
                              **self._options())

    def _bind(self, fn):
        return fn if self._instance is None else types.MethodType(fn, self._instance)

    @property
    def dygraph_function(self):
        """The original Python function (bound to its layer for methods)."""
        return self._bind(self._fn)

    def converted_callable(self):
        """The converted function (bound to its layer for methods); under full_graph=False a
        function that cannot be converted (no source, a generator) runs as written, and its
        graph breaks where Python needs a value."""
        if self._full_graph:
            return self._bind(convert_function(self._fn))
        return self._bind(convert_or_keep(self._fn))

    @property
    def code(self):
        """Source of the converted function."""
        return convert_function(self._fn).__sampan_code__

    @property
    def program_cache(self):
        """The programs built so far by signature key (a `ProgramCache`)."""
        return self._cache

    @property
    def concrete_program(self):
        """The program of the input_spec, else of the most recent call."""
        return self.concrete_program_specify_input_spec()

    @property
    def class_instance(self):
        """The layer (or object) a method is bound to; None for a plain function."""
        return self._instance

    @property
    def is_property(self):
        """True when decorated with `property=True`: called, it runs as plain Python."""
        return self._property

    def train(self):
        """Build and run the programs of a plain function in training mode (the default)."""
        self._set_training(True)

    def eval(self):
        """Build and run the programs of a plain function in inference mode: its ops with
        an `is_test` attribute (dropout, batch_norm) behave as at inference."""
        self._set_training(False)

    def _set_training(self, training):
        layer = self._instance
        if isinstance(layer, Layer) and layer.training != training:
            switch = "train" if training else "eval"
            raise RuntimeError(
                f"cannot switch {self._fn.__qualname__} to {switch} mode: it is a method of "
                f"{type(layer).__name__}; call the layer's {switch}() instead")
        self._training = training

    def get_traced_count(self):
        """How many input signatures have been traced (one Program each, or under
        full_graph=False one tree of segments when the function breaks its graph, or one
        signature that runs eagerly)."""
        return len(self._cache) + len(self._segments)

    def concrete_program_specify_input_spec(self, input_spec=None, with_hook=False,
                                            is_prim_infer=False):
        """The ConcreteProgram of `input_spec` (the decoration's own spec wins when it has
        one), else of the most recent call."""
        check_spec_list(input_spec, "concrete_program_specify_input_spec")
        self._require_dynamic_mode("the concrete_program of")
        spec = self._input_spec if self._input_spec is not None else input_spec
        if spec is not None:
            return self._concrete(*self._bind_call(list(spec), {}))
        last = self._cache.last_program()
        if last is None:
            if self._segments.last_call is not None:
                self._segments.no_program()
            raise ValueError(f"no program of {self._fn.__qualname__} yet: call it first or "
                             f"give input_spec to to_static")
        return last

    @property
    def main_program(self):
        """The Program of `concrete_program`."""
        return self.concrete_program.main_program

    @property
    def inputs(self):
        """The data Variables of `concrete_program`."""
        return list(self.concrete_program.inputs)

    @property
    def outputs(self):
        """The output Variables of `concrete_program`, flattened."""
        return [v for v in _all_leaves(self.concrete_program.outputs) if is_variable(v)]

    def _key(self, args, kwargs):
        layer = self._instance
        modes = layer._training_flags() if isinstance(layer, Layer) else self._training
        return value_key(tuple(args)), value_key(kwargs) if kwargs else (), modes

    def get_concrete_program(self, *args, **kwargs):
        """(ConcreteProgram, the layer running it) for these arguments, as Paddle returns
        them; the program is built on a cache miss."""
        self._require_dynamic_mode("get_concrete_program of")
        program = self._concrete(*self._bind_call(args, kwargs))
        return program, program.partial_program

    def _bind_call(self, args, kwargs):
        """The call's arguments with one positional value per parameter (`CallSignature`)."""
        return self._signature.bind(args, kwargs, self._input_spec is not None)

    def _require_dynamic_mode(self, what):
        """Raise when Paddle's static mode is on: a to_static function traces and runs its
        own Program from dynamic mode."""
        if getattr(current_mode(), "is_static", False):
            raise RuntimeError(
                f"{what} to_static function {self._fn.__qualname__} is only available in "
                f"dynamic mode, and static mode is on; call paddle.disable_static() first")

    def _concrete(self, args, kwargs):
        """The ConcreteProgram for these bound arguments (built on a cache miss)."""
        if self._input_spec is not None:
            args = with_specs(args, self._input_spec, self._arg_names)
        key = self._key(args, kwargs)
        program = self._cache.get(key)
        if program is None:
            log.event(1, f"to_static: tracing {self._fn.__qualname__} (program "
                         f"#{len(self._cache) + 1})")
            program = self._build(args, kwargs)
            self._cache.add(key, program)
        elif log.enabled(2):
            log.event(2, f"to_static: cached program of {self._fn.__qualname__}")
        return program

    def _build(self, args, kwargs):
        """Trace the converted function into a new Program (under full_graph=False, a graph
        break here has no values to run on and raises GraphBreakError naming it)."""
        breaks = None if self._full_graph else self._segment_builder(None)
        return self._concrete_of(self._trace(args, kwargs, breaks))

    def _concrete_of(self, traced):
        """The ConcreteProgram of a trace (main, startup, input names, outputs, state,
        arguments)."""
        main, startup, input_names, outputs, state, arguments, final_names = traced
        translate_origins(main)
        _check_escaped(main, outputs)
        _check_no_new_parameters(self._fn.__qualname__, main, state)
        if not self._training and not isinstance(self._instance, Layer):
            mark_test(main)
        # by name: an in-place op on an input (x.add_(y)) hands its Variable object over to
        # the result, while the data Variable keeps its name
        block = main.global_block()
        inputs = [block.var(name) for name in input_names]
        stores = find_stores(self._instance, main, self._fn.__qualname__)
        written = [(input_names.index(name), block.var(final))
                   for name, final in written_inputs(block, input_names, final_names)]
        return ConcreteProgram(main, startup, inputs, outputs, state, self._build_strategy,
                               arguments, self._is_training(), stores, written)

    @gc_paused
    def _trace(self, args, kwargs, breaks=None, guard=None):
        """Run the converted function on static Variables; (main, startup, input names,
        outputs, state, (args, kwargs) as traced, the names the inputs' Variables ended
        with: an in-place op on an input renames it). `breaks`, a SegmentBuilder, cuts the
        Program where Python needs a value (full_graph=False); `guard` names the failed
        graph-break guard that caused this trace, if one did (for the report)."""
        trace = self._traces.begin(self._key(args, kwargs), guard)
        main, startup = Program(), Program()
        input_names, data_vars = [], []
        names = iter(data_names(args, kwargs, self._arg_names))

        def make_data(leaf):
            var = static.data(next(names), leaf.shape, leaf.dtype)
            var.stop_gradient = leaf.stop_gradient
            input_names.append(var.name)
            data_vars.append(var)
            return var
        fn = self.converted_callable()
        try:
            # traced with gradients on, so the program does not depend on whether the
            # caller ran under no_grad (run_program decides that per call)
            with static.program_guard(main, startup), mode_guard(STATIC), enable_grad(), \
                    report.recording(trace, breaks), \
                    _static_state(self._instance, main.global_block()) as state, \
                    (breaks.tracing(main, state, input_names, data_vars) if breaks is not None
                     else contextlib.nullcontext()):
                static_args = map_tensors(make_data, args)
                static_kwargs = map_tensors(make_data, kwargs)
                outputs = _check_outputs(_arrays_as_variables(fn(*static_args,
                                                                 **static_kwargs)))
                if breaks is not None:
                    breaks.returned(outputs, owners(self._instance))
        except Exception as exc:
            attach_user_frames(exc)
            raise
        return main, startup, input_names, outputs, state, (static_args, static_kwargs), \
            [var.name for var in data_vars]

    def __call__(self, *args, **kwargs):
        if not _Switch.enabled or self._property:
            return self.dygraph_function(*args, **kwargs)
        self._require_dynamic_mode("calling")
        args, kwargs = self._bind_call(args, kwargs)
        if kwargs or not set(map(type, args)) <= _PLAIN:
            args, kwargs = _arrays_as_tensors(args), _arrays_as_tensors(kwargs)
        if not self._full_graph:
            return self._segments.call(args, kwargs)
        program = self._concrete(args, kwargs)
        return program.partial_program(_tensor_leaves(args, kwargs))

    def _segment_builder(self, live):
        """A SegmentBuilder for one trace (`live`: the call's input tensors, or None)."""
        return SegmentBuilder(self._fn.__qualname__, live, self._is_training(),
                              GRAD_STATE.enabled, self._build_strategy)

    def _is_training(self):
        layer = self._instance
        return layer.training if isinstance(layer, Layer) else self._training

    @property
    def full_graph(self):
        """False when Python reading a tensor's value breaks the graph into segments
        instead of raising (Paddle 3's default)."""
        return self._full_graph

    @property
    def graph_breaks(self):
        """The graph breaks of the most recent call, in order (GraphBreak: file, line,
        function, source text, operation); empty when it ran one Program."""
        return self._segments.last_breaks

    @property
    def last_call(self):
        """CallStats of the most recent call: segments run, whether it traced."""
        return self._segments.last_call

    def report(self):
        """A ConversionReport of the traces so far: per construct of the source (file:line)
        what it became (cond op, while op, Python if, unrolled loop, tensor array,
        static_pylayer, kept Python, graph break) and why, and why each trace happened.
        `print(fn.report())` shows it as a table."""
        return self._traces.report()

    def rollback(self):
        """Undo to_static on the object this method is bound to (`net.forward`, or a method
        decorated in its class): that attribute of the object is its original method again.
        Returns the original function (bound for a method)."""
        instance = self._instance
        if instance is not None:
            names = [k for k, v in vars(instance).items() if v is self] or [self._fn.__name__]
            for name in names:
                vars(instance).pop(name, None)
                if isinstance(inspect.getattr_static(instance, name, None), StaticFunction):
                    vars(instance)[name] = self.dygraph_function
        return self.dygraph_function

"""jit.save / jit.load: trace a Layer or function in eval mode, write an inference model,
load it back as a TranslatedLayer (see docs/save_load.md)."""
import contextlib
import inspect
import os

import numpy as np

from ..eager.tensor import Tensor
from ..inference.export import export_method, save_model
from ..inference.model_format import load_model, resolve_files
from ..nn.layer.layers import Layer
from ..static.input_spec import InputSpec
from .cache import check_spec_list
from .partial_program import leaves, map_tensors
from .program_translator import StaticFunction
from .translated_layer import TranslatedLayer

__all__ = ["save", "load"]

# Paddle's other jit.save configs: accepted with no effect (parameters are always saved in
# one file, programs carry no extra attributes, and unused inputs are kept)
_IGNORED_CONFIGS = {"combine_params", "clip_extra", "with_hook", "skip_prune_program",
                    "separate_parameters", "input_names_after_prune", "skip_forward"}


def _as_spec(value):
    """An InputSpec for a Tensor or ndarray example input; other values unchanged."""
    if isinstance(value, Tensor):
        return InputSpec(value.shape, value.dtype)
    if isinstance(value, np.ndarray):
        return InputSpec.from_numpy(value)
    return value


def _targets(obj, input_spec):
    """[(method name, StaticFunction, explicit specs or None)] to save, forward first."""
    if isinstance(obj, Layer):
        forward = obj.forward
        if not isinstance(forward, StaticFunction):
            forward = StaticFunction(forward)
        found = [("forward", forward, input_spec)]
        for name in sorted(set(dir(type(obj))) | set(vars(obj))):
            if name != "forward" and isinstance(inspect.getattr_static(obj, name, None),
                                                StaticFunction):
                found.append((name, getattr(obj, name), None))
        return found
    if isinstance(obj, StaticFunction):
        return [("forward", obj, input_spec)]
    if callable(obj):
        return [("forward", StaticFunction(obj), input_spec)]
    raise TypeError(f"jit.save expects a Layer or a function, got {type(obj).__name__}")


@contextlib.contextmanager
def _eval_mode(obj):
    """Put a Layer tree in eval mode; restore every sublayer's own mode afterwards."""
    modes = ([(sub, sub.training) for sub in obj.sublayers(include_self=True)]
             if isinstance(obj, Layer) else [])
    for sub, _ in modes:
        sub.training = False
    try:
        yield
    finally:
        for sub, training in modes:
            sub.training = training


def _arguments_of(function, specs):
    """(args, kwargs) to trace with: the explicit specs, else the arguments of the function's
    input_spec or last call, each tensor an InputSpec (Python values as they were)."""
    if specs is not None:
        return [map_tensors(_as_spec, s) if isinstance(s, (list, tuple, dict)) else
                _as_spec(s) for s in specs], {}
    try:
        program = function.concrete_program
    except ValueError as exc:
        called = getattr(function, "last_call", None) is not None  # it ran segments
        raise ValueError(f"jit.save: {exc}" if called else
                         f"jit.save: {function.__name__!r} has no input_spec and was never "
                         f"called; pass input_spec=[InputSpec(...)]") from None
    args, kwargs = map_tensors(_spec_of_variable, program.arguments)
    return list(args), kwargs


def _spec_of_variable(var):
    """The InputSpec of a traced data Variable (unknown dims None, no name)."""
    return InputSpec([None if d < 0 else d for d in var.shape], var.dtype, None,
                     var.stop_gradient)


def _input_names(function, specs, data_vars):
    """{data var name: wanted name}: InputSpec names, else argument names."""
    spec_leaves = [s for s in leaves(specs) if isinstance(s, InputSpec)]
    try:
        params = list(inspect.signature(function.dygraph_function).parameters)
    except (TypeError, ValueError):
        params = []
    wanted = {}
    for k, var in enumerate(data_vars):
        name = spec_leaves[k].name if k < len(spec_leaves) else None
        if name is None and len(data_vars) == len(specs) == len(params[:len(specs)]):
            name = params[k]
        if isinstance(name, str) and name:
            wanted[var.name] = name
    return wanted


def _select_outputs(function, outputs, output_spec):
    """The outputs kept by `output_spec`: indices into the flat outputs, names, Variables,
    or output Tensors of an earlier call (found by position when that call ran another
    program of the function, e.g. the training-mode one). One kept output is returned bare,
    so the loaded layer returns a Tensor, as in Paddle."""
    if output_spec is None:
        return outputs
    flat = leaves(outputs)
    chosen = []
    for item in output_spec:
        if isinstance(item, int):
            chosen.append(flat[item])
            continue
        name = item if isinstance(item, str) else getattr(item, "name", None)
        matches = [v for v in flat if v.name == name]
        index = _output_position(function, name)
        if not matches and index is None:
            raise ValueError(f"jit.save: output_spec entry {_describe(item)} is not an "
                             f"output of {function.__name__!r}")
        chosen.append(matches[0] if matches else flat[index])
    return chosen[0] if len(chosen) == 1 else chosen


def _output_position(function, name):
    """Position of output `name` among the flat outputs of a program the function built."""
    for program in function.program_cache.concrete_programs():
        names = [getattr(v, "name", None) for v in leaves(program.outputs)]
        if name in names:
            return names.index(name)
    return None


def _describe(item):
    """Short text for an output_spec entry in errors."""
    name = getattr(item, "name", None)
    return f"{type(item).__name__} {name!r}" if name else repr(item)


def _trace(name, function, specs, output_spec):
    """(ExportedMethod, {var name: array}) for one method traced with `specs`."""
    specs, kwargs = _arguments_of(function, specs)
    program, _ = function.get_concrete_program(*specs, **kwargs)
    feeds = [v.name for v in program.inputs]
    outputs = _select_outputs(function, program.outputs, output_spec)
    renames = _input_names(function, specs, program.inputs)
    exported = export_method(name, program.main_program, feeds, outputs, renames)
    _keep_origins(program.main_program, exported.program)
    return exported, {n: t.numpy() for n, t in program.state}


def _keep_origins(traced, pruned):
    """Give the pruned program's ops the user source lines of the traced ones (a pruned
    copy has none), so errors about the exported program can point at the user's code."""
    origins = {_op_key(op): op.origin for block in traced.blocks for op in block.ops}
    for block in pruned.blocks:
        for op in block.ops:
            op.origin = origins.get(_op_key(op), op.origin)


def _op_key(op):
    return op.type, tuple(n for names in op.outputs.values() for n in names)


def trace_forward(layer, input_spec=None, output_spec=None, api="jit.save"):
    """(ExportedMethod, {name: array}) of the forward method as jit.save writes it (traced
    in eval mode and pruned); a loaded TranslatedLayer gives its program as it is."""
    check_spec_list(input_spec, api)
    if isinstance(layer, TranslatedLayer):
        methods, values = _export_translated(layer)
        return methods[0], values
    with _eval_mode(layer):
        name, function, specs = _targets(layer, input_spec)[0]
        return _trace(name, function, specs, output_spec)


def save(layer, path, input_spec=None, output_spec=None, **configs):
    """Save `layer` (a Layer or function) for inference as `path.pdmodel` + `path.pdiparams`.

    Traces in eval mode; extra `@to_static` methods of a Layer go to `path.<method>.pdmodel`
    and share the parameter file. Files are replaced atomically. `format="paddle"` writes
    Paddle 3's `path.json` + `path.pdiparams` instead (the forward method), which Paddle
    Inference serves (docs/interop.md).
    """
    file_format = configs.pop("format", "sampan")
    unknown = set(configs) - _IGNORED_CONFIGS
    if unknown:
        raise TypeError(f"jit.save got unsupported config(s) {sorted(unknown)}")
    if file_format not in ("sampan", "paddle"):
        raise ValueError(f"jit.save: format must be 'sampan' or 'paddle', got {file_format!r}")
    check_spec_list(input_spec, "jit.save")
    if isinstance(layer, TranslatedLayer):
        methods, values = _export_translated(layer)
    else:
        methods, values = [], {}
        with _eval_mode(layer):
            for name, function, specs in _targets(layer, input_spec):
                exported, state = _trace(name, function, specs,
                                         output_spec if name == "forward" else None)
                methods.append(exported)
                values.update(state)
    if file_format == "paddle":
        from ..interop.paddle.pir_writer import write_pir_model
        write_pir_model(os.fspath(path), methods[0], values)
        return
    save_model(os.fspath(path), methods, values)


def _export_translated(layer):
    """A loaded layer's programs as they are, with its current (maybe fine-tuned) values."""
    methods = [export_method(name, saved.program, [n for n, _, _ in saved.inputs],
                             saved.structure)
               for name, saved in layer.saved_methods().items()]
    return methods, {name: t.numpy() for name, t in layer.state_dict().items()}


def load(path, **configs):
    """Load what `jit.save` wrote as a TranslatedLayer (fine-tunable, runs as one program).

    `model_filename` / `params_filename` configs name the files inside directory `path`.
    """
    unknown = set(configs) - {"model_filename", "params_filename"}
    if unknown:
        raise TypeError(f"jit.load got unsupported config(s) {sorted(unknown)}")
    methods, params = load_model(*resolve_files(path, **configs))
    return TranslatedLayer(methods, params)

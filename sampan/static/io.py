"""save_inference_model / load_inference_model: static Programs in the inference model files
that jit.save writes (`<prefix>.pdmodel` + `<prefix>.pdiparams`); and the in-memory forms
Paddle offers beside them: normalize_program, serialize_program / deserialize_program (the
versioned `sampan.program` JSON, as bytes), serialize_persistables /
deserialize_persistables (a {name: array} table in the safe state format, as bytes) and
save_to_file / load_from_file."""
import os

import numpy as np

from ..executor.scope import global_scope
from ..inference.export import export_method, save_model
from ..inference.model_format import load_model, resolve_files
from ..inference.prune import prune_program
from ..serialization import CorruptFileError, atomic_write, dumps_tree, loads_tree
from .framework import Variable
from .persist import _assign, _check_program, _persistables, _scope_arrays
from .program_state import default_main_program
from .serialize import ProgramFormatError, program_from_json, program_to_json

__all__ = ["save_inference_model", "load_inference_model", "normalize_program",
           "serialize_program", "deserialize_program", "serialize_persistables",
           "deserialize_persistables", "save_to_file", "load_from_file"]


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _scope_values(names, scope):
    """{name: array} of the initialized scope variables among `names`."""
    values = {}
    for name in names:
        found = scope.find_var(name)
        if found is not None and found.is_initialized():
            values[name] = np.asarray(found.get_tensor())
    return values


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, program=None, **kwargs):
    """Prune `program` to feed_vars -> fetch_vars and write it with the parameter values of
    the global scope. Without `program`, the program the fetch variables belong to (so a
    model built under `program_guard` saves without naming its program again)."""
    fetch_vars = _as_list(fetch_vars)
    if program is None:
        block = getattr(fetch_vars[0], "block", None) if fetch_vars else None
        program = block.program if block is not None else default_main_program()
    feeds = [v if isinstance(v, str) else v.name for v in _as_list(feed_vars)]
    exported = export_method("forward", program, feeds, fetch_vars)
    save_model(os.fspath(path_prefix), [exported],
               _scope_values(exported.parameters, global_scope()))


def load_inference_model(path_prefix, executor, **kwargs):
    """[program, feed_target_names, fetch_targets]; parameters go into the global scope.

    `model_filename` / `params_filename` name the files inside directory `path_prefix`.
    """
    model_file, params_file, _ = resolve_files(path_prefix, kwargs.get("model_filename"),
                                               kwargs.get("params_filename"))
    methods, params = load_model(model_file, params_file)
    (method,) = methods.values()
    scope = global_scope()
    for name, array in params.items():
        scope.var(name).get_tensor().set(array)
    block = method.program.global_block()
    return [method.program, [n for n, _, _ in method.inputs],
            [block.var(n) for n in method.outputs]]


def _var_list(value, what, api):
    """A non-empty list of Variables from one Variable or a list/tuple of them."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not items or not all(isinstance(v, Variable) for v in items):
        raise TypeError(f"static.{api}(): argument '{what}' must be a Variable or a "
                        f"non-empty list of Variables, got {value!r}")
    return items


def _check_bytes(data, what, api):
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"static.{api}(): argument '{what}' must be bytes, got "
                        f"{type(data).__name__}")


def normalize_program(program, feed_vars, fetch_vars, **kwargs):
    """A copy of `program` cut down to what computes `fetch_vars` from `feed_vars`, in
    inference form (is_test on, backward and optimizer ops dropped)."""
    _check_program(program, "normalize_program")
    feeds = _var_list(feed_vars, "feed_vars", "normalize_program")
    fetches = _var_list(fetch_vars, "fetch_vars", "normalize_program")
    pruned, _ = prune_program(program, [v.name for v in feeds], [v.name for v in fetches])
    return pruned


def _normalized(feed_vars, fetch_vars, kwargs, api):
    """normalize_program of kwargs['program'] (default: the default main program)."""
    program = kwargs.get("program")
    program = default_main_program() if program is None else program
    _check_program(program, api)
    return normalize_program(program, feed_vars, fetch_vars)


def serialize_program(feed_vars, fetch_vars, **kwargs):
    """The normalized program (kwargs['program'], default the main program) as bytes."""
    program = _normalized(feed_vars, fetch_vars, kwargs, "serialize_program")
    return program_to_json(program).encode("utf-8")


def deserialize_program(data):
    """The Program of bytes written by serialize_program (ProgramFormatError if they are
    not one)."""
    _check_bytes(data, "data", "deserialize_program")
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProgramFormatError(f"deserialize_program(): data is not a serialized program "
                                 f"({exc})") from None
    return program_from_json(text)


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs):
    """The values (from the global scope) of the normalized program's persistable
    variables, as bytes in the safe state format."""
    program = _normalized(feed_vars, fetch_vars, kwargs, "serialize_persistables")
    params, others = _persistables(program)
    return dumps_tree(_scope_arrays(params + others, global_scope()))


def deserialize_persistables(program, data, executor):
    """Put the values of bytes written by serialize_persistables into the global scope for
    `program`'s persistable variables; every one must be there with its declared shape and
    dtype (nothing is written otherwise)."""
    _check_program(program, "deserialize_persistables")
    _check_bytes(data, "data", "deserialize_persistables")
    state = loads_tree(bytes(data))
    if not isinstance(state, dict) or not all(
            isinstance(k, str) and isinstance(v, np.ndarray) for k, v in state.items()):
        raise CorruptFileError("deserialize_persistables(): data is not a {name: array} "
                               "table of variable values")
    params, others = _persistables(program)
    missing = [v.name for v in params + others if v.name not in state]
    if missing:
        raise KeyError(f"deserialize_persistables(): data has no value for the program's "
                       f"persistable variables {missing}")
    _assign(params + others, state, "the serialized data")


def save_to_file(path, content):
    """Write bytes `content` to `path` (atomically)."""
    _check_bytes(content, "content", "save_to_file")
    atomic_write(os.fspath(path), lambda file: file.write(content))


def load_from_file(path):
    """The bytes stored at `path`."""
    with open(os.fspath(path), "rb") as file:
        return file.read()

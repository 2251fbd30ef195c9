"""save_inference_model / load_inference_model: static Programs in the inference model files
that jit.save writes (`<prefix>.pdmodel` + `<prefix>.pdiparams`)."""
import os

import numpy as np

from ..executor.scope import global_scope
from ..inference.export import export_method, save_model
from ..inference.model_format import load_model, resolve_files
from .program_state import default_main_program

__all__ = ["save_inference_model", "load_inference_model"]


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

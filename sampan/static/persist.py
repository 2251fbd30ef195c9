"""save / load / load_program_state / set_program_state: a Program's persistable values.

`<prefix>.pdparams` holds the parameters and `<prefix>.pdopt` every other persistable
variable (optimizer accumulators, the learning rate, step counters), each as
{name: array} in the safe state format, so `paddle.load(path, return_numpy=True)` reads
them too; `<prefix>.pdmodel` holds the Program as versioned JSON. Every file is written
atomically. Values come from and go to the global scope (`static.global_scope()`, which
`scope_guard` changes), the scope `Executor.run` uses when given none.
"""
import os
import warnings

import numpy as np

from ..executor.scope import global_scope
from ..serialization import CorruptFileError, atomic_open, load_tree, save_tree
from .framework import Parameter, Program
from .serialize import program_to_json

__all__ = ["save", "load", "load_program_state", "set_program_state"]

_SUFFIXES = (".pdparams", ".pdopt", ".pdmodel")


def _check_program(program, api):
    if not isinstance(program, Program):
        raise TypeError(f"static.{api}(): program must be a static Program, got "
                        f"{type(program).__name__}")


def _persistables(program):
    """(parameters, other persistable variables) of `program`, one per name."""
    params, others, seen = [], [], set()
    for var in program.list_vars():
        if var.persistable and not var.is_data and var.name not in seen:
            seen.add(var.name)
            (params if isinstance(var, Parameter) else others).append(var)
    return params, others


def _scope_arrays(variables, scope):
    values = {}
    for var in variables:
        found = scope.find_var(var.name)
        if found is None or not found.is_initialized():
            raise ValueError(f"static.save(): persistable variable {var.name!r} has no value "
                             f"in the scope; run the startup program first")
        values[var.name] = np.asarray(found.get_tensor())
    return values


def save(program, model_path, protocol=4, **configs):
    """Write `program`'s parameters (`model_path + '.pdparams'`), its other persistable
    variables (`.pdopt`) and the program itself (`.pdmodel`).

    Args:
        program (Program): whose persistable variables to save; their values are read
            from the global scope.
        model_path (str): "dirname/file_prefix"; missing folders are created.
        protocol (int): accepted for Paddle compatibility (2 to 4); the files are
            pickle-free whatever its value.

    Example:
        >>> exe.run(startup_program)
        >>> paddle.static.save(main_program, "./ckpt/model")
    """
    _check_program(program, "save")
    model_path = os.fspath(model_path)
    if not os.path.basename(model_path):
        raise ValueError(f"static.save(): model_path must be 'dirname/file_prefix', got "
                         f"{model_path!r}, whose file prefix is empty")
    if type(protocol) is not int or not 2 <= protocol <= 4:
        raise ValueError(f"static.save(): protocol must be an int from 2 to 4, got "
                         f"{protocol!r}")
    params, others = _persistables(program)
    scope = global_scope()
    param_values, other_values = _scope_arrays(params, scope), _scope_arrays(others, scope)
    folder = os.path.dirname(model_path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    save_tree(param_values, model_path + ".pdparams")
    save_tree(other_values, model_path + ".pdopt")
    with atomic_open(model_path + ".pdmodel", "w") as file:
        file.write(program_to_json(program))


def _prefix(model_path):
    model_path = os.fspath(model_path)
    for suffix in _SUFFIXES:
        if model_path.endswith(suffix):
            return model_path[:-len(suffix)]
    return model_path


def _read_state(path):
    """{name: array} stored at `path`; raises FileNotFoundError or CorruptFileError."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such state file: {path!r} (written by "
                                f"paddle.static.save)")
    state = load_tree(path)
    if not isinstance(state, dict) or not all(
            isinstance(k, str) and isinstance(v, np.ndarray) for k, v in state.items()):
        raise CorruptFileError(f"{path!r} is a state file but not a {{name: array}} table "
                               f"of variable values")
    return state


def _var_names(var_list):
    return [v if isinstance(v, str) else v.name for v in var_list]


def load_program_state(model_path, var_list=None):
    """{name: numpy array} of the values `static.save` wrote under `model_path` (its
    `.pdparams` plus, when present, its `.pdopt`).

    Args:
        model_path (str): the prefix given to `save` (a path ending in `.pdparams`,
            `.pdopt` or `.pdmodel` is accepted too).
        var_list (list|None): Variables or names to return; all when None.
    """
    prefix = _prefix(model_path)
    state = _read_state(prefix + ".pdparams")
    if os.path.exists(prefix + ".pdopt"):
        state.update(_read_state(prefix + ".pdopt"))
    if var_list is None:
        return state
    names = _var_names(var_list)
    missing = [n for n in names if n not in state]
    if missing:
        raise KeyError(f"load_program_state(): {missing} not found in the files under "
                       f"{prefix!r}")
    return {n: state[n] for n in names}


def _assign(variables, values, source):
    """Check every value against its variable's declared shape and dtype, then copy them
    all into the global scope (nothing is written when any check fails)."""
    for var in variables:
        array = values[var.name]
        declared = var.shape
        if len(declared) != array.ndim or any(d >= 0 and d != n
                                               for d, n in zip(declared, array.shape)):
            raise ValueError(f"variable {var.name!r}: shape {list(array.shape)} in {source} "
                             f"does not match the program's shape {declared}")
        if array.dtype != var.dtype.np:
            raise ValueError(f"variable {var.name!r}: dtype {array.dtype} in {source} does "
                             f"not match the program's dtype {np.dtype(var.dtype.np)}")
    scope = global_scope()
    for var in variables:
        holder = scope.find_var(var.name) or scope.var(var.name)
        holder.get_tensor().set(values[var.name])


def _chosen(params, others, var_list):
    """(params, others) narrowed to the Variables or names of `var_list` (all when None)."""
    if var_list is None:
        return params, others
    names = set(_var_names(var_list))
    unknown = names - {v.name for v in params + others}
    if unknown:
        raise ValueError(f"static.load(): var_list names {sorted(unknown)}, which are not "
                         f"persistable variables of the program")
    return [v for v in params if v.name in names], [v for v in others if v.name in names]


def _from_file(variables, path):
    """{name: array} for `variables` from the state file at `path`; every one must be
    there."""
    state = _read_state(path)
    missing = [v.name for v in variables if v.name not in state]
    if missing:
        raise KeyError(f"static.load(): {path!r} has no value for the program's variables "
                       f"{missing}")
    return state


def load(program, model_path, executor=None, var_list=None):
    """Restore `program`'s persistable variables from the files `static.save` wrote: the
    parameters from `.pdparams` and, when the program has other persistables (optimizer
    accumulators), those from `.pdopt`. Values go into the global scope; the startup
    program need not have run.

    Args:
        program (Program): whose variables to restore.
        model_path (str): the prefix given to `save`.
        executor (Executor|None): accepted for Paddle compatibility; values always go to
            the global scope (use `static.scope_guard` to choose another).
        var_list (list|None): Variables or names to restore; all when None.

    Raises:
        ValueError naming the variable when a stored shape or dtype differs from the
        program's; KeyError when a variable is missing from the files; CorruptFileError
        for a damaged or truncated file.
    """
    _check_program(program, "load")
    prefix = _prefix(model_path)
    params, others = _chosen(*_persistables(program), var_list)
    values = _from_file(params, prefix + ".pdparams") if params else {}
    if others:
        values.update(_from_file(others, prefix + ".pdopt"))
    _assign(params + others, values, f"the files under {prefix!r}")


def set_program_state(program, state_dict):
    """Put the values of `state_dict` ({name: array}, as `load_program_state` returns)
    into the global scope for the persistable variables of `program` it names. Keys that
    are not persistable variables of the program are reported in a warning.

    Raises:
        ValueError naming the variable when a shape or dtype differs from the program's.
    """
    _check_program(program, "set_program_state")
    if not isinstance(state_dict, dict):
        raise TypeError(f"set_program_state(): state_dict must be a dict of name -> array, "
                        f"got {type(state_dict).__name__}")
    params, others = _persistables(program)
    chosen = [v for v in params + others if v.name in state_dict]
    values = {v.name: np.asarray(state_dict[v.name]) for v in chosen}
    _assign(chosen, values, "state_dict")
    unused = sorted(set(state_dict) - set(values))
    if unused:
        warnings.warn(f"set_program_state(): {unused} are not persistable variables of the "
                      f"program and were not set", stacklevel=2)

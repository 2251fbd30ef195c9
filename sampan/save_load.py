"""`sampan.save` / `sampan.load`: state dicts and nested containers in the safe state format.

Tensors are stored as arrays tagged with their kind, name and stop_gradient; loading
rebuilds Tensors (or NumPy arrays with `return_numpy=True`) and never executes code. The
LoDTensors of a static Program's `state_dict()` come back as LoDTensors, as in Paddle.
`format="paddle"` writes Paddle's pickle instead, and `load` reads files `paddle.save`
wrote (through `interop.paddle`'s restricted unpickler, which never runs code either).
"""
import os
import sys

import numpy as np

from .eager.tensor import Parameter, Tensor
from .executor.scope import LoDTensor
from .serialization import load_tree, save_tree

__all__ = ["save", "load"]


def _to_record(obj):
    """(array, tag) for a Tensor, NumPy array or NumPy scalar; None for other leaves."""
    if isinstance(obj, Tensor):
        kind = "parameter" if isinstance(obj, Parameter) else "tensor"
        return obj.numpy(), {"kind": kind, "name": obj._name, "stop_gradient": obj.stop_gradient}
    if isinstance(obj, np.ndarray):
        return obj, {"kind": "ndarray"}
    if isinstance(obj, LoDTensor):  # a static Program's state_dict() entries
        return np.asarray(obj), {"kind": "lod_tensor"}
    if isinstance(obj, np.generic):
        return np.asarray(obj), {"kind": "numpy_scalar"}
    return None


# the keys of each tag kind `_to_record` writes
_TAG_KEYS = {"ndarray": {"kind"}, "numpy_scalar": {"kind"}, "lod_tensor": {"kind"},
             "tensor": {"kind", "name", "stop_gradient"},
             "parameter": {"kind", "name", "stop_gradient"}}


def _check_tag(array, tag):
    """The kind of a valid tag (None: an untagged array); ValueError naming the defect of
    any other, which the state-file reader reports as CorruptFileError."""
    if tag is None:
        return "ndarray"
    kind = tag.get("kind")
    if type(kind) is not str or kind not in _TAG_KEYS:
        raise ValueError(f"unknown tag kind {kind!r:.60}")
    if tag.keys() != _TAG_KEYS[kind]:
        raise ValueError(f"{kind} tag has keys {sorted(tag)!r:.200}, expected "
                         f"{sorted(_TAG_KEYS[kind])}")
    if kind == "numpy_scalar" and array.ndim:
        raise ValueError(f"numpy_scalar tag on an array of shape {list(array.shape)}")
    if kind in ("tensor", "parameter"):
        if type(tag["stop_gradient"]) is not bool:
            raise ValueError(f"stop_gradient must be true or false, got "
                             f"{tag['stop_gradient']!r:.60}")
        if tag["name"] is not None and type(tag["name"]) is not str:
            raise ValueError(f"tensor name must be a string or null, got {tag['name']!r:.60}")
    return kind


def _from_record(return_numpy):
    def build(array, tag):
        kind = _check_tag(array, tag)
        if kind == "numpy_scalar":
            return array[()]
        if kind == "lod_tensor" and not return_numpy:
            return LoDTensor(array)
        if kind == "ndarray" or return_numpy:
            return array
        t = Tensor(array, stop_gradient=tag["stop_gradient"])
        t._name = tag["name"]
        return t
    return build


FORMATS = ("sampan", "paddle")


def _is_program(obj):
    """True for a static Program (its module is loaded if obj is one: no import here)."""
    framework = sys.modules.get(f"{__package__}.static.framework")
    return framework is not None and isinstance(obj, framework.Program)


def _save_program(program, path):
    """Write `program`'s JSON to `path` through a temporary file (no half-written file)."""
    from .static.serialize import program_to_json
    partial = f"{path}.partial"
    with open(partial, "w", encoding="utf-8") as file:
        file.write(program_to_json(program))
    os.replace(partial, path)


def save(obj, path, protocol=4, **configs):
    """Write `obj` (a Tensor, or nested dicts/lists/tuples of tensors, arrays, numbers and
    strings; or a static Program, as its JSON) to `path` atomically.

    `format="sampan"` (the default) writes the pickle-free state-tree file;
    `format="paddle"` writes the pickle real Paddle's `paddle.load` reads (protocol 2-4).
    """
    file_format = configs.get("format", "sampan")
    if file_format not in FORMATS:
        raise ValueError(f"save: format must be one of {FORMATS}, got {file_format!r}")
    path = os.fspath(path)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    if _is_program(obj):
        _save_program(obj, path)
    elif file_format == "paddle":
        from .interop.paddle.checkpoint_writer import save_checkpoint
        save_checkpoint(obj, path, protocol)
    else:
        save_tree(obj, path, leaf_to_record=_to_record)


def load(path, **configs):
    """Read what `save` wrote (a Program for a saved Program), or a checkpoint real Paddle's
    `paddle.save` wrote (a pickle,
    read without running any code in it); `return_numpy=True` gives arrays instead of
    Tensors, `keep_name_table=True` keeps a Paddle state dict's name table."""
    path = os.fspath(path)
    return_numpy = bool(configs.get("return_numpy", False))
    with open(path, "rb") as file:
        head = file.read(2)
    if head[:1] == b"{":  # a Program saved by save()
        from .static.serialize import program_from_json
        with open(path, encoding="utf-8") as file:
            return program_from_json(file.read())
    if len(head) == 2 and head[0] == 0x80:
        from .interop.paddle.checkpoint import load_checkpoint
        return load_checkpoint(path, return_numpy, bool(configs.get("keep_name_table")))
    return load_tree(path, record_to_leaf=_from_record(return_numpy))

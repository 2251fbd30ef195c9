"""`sampan.save` / `sampan.load`: state dicts and nested containers in the safe state format.

Tensors are stored as arrays tagged with their kind, name and stop_gradient; loading
rebuilds Tensors (or NumPy arrays with `return_numpy=True`) and never executes code. The
LoDTensors of a static Program's `state_dict()` come back as LoDTensors, as in Paddle.
"""
import os

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


def save(obj, path, protocol=4, **configs):
    """Write `obj` (a Tensor, or nested dicts/lists/tuples of tensors, arrays, numbers and
    strings) to `path` atomically."""
    path = os.fspath(path)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    save_tree(obj, path, leaf_to_record=_to_record)


def load(path, **configs):
    """Read what `save` wrote; `return_numpy=True` gives arrays instead of Tensors."""
    return load_tree(os.fspath(path),
                     record_to_leaf=_from_record(bool(configs.get("return_numpy", False))))

"""Reading `paddle.save` checkpoints (`.pdparams`, `.pdopt`, any pickled structure of
tensors) with the restricted unpickler; `checkpoint_writer` writes them.

Paddle's conventions, followed both ways:
* a state dict (a dict of tensors) is pickled as {key: ndarray} plus the name table
  {"StructuredToParameterName@@": {key: tensor name}}; on load the arrays it names become
  Tensors and the table is dropped (kept with `keep_name_table=True`);
* a tensor anywhere else is pickled as `tuple((name, ndarray))` and loads as a Tensor;
* plain NumPy arrays stay arrays. `return_numpy=True` gives arrays instead of Tensors.
"""
import os
import numpy as np

from ...eager.tensor import Tensor
from ...serialization import CorruptFileError
from .restricted_pickle import PickleRefused, loads_restricted

__all__ = ["NAME_TABLE", "is_pickle", "load_checkpoint", "loads_checkpoint"]

NAME_TABLE = "StructuredToParameterName@@"


def is_pickle(head):
    """True when the first bytes of a file look like a protocol-2+ pickle."""
    return len(head) >= 2 and head[0] == 0x80 and 2 <= head[1] <= 5


def load_checkpoint(path, return_numpy=False, keep_name_table=False):
    """The structure `paddle.save` pickled into `path`, rebuilt as sampan Tensors.

    Raises CorruptFileError naming the file when it holds anything but arrays, containers
    and scalars (no code in it is ever run) or is malformed.
    """
    path = os.fspath(path)
    with open(path, "rb") as file:
        data = file.read()
    return loads_checkpoint(data, return_numpy, keep_name_table, source=path)


def loads_checkpoint(data, return_numpy=False, keep_name_table=False, source="<bytes>"):
    """`load_checkpoint` of bytes."""
    try:
        value = loads_restricted(data, (lambda name, a: a) if return_numpy else _tensor)
    except PickleRefused as exc:
        raise CorruptFileError(f"refused Paddle checkpoint {source!r}: {exc}") from None
    if type(value) is dict and type(value.get(NAME_TABLE)) is dict:
        named = value[NAME_TABLE]
        value = {k: (_named(v, named[k], return_numpy) if k in named else v)
                 for k, v in value.items() if keep_name_table or k != NAME_TABLE}
    return value


def _named(value, name, return_numpy):
    """A state-dict entry: an array named in the table becomes a Tensor of that name."""
    if return_numpy or not isinstance(value, np.ndarray):
        return value
    return _tensor(name, value)


def _tensor(name, array):
    out = Tensor(array)
    out._name = name if type(name) is str else None
    return out

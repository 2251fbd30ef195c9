"""`x.numpy()`, `x.item()`, `x.tolist()` of a static Variable in converted code.

Eagerly they read a value into Python. While a Program is built the value does not exist
yet, so under AST conversion (full graph) they stay symbolic, as in Paddle: `numpy()` is the
Variable itself and `item()` its one element, so the code after them builds ops on it
(`paddle.to_tensor(x.numpy())` is a copy op, `if x.item() > 0` a `cond` op). With
full_graph=False the method itself runs: the graph breaks there and Python gets the value.
"""
import functools

from ...core.item_index import check_item_index
from ...ops._generated import api
from ...static.framework import Variable
from ..segments import breaks

__all__ = ["value_read"]


def _numpy(var):
    """`x.numpy()`: the Variable itself (its value exists when the Program runs)."""
    return var


def _item(var, *index):
    """`x.item(*index)`: the element as a 0-d Variable (one-element tensors without index;
    a flat offset with one index; one index per dim otherwise)."""
    check_item_index(var.shape, index)
    if not index:
        return api.reshape(var, [])
    if len(index) == 1:
        return api.reshape(var, [-1])[index[0]]
    return var[tuple(index)]


def _tolist(var):
    """`x.tolist()`: refused as in Paddle (a Python list needs the values)."""
    raise AssertionError(
        f"tolist() of Tensor {var.name!r} needs its values, which exist only when the "
        f"Program runs; under to_static keep it a Tensor (index it, or use paddle ops)")


_READS = {Variable.numpy: _numpy, Variable.item: _item, Variable.tolist: _tolist}


def value_read(method):
    """The symbolic stand-in of bound method `method` of a Variable (`x.numpy`), or None
    when it is not a value read or a graph break will read the value."""
    read = _READS.get(method.__func__)
    if read is not None and breaks.active() is not None:
        return None
    return None if read is None else functools.partial(read, method.__self__)

"""`x.numpy()`, `x.item()`, `x.tolist()` of a static Variable in converted code.

Eagerly they read a value into Python. While a Program is built the value does not exist
yet, so under AST conversion (full graph) they stay symbolic, as in Paddle: `numpy()` is the
Variable itself and `item()` its one element, so the code after them builds ops on it
(`paddle.to_tensor(x.numpy())` is a copy op, `if x.item() > 0` a `cond` op). With
full_graph=False the method itself runs: the graph breaks there and Python gets the value.
"""
import functools

from ...ops._generated import api
from ...static.framework import Variable
from ..segments import breaks

__all__ = ["value_read"]


def _numpy(var):
    """`x.numpy()`: the Variable itself (its value exists when the Program runs)."""
    return var


def _size(var):
    """Number of elements, or None when a dim is unknown while building."""
    size = 1
    for dim in var.shape:
        if dim < 0:
            return None
        size *= dim
    return size


def _check_index(var, index, size):
    """ValueError / TypeError for `x.item(*index)` as eager item() raises them."""
    if len(index) == 1:
        if size is not None and not -size <= index[0] < size:
            raise ValueError(f"item(): index {index[0]} is out of bounds for Tensor "
                             f"{var.name!r} of size {size}")
        return
    if len(index) != len(var.shape):
        raise ValueError(f"item(): {len(index)} indices for Tensor {var.name!r} of rank "
                         f"{len(var.shape)}: incorrect number of indices")
    for axis, (i, dim) in enumerate(zip(index, var.shape)):
        if not isinstance(i, int):
            raise TypeError(f"item(): index {axis} must be an int, got {type(i).__name__}")
        if dim >= 0 and not -dim <= i < dim:
            raise ValueError(f"item(): index {i} is out of bounds for axis {axis} of "
                             f"Tensor {var.name!r} with size {dim}")


def _item(var, *index):
    """`x.item(*index)`: the element as a 0-d Variable (one-element tensors without index;
    a flat offset with one index; one index per dim otherwise)."""
    size = _size(var)
    if not index:
        if size not in (None, 1):
            raise ValueError(f"item(): only one element tensors can be converted to Python "
                             f"scalars when no input coordinates; Tensor {var.name!r} has "
                             f"shape {var.shape}")
        return api.reshape(var, [])
    _check_index(var, index, size)
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

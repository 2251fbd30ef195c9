"""Static tensor arrays: Variables of kind "array" whose run-time value is a Python list.

Ops create_array / array_write / array_read / array_length / array_remove (and their
grads) are functional: array_write and array_remove make a new array value, and the
changed Python Variable takes over the new name, so arrays carried through while_loop stay
differentiable. Array
gradients are lists with None for zero entries.
"""
import numpy as np

from ...core import dtype as dtypes
from ...core.unique_name import generate
from ..framework import Variable
from ..mode import constant_var, user_origin
from ..program_state import default_main_program
from .rules import (add_grads, differentiable, grad_out, kernel_rule, read_grad, register,
                    zeros_for)

__all__ = ["create_array", "array_write", "array_with", "array_read", "array_length",
           "array_pop"]


def _append(op_type, inputs, out):
    default_main_program().current_block().append_op(op_type, inputs, {"Out": [out.name]}, {},
                                                     user_origin())
    return out


def _new_var(prefix, shape, dtype, kind="dense", stop_gradient=True):
    block = default_main_program().current_block()
    return block.create_var(generate(prefix), shape, dtype, kind=kind,
                            stop_gradient=stop_gradient)


def _index_var(i):
    return i if isinstance(i, Variable) else constant_var(np.array([int(i)], np.int64))


def create_array(dtype, initialized_list=None):
    """A new array Variable, optionally holding `initialized_list`."""
    items = list(initialized_list or [])
    shape = items[0]._shape if items else ()
    out = _new_var("array", shape, dtypes.to_dtype(dtype), "array",
                   all(v.stop_gradient for v in items))
    return _append("create_array", {"X": [v.name for v in items]}, out)


def array_write(x, i, array=None):
    """Write `x` at position `i`; the array Variable then names the new array value."""
    if array is None:
        array = create_array(x.dtype)
    array._take_over(array_with(array, i, x))
    return array


def array_with(array, i, x):
    """A new array Variable: `array` with `x` written at position `i` (`array` itself
    still names the array before the write)."""
    if array.dtype != x.dtype:
        raise TypeError(f"array_write(): array of {array.dtype.name} gets {x.dtype.name}")
    shape = x._shape if not array._shape or len(array._shape) != len(x._shape) else tuple(
        a if a == b else -1 for a, b in zip(array._shape, x._shape))
    out = _new_var("array_write", shape, x.dtype, "array",
                   array.stop_gradient and x.stop_gradient)
    return _append("array_write", {"X": [x.name], "I": [_index_var(i).name],
                                   "Array": [array.name]}, out)


def array_read(array, i):
    """The element at position `i`."""
    out = _new_var("array_read", array._shape, array.dtype, stop_gradient=array.stop_gradient)
    return _append("array_read", {"Array": [array.name], "I": [_index_var(i).name]}, out)


def array_length(array):
    """Number of elements, as an int64 tensor of shape [1]."""
    out = _new_var("array_length", (1,), "int64")
    return _append("array_length", {"Array": [array.name]}, out)


def array_pop(array, i):
    """Remove the element at position `i` and return it; the array Variable then names the
    shorter array (op array_remove, functional like array_write)."""
    item = array_read(array, i)
    out = _new_var("array_remove", array._shape, array.dtype, "array", array.stop_gradient)
    _append("array_remove", {"Array": [array.name], "I": [_index_var(i).name]}, out)
    array._take_over(out)
    return item


def _index(i):
    return int(np.asarray(i).reshape(-1)[0])


def _write(x, i, array):
    out, k = list(array), _index(i)
    out.extend([None] * (k + 1 - len(out)))
    out[k] = x
    return out


def _read(array, i):
    k = _index(i)
    if not 0 <= k < len(array) or array[k] is None:
        raise IndexError(f"array_read(): index {k} is not written (array length "
                         f"{len(array)})")
    return array[k]


def _remove(array, i):
    k = _index(i)
    if not 0 <= k < len(array):
        raise IndexError(f"pop(): index {k} is out of range for a tensor array of length "
                         f"{len(array)}")
    return array[:k] + array[k + 1:]


def _remove_grad(i, dout):
    """The shorter array's gradient with an empty entry put back at the removed index."""
    k, rest = _index(i), list(dout)
    rest.extend([None] * (k - len(rest)))
    return rest[:k] + [None] + rest[k:]


def _read_grad(i, dout):
    return [None] * _index(i) + [dout]


def _entry(grads, k, like):
    """Gradient entry k of an array gradient, zeros shaped like `like` when absent."""
    g = grads[k] if k < len(grads) else None
    return zeros_for(like) if g is None else g


def _write_grad(x, i, dout):
    k = _index(i)
    rest = list(dout)
    if k < len(rest):
        rest[k] = None
    return _entry(dout, k, x), rest


def _create_grad(*args):
    *items, dout = args
    return tuple(_entry(dout, k, x) for k, x in enumerate(items))


def _add(*parts):
    total = None
    for part in parts:
        total = add_grads(total, part)
    return total


def _grad_rule(grad_type, in_slots, wrt):
    """Grad rule appending `grad_type` reading in_slots and Out@GRAD, writing wrt grads."""
    def rule(block, op, table):
        outs = {f"{slot}@GRAD": [grad_out(table, n) for n in op.input(slot)
                                 if differentiable(block.var(n))] for slot in wrt}
        inputs = {slot: op.input(slot) for slot in in_slots}
        inputs["Out@GRAD"] = [read_grad(table, op.output("Out")[0])]
        block.append_op(grad_type, inputs, outs, {}, op.origin)
    return rule


def _fields(**inputs):
    """The fields of a tensor-array op: the named input slots, one "Out", no attributes."""
    return inputs, {"Out": "one"}, {}


register("create_array", kernel_rule(lambda *xs: list(xs), ["X"], ["Out"]),
         _grad_rule("create_array_grad", ["X"], ["X"]), _fields(X="many"))
register("array_write", kernel_rule(_write, ["X", "I", "Array"], ["Out"]),
         _grad_rule("array_write_grad", ["X", "I"], ["X", "Array"]),
         _fields(X="one", I="one", Array="one"))
register("array_read", kernel_rule(_read, ["Array", "I"], ["Out"]),
         _grad_rule("array_read_grad", ["I"], ["Array"]), _fields(Array="one", I="one"))
register("array_remove", kernel_rule(_remove, ["Array", "I"], ["Out"]),
         _grad_rule("array_remove_grad", ["I"], ["Array"]), _fields(Array="one", I="one"))
register("array_length", kernel_rule(lambda a: np.array([len(a)], np.int64), ["Array"],
                                     ["Out"]), fields=_fields(Array="one"))
register("array_add", kernel_rule(_add, ["X"], ["Out"]), fields=_fields(X="many"))
register("create_array_grad", kernel_rule(_create_grad, ["X", "Out@GRAD"], ["X@GRAD"],
                                          single=False))
register("array_write_grad", kernel_rule(_write_grad, ["X", "I", "Out@GRAD"],
                                         ["X@GRAD", "Array@GRAD"]))
register("array_remove_grad", kernel_rule(_remove_grad, ["I", "Out@GRAD"], ["Array@GRAD"]))
register("array_read_grad", kernel_rule(_read_grad, ["I", "Out@GRAD"], ["Array@GRAD"]))

"""Op `array_join`: a tensor array's items stacked along a new axis or concatenated along an
existing one (how a list built in a Tensor loop becomes one Tensor), with its grad op."""
import numpy as np

from ...core.unique_name import generate
from ...executor.bind import Bound
from ..mode import user_origin
from ..program_state import default_main_program
from .rules import differentiable, grad_out, read_grad, register

__all__ = ["array_join"]


def array_join(array, axis=0, stack=True):
    """A Variable: the items of array Variable `array` stacked (or concatenated) on `axis`."""
    item = list(array.shape)
    if stack:
        item.insert(axis if axis >= 0 else len(item) + 1 + axis, -1)
    else:
        item[axis] = -1
    block = default_main_program().current_block()
    out = block.create_var(generate("array_join"), item, array.dtype,
                           stop_gradient=array.stop_gradient)
    block.append_op("array_join", {"Array": [array.name]}, {"Out": [out.name]},
                    {"axis": axis, "stack": stack}, user_origin())
    return out


def _join_rule(node, ctx):
    """Executor rule: np.stack / np.concatenate of the array's items."""
    join = np.stack if node.attrs["stack"] else np.concatenate
    axis = node.attrs["axis"]
    return Bound(lambda items: join(items, axis), node.inputs["Array"], node.outputs["Out"],
                 True)


def _join_grad(block, op, table):
    """Append `array_join_grad` giving the array's gradient (one entry per item)."""
    name = op.input("Array")[0]
    if differentiable(block.var(name)):
        block.append_op("array_join_grad",
                        {"Array": [name], "Out@GRAD": [read_grad(table, op.output("Out")[0])]},
                        {"Array@GRAD": [grad_out(table, name)]}, dict(op.attrs), op.origin)


def _split(items, dout, axis, stack):
    """The pieces of `dout` matching `items` (inverse of the join)."""
    if stack:
        return [np.take(dout, k, axis) for k in range(len(items))]
    cuts = np.cumsum([item.shape[axis] for item in items])[:-1]
    return np.split(dout, cuts, axis)


def _join_grad_rule(node, ctx):
    """Executor rule: split the output gradient into the items' gradients."""
    axis, stack = node.attrs["axis"], node.attrs["stack"]
    return Bound(lambda items, dout: _split(items, dout, axis, stack),
                 node.inputs["Array"] + node.inputs["Out@GRAD"], node.outputs["Array@GRAD"],
                 True)


register("array_join", _join_rule, _join_grad,
         ({"Array": "one"}, {"Out": "one"}, {"axis": "int", "stack": "bool"}))
register("array_join_grad", _join_grad_rule)

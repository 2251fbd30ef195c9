"""Emitters of control flow: a tensor `if` (sampan `cond`) becomes ONNX `If` with a
sub-graph per branch; a tensor `while` becomes `Loop`, whose condition block is computed
before the loop and again at the end of the body; tensor arrays become ONNX sequences."""
from onnx import helper

from .convert import convert_ops
from .graph import Graph, onnx_dtype, value_info, var_info
from .table import emits


def _block(g, attr):
    return attr if hasattr(attr, "ops") else g.state.program.block(attr)


def _sub_graph(sub, name, inputs, results, first=()):
    """An ONNX graph of `sub`'s nodes returning the `first` (value, dtype) pairs then the
    sampan variables `results` (through Identity nodes: a graph output must be computed
    inside it)."""
    outputs = [value_info(sub.node("Identity", [value], sub.state.fresh(f"{name}_out")), dtype)
               for value, dtype in first]
    for result in results:
        value = sub.node("Identity", [sub.value(result)], sub.state.fresh(f"{name}_out"))
        outputs.append(var_info(value, sub.var(result)))
    return helper.make_graph(sub.nodes, sub.state.fresh(name), inputs, outputs)


@emits("cond")
def cond(g, op):
    branches = {}
    for branch in ("true", "false"):
        sub = Graph(g.state, g.env)
        convert_ops(sub, _block(g, op.attrs[f"{branch}_block"]).ops)
        branches[branch] = _sub_graph(sub, f"{branch}_branch", [], op.attrs[f"{branch}_outs"])
    pred = g.arg(op, "Cond")
    if len(g.shape_of(op, "Cond")):
        pred = g.node("Reshape", [pred, g.ints([])])
    outs = [g.define(n) for n in op.outputs["Out"]]
    g.node("If", [pred], outputs=outs, then_branch=branches["true"],
           else_branch=branches["false"])


def _condition(g, block, cond_vars, values, cond_out):
    """The ONNX value of a while's condition on sampan variables `values` (its block
    converted into `g` with `cond_vars` bound to them), as a bool scalar."""
    for name, value in zip(cond_vars, values):
        g.bind(name, g.value(value))
    convert_ops(g, block.ops)
    pred = g.value(cond_out)
    if len(g.var(cond_out)._shape):
        pred = g.node("Reshape", [pred, g.ints([])])
    return pred


@emits("while")
def while_(g, op):
    a = op.attrs
    cond_block, body = _block(g, a["cond_block"]), _block(g, a["body_block"])
    first = _condition(g, cond_block, a["cond_vars"], op.inputs["X"], a["cond_out"])
    sub = Graph(g.state, g.env)
    step, cond_in = g.state.fresh("loop_step"), g.state.fresh("loop_cond_in")
    inputs = [value_info(step, "int64", []), value_info(cond_in, "bool", [])]
    for name in a["body_vars"]:
        inputs.append(var_info(sub.define(name), sub.var(name)))
    convert_ops(sub, body.ops)
    again = _condition(sub, cond_block, a["cond_vars"], a["body_outs"], a["cond_out"])
    graph = _sub_graph(sub, "loop_body", inputs, a["body_outs"], [(again, "bool")])
    outs = [g.define(n) for n in op.outputs["Out"]]
    g.node("Loop", ["", first] + g.args(op, "X"), outputs=outs, body=graph)



def _arrays_need_sequences(g):
    g.require(14, "tensor arrays: sequences carried through If and Loop, and Identity")


def _position(g, op):
    """The op's array index `I` as an int64 scalar."""
    return g.node("Reshape", [g.cast(g.arg(op, "I"), "int64"), g.ints([])])


@emits("create_array")
def create_array(g, op):
    _arrays_need_sequences(g)
    out, items = g.result(op, "Out"), g.args(op, "X")
    if items:
        g.node("SequenceConstruct", items, out)
    else:
        g.node("SequenceEmpty", [], out, dtype=onnx_dtype(g.var(op.outputs["Out"][0]).dtype))


@emits("array_write")
def array_write(g, op):
    """Replace item i, or append when i is the length (writing further out, which sampan
    pads with unwritten items, fails at run time)."""
    _arrays_need_sequences(g)
    array, x, pos = g.arg(op, "Array"), g.arg(op, "X"), _position(g, op)
    inside = g.node("Less", [pos, g.node("SequenceLength", [array])])
    var = g.var(op.outputs["Out"][0])
    branches = []
    for replace in (True, False):
        sub = Graph(g.state, g.env)
        if replace:
            value = sub.node("SequenceInsert", [sub.node("SequenceErase", [array, pos]), x, pos])
        else:
            value = sub.node("SequenceInsert", [array, x])
        branches.append(helper.make_graph(sub.nodes, g.state.fresh("array_write"), [],
                                          [var_info(value, var)]))
    g.node("If", [inside], g.result(op, "Out"), then_branch=branches[0],
           else_branch=branches[1])


@emits("array_read")
def array_read(g, op):
    _arrays_need_sequences(g)
    g.node("SequenceAt", [g.arg(op, "Array"), _position(g, op)], g.result(op, "Out"))
    g.state.shapeless.add(op.outputs["Out"][0])   # an item's shape is not the array's


@emits("array_length")
def array_length(g, op):
    _arrays_need_sequences(g)
    length = g.node("SequenceLength", [g.arg(op, "Array")])
    g.node("Reshape", [length, g.ints([1])], g.result(op, "Out"))


@emits("array_join")
def array_join(g, op):
    """The items stacked on a new axis or concatenated on an existing one."""
    _arrays_need_sequences(g)
    g.node("ConcatFromSequence", [g.arg(op, "Array")], g.result(op, "Out"),
           axis=int(op.attrs["axis"]), new_axis=int(bool(op.attrs["stack"])))

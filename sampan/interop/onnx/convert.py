"""Ops of a sampan block -> nodes of a Graph, through the op table. An op ONNX cannot
express is recorded (with the user's source line) and conversion goes on without it, so
one export reports every problem; ops reading its outputs (or those of an op type the
table lacks) are skipped silently."""
from ...executor.plan import format_origin
from .graph import Unexpressible
from .table import emitters

__all__ = ["convert_ops", "unmapped_ops", "Poisoned"]


class Poisoned(Exception):
    """An op reads a value that an earlier, unexpressible op should have made."""


def unmapped_ops(program):
    """Op types of every block of `program` that the table does not map."""
    table = emitters()
    return {op.type for block in program.blocks for op in block.ops if op.type not in table}


def convert_ops(g, ops):
    """Append the nodes of each of `ops` to graph `g`."""
    table = emitters()
    for op in ops:
        g.op_type = op.type
        if op.type not in table:
            g.state.unmapped.add(op.type)   # reported with the others; readers skip
            continue
        try:
            for names in op.inputs.values():
                for name in names:
                    _known(g, name)
            table[op.type](g, op)
        except Unexpressible as err:
            g.state.problems.append(f"{op.type} ({format_origin(op.origin)}): {err}")
        except Poisoned:
            pass


def _known(g, name):
    """Raise Poisoned when `name` is missing because an earlier op failed."""
    if name not in g.env:
        if g.state.problems or g.state.unmapped:
            raise Poisoned(name)
        raise KeyError(f"ONNX export: variable {name!r} is read before it is computed")

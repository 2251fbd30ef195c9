"""`for x in seq` -> an index-driven while loop over `_jst.Range/Enumerate/Zip/Sequence(...)`."""
import ast

from ..pyct import anno, templates
from ..pyct.transformer import Base
from .common import JST

__all__ = ["ForConverter", "SEQUENCE"]

SEQUENCE = "jit.for_sequence"
"""Annotation on the `seq = ...` statement of a converted for loop: an enclosing loop need
not carry that name (it is bound afresh before each use; liveness keeps it alive only
because the loop's helper functions capture it)."""

_TEMPLATE = f"""
seq = iterable
index = 0
while index < {JST}.Len(seq):
    target = {JST}.Item(seq, index)
    index += 1
    body
"""

_SPECIAL = {"range": "Range", "enumerate": "Enumerate", "zip": "Zip"}


def _sequence_call(node):
    """`_jst.Range/Enumerate/Zip(args)` for those literal builtins, else `_jst.Sequence(it)`."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _SPECIAL):
        func = templates.replace_as_expression(f"{JST}.{_SPECIAL[node.func.id]}")
        return ast.Call(func=func, args=node.args, keywords=node.keywords)
    return templates.replace_as_expression(f"{JST}.Sequence(it)", it=node)


class ForConverter(Base):
    """Rewrites for loops (without else) so that they become `_jst.While` calls; the
    sequence is indexed, so a Tensor's rows unroll when its first dim is known."""

    def visit_For(self, node):
        node = self.generic_visit(node)
        if node.orelse:
            return node
        namer = self.ctx.namer
        code = templates.replace(_TEMPLATE, seq=namer.new_symbol("for_seq"),
                                 index=namer.new_symbol("for_index"),
                                 iterable=_sequence_call(node.iter), target=node.target,
                                 body=node.body)
        anno.setanno(code[0], SEQUENCE, True)
        return code

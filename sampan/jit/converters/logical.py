"""`a and b`, `a or b`, `not a` -> `_jst.And/Or(lambda: a, lambda: b)`, `_jst.Not(a)`;
`a < b < c` -> `_jst.Compare(lambda: a, ("Lt", "Lt"), lambda: b, lambda: c)`."""
import ast

from ..pyct import templates
from ..pyct.transformer import Base
from .common import JST

__all__ = ["LogicalConverter"]


class LogicalConverter(Base):
    """Makes boolean operators work on Tensors while keeping Python's laziness."""

    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        fn = "And" if isinstance(node.op, ast.And) else "Or"
        lazy = [templates.replace_as_expression("lambda: value", value=v) for v in node.values]
        return ast.Call(func=templates.replace_as_expression(f"{JST}.{fn}"), args=lazy,
                        keywords=[])

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return templates.replace_as_expression(f"{JST}.Not(value)", value=node.operand)

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        lazy = [templates.replace_as_expression("lambda: value", value=v)
                for v in (node.left, *node.comparators)]
        names = ast.Tuple(elts=[ast.Constant(type(op).__name__) for op in node.ops],
                          ctx=ast.Load())
        return ast.Call(func=templates.replace_as_expression(f"{JST}.Compare"),
                        args=[lazy[0], names, *lazy[1:]], keywords=[])

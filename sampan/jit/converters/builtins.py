"""`assert`, `print`, `len`, `int/float/bool/complex`, `isinstance`, `.shape` -> `_jst`
versions aware of Tensors."""
import ast

from ..pyct import templates
from ..pyct.transformer import Base
from .common import JST

__all__ = ["BuiltinConverter"]

_CALLS = {"print": "Print", "len": "Len", "isinstance": "IsInstance"}
_CASTS = ("int", "float", "bool", "complex")


class BuiltinConverter(Base):
    """Routes Python builtins through the runtime, unless the function shadows their name."""

    def __init__(self, ctx):
        super().__init__(ctx)
        shadowing = set(ctx.info.fn.__globals__) | set(ctx.info.fn.__code__.co_varnames)
        shadowing |= set(ctx.info.fn.__code__.co_freevars)
        self._names = {n for n in (*_CALLS, *_CASTS) if n not in shadowing}

    def visit_Assert(self, node):
        node = self.generic_visit(node)
        message = node.msg if node.msg is not None else ast.Constant(None)
        return templates.replace(f"{JST}.Assert(test, lambda: message)", test=node.test,
                                 message=message)

    def visit_Attribute(self, node):
        node = self.generic_visit(node)
        if node.attr != "shape" or not isinstance(node.ctx, ast.Load):
            return node
        return templates.replace_as_expression(f"{JST}.Shape(value)", value=node.value)

    def visit_Call(self, node):
        node = self.generic_visit(node)
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in self._names:
            return node
        if name in _CASTS:
            node.args = [ast.Name(id=name, ctx=ast.Load()), *node.args]
            node.func = templates.replace_as_expression(f"{JST}.Cast")
        else:
            node.func = templates.replace_as_expression(f"{JST}.{_CALLS[name]}")
        return node

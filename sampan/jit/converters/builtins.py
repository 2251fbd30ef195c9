"""`assert`, `print`, `len`, `int/float/bool/complex`, `isinstance`, `.shape` -> `_jst`
versions aware of Tensors."""
import ast

from ..pyct import templates
from ..pyct.transformer import Base
from .common import JST

__all__ = ["BuiltinConverter"]

_CALLS = {"print": "Print", "len": "Len", "isinstance": "IsInstance"}
_CASTS = ("int", "float", "bool", "complex")


def _explicit_super(fn, shadowing):
    """('__class__', first argument) for a method calling zero-argument super(): the call
    may move into a generated helper function, where Python cannot find them itself."""
    code = fn.__code__
    if "__class__" not in code.co_freevars or not code.co_argcount or "super" in shadowing:
        return None
    return ("__class__", code.co_varnames[0])


class BuiltinConverter(Base):
    """Routes Python builtins through the runtime, unless the function shadows their name."""

    def __init__(self, ctx):
        super().__init__(ctx)
        shadowing = set(ctx.info.fn.__globals__) | set(ctx.info.fn.__code__.co_varnames)
        shadowing |= set(ctx.info.fn.__code__.co_freevars)
        self._names = {n for n in (*_CALLS, *_CASTS) if n not in shadowing}
        self._super = _explicit_super(ctx.info.fn, shadowing)

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
        if name == "super" and self._super and not node.args and not node.keywords:
            node.args = [ast.Name(id=n, ctx=ast.Load()) for n in self._super]
            return node
        if name not in self._names:
            return node
        if name in _CASTS:
            node.args = [ast.Name(id=name, ctx=ast.Load()), *node.args]
            node.func = templates.replace_as_expression(f"{JST}.Cast")
        else:
            node.func = templates.replace_as_expression(f"{JST}.{_CALLS[name]}")
        return node

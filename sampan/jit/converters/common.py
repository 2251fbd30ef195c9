"""Helpers shared by the converters: runtime name, routed variables, jumps and their flags."""
import ast

from ..pyct import activity, anno, origin, qual_names, templates

__all__ = ["JST", "KEEP_PYTHON", "routed_names", "changed_roots", "runtime_call", "has_jump", "contains", "getters",
           "name_tuple", "assign_result", "rewrite_jumps", "python_only", "user_line"]

JST = "_jst"
KEEP_PYTHON = "jit.keep_python"
"""Annotation on if/while nodes that must stay Python statements (their test is guarded)."""

_LOOPS = (ast.For, ast.While, ast.AsyncFor)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _function_scope(scope):
    """The enclosing function scope of a block scope (None at module level)."""
    while scope is not None and scope.kind != activity.FUNCTION:
        scope = scope.parent
    return scope


def routed_names(scope, names):
    """Sorted simple names to pass through helper functions, or None if one is global/nonlocal."""
    names = {str(n) for n in names if n.is_simple}
    fn_scope = _function_scope(scope)
    if fn_scope is not None and names & (fn_scope.globals | fn_scope.nonlocals):
        return None
    return sorted(names)


def changed_roots(changed, scope, bound, live):
    """QNs of the function's local names whose object `changed` (a Mutations) writes in
    place, unless the block binds them first and they are not live (a fresh local object)."""
    fn_scope = _function_scope(scope)
    local = {str(n) for n in fn_scope.locals} if fn_scope is not None else set()
    bound = {str(n) for n in bound}
    return {qual_names.QN(n) for n in changed.local_roots(local)
            if n in live or n not in bound}


def runtime_call(name, changed, *args):
    """`_jst.<name>(*args)`, plus the objects changed in place when there are any."""
    args = list(args) + ([changed.runtime_spec()] if changed else [])
    return ast.Call(func=templates.replace_as_expression(f"{JST}.{name}"), args=args,
                    keywords=[])


def contains(node, kinds, into_loops):
    """True when `node` holds a statement of `kinds` (not in nested defs; loops if asked)."""
    if isinstance(node, kinds):
        return True
    if isinstance(node, _NESTED):
        return False
    return any(contains(child, kinds, into_loops) for child in ast.iter_child_nodes(node)
               if into_loops or not isinstance(child, _LOOPS))


def has_jump(statements):
    """True when control can leave `statements` other than by falling through."""
    return any(contains(s, (ast.Return, ast.Yield, ast.YieldFrom), True)
               or contains(s, (ast.Break, ast.Continue), False) for s in statements)


def getters(names):
    """`(lambda: a, lambda: b)`: reads of possibly-unbound names."""
    return ast.Tuple(elts=[templates.replace_as_expression("lambda: n", n=n) for n in names],
                     ctx=ast.Load())


def name_tuple(names):
    """`('a', 'b')`."""
    return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())


def assign_result(names, call):
    """`(a, b) = call`, or just `call` when no names come back."""
    if not names:
        return templates.replace("call", call=call)
    return templates.replace("targets = call", targets=tuple(names), call=call)


class _Jumps:
    """One jump rewrite: which statements, their replacement, the flag guarding the rest."""

    def __init__(self, kinds, replace, flag, into_loops):
        self.kinds, self.replace, self.flag, self.into_loops = kinds, replace, flag, into_loops

    def block(self, statements, guard=True):
        """`statements` with jumps replaced and, after a statement that may jump, the rest
        wrapped in `if not flag:` (statements after a jump itself are unreachable: dropped)."""
        out = []
        for k, statement in enumerate(statements):
            if isinstance(statement, self.kinds):
                return out + self.replace(statement)
            if not contains(statement, self.kinds, self.into_loops):
                out.append(statement)
                continue
            out.append(self._children(statement, guard))
            if self.into_loops and not guard and isinstance(statement, _LOOPS):
                out += self._leave_enclosing_loop(statement)
            rest = self.block(statements[k + 1:], guard)
            if rest and guard:
                rest = templates.replace("if not flag:\n    rest", flag=self.flag, rest=rest)
                origin.copy_origin(statement, rest)
            return out + rest
        return out

    def _leave_enclosing_loop(self, loop):
        """`if flag: break` after an inner loop that may jump (a `return` in nested loops):
        its own `break` leaves only the inner loop, and the enclosing one must stop too."""
        leave = templates.replace("if flag:\n    break", flag=self.flag)
        origin.copy_origin(loop, leave)
        return leave

    def _children(self, statement, guard):
        """`statement` with its nested blocks rewritten (loop bodies unguarded: they break)."""
        in_loop = isinstance(statement, _LOOPS)
        for field in ("body", "orelse", "finalbody", "handlers"):
            value = getattr(statement, field, None)
            if field == "handlers" and value:
                for handler in value:
                    handler.body = self.block(handler.body, guard)
            elif value:
                setattr(statement, field, self.block(value, guard and not in_loop))
        return statement


def rewrite_jumps(statements, kinds, replace, flag, into_loops=False):
    """Replace jump statements of `kinds` by `replace(stmt)` (a list) and guard what follows
    them by `if not flag:`, so that the block has a single exit at its end."""
    return _Jumps(kinds, replace, flag, into_loops).block(statements)


def user_line(node):
    """'file:line' of the user code `node` came from."""
    info = anno.getanno(node, origin.ORIGIN, None)
    return f"{info.filename}:{info.lineno}" if info else "<unknown>"


def python_only(node, what):
    """Keep if/while `node` a Python statement whose test must not be a Tensor."""
    anno.setanno(node, KEEP_PYTHON, True)
    node.test = templates.replace_as_expression(
        f"{JST}.RequirePython(test, what)", test=node.test,
        what=ast.Constant(f"{what} (at {user_line(node)})"))
    return node

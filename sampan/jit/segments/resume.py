"""Going on in Python after a graph break. When the value read at a cut keeps changing (a
guard on it would trace at every call), the segments before the cut still run compiled, and
the function goes on from the top-level statement holding the cut as eager Python: a tail
function made from the function's own source, called with its locals at that point (the
Variables among them standing for the tensors the segments computed)."""
import ast
import sys
import types
import weakref

from ...nn.layer.layers import Layer
from ...static.mode import is_sampan_file
from ..operators.common import Undefined, is_variable
from ..partial_program import leaves
from ..pyct import anno, loader, origin, source

__all__ = ["ResumePoint", "resume_point"]

_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, range, slice)
_SHARED = (Layer, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, type)
# statements whose evaluation before a cut changes no local: the tail runs them whole again
_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Assert,
           ast.Raise, ast.If)
_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault",
             "popitem", "sort", "reverse", "add", "discard"}


class _Instance:
    """Stands, among a ResumePoint's values, for the object the function is bound to (held
    weakly: the tree of a per-instance StaticFunction must not keep its layer alive)."""


class ResumePoint:
    """The decorated function `fn` can go on as Python at its top-level statement `index`,
    with its locals `names` bound to `values` (Variables stand for segment results; lists,
    tuples and dicts are rebuilt at every call)."""

    __slots__ = ("fn", "index", "names", "values", "_instance", "_tail")

    def __init__(self, fn, index, names, values, instance):
        self.fn, self.index, self.names = fn, index, names
        self.values = [_Instance if v is instance and v is not None else v for v in values]
        self._instance = weakref.ref(instance) if instance is not None else None
        self._tail = None

    @property
    def reads(self):
        """Names of the Variables among the locals (outputs the segments must keep)."""
        return [v.name for v in leaves(self.values) if is_variable(v)]

    def tail(self):
        """The function from statement `index` on, taking the locals as arguments (made once;
        None when its source cannot be had)."""
        if self._tail is None:
            self._tail = _tail_function(self.fn, self.index, self.names)
        return self._tail

    def run(self, values):
        """Call the tail on this call's tensors (`values`, by Variable name)."""
        instance = self._instance() if self._instance is not None else None
        return self._tail(*(_filled(v, values, instance) for v in self.values))


def _filled(value, values, instance):
    """`value` with each Variable replaced by its tensor, containers rebuilt."""
    if value is _Instance:
        return instance
    if is_variable(value):
        return values[value.name]
    if isinstance(value, list):
        return [_filled(v, values, instance) for v in value]
    if isinstance(value, tuple):
        items = [_filled(v, values, instance) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict):
        return {k: _filled(v, values, instance) for k, v in value.items()}
    return value


def _capturable(value, arguments, depth=0):
    """True for a local the tail can be given at every call: a Variable of the top block,
    an immutable value, a sampan Layer, module, function or class, an argument of the call,
    or a list/tuple/dict of those."""
    if is_variable(value):
        return value.block.idx == 0
    if isinstance(value, _IMMUTABLE) or isinstance(value, _SHARED) or \
            any(value is a for a in arguments):
        return True
    if isinstance(value, (list, tuple)) and depth < 8:
        return all(_capturable(v, arguments, depth + 1) for v in value)
    if isinstance(value, dict) and depth < 8:
        return all(_capturable(v, arguments, depth + 1) for v in value.values())
    return False


def _statement_at(tree, line):
    """(index, statement) of the top-level statement of `tree` (a def with origins) spanning
    the user's `line`, or (None, None)."""
    for index, statement in enumerate(tree.body):
        where = anno.getanno(statement, origin.ORIGIN, None)
        if where is None:
            continue
        first = where.lineno
        if first <= line <= first + statement.end_lineno - statement.lineno:
            return index, statement
    return None, None


def _changes_locals_before(statement):
    """True when evaluating `statement` up to a value read may change an object the tail
    then changes again: a walrus, or a call of a mutating method (`lst.pop()`)."""
    part = statement.test if isinstance(statement, (ast.If, ast.Assert)) else statement
    for node in ast.walk(part):
        if isinstance(node, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in _MUTATORS or node.func.attr.endswith("_")):
            return True
    return False


def _parsed(fn):
    """The def of `fn` with user origins (cached on the function)."""
    tree = fn.__dict__.get("__sampan_resume_tree__")
    if tree is None:
        tree = origin.parse(source.get_source(fn))
        fn.__sampan_resume_tree__ = tree
    return tree


def resume_point(fn, converted_code, instance, arguments):
    """Where the call being traced can go on as Python if the value Python reads now keeps
    changing: a ResumePoint, or None when the read is not directly in `fn`'s own body (its
    converted code `converted_code`; `instance`: the object it is bound to, or None) at a
    statement the tail can run again whole."""
    frame = sys._getframe(1)
    while frame is not None and is_sampan_file(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None or frame.f_code is not converted_code:
        return None
    found = origin.lookup(frame.f_code.co_filename, frame.f_lineno)
    if found is None:
        return None
    try:
        tree = _parsed(fn)
    except source.SourceUnavailableError:
        return None
    if not isinstance(tree, ast.FunctionDef):
        return None  # a lambda: its one expression holds the read
    index, statement = _statement_at(tree, found.lineno)
    if statement is None or not isinstance(statement, _SIMPLE):
        return None
    if isinstance(statement, ast.If):
        test = anno.getanno(statement.test, origin.ORIGIN, None)
        if test is None or found.lineno > test.lineno + \
                statement.test.end_lineno - statement.test.lineno:
            return None  # the read is in a branch, not in the test
    if _changes_locals_before(statement):
        return None
    local = frame.f_locals
    code = fn.__code__
    names = [n for n in dict.fromkeys(code.co_varnames + code.co_cellvars)
             if n in local and not isinstance(local[n], Undefined)]
    values = [local[n] for n in names]
    if not all(v is instance or _capturable(v, arguments) for v in values):
        return None
    return ResumePoint(fn, index, names, values, instance)


def _tail_function(fn, index, names):
    """`def <fn name>(names...): <fn's statements from index on>`, compiled with fn's
    globals and closure cells (so `super()` and nonlocal names work as in fn)."""
    tree = _parsed(fn)
    params = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names],
                           vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    tail = ast.FunctionDef(name=tree.name, args=params, body=tree.body[index:],
                           decorator_list=[], returns=None, type_comment=None)
    ast.copy_location(tail, tree)
    cells = source.closure_vars(fn).cells
    return loader.load(tail, tail.name, fn.__globals__, cells)

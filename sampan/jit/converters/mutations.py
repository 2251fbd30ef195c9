"""Objects a block of statements changes in place: item writes and deletions (`d[k] = v`,
`del a[i]`, `a[i] += v`), mutating method calls (`a.append(v)`, `d.update(...)`,
`x.add_(y)`) and attribute writes (`self.v = x`). The if/while converters pass them to the
runtime, which makes their state part of a `cond`/`while` op when the test is a Tensor."""
import ast

from ..pyct import templates
from .common import JST

__all__ = ["Mutations", "mutations"]

_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update",
                      "setdefault", "popitem", "sort", "reverse", "add", "discard",
                      "__setitem__", "__delitem__"})
# position of the effects tuple in `_jst.IfElse(...)` and `_jst.While(...)` calls
_EFFECTS_ARG = {"IfElse": 5, "While": 4}
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _in_place_method(name):
    """True for list/dict/set mutators and Paddle's in-place tensor methods (`add_`)."""
    return name in _METHODS or (name.endswith("_") and not name.startswith("_"))


def _path(node):
    """`node` when it is a side-effect-free access path (names, attributes, constant or
    name subscripts) of user code, else None."""
    probe = node
    while True:
        if isinstance(probe, ast.Name):
            return None if probe.id == JST else node
        if isinstance(probe, ast.Attribute):
            probe = probe.value
        elif isinstance(probe, ast.Subscript) and isinstance(probe.slice, (ast.Constant,
                                                                            ast.Name)):
            probe = probe.value
        else:
            return None


def _container(node):
    """The outermost container whose contents include `node`'s: trailing subscripts are
    stripped (`res['k'][0]` -> `res`), so its whole state is tracked."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return _path(node)


class Mutations:
    """What statements change in place: containers (by path text) and attributes per object."""

    def __init__(self):
        self.containers = {}  # source text -> path node
        self.attributes = {}  # source text of the object -> (path node, [attribute names])
        self.passed = {}  # names given to calls: changed only if the callee does (text -> node)

    def _contents(self, node):
        path = _container(node)
        if path is not None:
            self.containers.setdefault(ast.unparse(path), path)

    def _attribute(self, node):
        path = _path(node.value)
        if path is None:
            return
        entry = self.attributes.setdefault(ast.unparse(path), (path, []))
        if node.attr not in entry[1]:
            entry[1].append(node.attr)

    def target(self, node):
        """Record an assignment or deletion target."""
        if isinstance(node, (ast.Tuple, ast.List)):
            for item in node.elts:
                self.target(item)
        elif isinstance(node, ast.Starred):
            self.target(node.value)
        elif isinstance(node, ast.Subscript):
            self._contents(node.value)
        elif isinstance(node, ast.Attribute):
            self._attribute(node)

    def local_roots(self, local_names):
        """Simple local names whose object changes in place (routed like assigned names)."""
        return {text for text, path in self.containers.items()
                if isinstance(path, ast.Name) and text in local_names}

    def runtime_spec(self):
        """`((lambda: obj, None, 'obj'), (lambda: o, ('a', 'b'), 'o'), ...)` for the runtime."""
        entries = [(path, None, text) for text, path in sorted(self.containers.items())]
        entries += [(path, (), text) for text, path in sorted(self.passed.items())
                    if text not in self.containers]
        entries += [(path, tuple(attrs), text)
                    for text, (path, attrs) in sorted(self.attributes.items())]
        return ast.Tuple(elts=[ast.Tuple(elts=[
            templates.replace_as_expression("lambda: p", p=_copy(path)),
            ast.Constant(attrs) if attrs is None else ast.Tuple(
                elts=[ast.Constant(a) for a in attrs], ctx=ast.Load()),
            ast.Constant(text)], ctx=ast.Load()) for path, attrs, text in entries],
            ctx=ast.Load())

    def __bool__(self):
        return bool(self.containers or self.attributes or self.passed)


def _copy(path):
    """A fresh Load-context copy of an access path."""
    return ast.parse(ast.unparse(path), mode="eval").body


def _runtime(node, name):
    """True when `node` is `_jst.<name>`."""
    return (isinstance(node, ast.Attribute) and node.attr == name
            and isinstance(node.value, ast.Name) and node.value.id == JST)


def _callee(call):
    """The function a call calls, seen through the `_jst.Call(f)` wrapper."""
    func = call.func
    if isinstance(func, ast.Call) and _runtime(func.func, "Call") and func.args:
        return func.args[0]
    return func


def _nested_spec(call, kind, found):
    """Add the objects an already converted inner if/while (`_jst.IfElse/While(...,
    effects)`, `kind` naming which) changes: its body functions are nested defs the walk
    skips."""
    position = _EFFECTS_ARG[kind]
    spec = call.args[position] if len(call.args) > position else None
    if not isinstance(spec, ast.Tuple):
        return
    for entry in spec.elts:
        path, attrs, _ = entry.elts
        path = path.body
        if isinstance(attrs, ast.Constant):
            found.containers.setdefault(ast.unparse(path), path)
        elif not attrs.elts:
            found.passed.setdefault(ast.unparse(path), path)
        else:
            for attr in attrs.elts:
                found._attribute(ast.Attribute(value=path, attr=attr.value, ctx=ast.Store()))


def _arguments(call, found):
    """Record the plain names a (user) call receives: the callee may change them."""
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        arg = arg.value if isinstance(arg, ast.Starred) else arg
        if isinstance(arg, ast.Name) and arg.id != JST:
            found.passed.setdefault(arg.id, arg)


def mutations(statements, calls=False):
    """The Mutations of `statements` (nested function and class bodies excluded); with
    `calls`, also the names passed to calls (a Tensor if checks whether they changed)."""
    found = Mutations()
    stack = list(statements)
    while stack:
        node = stack.pop()
        if isinstance(node, _NESTED):
            continue
        if isinstance(node, (ast.Assign, ast.Delete)):
            for target in node.targets:
                found.target(target)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            found.target(node.target)
        elif isinstance(node, ast.Call):
            func = _callee(node)
            kind = next((k for k in _EFFECTS_ARG if _runtime(func, k)), None)
            if kind is not None:
                _nested_spec(node, kind, found)
            elif isinstance(func, ast.Attribute) and _in_place_method(func.attr):
                found._contents(func.value)
            elif calls and func is not node.func:  # a user call, `_jst.Call(f)(...)`
                _arguments(node, found)
        stack.extend(ast.iter_child_nodes(node))
    return found

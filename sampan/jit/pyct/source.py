"""Find a callable's Python source and AST, after unwrapping partials, methods and decorators."""
import ast
import dataclasses
import functools
import inspect
import linecache
import types
from typing import NamedTuple

__all__ = ["SourceUnavailableError", "SourceInfo", "Unwrapped", "ClosureVars",
           "unwrap", "get_source", "closure_vars"]


class SourceUnavailableError(Exception):
    """Raised when a callable has no retrievable Python source; the message names it and says why."""


class Unwrapped(NamedTuple):
    """The plain function under a callable plus what partials and method binding added to calls."""

    fn: object
    bound_self: object
    bound_args: tuple
    bound_kwargs: dict


@dataclasses.dataclass(frozen=True)
class SourceInfo:
    """Dedented source of one function or lambda, its place in its file, and how it was bound."""

    source: str
    filename: str
    lineno: int
    col_offset: int
    node: ast.AST
    fn: types.FunctionType
    bound_self: object = None
    bound_args: tuple = ()
    bound_kwargs: dict = dataclasses.field(default_factory=dict)
    line_shifts: tuple = ()

    def file_position(self, lineno, col_offset):
        """Map a (line, column) in ``source`` to the (line, column) in ``filename``."""
        shift = self.line_shifts[lineno - 1] if 0 < lineno <= len(self.line_shifts) else 0
        return self.lineno + lineno - 1, col_offset + shift


@dataclasses.dataclass(frozen=True)
class ClosureVars:
    """A function's outside names: closure cells (for rebinding) and their values, globals, builtins."""

    cells: dict
    nonlocals: dict
    globals: dict
    builtins: dict
    unbound: frozenset


def unwrap(fn):
    """Peel partials, bound methods, static/classmethod objects and ``__wrapped__`` chains of
    callable objects. A Python function that wraps another (``functools.wraps``) is kept:
    its own body is what runs, and converting it converts the call to the wrapped one."""
    bound_self, args, kwargs, seen = None, (), {}, set()
    while True:
        if id(fn) in seen:
            raise SourceUnavailableError(f"cannot unwrap {fn!r}: its __wrapped__ chain is a cycle")
        seen.add(id(fn))
        if isinstance(fn, functools.partial):
            args, kwargs = fn.args + args, {**fn.keywords, **kwargs}
            fn = fn.func
        elif isinstance(fn, types.MethodType):
            bound_self, fn = fn.__self__, fn.__func__
        elif isinstance(fn, (staticmethod, classmethod)):
            fn = fn.__func__
        elif hasattr(fn, "__wrapped__") and not isinstance(fn, types.FunctionType):
            fn = fn.__wrapped__
        else:
            return Unwrapped(fn, bound_self, args, kwargs)


def get_source(fn):
    """Source, position and AST node of the Python function or lambda under ``fn``."""
    target = unwrap(fn)
    func = target.fn
    name = getattr(func, "__qualname__", None) or repr(func)
    if not isinstance(func, types.FunctionType):
        raise SourceUnavailableError(f"cannot get the source of {name}: {_not_python(func)}")
    code = func.__code__
    lines = linecache.getlines(code.co_filename, func.__globals__)
    if not lines:
        raise SourceUnavailableError(
            f"cannot get the source of {name}: file {code.co_filename!r} has no readable source "
            "(was it defined in an interactive session or by exec/eval?)")
    text = "".join(lines)
    try:
        tree = _parse_file(code.co_filename, text)
    except SyntaxError as err:
        raise SourceUnavailableError(
            f"cannot get the source of {name}: {code.co_filename} does not parse ({err.msg})") from err
    if code.co_name == "<lambda>":
        node = _find_lambda(tree, code)
        found = node and _lambda_source(text, node)
    else:
        node = _find_def(tree, code)
        found = node and _def_source(lines, node)
    if not found:
        raise SourceUnavailableError(
            f"cannot get the source of {name}: nothing defines it at {code.co_filename}:"
            f"{code.co_firstlineno} (was the file edited after it was imported?)")
    source, parsed, shifts = found
    first = _first_line(node)
    return SourceInfo(source, code.co_filename, first, shifts[0], parsed, func, target.bound_self,
                      target.bound_args, target.bound_kwargs, shifts)


def closure_vars(fn):
    """Split the names ``fn`` uses from outside into closure cells, globals, builtins and unbound."""
    func = unwrap(fn).fn
    if not isinstance(func, types.FunctionType):
        raise TypeError(f"closure_vars needs a Python function, got {type(func).__name__}")
    code = func.__code__
    cells = dict(zip(code.co_freevars, func.__closure__ or ()))
    nonlocals = {}
    for cell_name, cell in cells.items():
        try:
            nonlocals[cell_name] = cell.cell_contents
        except ValueError:
            continue
    builtin_ns = func.__builtins__
    if isinstance(builtin_ns, types.ModuleType):
        builtin_ns = vars(builtin_ns)
    found_globals, found_builtins, unbound = {}, {}, set()
    for global_name in _global_names(code):
        if global_name in func.__globals__:
            found_globals[global_name] = func.__globals__[global_name]
        elif global_name in builtin_ns:
            found_builtins[global_name] = builtin_ns[global_name]
        else:
            unbound.add(global_name)
    return ClosureVars(cells, nonlocals, found_globals, found_builtins, frozenset(unbound))


def _not_python(obj):
    """Why ``obj`` has no Python source, for error messages."""
    if isinstance(obj, (types.BuiltinFunctionType, types.WrapperDescriptorType,
                        types.MethodWrapperType, types.MethodDescriptorType)):
        return "it is a builtin or C function"
    if isinstance(obj, type):
        return "it is a class, not a function"
    return f"it is a {type(obj).__name__} object, not a Python function"


@functools.lru_cache(maxsize=32)
def _parse_file(filename, text):
    """Parse a whole source file once per content; callers never mutate the result."""
    return ast.parse(text, filename)


def _first_line(node):
    """The line a definition starts on, counting decorators (it matches ``co_firstlineno``)."""
    decorators = getattr(node, "decorator_list", ())
    return min([node.lineno] + [d.lineno for d in decorators])


def _find_def(tree, code):
    """The def statement that compiled to ``code``."""
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name
                and _first_line(node) == code.co_firstlineno):
            return node
    return None


def _def_source(lines, node):
    """Dedent a def's lines (leaving string continuation lines intact) and parse them afresh."""
    first = _first_line(node)
    protected = set()
    for child in ast.walk(node):
        if isinstance(child, ast.JoinedStr) or (isinstance(child, ast.Constant)
                                                and isinstance(child.value, (str, bytes))):
            protected.update(range(child.lineno + 1, child.end_lineno + 1))
    kept, shifts = [], []
    for row, line in enumerate(lines[first - 1:node.end_lineno], first):
        cut = 0 if row in protected else min(node.col_offset, len(line) - len(line.lstrip(" \t")))
        kept.append(line[cut:])
        shifts.append(cut)
    source = "".join(kept)
    return source, ast.parse(source).body[0], tuple(shifts)


def _find_lambda(tree, code):
    """The lambda that compiled to ``code``, among all lambdas starting on its first line."""
    candidates = [node for node in ast.walk(tree)
                  if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno]
    params = _code_params(code)
    candidates = [node for node in candidates if _node_params(node.args) == params]
    if len(candidates) > 1 and hasattr(code, "co_positions"):
        candidates = _by_positions(candidates, code)
    if len(candidates) > 1:
        candidates = _by_bytecode(candidates, code)
    return candidates[0] if candidates else None


def _lambda_source(text, node):
    """The lambda's own text, parsed (parenthesized so line breaks inside it stay legal)."""
    source = ast.get_source_segment(text, node)
    parsed = ast.parse("(" + source + "\n)", mode="eval").body
    for child in ast.walk(parsed):
        if getattr(child, "lineno", None) == 1:
            child.col_offset -= 1
            if child.end_lineno == 1:
                child.end_col_offset -= 1
    return source, parsed, (node.col_offset,) + (0,) * source.count("\n")


def _code_params(code):
    """Parameter names of a code object in signature order."""
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    return code.co_varnames[:count]


def _node_params(args):
    """Parameter names of an ``ast.arguments`` in the order code objects list them."""
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return tuple(names)


def _by_positions(candidates, code):
    """Lambdas whose body spans every instruction position of ``code``, innermost first."""
    spots = {(line, col) for line, end_line, col, end_col in code.co_positions()
             if line is not None and col is not None and (line, col) != (end_line, end_col)}

    def covers(node):
        """Whether every instruction start lies inside the lambda's body."""
        body = node.body
        start, end = (body.lineno, body.col_offset), (body.end_lineno, body.end_col_offset)
        return all(start <= spot < end for spot in spots)

    inside = [node for node in candidates if covers(node)]
    inside.sort(key=lambda node: (node.body.lineno, node.body.col_offset), reverse=True)
    return inside or candidates


def _by_bytecode(candidates, code):
    """Lambdas that compile to the same bytecode as ``code`` (its free names bound as closures)."""
    wanted = _fingerprint(code)
    matching = []
    for node in candidates:
        cells = "".join(f" {name} = None\n" for name in code.co_freevars)
        outer = compile(f"def _outer():\n{cells} return {ast.unparse(node)}\n", "<lambda>", "exec")
        inner = _nested_code(_nested_code(outer))
        if _fingerprint(inner) == wanted:
            matching.append(node)
    return matching or candidates


def _nested_code(code):
    """The first code object among ``code``'s constants."""
    return next(const for const in code.co_consts if isinstance(const, types.CodeType))


def _fingerprint(code):
    """What identifies a code object's behaviour, ignoring names of files and lines."""
    consts = tuple(_fingerprint(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.co_code, consts, code.co_names, code.co_varnames


def _global_names(code):
    """Names ``code`` and the code nested in it look up outside (globals, builtins, attributes)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names

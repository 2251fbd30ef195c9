"""Tests for pyct.source: finding the source and AST of functions, methods, partials and lambdas."""
import ast
import functools

import pytest

from sampan.jit.pyct import source
from sampan.jit.pyct.source import SourceUnavailableError, closure_vars, get_source

GLOBAL_SCALE = 3


def plain(x, y=2):
    return x * y


def tagging(tag):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return (tag, fn(*args, **kwargs))
        return wrapper
    return decorate


@tagging("outer")
@tagging("inner")
def decorated(v):
    return v + 1


class Model:
    def method(self, x):
        """Docstring whose continuation line
        is indented deeper than the def."""
        text = """first
  second"""
        return x, text

    @classmethod
    def make(cls, n):
        return n

    @staticmethod
    def helper(a):
        return -a


def make_closure(offset):
    def shifted(x):
        return x + offset + GLOBAL_SCALE + len(str(x))
    return shifted


twin_a, twin_b = (lambda x: x + 1), (lambda x: x * 2)
same_a, same_b = (lambda x: x), (lambda x: x)
named_a, named_b = (lambda p: p), (lambda q: q)
curried = lambda a: (lambda b: a + b)  # noqa: E731
spread = list(map(
    lambda item:
        item * 10,
    [1, 2]))


def spread_lambda():
    return [lambda z:
            z - 1][0]


def test_plain_function_source_and_position():
    info = get_source(plain)
    assert info.source.startswith("def plain(x, y=2):")
    assert info.lineno == plain.__code__.co_firstlineno
    assert info.col_offset == 0
    assert isinstance(info.node, ast.FunctionDef) and info.node.name == "plain"
    assert info.fn is plain and info.bound_self is None and info.bound_args == ()


class Wrapping:
    """A decorator object (not a function): its __wrapped__ chain is followed."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        return self.__wrapped__(*args)


def test_a_wrapper_function_is_its_own_source():
    info = get_source(decorated)  # what runs is tagging's wrapper, which calls the next one
    assert info.fn is decorated and info.source.splitlines()[:2] == [
        "@functools.wraps(fn)", "def wrapper(*args, **kwargs):"]
    inner = decorated.__wrapped__
    assert get_source(inner).fn is inner


def test_decorator_objects_are_unwrapped_and_decorators_kept_in_source():
    info = get_source(Wrapping(decorated.__wrapped__.__wrapped__))
    assert info.fn.__name__ == "decorated"
    assert info.source.splitlines()[:3] == ['@tagging("outer")', '@tagging("inner")', "def decorated(v):"]
    assert [ast.unparse(d) for d in info.node.decorator_list] == ["tagging('outer')", "tagging('inner')"]
    assert info.lineno == info.fn.__code__.co_firstlineno


def test_bound_method_reports_self_and_dedents():
    model = Model()
    info = get_source(model.method)
    assert info.bound_self is model
    assert info.source.startswith("def method(self, x):")
    assert info.col_offset == 4
    namespace = {}
    exec(info.source, namespace)
    assert namespace["method"].__doc__ == Model.method.__doc__
    assert namespace["method"](None, 1) == model.method(1)


def test_unbound_class_and_static_methods():
    assert get_source(Model.method).bound_self is None
    classmethod_info = get_source(Model.make)
    assert classmethod_info.bound_self is Model
    assert classmethod_info.source.startswith("@classmethod\ndef make(cls, n):")
    assert get_source(Model.helper).node.name == "helper"
    assert get_source(Model.__dict__["helper"]).node.name == "helper"
    assert get_source(Model.__dict__["make"]).bound_self is None


def test_partial_reports_bound_arguments():
    info = get_source(functools.partial(functools.partial(plain, 1), y=5))
    assert info.fn is plain and info.bound_args == (1,) and info.bound_kwargs == {"y": 5}
    model = Model()
    method_info = get_source(functools.partial(model.method, 7))
    assert method_info.bound_self is model and method_info.bound_args == (7,)


def test_nested_function_and_closure_vars():
    shifted = make_closure(5)
    info = get_source(shifted)
    assert info.source.startswith("def shifted(x):") and info.col_offset == 4
    found = closure_vars(shifted)
    assert found.nonlocals == {"offset": 5}
    assert found.cells["offset"] is shifted.__closure__[0]
    assert found.globals == {"GLOBAL_SCALE": 3}
    assert found.builtins == {"len": len, "str": str}
    assert found.unbound == frozenset()


def test_closure_vars_empty_cell_and_unbound_name():
    def outer():
        def uses_later():
            return later + missing_name  # noqa: F821
        cells = closure_vars(uses_later)
        later = 1
        return cells
    found = outer()
    assert set(found.cells) == {"later"} and found.nonlocals == {}
    assert found.unbound == {"missing_name"}


def test_two_lambdas_on_one_line_differing_bodies():
    info_a, info_b = get_source(twin_a), get_source(twin_b)
    assert (info_a.source, info_b.source) == ("lambda x: x + 1", "lambda x: x * 2")
    assert info_a.lineno == info_b.lineno
    assert info_a.col_offset < info_b.col_offset
    assert isinstance(info_a.node, ast.Lambda)


def test_identical_lambdas_told_apart_by_position():
    info_a, info_b = get_source(same_a), get_source(same_b)
    assert info_a.source == info_b.source == "lambda x: x"
    assert info_a.col_offset != info_b.col_offset


def test_lambdas_told_apart_by_argument_names():
    assert get_source(named_a).source == "lambda p: p"
    assert get_source(named_b).source == "lambda q: q"


def test_nested_lambdas_on_one_line():
    assert get_source(curried).source == "lambda a: (lambda b: a + b)"
    inner = get_source(curried(1))
    assert inner.source == "lambda b: a + b"
    assert inner.file_position(1, 0) == (inner.lineno, inner.col_offset)


def test_lambda_bodies_disambiguate_without_positions(monkeypatch):
    monkeypatch.setattr(source, "_by_positions", lambda candidates, code: candidates)
    assert get_source(twin_b).source == "lambda x: x * 2"
    assert get_source(curried(1)).source == "lambda b: a + b"


def test_multiline_lambdas():
    info = get_source(spread_lambda())
    assert info.source == "lambda z:\n            z - 1"
    body = info.node.body
    assert info.file_position(body.lineno, body.col_offset)[0] == info.lineno + 1
    first_arg = info.node.args.args[0]
    assert info.file_position(first_arg.lineno, first_arg.col_offset) == (info.lineno, info.col_offset + 7)


def test_multiline_lambda_inside_call_arguments():
    assert get_source(_spread_fn()).source == "lambda item:\n        item * 10"


def _spread_fn():
    return _capture(lambda item:
        item * 10)  # noqa: E128


def _capture(fn):
    return fn


def test_file_position_of_dedented_def():
    info = get_source(Model.method)
    node = info.node.body[-1]
    line, col = info.file_position(node.lineno, node.col_offset)
    assert (line, col) == (info.lineno + node.lineno - 1, 8)


@pytest.mark.parametrize("fn, why", [
    (len, "builtin or C function"),
    ([].append, "builtin or C function"),
    (object.__init__, "builtin or C function"),
    (Model, "is a class"),
    (Model(), "Model object"),
])
def test_unavailable_source_names_function_and_reason(fn, why):
    with pytest.raises(SourceUnavailableError, match=why):
        get_source(fn)


def test_exec_defined_function_is_unavailable():
    namespace = {}
    exec("def from_exec():\n    return 1\n", namespace)
    with pytest.raises(SourceUnavailableError, match=r"from_exec.*'<string>'.*exec/eval"):
        get_source(namespace["from_exec"])

"""`assert`, `print`, `len`, `int/float/bool/complex` and `isinstance` inside converted code."""
import builtins
import sys

from ...core.dispatch import current_mode
from ...eager.tensor import Tensor
from ...ops._generated import api
from ...static.assert_op import Assert as static_assert
from ...static.control_flow import array_length
from ...static.print_op import print_line
from ..segments import breaks
from .common import is_variable

__all__ = ["Assert", "Print", "Len", "Cast", "IsInstance", "Shape"]

_CAST_DTYPES = {int: "int32", float: "float32", bool: "bool", complex: "complex64"}


def Assert(test, message):
    """`assert test, message()`; a Tensor test becomes an `assert` op checked at each run
    (ValueError when an element is false, as in Paddle)."""
    if not is_variable(test):
        assert test, message()
        return
    if test.dtype.name != "bool":
        test = api.cast(test, "bool")
    text = message()
    static_assert(test, message=None if text is None else str(text))


def _describe(value):
    """How print shows `value` now: Variables by name, shape and dtype."""
    if is_variable(value):
        return f"Tensor(name={value.name}, shape={list(value.shape)}, dtype={value.dtype.name})"
    return value


def _stream(file):
    """"stdout" / "stderr" for print's `file`, None for another file object."""
    if file is None or file is sys.stdout:
        return "stdout"
    return "stderr" if file is sys.stderr else None


def _printed(value):
    """What a print_line op shows for `value`: a dense Variable (an eager tensor read
    through an assign op, so each run shows its current value), else the value's text."""
    if isinstance(value, Tensor):
        return api.assign(value)
    if is_variable(value) and value.kind != "dense":
        return _describe(value)
    return value


def Print(*args, sep=" ", end="\n", file=None, flush=False):
    """`print(...)`: while a Program is built, a `print_line` op printing the call at each
    run, Tensors in eager format; a print inside a Tensor if or while runs only when its
    branch or iteration does, as in eager. To another file object it prints now."""
    stream = _stream(file)
    if stream is None or not current_mode().is_static:
        builtins.print(*map(_describe, args), sep=sep, end=end, file=file, flush=flush)
        return
    print_line([_printed(a) for a in args], sep, end, stream, flush)


def Len(value):
    """`len(value)`: the static first dim of a Variable, or a shape-op element if unknown."""
    if hasattr(value, "static_len"):
        return value.static_len()
    if not is_variable(value):
        return len(value)
    if value.kind == "array":  # a tensor array (paddle.tensor.array_write): its length
        return array_length(value)
    if not value.shape:
        raise TypeError(f"len() of a 0-d Tensor {value.name!r}")
    if value.shape[0] >= 0:
        return value.shape[0]
    return api.shape(value)[0]


def Cast(kind, *args):
    """`int/float/bool/complex(value)`: for a Variable, a cast op to int32 / float32 / bool /
    complex64 of the same shape, as Paddle converts them (elementwise, whatever the size).
    With full_graph=False the builtin itself runs: the graph breaks and Python gets the
    value, as eagerly."""
    if len(args) != 1 or not is_variable(args[0]) or breaks.active() is not None:
        return kind(*args)
    return api.cast(args[0], _CAST_DTYPES[kind])


def IsInstance(value, classes):
    """`isinstance`: a static Variable counts as a `Tensor`."""
    if is_variable(value) and _mentions_tensor(classes):
        return True
    return isinstance(value, classes)


def _mentions_tensor(classes):
    """True when `classes` (a class or nested tuple of classes) includes Tensor."""
    if isinstance(classes, tuple):
        return any(map(_mentions_tensor, classes))
    return isinstance(classes, type) and issubclass(Tensor, classes) and classes is not object


def Shape(value):
    """`value.shape`; for a Variable with unknown (-1) dims those entries become 0-d int64
    tensors read from a shape op, so `range(x.shape[0])` or `i < x.shape[0]` build tensor
    loops instead of silently running zero times. Used as a size attribute, such an entry
    still means "unknown" (-1)."""
    shape = value.shape
    if not is_variable(value) or all(d >= 0 for d in shape):
        return shape
    dims = api.shape(value)
    return [d if d >= 0 else dims[i] for i, d in enumerate(shape)]

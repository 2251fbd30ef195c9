"""Static stand-ins for values a Tensor if/while needs as Variables: constants, zero
placeholders for undefined names and pending returns, and building ops in an outer block."""
import contextlib

from ...ops._generated import api
from ...static.program_state import default_main_program
from .common import NO_RETURN, Undefined, is_variable

__all__ = ["in_block", "is_missing", "placeholder", "NoPlaceholder",
           "as_variable", "is_number"]


class NoPlaceholder(Exception):
    """A value whose stand-in cannot be built (unknown dims or a non-Tensor value)."""


@contextlib.contextmanager
def in_block(block):
    """Append ops to `block` inside the `with` (then back to the current block)."""
    program = default_main_program()
    saved, program._current = program._current, block.idx
    try:
        yield block
    finally:
        program._current = saved


def is_missing(value):
    """True for an unbound name (Undefined) or a return that has not run (NO_RETURN)."""
    return value is NO_RETURN or isinstance(value, Undefined)


def is_number(value):
    """True for a Python bool/int/float."""
    return isinstance(value, (bool, int, float))


def placeholder(like, unread=False):
    """Zeros shaped like `like` (a Variable, number or container of them); Python objects
    stand for themselves. Raises NoPlaceholder for dims only known at run time, unless
    `unread` (a pending return value, never read on the path that holds the stand-in):
    then those dims are 0."""
    if isinstance(like, (list, tuple)):
        return type(like)(placeholder(v, unread) for v in like)
    if isinstance(like, dict):
        return {k: placeholder(v, unread) for k, v in like.items()}
    if is_missing(like):
        raise NoPlaceholder(like)
    if not is_variable(like):
        return like
    if like.kind != "dense" or (not unread and any(d < 0 for d in like.shape)):
        raise NoPlaceholder(like)
    return api.full([max(d, 0) for d in like.shape],
                    False if like.dtype.name == "bool" else 0, like.dtype)


def _number_dtype(*values):
    """The dtype two Python numbers share as Variables."""
    if all(isinstance(v, bool) for v in values):
        return "bool"
    return "float32" if any(isinstance(v, float) for v in values) else "int64"


def as_variable(value, other):
    """`value` as a Variable matching `other` (a Variable or a number) in dtype and shape."""
    if is_variable(value):
        return value
    if not is_variable(other):
        return api.full([], value, _number_dtype(value, other))
    if any(d < 0 for d in other.shape):
        raise NoPlaceholder(other)
    return api.full(list(other.shape), value, other.dtype)

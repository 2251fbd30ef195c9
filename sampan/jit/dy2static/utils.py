"""`paddle.jit.dy2static.utils`: the source text of a (converted) function and the error
class of code to_static cannot convert."""
import functools
import inspect
import textwrap

from ..operators.common import Dygraph2StaticException

__all__ = ["func_to_source_code", "Dygraph2StaticException"]


def func_to_source_code(function, dedent=True):
    """The source of `function` (a function, method or partial) with comment lines blanked;
    for a function converted by to_static, its converted code."""
    if isinstance(function, functools.partial):
        function = function.func
    if not (inspect.isfunction(function) or inspect.ismethod(function)):
        raise TypeError(f"func_to_source_code(): 'function' must be a function or method, "
                        f"got {type(function).__name__}")
    converted = getattr(function, "__sampan_code__", None)
    if converted is not None:
        return converted
    lines, _ = inspect.getsourcelines(function)
    source = "".join("\n" if line.lstrip().startswith("#") else line for line in lines)
    return textwrap.dedent(source) if dedent else source

"""`paddle.jit.dy2static.convert_operators`: Paddle's names for the runtime functions of
converted code (Python semantics on Python values, ops on static Variables)."""
from ..operators import And, Assert, Cast, Len, Not, Or, Print, Shape

__all__ = ["And", "Or", "Not", "Len", "Shape", "convert_logical_and", "convert_logical_or",
           "convert_logical_not", "convert_len", "convert_shape", "convert_var_dtype",
           "convert_assert", "convert_print"]

convert_logical_and = And
convert_logical_or = Or
convert_logical_not = Not
convert_len = Len
convert_shape = Shape
convert_print = Print

_KINDS = {"bool": bool, "int": int, "float": float, "complex": complex}


def convert_var_dtype(var, dtype):
    """`int(var)` / `float` / `bool` / `complex` spelled as Paddle's `convert_var_dtype(var,
    "int")`: a cast op for a Variable, the Python conversion otherwise."""
    if dtype not in _KINDS:
        raise ValueError(f"convert_var_dtype(): dtype must be one of {sorted(_KINDS)}, got "
                         f"{dtype!r}")
    return Cast(_KINDS[dtype], var)


def convert_assert(cond, message=""):
    """`assert cond, message`: an assert op for a Variable condition."""
    return Assert(cond, lambda: message)

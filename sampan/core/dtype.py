"""Data types: one `DType` object per supported type, convertible from strings and NumPy."""
import numpy as np

__all__ = ["DType", "to_dtype", "float16", "float32", "float64", "int8", "uint8", "int16",
           "int32", "int64", "bool_", "complex64", "complex128", "get_default_dtype",
           "set_default_dtype"]


class DType:
    """A tensor element type; compares equal to its name and to its NumPy dtype."""

    __slots__ = ("name", "np", "is_floating", "is_integer", "itemsize", "_rank")

    def __init__(self, name, np_dtype, rank):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating = self.np.kind in "fc"
        self.is_integer = self.np.kind in "iu"
        self.itemsize = self.np.itemsize
        self._rank = rank

    def __repr__(self):
        return f"paddle.{self.name}"

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, DType):
            return self is other
        try:
            return to_dtype(other) is self
        except (TypeError, ValueError):
            return False

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        return (to_dtype, (self.name,))


bool_ = DType("bool", np.bool_, 0)
uint8 = DType("uint8", np.uint8, 1)
int8 = DType("int8", np.int8, 2)
int16 = DType("int16", np.int16, 3)
int32 = DType("int32", np.int32, 4)
int64 = DType("int64", np.int64, 5)
float16 = DType("float16", np.float16, 6)
float32 = DType("float32", np.float32, 7)
float64 = DType("float64", np.float64, 8)
complex64 = DType("complex64", np.complex64, 9)
complex128 = DType("complex128", np.complex128, 10)

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64, complex64, complex128)
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update({"float": float32, "double": float64, "int": int64, "half": float16,
                 "bool_": bool_})
_BY_NP = {d.np: d for d in ALL}
_default_float = [float32]


def to_dtype(value):
    """Convert a DType, a name ("float32", "paddle.float32"), a NumPy dtype or type to a DType."""
    if value.__class__ is DType:
        return value
    if isinstance(value, str):
        key = value[7:] if value.startswith("paddle.") else value
        found = _BY_NAME.get(key)
        if found is None:
            raise TypeError(f"unknown dtype {value!r}; expected one of {sorted(_BY_NAME)}")
        return found
    if value is bool:
        return bool_
    if value is int:
        return int64
    if value is float:
        return _default_float[0]
    try:
        return _BY_NP[np.dtype(value)]
    except (TypeError, KeyError):
        raise TypeError(f"unsupported dtype {value!r}") from None


def from_numpy_dtype(np_dtype):
    """The DType of a NumPy dtype object (fast path used on every eager op)."""
    found = _BY_NP.get(np_dtype)
    if found is None:
        raise TypeError(f"unsupported NumPy dtype {np_dtype}")
    return found


def promote(a, b):
    """The dtype two tensor operands compute in: bool < ints < floats < complex, wider
    wins; complex64 beside float64 widens to complex128 (float64's precision kept)."""
    if a is b:
        return a
    if a.is_floating != b.is_floating:
        return a if a.is_floating else b
    if {a, b} == {complex64, float64}:
        return complex128
    return a if a._rank >= b._rank else b


def _kind(d):
    """The promotion family of a dtype: bool, integer, real float or complex."""
    return "i" if d.is_integer else d.np.kind


def promote_operands(a, a_ndim, b, b_ndim):
    """The dtype an elementwise op computes in for operands of dtypes a, b and ranks a_ndim,
    b_ndim: `promote`, except that a 0-d operand does not widen an operand of rank >= 1 of
    the same family (integer with integer, float with float): Paddle treats the 0-d tensor
    like a Python scalar there (int32 [n] + int64 0-d is int32)."""
    if a is b:
        return a
    if (a_ndim == 0) != (b_ndim == 0) and _kind(a) == _kind(b):
        return b if a_ndim == 0 else a
    return promote(a, b)


def get_default_dtype():
    """Name of the float dtype used for Python floats and random tensors (``"float32"``)."""
    return _default_float[0].name


def set_default_dtype(d):
    """Set the default float dtype (float16, float32 or float64)."""
    dt = to_dtype(d)
    if not dt.is_floating:
        raise TypeError(f"set_default_dtype expects a floating dtype, got {dt}")
    _default_float[0] = dt


def default_float():
    """The default float DType object."""
    return _default_float[0]


def scalar_dtype(value, like):
    """The dtype a Python scalar operand takes next to a tensor of dtype `like` (or None).

    Paddle keeps the tensor's dtype ("weak" scalars), except that a float scalar next to
    an integer or bool tensor computes in the default float type, and a complex scalar
    makes a real tensor complex (complex128 for float64, else complex64).
    """
    if like is None:
        if isinstance(value, bool):
            return bool_
        if isinstance(value, int):
            return int64
        if isinstance(value, complex):
            return complex64
        return _default_float[0]
    if isinstance(value, bool):
        return like
    if isinstance(value, int):
        return int64 if like is bool_ else like
    if isinstance(value, complex):
        return like if like.np.kind == "c" else complex128 if like is float64 else complex64
    return like if like.is_floating else _default_float[0]

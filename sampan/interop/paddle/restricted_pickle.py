"""A restricted unpickler for `paddle.save` files: builds only NumPy arrays, plain
containers and scalars, and never calls anything the file names.

The pickle is decoded opcode by opcode (`pickletools.genops`, which checks every length
against the bytes that remain) and run by a small stack machine below. Only data opcodes
are accepted; the few globals a NumPy array's pickle names (`numpy.ndarray`,
`numpy.dtype`, `_reconstruct`, `scalar`, plus `builtins.tuple`, `collections.OrderedDict`
and `_codecs.encode`) resolve to local stand-ins that check their arguments and build the
value from raw bytes; any other global, and every opcode that could call or import
something else (INST, OBJ, NEWOBJ, EXT*, PERSID, out-of-band buffers), is refused. The
memo is a dict, so a file cannot make the reader reserve memory it merely declares.
"""
import io
import pickletools

import numpy as np

from ...serialization import DTYPES

__all__ = ["PickleRefused", "SavedTensor", "loads_restricted"]

MAX_NDIM = 64
_NUMERIC_KINDS = {"b", "i", "u", "f", "c"}


class PickleRefused(ValueError):
    """The pickle holds something other than arrays, containers and scalars, or is
    malformed; the message says what."""


class SavedTensor:
    """A Tensor as `paddle.save` pickles it inside a structure: `tuple((name, array))`."""

    __slots__ = ("name", "array")

    def __init__(self, name, array):
        self.name, self.array = name, array


class _Mark:
    """The MARK opcode's stack sentinel."""


class _NdarrayClass:
    """Stands for `numpy.ndarray` (only ever passed to `_reconstruct`)."""


class _DtypeSpec:
    """A dtype under construction: `numpy.dtype(code, align, copy)` then BUILD(state)."""

    def __init__(self, code, align=False, copy=False):
        if type(code) is not str or not 2 <= len(code) <= 4:
            raise PickleRefused(f"dtype code {code!r:.40} is not a numeric type code")
        try:
            dtype = np.dtype(code)
        except TypeError:
            raise PickleRefused(f"unknown dtype code {code!r:.40}") from None
        if dtype.kind not in _NUMERIC_KINDS or dtype.name not in DTYPES:
            raise PickleRefused(f"dtype {code!r} is not an allowed array dtype")
        self.dtype = dtype

    def __setstate__(self, state):
        if (type(state) is not tuple or len(state) < 2 or state[1] not in ("<", ">", "|", "=")
                or any(s is not None for s in state[2:5])):
            raise PickleRefused("dtype state is not a plain numeric dtype's")
        order = state[1]
        self.dtype = self.dtype.newbyteorder("=" if order == "|" else order)


class _ArrayState:
    """An array under construction: `_reconstruct(ndarray, (0,), b'b')` then BUILD(state)."""

    def __init__(self):
        self.array = None

    def __setstate__(self, state):
        if type(state) is not tuple or len(state) != 5:
            raise PickleRefused("array state is not (version, shape, dtype, fortran, data)")
        _, shape, spec, fortran, data = state
        if not isinstance(spec, _DtypeSpec):
            raise PickleRefused("array dtype was not built from an allowed dtype")
        self.array = _array_from_bytes(shape, spec.dtype, data, bool(fortran))


def _array_from_bytes(shape, dtype, data, fortran=False):
    """A fresh native-order array of `shape` from exactly the bytes it needs."""
    if (type(shape) is not tuple or len(shape) > MAX_NDIM
            or not all(type(d) is int and d >= 0 for d in shape)):
        raise PickleRefused(f"array shape {shape!r:.80} is not a tuple of dims >= 0")
    if not isinstance(data, (bytes, bytearray)):
        raise PickleRefused("array data is not raw bytes (object arrays are refused)")
    count = 1
    for d in shape:
        count *= d
    if count * dtype.itemsize != len(data):
        raise PickleRefused(f"array {dtype.name} {list(shape)} needs {count * dtype.itemsize} "
                            f"bytes, the file holds {len(data)}")
    flat = np.frombuffer(data, dtype, count)
    array = flat.reshape(shape, order="F" if fortran else "C")
    array = np.array(array, dtype=dtype.newbyteorder("="), order="C")   # a fresh copy
    if array.dtype == np.bool_ and np.frombuffer(data, np.uint8).max(initial=0) > 1:
        raise PickleRefused("bool array holds bytes other than 0 and 1")
    return array


def _reconstruct(cls, shape, code):
    if not isinstance(cls, _NdarrayClass):
        raise PickleRefused("_reconstruct may only build numpy.ndarray")
    return _ArrayState()


def _scalar(spec, data):
    if not isinstance(spec, _DtypeSpec):
        raise PickleRefused("numpy scalar dtype was not built from an allowed dtype")
    return _array_from_bytes((), spec.dtype, data)[()]


def _frombuffer(data, spec, shape, order):
    """`numpy._core.numeric._frombuffer`: how protocol 5 pickles an array."""
    if not isinstance(spec, _DtypeSpec) or order not in ("C", "F"):
        raise PickleRefused("_frombuffer of a disallowed dtype or order")
    return _array_from_bytes(shape, spec.dtype, data, order == "F")


def _tuple(items=()):
    """`builtins.tuple(x)`: Paddle's pickled Tensor when x is (name, array)."""
    if (type(items) is tuple and len(items) == 2 and type(items[0]) is str
            and isinstance(items[1], _ArrayState)):
        return SavedTensor(*items)
    if type(items) not in (tuple, list):
        raise PickleRefused("builtins.tuple applied to something other than a sequence")
    return tuple(items)


def _ordered_dict(items=()):
    if items != () and type(items) is not list:
        raise PickleRefused("OrderedDict built from something other than a list of pairs")
    return dict(items)


def _encode(text, encoding="latin1"):
    """`_codecs.encode(str, 'latin1')`: how protocol 2 stores bytes."""
    if type(text) is not str or encoding not in ("latin1", "latin-1"):
        raise PickleRefused("_codecs.encode is allowed only for latin1 text")
    return text.encode("latin1")


_NDARRAY = _NdarrayClass()
_MULTIARRAY = {"_reconstruct": _reconstruct, "scalar": _scalar}
_NUMERIC = {"_frombuffer": _frombuffer}
ALLOWED_GLOBALS = {
    **{(module, name): value for module in ("numpy.core.multiarray", "numpy._core.multiarray")
       for name, value in _MULTIARRAY.items()},
    **{(module, name): value for module in ("numpy.core.numeric", "numpy._core.numeric")
       for name, value in _NUMERIC.items()},
    ("numpy", "ndarray"): _NDARRAY,
    ("numpy", "dtype"): _DtypeSpec,
    ("builtins", "tuple"): _tuple,
    ("__builtin__", "tuple"): _tuple,
    ("collections", "OrderedDict"): _ordered_dict,
    ("_codecs", "encode"): _encode,
}
_CALLABLE = {_reconstruct, _scalar, _frombuffer, _DtypeSpec, _tuple, _ordered_dict, _encode}
_BUILDABLE = (_ArrayState, _DtypeSpec)


def _find_global(module, name):
    value = ALLOWED_GLOBALS.get((module, name))
    if value is None:
        raise PickleRefused(f"refused global {module}.{name} (only NumPy arrays, containers "
                            f"and scalars are read)")
    return value


class _Machine:
    """The stack machine over decoded opcodes."""

    def __init__(self):
        self.stack, self.memo = [], {}

    def pop_mark(self):
        """The items above the topmost MARK (which is removed)."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i] is _MARK:
                items = self.stack[i + 1:]
                del self.stack[i:]
                return items
        raise PickleRefused("no MARK on the stack")

    def pop(self):
        if not self.stack or self.stack[-1] is _MARK:
            raise PickleRefused("stack underflow")
        return self.stack.pop()

    def top(self):
        if not self.stack or self.stack[-1] is _MARK:
            raise PickleRefused("stack underflow")
        return self.stack[-1]


_MARK = _Mark()
_CONSTANTS = {"NONE": None, "NEWTRUE": True, "NEWFALSE": False, "EMPTY_TUPLE": ()}
_PUSH_ARG = {"INT", "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "FLOAT",
             "BINFLOAT", "BINBYTES", "SHORT_BINBYTES", "BINBYTES8", "UNICODE", "BINUNICODE",
             "SHORT_BINUNICODE", "BINUNICODE8"}
_LATIN1_STRINGS = {"STRING", "BINSTRING", "SHORT_BINSTRING"}
_IGNORED = {"PROTO", "FRAME"}


def _step(m, name, arg):
    """Run one opcode; True at STOP."""
    if name in _IGNORED:
        return False
    if name in _CONSTANTS:
        m.stack.append(_CONSTANTS[name])
    elif name in _PUSH_ARG:
        m.stack.append(arg)
    elif name in _LATIN1_STRINGS:
        m.stack.append(arg.encode("latin1") if isinstance(arg, str) else bytes(arg))
    elif name == "BYTEARRAY8":
        m.stack.append(bytearray(arg))
    elif name == "MARK":
        m.stack.append(_MARK)
    elif name == "POP":
        m.pop()
    elif name == "POP_MARK":
        m.pop_mark()
    elif name == "DUP":
        m.stack.append(m.top())
    elif name in ("EMPTY_LIST", "EMPTY_DICT"):
        m.stack.append([] if name == "EMPTY_LIST" else {})
    elif name in ("LIST", "TUPLE", "DICT"):
        items = m.pop_mark()
        m.stack.append(_collect(name, items))
    elif name in ("TUPLE1", "TUPLE2", "TUPLE3"):
        count = int(name[-1])
        items = [m.pop() for _ in range(count)][::-1]
        m.stack.append(tuple(items))
    elif name in ("APPEND", "APPENDS"):
        items = [m.pop()] if name == "APPEND" else m.pop_mark()
        target = m.top()
        if type(target) is not list:
            raise PickleRefused(f"{name} onto a {type(target).__name__}")
        target.extend(items)
    elif name in ("SETITEM", "SETITEMS"):
        items = [m.pop(), m.pop()][::-1] if name == "SETITEM" else m.pop_mark()
        target = m.top()
        if type(target) is not dict or len(items) % 2:
            raise PickleRefused(f"{name} onto a {type(target).__name__}")
        for key, value in zip(items[::2], items[1::2]):
            target[_key(key)] = value
    elif name in ("PUT", "BINPUT", "LONG_BINPUT"):
        m.memo[arg] = m.top()
    elif name == "MEMOIZE":
        m.memo[len(m.memo)] = m.top()
    elif name in ("GET", "BINGET", "LONG_BINGET"):
        if arg not in m.memo:
            raise PickleRefused(f"memo entry {arg} read before it is written")
        m.stack.append(m.memo[arg])
    elif name in ("GLOBAL", "STACK_GLOBAL"):
        if name == "GLOBAL":
            module, _, attr = arg.partition(" ")
        else:
            attr, module = m.pop(), m.pop()
            if type(module) is not str or type(attr) is not str:
                raise PickleRefused("STACK_GLOBAL of non-strings")
        m.stack.append(_find_global(module, attr))
    elif name == "REDUCE":
        args, func = m.pop(), m.pop()
        if func not in _CALLABLE or type(args) is not tuple:
            raise PickleRefused("REDUCE of something other than an allowed global")
        m.stack.append(func(*args))
    elif name == "BUILD":
        state, target = m.pop(), m.top()
        if not isinstance(target, _BUILDABLE):
            raise PickleRefused(f"BUILD of a {type(target).__name__}")
        target.__setstate__(state)
    elif name == "STOP":
        return True
    else:
        raise PickleRefused(f"refused opcode {name} (it could run or import code)")
    return False


def _collect(kind, items):
    if kind == "LIST":
        return list(items)
    if kind == "TUPLE":
        return tuple(items)
    if len(items) % 2:
        raise PickleRefused("DICT with an odd number of items")
    return {_key(k): v for k, v in zip(items[::2], items[1::2])}


def _key(key):
    """A dict key: strings, numbers, None, bytes, or tuples of them."""
    if isinstance(key, tuple):
        for part in key:
            _key(part)
    elif type(key) not in (str, int, float, bool, bytes) and key is not None:
        raise PickleRefused(f"dict key of type {type(key).__name__}")
    return key


def loads_restricted(data, tensor=SavedTensor):
    """The value pickled in `data`, with arrays finished and placeholders resolved; each
    pickled Paddle Tensor becomes `tensor(name, array)`.

    Raises PickleRefused for anything but arrays, containers and scalars, and for a
    malformed pickle.
    """
    machine = _Machine()
    try:
        for opcode, arg, _ in pickletools.genops(io.BytesIO(data)):
            if _step(machine, opcode.name, arg):
                break
        else:
            raise PickleRefused("no STOP opcode")
    except PickleRefused:
        raise
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, UnicodeError,
            RecursionError, MemoryError, AttributeError, EOFError) as exc:
        raise PickleRefused(f"malformed pickle: {type(exc).__name__}: {str(exc)[:200]}") \
            from None
    if len(machine.stack) != 1:
        raise PickleRefused("the pickle does not leave exactly one value")
    return _finish(machine.stack[0], tensor)


def _finish(root, tensor):
    """Replace array placeholders by their arrays, everywhere, once per object (shared
    references stay shared, so repeated memo reads cannot blow the walk up); a container
    that holds itself is refused, since code reading the result would recurse forever."""
    done, active = {}, set()

    def finish(obj, depth):
        if depth > 256:
            raise PickleRefused("containers nest deeper than 256")
        if isinstance(obj, _ArrayState):
            if obj.array is None:
                raise PickleRefused("an array was never given its data")
            return obj.array
        if isinstance(obj, SavedTensor):
            return tensor(obj.name, finish(obj.array, depth + 1))
        if isinstance(obj, (_DtypeSpec, _NdarrayClass)) or callable(obj):
            raise PickleRefused(f"a bare {type(obj).__name__} is not a value")
        if type(obj) not in (list, tuple, dict):
            return obj
        if id(obj) in done:
            return done[id(obj)]
        if id(obj) in active:
            raise PickleRefused("a container holds itself (a reference cycle)")
        active.add(id(obj))
        if type(obj) is dict:
            out = {k: finish(v, depth + 1) for k, v in obj.items()}
        else:
            out = type(obj)(finish(v, depth + 1) for v in obj)
        active.discard(id(obj))
        done[id(obj)] = out
        return out

    return finish(root, 0)

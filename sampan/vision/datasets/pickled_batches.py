"""Read the pickled batches of CIFAR's "python version" without unpickling them.

A pickle is a program for a stack machine whose GLOBAL/REDUCE instructions import and call
arbitrary Python objects, so `pickle.load` on a downloaded file runs whatever the file says.
This module instead walks the instruction stream with `pickletools.genops` (a parser that
executes nothing) and interprets only the instructions that build the plain data CIFAR's
files hold: dicts, lists, tuples, strings, bytes, numbers, and NumPy arrays of numeric dtypes.
Of the names a pickle may refer to, only the ones NumPy and Python write for such arrays and
byte strings are accepted, and they are not imported or called: their effect is reproduced
(`np.frombuffer` over the file's own bytes, its size checked first). Anything else is refused
with UnsafePickleError before it could happen.
"""
import io
import math
import pickletools

import numpy as np

__all__ = ["UnsafePickleError", "load_batch"]


class UnsafePickleError(ValueError):
    """The pickle holds something other than plain data (or is malformed); nothing in it ran."""


class _Global:
    """A name the pickle referred to, kept as a tag (never imported)."""

    def __init__(self, kind):
        self.kind = kind


class _ArrayStub:
    """numpy's `_reconstruct(ndarray, (0,), b'b')`: an array whose state comes by BUILD."""


class _DtypeStub:
    def __init__(self, dtype):
        self.dtype = dtype


_MARK = object()

# (module, name) -> the tag standing for it; both numpy 1.x and 2.x module paths.
_ALLOWED_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"): "reconstruct",
    ("numpy._core.multiarray", "_reconstruct"): "reconstruct",
    ("numpy.core.numeric", "_frombuffer"): "frombuffer",
    ("numpy._core.numeric", "_frombuffer"): "frombuffer",
    ("numpy", "ndarray"): "ndarray",
    ("numpy", "dtype"): "dtype",
    ("_codecs", "encode"): "encode",
}

_NUMERIC_KINDS = "biufc"


def _refuse(message):
    raise UnsafePickleError(message)


def _numeric_dtype(value):
    """A NumPy dtype for a dtype name or a _DtypeStub, refusing object and structured types."""
    if isinstance(value, _DtypeStub):
        value = value.dtype
    try:
        dtype = np.dtype(value) if isinstance(value, (str, np.dtype)) else None
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None:
        _refuse(f"refusing array dtype {value!r}: only plain numeric dtypes are accepted")
    return dtype


def _array(raw, dtype, shape, fortran=False):
    """An array over the pickle's own bytes, after checking that they are exactly enough."""
    if isinstance(raw, str):
        raw = raw.encode("latin-1")
    if not isinstance(raw, (bytes, bytearray)):
        _refuse(f"array data must be bytes, got {type(raw).__name__}")
    if not (isinstance(shape, tuple) and all(isinstance(d, int) and d >= 0 for d in shape)):
        _refuse(f"bad array shape {shape!r}")
    count = math.prod(shape)
    if count * dtype.itemsize != len(raw):
        _refuse(f"array of shape {shape} and dtype {dtype} needs {count * dtype.itemsize} "
                f"bytes, the pickle holds {len(raw)}")
    flat = np.frombuffer(bytes(raw), dtype=dtype, count=count)
    return flat.reshape(shape, order="F" if fortran else "C").copy()


def _reduce(func, args):
    """The effect of calling an accepted global, reproduced on plain data."""
    kind = func.kind if isinstance(func, _Global) else None
    if not isinstance(args, tuple):
        _refuse("REDUCE arguments must be a tuple")
    if kind == "reconstruct" and len(args) == 3 and isinstance(args[0], _Global) \
            and args[0].kind == "ndarray":
        return _ArrayStub()
    if kind == "dtype" and args and isinstance(args[0], str):
        return _DtypeStub(_numeric_dtype(args[0]))
    if kind == "frombuffer" and len(args) == 4:
        raw, dtype, shape, order = args
        return _array(raw, _numeric_dtype(dtype), shape, fortran=order == "F")
    if kind == "encode" and len(args) == 2 and isinstance(args[0], str) \
            and args[1] in ("latin1", "latin-1"):
        return args[0].encode("latin-1")
    _refuse(f"refusing to call {kind or type(func).__name__} with {len(args)} arguments")


def _build(obj, state):
    """BUILD: an array or dtype stub receives its state."""
    if isinstance(obj, _DtypeStub):
        if not (isinstance(state, tuple) and len(state) >= 2 and state[1] in "<>|="):
            _refuse(f"bad dtype state {state!r}")
        byteorder = {"|": "=", "=": "="}.get(state[1], state[1])
        return _DtypeStub(obj.dtype.newbyteorder(byteorder))
    if isinstance(obj, _ArrayStub) and isinstance(state, tuple) and len(state) == 5:
        _version, shape, dtype, fortran, raw = state
        return _array(raw, _numeric_dtype(dtype), shape, bool(fortran))
    _refuse(f"refusing BUILD on {type(obj).__name__}")


def _pop_mark(stack):
    """The items above the topmost MARK, removed from the stack with the mark."""
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is _MARK:
            items = stack[i + 1:]
            del stack[i:]
            return items
    _refuse("MARK expected")


def _hashable(key):
    if not isinstance(key, (str, bytes, int, float, bool, type(None), tuple)):
        _refuse(f"dict key of type {type(key).__name__} refused")
    return key


def _set_items(stack, items):
    target = stack[-1]
    if not isinstance(target, dict) or len(items) % 2:
        _refuse("SETITEMS needs a dict and key/value pairs")
    for key, value in zip(items[::2], items[1::2]):
        target[_hashable(key)] = value


def _extend(stack, items):
    target = stack[-1]
    if not isinstance(target, list):
        _refuse("APPENDS needs a list")
    target.extend(items)


def _step(name, arg, stack, memo):
    """Carry out one accepted instruction; returns False to refuse it."""
    if name in _PUSH_ARG:
        stack.append(_PUSH_ARG[name](arg))
    elif name in _PUSH_CONST:
        stack.append(_PUSH_CONST[name]())
    elif name in ("PROTO", "FRAME"):
        pass
    elif name == "MARK":
        stack.append(_MARK)
    elif name in ("BINPUT", "LONG_BINPUT", "PUT"):
        memo[arg] = stack[-1]
    elif name == "MEMOIZE":
        memo[len(memo)] = stack[-1]
    elif name in ("BINGET", "LONG_BINGET", "GET"):
        if arg not in memo:
            _refuse(f"memo entry {arg} used before it was stored")
        stack.append(memo[arg])
    elif name in _STACK_OPS:
        _STACK_OPS[name](stack)
    elif name in ("GLOBAL", "STACK_GLOBAL"):
        module, qualname = arg.split(" ", 1) if name == "GLOBAL" else _pop_two_strings(stack)
        if (module, qualname) not in _ALLOWED_GLOBALS:
            _refuse(f"refusing to import {module}.{qualname}: the file is not plain data")
        stack.append(_Global(_ALLOWED_GLOBALS[module, qualname]))
    else:
        return False
    return True


def _pop_two_strings(stack):
    qualname, module = stack.pop(), stack.pop()
    if not (isinstance(module, str) and isinstance(qualname, str)):
        _refuse("STACK_GLOBAL needs two strings")
    return module, qualname


def _replace_top(stack, fn):
    """Pop the last value(s) fn needs and push its result."""
    args = fn.__code__.co_argcount
    values = stack[-args:]
    del stack[-args:]
    stack.append(fn(*values))


_PUSH_ARG = {name: (lambda a: a) for name in (
    "BININT", "BININT1", "BININT2", "LONG1", "LONG4", "INT", "LONG", "BINFLOAT", "FLOAT",
    "BINUNICODE", "SHORT_BINUNICODE", "BINUNICODE8", "UNICODE", "BINBYTES", "SHORT_BINBYTES",
    "BINBYTES8")}
_PUSH_ARG.update({name: (lambda a: a.encode("latin-1") if isinstance(a, str) else a)
                  for name in ("BINSTRING", "SHORT_BINSTRING", "STRING")})
_PUSH_ARG["BYTEARRAY8"] = bytes
_PUSH_CONST = {"EMPTY_DICT": dict, "EMPTY_LIST": list, "EMPTY_TUPLE": tuple,
               "NONE": lambda: None, "NEWTRUE": lambda: True, "NEWFALSE": lambda: False}
_STACK_OPS = {
    "TUPLE": lambda s: s.append(tuple(_pop_mark(s))),
    "LIST": lambda s: s.append(list(_pop_mark(s))),
    "DICT": lambda s: s.append(_dict_from(_pop_mark(s))),
    "TUPLE1": lambda s: _replace_top(s, lambda a: (a,)),
    "TUPLE2": lambda s: _replace_top(s, lambda a, b: (a, b)),
    "TUPLE3": lambda s: _replace_top(s, lambda a, b, c: (a, b, c)),
    "APPEND": lambda s: _extend(s, [s.pop()]),
    "APPENDS": lambda s: _extend(s, _pop_mark(s)),
    "SETITEM": lambda s: _set_items(s, [s.pop(-2), s.pop()]),
    "SETITEMS": lambda s: _set_items(s, _pop_mark(s)),
    "REDUCE": lambda s: _replace_top(s, _reduce),
    "BUILD": lambda s: _replace_top(s, _build),
}


def _dict_from(items):
    out = {}
    for key, value in zip(items[::2], items[1::2]):
        out[_hashable(key)] = value
    return out


def _run(data):
    stack, memo = [], {}
    for opcode, arg, pos in pickletools.genops(io.BytesIO(data)):
        if opcode.name == "STOP":
            if len(stack) != 1:
                _refuse("malformed pickle: STOP with a stack of "
                        f"{len(stack)} values")
            return stack[0]
        if not _step(opcode.name, arg, stack, memo):
            _refuse(f"refusing pickle instruction {opcode.name} at byte {pos}: the file is "
                    f"not plain data")
    _refuse("malformed pickle: no STOP")


def load_batch(data, source="<bytes>"):
    """The dict a CIFAR batch file pickles, read from `data` (bytes) without running it.

    Raises:
        UnsafePickleError: the pickle refers to anything but plain data, or is malformed.
    """
    try:
        batch = _run(data)
    except UnsafePickleError as err:
        raise UnsafePickleError(f"{source}: {err}") from None
    except (ValueError, IndexError, TypeError, AttributeError) as err:
        raise UnsafePickleError(f"{source}: malformed pickle ({err})") from None
    if not isinstance(batch, dict) or any(isinstance(v, (_Global, _ArrayStub, _DtypeStub))
                                          for v in batch.values()):
        raise UnsafePickleError(f"{source}: expected a dict of plain data, got "
                                f"{type(batch).__name__}")
    return batch

"""Python effects of a full_graph=False trace: what user code did besides building tensor ops
(an attribute, global or item written, a container changed, output written, a call whose
effects are unknown). A cached walk runs segments only, so a signature whose Python has
such an effect runs eagerly instead (docs/to_static.md, "What a cached walk repeats").

The audit is a profile hook installed while one trace runs: Python frames of user code (and
of libraries user code calls) are judged by the writes in their bytecode, calls into C by a
list of calls known to change nothing outside. sampan's and NumPy's own frames, and library
frames they call, are trusted. It errs on the side of an effect: a false one costs speed, a
missed one a silently skipped effect."""
import builtins
import contextlib
import dis
import linecache
import os
import sys
import sysconfig
import types
import weakref

import numpy as np

from ...static.mode import is_sampan_file
from ..pyct import origin
from .breaks import GraphBreak

__all__ = ["EffectAudit"]

_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep

# bytecode that changes something a later call can see; STORE_DEREF only for free variables
_WRITES = {"STORE_ATTR": "sets attribute {!r}", "DELETE_ATTR": "deletes attribute {!r}",
           "STORE_GLOBAL": "rebinds global {!r}", "DELETE_GLOBAL": "deletes global {!r}",
           "STORE_SUBSCR": "assigns an item", "DELETE_SUBSCR": "deletes an item",
           "STORE_SLICE": "assigns a slice", "STORE_DEREF": "rebinds nonlocal {!r}",
           "DELETE_DEREF": "deletes nonlocal {!r}"}

_PURE_BUILTINS = {getattr(builtins, name) for name in (
    "abs", "all", "any", "bin", "callable", "chr", "divmod", "format", "getattr", "hasattr",
    "hash", "hex", "id", "isinstance", "issubclass", "iter", "len", "max", "min", "next", "oct",
    "ord", "pow", "repr", "round", "sorted", "sum")}
_PURE_MODULES = {"math", "cmath", "operator", "_operator"}
_IMMUTABLE = (str, bytes, int, float, complex, tuple, frozenset, range, slice, type(None), type)
_CONTAINERS = (list, dict, set, bytearray)
_READING = {"copy", "count", "get", "index", "items", "keys", "values", "isdisjoint",
            "issubset", "issuperset", "union", "intersection", "difference",
            "symmetric_difference", "__contains__", "__getitem__", "__len__", "__iter__",
            "__reversed__", "__sizeof__"}
_ARRAY_WRITES = {"fill", "sort", "resize", "put", "itemset", "setflags", "partition",
                 "setfield", "byteswap", "tofile", "dump", "__setitem__", "__delitem__"}
_NUMPY_WRITERS = {"save", "savez", "savez_compressed", "savetxt"}  # NumPy's own code is trusted

_CODE_VERDICTS = weakref.WeakKeyDictionary()  # code -> (line, what) of its first write, or None
_LIBRARY_DIRS = tuple({os.path.abspath(sysconfig.get_paths()[name]) + os.sep
                       for name in ("stdlib", "platstdlib", "purelib", "platlib")})


def _own(frame):
    """True for sampan's and NumPy's own code, also code they generate with exec (a
    dataclass's __init__), which runs in their modules' globals."""
    filename = frame.f_code.co_filename
    if is_sampan_file(filename) or filename.startswith(_NUMPY_DIR):
        return True
    module = frame.f_globals.get("__name__") or ""
    return filename.startswith("<") and module.split(".")[0] in ("sampan", "numpy")


def _library(code):
    """True for the standard library and installed packages (not the user's files)."""
    filename = code.co_filename
    return filename.startswith(_LIBRARY_DIRS) or filename.startswith("<frozen ")


def _trusted(frame):
    """True for a frame of sampan or NumPy, or of a library they called (contextlib inside
    sampan): the user's code is reached only through user frames."""
    while frame is not None and not _own(frame):
        if not _library(frame.f_code):
            return False
        frame = frame.f_back
    return frame is not None


def _first_write(code):
    """(line, what) of the first bytecode write in `code` a later call could see, or None."""
    if code in _CODE_VERDICTS:
        return _CODE_VERDICTS[code]
    found = None
    line = code.co_firstlineno
    for instruction in dis.get_instructions(code):
        if instruction.positions is not None and instruction.positions.lineno is not None:
            line = instruction.positions.lineno
        what = _WRITES.get(instruction.opname)
        if what is None:
            continue
        if instruction.opname.endswith("_DEREF") and instruction.argval not in code.co_freevars:
            continue  # a cell of this function's own locals (closures made by the converter)
        found = line, what.format(instruction.argval)
        break
    _CODE_VERDICTS[code] = found
    return found


def _c_call_effect(fn):
    """What calling the C function `fn` may change outside the call, or None if nothing."""
    if fn in _PURE_BUILTINS:
        return None
    owner, name = getattr(fn, "__self__", None), getattr(fn, "__name__", "?")
    if owner is None or isinstance(owner, types.ModuleType):
        pure = owner is not None and owner.__name__ in _PURE_MODULES
        return None if pure else f"calls {name}() (a C function whose effects are unknown)"
    if isinstance(owner, _IMMUTABLE) or type(owner).__module__.startswith("sampan."):
        return None  # sampan's own objects (the list a Tensor loop's probe appends to)
    if isinstance(owner, _CONTAINERS):
        return None if name in _READING else f"calls {type(owner).__name__}.{name}()"
    if isinstance(owner, np.ndarray):
        return f"calls ndarray.{name}()" if name in _ARRAY_WRITES else None
    return f"calls {type(owner).__name__}.{name}() (a C function whose effects are unknown)"


def _site(code, line):
    """(file, line, function, source) of `line` in `code`, mapped to the user's source for
    converted code."""
    mapped = origin.lookup(code.co_filename, line)
    if mapped is not None:
        return mapped.filename, mapped.lineno, mapped.function_name, mapped.source_line
    return code.co_filename, line, code.co_name, linecache.getline(code.co_filename, line)


class EffectAudit:
    """Records, while installed, the Python effects of user code (GraphBreak entries whose
    operation says what was changed)."""

    def __init__(self):
        self.effects, self._previous, self._installed = [], None, False

    def _event(self, frame, event, arg):
        if self._previous is not None:
            self._previous(frame, event, arg)
        if event == "call":
            code = frame.f_code
            if code.co_name in _NUMPY_WRITERS and code.co_filename.startswith(_NUMPY_DIR) \
                    and not _trusted(frame.f_back):
                caller = frame.f_back
                self._record(caller.f_code, caller.f_lineno, f"calls numpy.{code.co_name}()")
                return
            found = _first_write(code)
            if found is not None and not _trusted(frame):
                self._record(code, found[0], found[1])
        elif event == "c_call" and not _trusted(frame):
            what = _c_call_effect(arg)
            if what is not None:
                self._record(frame.f_code, frame.f_lineno, what)

    def _record(self, code, line, what):
        if len(self.effects) < 8 and not any(e.operation == what and e.lineno == line
                                             for e in self.effects):
            self.effects.append(GraphBreak(_site(code, line), what))

    @contextlib.contextmanager
    def installed(self):
        """Audit the Python that runs inside (this thread only)."""
        previous = sys.getprofile()
        if previous is not None and not callable(previous):
            # a C-level profiler (cProfile) cannot be chained: nothing can be proven
            self.effects.append(GraphBreak(None, "a profiler was running during the trace, "
                                                 "so its Python could not be audited"))
            yield self
            return
        self._previous, self._installed = previous, True
        sys.setprofile(self._event)
        try:
            yield self
        finally:
            sys.setprofile(previous)
            self._installed = False

    @contextlib.contextmanager
    def paused(self):
        """Inside, nothing is recorded (segments running, an eager call replayed on walks)."""
        if not self._installed:
            yield
            return
        current = sys.getprofile()
        sys.setprofile(self._previous)
        try:
            yield
        finally:
            sys.setprofile(current)

"""Python effects of a full_graph=False trace: what user code did besides building tensor ops
(an attribute, global or item written, a container changed, output written, a call whose
effects are unknown). A cached call runs Programs only, so a signature whose Python has
such an effect runs eagerly instead (docs/to_static.md, "What a cached call repeats").

The audit is a profile hook installed while one trace runs: Python frames of user code (and
of libraries user code calls) are judged by the writes in their bytecode, calls into C by a
list of calls known to change nothing outside. sampan's and NumPy's own frames, and library
frames they call, are trusted. A write whose target object the bytecode names (`obj.a = v`,
`d[k] = v`, `lst.append(v)` on a local, an argument or a chain of their attributes) is
judged when the trace ends: it is no effect when that object is reachable only from the
trace itself (a list built and dropped, a helper object constructed there) or when the
attribute ends as it began (or holds a Tensor the Program stores, see stored_tensors).
Everything else errs on the side of an effect: a false one costs speed, a missed one a
silently skipped effect."""
import builtins
import contextlib
import dis
import gc
import linecache
import os
import sys
import sysconfig
import types

import numpy as np

from ...static.mode import is_sampan_file, quiet_while_recording
from ..operators.arrays import ArrayList
from ..operators.common import is_variable
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
# the stack position (0: top) of the object a write changes, for writes judged by target
_TARGET_DEPTH = {"STORE_ATTR": 0, "DELETE_ATTR": 0, "STORE_SUBSCR": 1, "DELETE_SUBSCR": 1}
# slot methods a profile hook does not see called (`object.__setattr__(self, "a", v)`)
_DIRECT_SLOTS = {"__setattr__", "__delattr__", "__setitem__", "__delitem__"}
_ROOTS = {"LOAD_FAST", "LOAD_DEREF", "LOAD_GLOBAL"}

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
# methods of sampan's Layers (LayerList, LayerDict, ParameterList, any Layer) that change it
_LAYER_WRITERS = {"append", "extend", "insert", "update", "pop", "clear", "__setitem__",
                  "__delitem__", "add_sublayer", "add_parameter", "register_buffer",
                  "register_forward_pre_hook", "register_forward_post_hook"}

_CODE_WRITES = {}  # code -> its _Write sites (code objects outside sampan that traces ran)
_LIBRARY_DIRS = tuple({os.path.abspath(sysconfig.get_paths()[name]) + os.sep
                       for name in ("stdlib", "platstdlib", "purelib", "platlib")})
_UNSEEN = object()  # an attribute not snapshotted before its write
_MISSING = object()  # an attribute an object does not have (or cannot give)


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


class _Write:
    """One write site of a code object: its line, what it does, and its target: `path`
    (root load opcode, root name, attribute names) when the bytecode names the object it
    changes, else None; `attr` for attribute writes; `at_call` when the target is fixed
    for the whole call (an argument never rebound, a free variable, a global)."""

    __slots__ = ("line", "what", "path", "attr", "at_call")

    def __init__(self, line, what, path=None, attr=None, at_call=False):
        self.line, self.what, self.path, self.attr, self.at_call = line, what, path, attr, \
            at_call


def _stack_effect(instruction):
    arg = instruction.arg if instruction.opcode >= dis.HAVE_ARGUMENT else None
    return dis.stack_effect(instruction.opcode, arg, jump=False)


def _operand_path(instructions, index, depth):
    """(root opcode, root name, attributes) of the expression that pushed the value at
    stack `depth` (0: top) when instruction `index` runs, if it is a name and a chain of
    attribute loads computed in straight-line code; else None."""
    total, bounds = 0, []
    for j in range(index - 1, -1, -1):
        instruction = instructions[j]
        if instruction.opname in ("SWAP", "COPY") or instruction.opname.startswith(
                ("JUMP", "POP_JUMP", "FOR_ITER", "SEND")):
            return None
        total += _stack_effect(instruction)
        if total > len(bounds):
            if total > len(bounds) + 1:  # one instruction pushed values of two operands
                return None
            bounds.append(j)
            if len(bounds) == depth + 1:
                break
        if instruction.is_jump_target and len(bounds) <= depth:
            return None
    else:
        return None
    start = bounds[depth]
    stop = bounds[depth - 1] if depth else index
    expression = instructions[start:stop]
    root, attrs = expression[0], expression[1:]
    if root.opname not in _ROOTS or any(i.opname != "LOAD_ATTR" for i in attrs):
        return None
    if root.opname == "LOAD_GLOBAL" and root.arg & 1:  # also pushes NULL: not a plain load
        return None
    return root.opname, root.argval, tuple(i.argval for i in attrs)


def _target_path(instructions, index):
    """The path (see _operand_path) of the object the write at `index` changes, also for
    augmented assignments (`obj.a += v`, `d[k] += v`), which duplicate their operands with
    COPY and put them back in place with SWAP."""
    write = instructions[index]
    depth = _TARGET_DEPTH.get(write.opname)
    if depth is None:
        return None
    swaps = {"STORE_ATTR": ["SWAP"], "STORE_SUBSCR": ["SWAP", "SWAP"]}.get(write.opname)
    if swaps is None or [i.opname for i in instructions[index - len(swaps):index]] != swaps:
        return _operand_path(instructions, index, depth)
    # the operands were duplicated right after they were computed: `COPY 1; LOAD_ATTR a`,
    # or `COPY 2; COPY 2; BINARY_SUBSCR`
    reread = ["COPY", "LOAD_ATTR"] if depth == 0 else ["COPY", "COPY", "BINARY_SUBSCR"]
    for j in range(index - len(swaps) - 1, -1, -1):
        instruction = instructions[j]
        if instruction.is_jump_target or instruction.opname.startswith(("JUMP", "POP_JUMP")):
            return None
        if [i.opname for i in instructions[j:j + len(reread)]] == reread and (
                depth == 1 or instructions[j + 1].argval == write.argval):
            return _operand_path(instructions, j, depth)
    return None


def _bound_names(code, instructions):
    """(names fixed for the whole call: arguments never rebound and free variables; local
    names the function binds, resolved when it returns). A local rebound after a write to
    another object of the trace's own hides that write; the converter's rebinding of loop
    and branch results keeps the object."""
    stores = {i.argval for i in instructions
              if i.opname in ("STORE_FAST", "DELETE_FAST", "STORE_DEREF", "DELETE_DEREF")}
    count = code.co_argcount + code.co_kwonlyargcount + \
        bool(code.co_flags & 4) + bool(code.co_flags & 8)
    arguments = set(code.co_varnames[:count])
    return (arguments - stores) | set(code.co_freevars), stores


def _writes(code):
    """The _Write sites of `code` (cached): its bytecode writes a later call could see, and
    direct calls of slot methods."""
    found = _CODE_WRITES.get(code)
    if found is not None:
        return found
    instructions = list(dis.get_instructions(code))
    at_call = at_return = None
    found, line = [], code.co_firstlineno
    for index, instruction in enumerate(instructions):
        if instruction.positions is not None and instruction.positions.lineno is not None:
            line = instruction.positions.lineno
        name = instruction.opname
        if name in ("LOAD_ATTR", "LOAD_METHOD") and instruction.argval in _DIRECT_SLOTS:
            found.append(_Write(line, f"calls {instruction.argval} directly"))
            continue
        what = _WRITES.get(name)
        if what is None:
            continue
        if name.endswith("_DEREF") and instruction.argval not in code.co_freevars:
            continue  # a cell of this function's own locals (closures made by the converter)
        what = what.format(instruction.argval)
        path = _target_path(instructions, index)
        if path is not None and at_call is None:
            at_call, at_return = _bound_names(code, instructions)
        if path is not None and path[0] == "LOAD_GLOBAL" or \
                path is not None and path[1] in at_call:
            found.append(_Write(line, what, path, _attribute_of(instruction), True))
        elif path is not None and path[1] in at_return:
            found.append(_Write(line, what, path, _attribute_of(instruction)))
        else:
            found.append(_Write(line, what))
    found = tuple(found)
    _CODE_WRITES[code] = found
    return found


def _attribute_of(instruction):
    """The attribute name an attribute write sets (None for item writes)."""
    return instruction.argval if instruction.opname.endswith("_ATTR") else None


def _resolve(frame, path):
    """The object `path` names in `frame` now, or _UNSEEN when it cannot be read."""
    kind, name, attrs = path
    try:
        if kind == "LOAD_GLOBAL":
            namespace = frame.f_globals
            obj = namespace[name] if name in namespace else frame.f_builtins[name]
        else:
            obj = frame.f_locals[name]
        for attr in attrs:
            obj = getattr(obj, attr)
    except Exception:  # unbound, or an attribute that raises: judged an effect
        return _UNSEEN
    return obj


def _attribute(obj, attr):
    try:
        return getattr(obj, attr)
    except Exception:
        return _MISSING


def _same(before, after):
    """True when an attribute ends as it began: the same object, or an equal immutable."""
    if after is before:
        return True
    return type(after) is type(before) and isinstance(after, _IMMUTABLE) and after == before


def _c_call_effect(fn):
    """(what calling the C function `fn` may change outside the call, the object it
    changes when only that object is changed, else None), or None if nothing."""
    if fn in _PURE_BUILTINS:
        return None
    owner, name = getattr(fn, "__self__", None), getattr(fn, "__name__", "?")
    if owner is None or isinstance(owner, types.ModuleType):
        pure = owner is not None and owner.__name__ in _PURE_MODULES
        return None if pure else (f"calls {name}() (a C function whose effects are unknown)",
                                  None)
    if isinstance(owner, _IMMUTABLE) or type(owner).__module__.startswith("sampan."):
        return None  # sampan's own objects (the list a Tensor loop's probe appends to)
    if isinstance(owner, _CONTAINERS):
        return None if name in _READING else (f"calls {type(owner).__name__}.{name}()", owner)
    if isinstance(owner, np.ndarray):
        return (f"calls ndarray.{name}()", owner) if name in _ARRAY_WRITES else None
    return (f"calls {type(owner).__name__}.{name}() (a C function whose effects are unknown)",
            None)


def _site(code, line):
    """(file, line, function, source) of `line` in `code`, mapped to the user's source for
    converted code."""
    mapped = origin.lookup(code.co_filename, line)
    if mapped is not None:
        return mapped.filename, mapped.lineno, mapped.function_name, mapped.source_line
    return code.co_filename, line, code.co_name, linecache.getline(code.co_filename, line)


def _output_containers(outputs):
    """ids of the lists, tuples and dicts of a trace's output structure (rebuilt by every
    cached call, so changing them is no effect)."""
    found, stack = set(), [outputs]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            found.add(id(item))
            stack.extend(item)
        elif isinstance(item, dict):
            found.add(id(item))
            stack.extend(item.values())
    return found


class EffectAudit:
    """Records, while installed, the Python effects of user code (GraphBreak entries whose
    operation says what was changed); writes to named objects wait in `_changed` until
    `settle` judges them."""

    def __init__(self):
        self.effects, self._previous, self._installed = [], None, False
        self.changed_outside = []  # objects outside the trace its Python changed (settled)
        self._held = {}     # id -> object a write changed (kept alive until settled)
        self._changed = {}  # (id, attribute or None) -> (value before or _UNSEEN, site)
        self._returning = {}  # id(frame) -> writes to resolve when that frame returns

    def _event(self, frame, event, arg):
        if self._previous is not None:
            self._previous(frame, event, arg)
        if event == "call":
            self._on_call(frame)
        elif event == "return":
            if self._returning:
                pending = self._returning.pop(id(frame), None)
                if pending is not None:
                    for write in pending:
                        self._target(frame, write)
        elif event == "c_call" and not _trusted(frame):
            found = _c_call_effect(arg)
            if found is not None:
                what, owner = found
                if owner is None:
                    self._record(frame.f_code, frame.f_lineno, what)
                else:
                    self._change(owner, None, _UNSEEN, (frame.f_code, frame.f_lineno, what))

    def _on_call(self, frame):
        code = frame.f_code
        if is_sampan_file(code.co_filename):  # trusted: only a Layer changed by user code
            if code.co_name in _LAYER_WRITERS:
                caller = frame.f_back
                if caller is not None and not _trusted(caller):
                    self._layer_write(frame, caller)
            return
        if code.co_name in _NUMPY_WRITERS and code.co_filename.startswith(_NUMPY_DIR) \
                and not _trusted(frame.f_back):
            caller = frame.f_back
            self._record(caller.f_code, caller.f_lineno, f"calls numpy.{code.co_name}()")
            return
        writes = _writes(code)
        if not writes or _trusted(frame):
            return
        later = []
        for write in writes:
            if write.path is None:
                self._record(code, write.line, write.what)
            elif write.at_call:
                self._target(frame, write)
            else:
                later.append(write)
        if later:
            self._returning[id(frame)] = later

    def _layer_write(self, frame, caller):
        """A user call of a method that changes a sampan Layer (LayerList.append)."""
        from ...nn.layer.layers import Layer
        layer = frame.f_locals.get("self")
        if isinstance(layer, Layer):
            what = f"calls {type(layer).__name__}.{frame.f_code.co_name}()"
            self._change(layer, None, _UNSEEN, (caller.f_code, caller.f_lineno, what))

    def _target(self, frame, write):
        """Note the object `write` changes (with its attribute's value now, for a write
        resolved when the call starts), or record an effect when it cannot be named."""
        obj = _resolve(frame, write.path)
        site = frame.f_code, write.line, write.what
        if obj is _UNSEEN:
            self._record(*site)
            return
        if write.attr is None and (is_variable(obj) or isinstance(obj, ArrayList)):
            return  # `x[i] = v` on a Variable or tensor array: an op of the Program
        before = _attribute(obj, write.attr) if write.attr is not None and write.at_call \
            else _UNSEEN
        self._change(obj, write.attr, before, site)

    def _change(self, obj, attr, before, site):
        key = id(obj), attr
        if key not in self._changed:
            self._held[key[0]] = obj
            self._changed[key] = before, site

    def _record(self, code, line, what):
        if len(self.effects) < 8 and not any(e.operation == what and e.lineno == line
                                             for e in self.effects):
            self.effects.append(GraphBreak(_site(code, line), what))

    def settle(self, outputs, refreshed):
        """Judge the writes to named objects once the traced function has returned
        `outputs`: an effect unless the object is reachable only from the trace, or its
        attribute ends as it began or holds a Variable each run refreshes (an attribute of
        an object in `refreshed`, see stored_tensors). The objects judged changed stay in
        `changed_outside`."""
        changed = []
        for (key, attr), (before, site) in self._changed.items():
            if attr is not None and before is not _UNSEEN:
                after = _attribute(self._held[key], attr)
                if _same(before, after) or (is_variable(after) and
                                            any(o is self._held[key] for o in refreshed)):
                    continue
            changed.append((key, site))
        outside = self._reachable_from_outside(outputs) if changed else set()
        for key, site in changed:
            if key in outside:
                self._record(*site)
        self.changed_outside = [self._held[key] for key in outside]
        self._held, self._changed, self._returning = {}, {}, {}

    def _reachable_from_outside(self, outputs):
        """ids of the written objects something besides the trace refers to: an object,
        container or closure cell not made by the trace, directly or through another
        written object."""
        held = self._held
        # only `held` and getrefcount's argument refer to an object the trace dropped
        suspects = {key for key, obj in held.items() if sys.getrefcount(obj) > 3}
        if not suspects:
            return set()
        inside = {id(held)} | set(held) | _output_containers(outputs)
        for obj in held.values():  # an instance's attribute dict counts as the instance
            attributes = getattr(obj, "__dict__", None)
            if isinstance(attributes, dict):
                inside.add(id(attributes))
        referrers = gc.get_referrers(*(held[key] for key in suspects))
        outside = set()
        for referrer in referrers:
            if id(referrer) not in inside:
                outside.update(id(r) for r in gc.get_referents(referrer)
                               if id(r) in suspects)
        # what an outside object holds is outside too
        queue = list(outside)
        while queue:
            for item in _contents(held[queue.pop()]):
                key = id(item)
                if key in suspects and key not in outside and held[key] is item:
                    outside.add(key)
                    queue.append(key)
        return outside

    @property
    def pending(self):
        """True while writes to named objects wait to be judged (before `settle`)."""
        return bool(self._changed)

    def mark(self):
        """A point `forget` returns to."""
        return len(self.effects), len(self._changed)

    def forget(self, mark):
        """Drop what was recorded since `mark` (a sub-block abandoned and run again as
        Python, which is audited again)."""
        effects, changed = mark
        del self.effects[effects:]
        for key in list(self._changed)[changed:]:
            del self._changed[key]

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
        hook = self._event
        sys.setprofile(hook)
        try:
            with quiet_while_recording(hook):
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


def _contents(obj):
    """The objects `obj` refers to (its items, attributes)."""
    found = gc.get_referents(obj)
    attributes = getattr(obj, "__dict__", None)
    if isinstance(attributes, dict):
        found.extend(attributes.values())
    return found

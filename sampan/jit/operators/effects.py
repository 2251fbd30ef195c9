"""Python objects that a converted if/while on a Tensor changes in place: containers written
by item or method (`d[k] = v`, `a.append(v)`), attributes (`self.v = x`, `obj.v = x`) and
Variables written by `x[i] = v`. Their state becomes outputs of the `cond` op (or variables
of the `while` op) and is written back into the same objects, so each branch starts from
the state before the if and the change of the branch taken is the one that lands."""
from ...static.framework import Variable
from .arrays import ArrayList, ProbeList
from .common import Undefined, is_variable

__all__ = ["Tracked", "MutationError", "split_state", "fill_state", "ordered_like"]

_FIELDS = ("block", "name", "_shape", "_dtype", "persistable", "stop_gradient", "kind",
           "is_data")
_MISSING = object()
UNCHANGED = "<unchanged>"  # the state of a slot neither branch changed (no op output)


class MutationError(ValueError):
    """A change to a Python object inside Tensor control flow that cannot become an op."""


def _fields(var):
    return tuple(getattr(var, f) for f in _FIELDS)


def _set_fields(var, fields):
    for f, value in zip(_FIELDS, fields):
        object.__setattr__(var, f, value)


def _snap(value):
    """What restoring `value` in place needs: its items (recursively) or a Variable's fields."""
    if isinstance(value, list):
        return (list, value, [_snap(v) for v in value])
    if isinstance(value, dict):
        return (dict, value, [(k, _snap(v)) for k, v in value.items()])
    if isinstance(value, tuple):
        return (tuple, value, [_snap(v) for v in value])
    if is_variable(value):
        return (Variable, value, _fields(value))
    return (None, value, None)


def _restore(snap):
    """Put a snapshot's object back as it was (in place); returns the object."""
    kind, value, data = snap
    if kind is list:
        value[:] = [_restore(s) for s in data]
    elif kind is dict:
        value.clear()
        value.update((k, _restore(s)) for k, s in data)
    elif kind is tuple:
        for s in data:
            _restore(s)
    elif kind is Variable and _fields(value) != data:
        if value.block.vars.get(value.name) is value:  # renamed by x[i] = v: the block
            value.block.adopt_var(_handle(value))      # keeps the new value's object
        _set_fields(value, data)
    return value


def _handle(var):
    """An independent Variable object for `var`'s current value: `var` itself is restored
    between branches, so what a branch produced must not be read through it."""
    copy = Variable.__new__(Variable)
    _set_fields(copy, _fields(var))
    return copy


def _original(snap):
    """The state a snapshot stands for (Variables by their name then)."""
    kind, value, data = snap
    if kind in (list, tuple):
        return kind(_original(s) for s in data)
    if kind is dict:
        return {k: _original(s) for k, s in data}
    return data[1] if kind is Variable else value


def _same(state, original):
    """True when a captured state equals the original one (leaves by identity, Variables
    by name)."""
    if isinstance(state, (list, tuple)) or isinstance(original, (list, tuple)):
        return (type(state) is type(original) and len(state) == len(original)
                and all(map(_same, state, original)))
    if isinstance(state, dict) or isinstance(original, dict):
        return (isinstance(state, dict) and isinstance(original, dict)
                and list(state) == list(original)
                and all(_same(state[k], original[k]) for k in state))
    if is_variable(state):
        return state.name == original
    return state is original


def capture(value):
    """The state of `value` as plain nested lists/dicts/tuples of leaves (new containers)."""
    if isinstance(value, list):
        return [capture(v) for v in value]
    if isinstance(value, dict):
        return {k: capture(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(capture(v) for v in value)
    if is_variable(value):
        return _handle(value)
    return value


def write(target, state):
    """Make `target` hold `state` in place where both are lists or dicts (nested ones keep
    their identity); returns the object to bind (target, or `state`)."""
    if isinstance(target, list) and isinstance(state, list):
        old = list(target)
        target[:] = [write(old[k] if k < len(old) else None, s) for k, s in enumerate(state)]
        return target
    if isinstance(target, dict) and isinstance(state, dict):
        old = dict(target)
        target.clear()
        target.update((k, write(old.get(k), s)) for k, s in state.items())
        return target
    return state.undefined() if isinstance(state, _OneSided) else state


def _become(target, new):
    """Rebind the Variable object `target` to `new`'s value (the old value keeps its name
    under a new object, as `Variable._take_over` does)."""
    if target.block.vars.get(target.name) is target:
        old = Variable.__new__(Variable)
        _set_fields(old, _fields(target))
        target.block.adopt_var(old)
    _set_fields(target, _fields(new))


class _Slot:
    """One tracked place: an object's contents, or one attribute of an object."""

    def __init__(self, obj, attr, label):
        self.obj, self.attr, self.label = obj, attr, label
        self.snap = None

    def get(self):
        return self.obj if self.attr is None else getattr(self.obj, self.attr, _MISSING)

    def save(self):
        self.snap = _snap(self.get())

    def original(self):
        return _original(self.snap)

    def restore(self):
        value = _restore(self.snap)
        if self.attr is not None:
            if value is _MISSING:
                if hasattr(self.obj, self.attr):
                    delattr(self.obj, self.attr)
            else:
                setattr(self.obj, self.attr, value)

    def put(self, state):
        if state is _MISSING or state is UNCHANGED:
            return
        if self.attr is None:
            if is_variable(self.obj):  # written by x[i] = v: the object takes the value
                if self.obj.name != state.name:
                    _become(self.obj, state)
            else:
                write(self.obj, state)
        else:
            setattr(self.obj, self.attr, write(getattr(self.obj, self.attr, None), state))


def _trackable(obj):
    return isinstance(obj, (list, dict)) or is_variable(obj)


class Tracked:
    """The places a converted if/while changes, resolved from the converter's getters."""

    def __init__(self, effects, where):
        self.slots, self.where, seen = [], where, set()
        for getter, attrs, label in effects:
            try:
                obj = getter()
            except (NameError, AttributeError, LookupError, TypeError):
                continue  # not there before the if/loop: nothing of it to protect
            if attrs is None or attrs == ():  # () : passed to a call, maybe changed there
                obj = obj.var if isinstance(obj, ArrayList) else obj  # a tensor array
                key = (id(obj), None)
                if (key in seen or obj is None or _immutable(obj)
                        or isinstance(obj, ProbeList) or (attrs == () and not _trackable(obj))):
                    continue
                if not _trackable(obj):
                    raise MutationError(
                        f"{where}: '{label}' ({type(obj).__name__}) is changed in place inside "
                        f"an if/loop whose condition is a Tensor; only lists, dicts, Tensors "
                        f"and attributes can change there (both branches run while the "
                        f"Program is built)")
                seen.add(key)
                self.slots.append(_Slot(obj, None, label))
            else:
                for attr in attrs:
                    if (id(obj), attr) not in seen:
                        seen.add((id(obj), attr))
                        self.slots.append(_Slot(obj, attr, f"{label}.{attr}"))
        self._ids = {id(s.obj): k for k, s in enumerate(self.slots) if s.attr is None}

    def __bool__(self):
        return bool(self.slots)

    def save(self):
        for slot in self.slots:
            slot.save()

    def restore(self):
        for slot in self.slots:
            slot.restore()

    def states(self):
        """The current state of every slot (new containers; missing attributes as _MISSING)."""
        return [capture(slot.get()) for slot in self.slots]

    def put(self, states):
        """Write merged states into the objects."""
        for slot, state in zip(self.slots, states):
            slot.put(state)

    def drop(self, ids):
        """Stop tracking the objects whose id is in `ids` (lists that became arrays,
        Variables a loop carries under their name)."""
        self.slots = [s for s in self.slots if s.attr is not None or id(s.obj) not in ids]
        self._ids = {id(s.obj): k for k, s in enumerate(self.slots) if s.attr is None}

    def check_same(self, template, after):
        """Raise when a loop body left an object with another nesting or another Python
        value than it had before the loop (only Tensors and numbers can change there)."""
        for slot, x, y in zip(self.slots, template, after):
            problem = _shape_difference(x, y, _ITERATION) or _python_difference(x, y)
            if problem:
                raise MutationError(
                    f"{self.where}: '{slot.label}' is changed inside a loop whose condition "
                    f"is a Tensor in a way the loop cannot carry ({problem}); only its "
                    f"Tensor and number items may change there (append to a local list to "
                    f"collect values: it becomes a tensor array)")

    def labels(self):
        return [f"'{s.label}' (changed inside the if/loop at {self.where})" for s in self.slots]

    def refer(self, results):
        """Branch results with each tracked object replaced by a reference to its slot (its
        state travels in the slot), other containers captured."""
        return [_Ref(self._ids[id(v)]) if id(v) in self._ids else capture(v) for v in results]

    def unrefer(self, a, b, count):
        """Where only one branch leaves a name bound to its tracked object (the other
        rebinds it), that branch's result becomes the object's state there (in place in
        the two branch lists, whose slot states follow the first `count` results)."""
        for k in range(count):
            x, y = a[k], b[k]
            same = isinstance(x, _Ref) and isinstance(y, _Ref) and x.slot == y.slot
            if (isinstance(x, _Ref) or isinstance(y, _Ref)) and not same:
                if isinstance(x, _Ref):
                    a[k] = a[count + x.slot]
                if isinstance(y, _Ref):
                    b[k] = b[count + y.slot]

    def resolve(self, results):
        """Results with references turned back into the tracked objects."""
        return [self.slots[v.slot].obj if isinstance(v, _Ref) else v for v in results]

    def prune(self, a, b):
        """Mark (in place) the slots neither branch changed, so they add no op outputs."""
        for k, slot in enumerate(self.slots):
            original = slot.original()
            if _same(a[k], original) and _same(b[k], original):
                a[k] = b[k] = UNCHANGED

    def check_pair(self, a, b):
        """Raise when two branch states of the same slot cannot merge (an item added in one
        branch only, an attribute set in one only). A dict key set in one branch only is
        kept, its value Undefined after the if (reading it raises, as for names)."""
        for slot, x, y in zip(self.slots, a, b):
            _align_keys(x, y, slot.label, self.where)
            problem = _shape_difference(x, y)
            if problem:
                raise MutationError(
                    f"{self.where}: '{slot.label}' differs between the branches of an if "
                    f"whose condition is a Tensor: {problem}; make both branches leave it "
                    f"with the same keys/items/attributes")


class _OneSided:
    """The merged value of a dict key only one branch set: Undefined after the if."""

    def __init__(self, name, where):
        self.name, self.where = name, where

    def undefined(self):
        file, _, line = self.where.rpartition(":")
        return Undefined(self.name, file, line)


def _align_keys(x, y, label, where):
    """Give dicts x and y (two branch states, nested) the same keys: a key one of them lacks
    gets a _OneSided value in both."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in x.keys() ^ y.keys():
            x[key] = y[key] = _OneSided(f"{label}[{key!r}]", where)
        for key in x:
            _align_keys(x[key], y[key], f"{label}[{key!r}]", where)
    elif isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)) and len(x) == len(y):
        for p, q in zip(x, y):
            _align_keys(p, q, label, where)


class _Ref:
    """A branch result that is a tracked object (compared by slot, merged as Python)."""

    __slots__ = ("slot",)

    def __init__(self, slot):
        self.slot = slot

    def __eq__(self, other):
        return isinstance(other, _Ref) and other.slot == self.slot

    def __hash__(self):
        return hash(self.slot)

    def __repr__(self):
        return f"<tracked object {self.slot}>"


class _Leaf:
    """The place of a Variable or number in a state's template (carried by the loop)."""

    def __repr__(self):
        return "<loop value>"


_LEAF = _Leaf()


def split_state(state):
    """(template, leaves): `state` with its Variables and numbers taken out, in order."""
    leaves = []

    def strip(value):
        if isinstance(value, list):
            return [strip(v) for v in value]
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()}
        if isinstance(value, tuple):
            return tuple(strip(v) for v in value)
        if is_variable(value) or isinstance(value, (bool, int, float)):
            leaves.append(value)
            return _LEAF
        return value
    return strip(state), leaves


def fill_state(template, leaves):
    """The inverse of split_state."""
    it = iter(leaves)

    def fill(value):
        if isinstance(value, list):
            return [fill(v) for v in value]
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, tuple):
            return tuple(fill(v) for v in value)
        return next(it) if value is _LEAF else value
    return fill(template)


_VALUE_TYPES = (range, str, bytes, type(None))


def _python_difference(a, b):
    """Why two templates of equal nesting hold different Python values, or None."""
    if isinstance(a, (list, tuple)):
        return next(filter(None, map(_python_difference, a, b)), None)
    if isinstance(a, dict):
        return next(filter(None, (_python_difference(a[k], b[k]) for k in a)), None)
    if a is b or (type(a) is type(b) and isinstance(a, _VALUE_TYPES) and a == b):
        return None
    return f"{a!r} becomes {b!r}"


def _immutable(obj):
    return isinstance(obj, (int, float, str, bytes, bool, tuple, frozenset, range))


_BRANCHES = ("in the true branch", "in the false branch")
_ITERATION = ("before the loop", "after the body")


def _shape_difference(a, b, where=_BRANCHES):
    """Why states a and b do not have the same nesting, or None."""
    if (a is _MISSING) != (b is _MISSING):
        return f"{'missing' if a is _MISSING else 'set'} {where[0]}, not {where[1]}"
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if type(a) is not type(b) or len(a) != len(b):
            return f"{len(a)} items {where[0]}, {len(b)} {where[1]}"
        return next(filter(None, (_shape_difference(x, y, where) for x, y in zip(a, b))),
                    None)
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return (f"keys {sorted(map(str, a))} {where[0]}, "
                    f"{sorted(map(str, b))} {where[1]}")
        return next(filter(None, (_shape_difference(a[k], b[k], where) for k in a)), None)
    if isinstance(a, (list, tuple, dict)) != isinstance(b, (list, tuple, dict)):
        return f"a container {where[0]}, not {where[1]}"
    return None


def ordered_like(state, like):
    """`state` (merged by the cond op, dict keys sorted) with dict keys in `like`'s order."""
    if isinstance(state, dict) and isinstance(like, dict):
        return {k: ordered_like(state[k], like[k]) for k in like}
    if isinstance(state, (list, tuple)) and isinstance(like, (list, tuple)):
        return type(state)(ordered_like(s, l) for s, l in zip(state, like))
    return state

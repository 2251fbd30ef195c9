"""Scope: a tree of name -> tensor tables holding persistable values between runs."""
import contextlib
import threading

import numpy as np

from ..core.array_protocol import export_array

__all__ = ["LoDTensor", "ScopeVar", "Scope", "global_scope", "scope_guard"]


class LoDTensor:
    """A NumPy array holder with Paddle's LoDTensor accessors (set, shape, __array__)."""

    __slots__ = ("_array",)

    def __init__(self, array=None):
        self._array = array

    def set(self, value, place=None):
        """Store a copy of `value` (array, list or Tensor) as this tensor's data."""
        self._array = np.array(value.numpy() if hasattr(value, "numpy") else value)

    def shape(self):
        """Dimensions as a list."""
        return [] if self._array is None else list(self._array.shape)

    def _dtype(self):
        return None if self._array is None else self._array.dtype

    def _is_initialized(self):
        return self._array is not None

    def __array__(self, dtype=None, copy=None):
        if self._array is None:
            raise ValueError("tensor is not initialized (run the startup program first)")
        return export_array(self._array, dtype, copy)

    def numpy(self):
        return np.array(self)

    def __repr__(self):
        return f"LoDTensor(shape={self.shape()}, dtype={self._dtype()})"


class ScopeVar:
    """A named slot of a Scope; its value is a LoDTensor."""

    __slots__ = ("name", "_tensor")

    def __init__(self, name):
        self.name = name
        self._tensor = LoDTensor()

    def get_tensor(self):
        """The LoDTensor stored under this name."""
        return self._tensor

    def is_initialized(self):
        return self._tensor._array is not None


class Scope:
    """Variables by name; lookups fall back to the parent scope."""

    def __init__(self, parent=None):
        self._parent = parent
        self._vars = {}
        self._kids = []

    def var(self, name):
        """The local variable `name`, created when missing."""
        found = self._vars.get(name)
        if found is None:
            found = self._vars[name] = ScopeVar(name)
        return found

    def find_var(self, name):
        """The variable `name` here or in an ancestor, or None."""
        scope = self
        while scope is not None:
            found = scope._vars.get(name)
            if found is not None:
                return found
            scope = scope._parent
        return None

    def find_local_var(self, name):
        return self._vars.get(name)

    def erase(self, names):
        """Remove local variables."""
        for name in names:
            self._vars.pop(name, None)

    def new_scope(self):
        """A child scope (its lookups fall back to this one)."""
        kid = Scope(self)
        self._kids.append(kid)
        return kid

    def drop_kids(self):
        """Forget every child scope."""
        self._kids = []

    def parent(self):
        return self._parent

    def local_var_names(self):
        """Names defined directly in this scope."""
        return list(self._vars)

    def _read(self, name):
        """The array stored under `name` (searching parents), or None."""
        found = self.find_var(name)
        return None if found is None else found._tensor._array

    def _write(self, name, array):
        """Store `array` under `name` where it is defined, else locally."""
        found = self.find_var(name) or self.var(name)
        found._tensor._array = array


class _Current(threading.local):
    def __init__(self):
        self.scope = _GLOBAL


_GLOBAL = Scope()
_current = _Current()


def global_scope():
    """The scope Executor.run uses when none is given (changed by scope_guard)."""
    return _current.scope


@contextlib.contextmanager
def scope_guard(scope):
    """Make `scope` the global scope inside the block."""
    if not isinstance(scope, Scope):
        raise TypeError(f"scope_guard expects a Scope, got {type(scope).__name__}")
    old, _current.scope = _current.scope, scope
    try:
        yield
    finally:
        _current.scope = old

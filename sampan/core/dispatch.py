"""The one funnel every op call passes through: hand the op to the current mode.

Eager mode runs the kernel and records autograd; static mode appends an Operator to the
current Block. Generated API functions and the operator mixin end in `dispatch`; nothing
else decides which mode runs an op.
"""
import contextlib
import threading

__all__ = ["dispatch", "current_mode", "set_default_mode", "mode_guard"]


class _ModeState(threading.local):
    """Per-thread override of the process-wide default mode (a class attribute)."""

    mode = None


_state = _ModeState()
_default = None  # the process-wide mode, also read without the per-thread lookup
_guards_open = []  # one entry per mode_guard block open in any thread


def dispatch(op, tensors, attrs):
    """Run or record `op` on `tensors` (tuple) with normalised `attrs` (tuple)."""
    # While no thread overrides its mode, every thread runs the process default: reading
    # it from a global skips the per-thread lookup, a third of this call's cost
    return (_state.mode if _guards_open else _default).run_op(op, tensors, attrs)


def current_mode():
    """The mode that receives ops on this thread."""
    return _state.mode


def set_default_mode(mode):
    """Make `mode` the process-wide default (what enable_static/disable_static do)."""
    global _default
    _ModeState.mode = _default = mode
    _state.__dict__.pop("mode", None)


@contextlib.contextmanager
def mode_guard(mode):
    """Run a block with `mode` receiving ops on this thread only."""
    had = "mode" in _state.__dict__
    previous = _state.__dict__.get("mode")
    _guards_open.append(None)  # before the override, so dispatch reads it from the start
    _state.mode = mode
    try:
        yield mode
    finally:
        if had:
            _state.mode = previous
        else:
            _state.__dict__.pop("mode", None)
        _guards_open.pop()

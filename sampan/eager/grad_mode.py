"""Whether eager ops record autograd nodes (`no_grad`, `enable_grad`, `set_grad_enabled`)."""
import functools

from ..core.grad_state import STATE

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "STATE"]


def is_grad_enabled():
    """True when eager ops record gradient nodes on this thread."""
    return STATE.enabled


class _GradSwitch:
    """Context manager and decorator that sets grad recording for a block or a function."""

    _value = True

    def __init__(self, func=None):
        self._saved = []
        if func is not None:
            functools.update_wrapper(self, func)
        self._func = func

    def __enter__(self):
        self._saved.append(STATE.enabled)
        STATE.enabled = self._value

    def __exit__(self, *exc):
        STATE.enabled = self._saved.pop()
        return False

    def __call__(self, *args, **kwargs):
        if self._func is None:
            return self.__class__(args[0])
        with self.__class__():
            return self._func(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self.__call__, obj)


class no_grad(_GradSwitch):
    """Disable gradient recording: `with sampan.no_grad():` or `@sampan.no_grad()`."""

    _value = False


class enable_grad(_GradSwitch):
    """Enable gradient recording inside a `no_grad` region."""

    _value = True


class set_grad_enabled:
    """Context manager setting grad recording to `mode`."""

    def __init__(self, mode):
        self._mode = bool(mode)
        self._prev = STATE.enabled
        STATE.enabled = self._mode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        STATE.enabled = self._prev
        return False

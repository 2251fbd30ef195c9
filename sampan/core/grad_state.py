"""The per-thread switch saying whether ops record what backward needs: eager mode records
GradNodes only when it is on, and static mode marks the Variables it creates while it is off
as stop_gradient (so `with no_grad():` means the same in converted code as in eager code)."""
import threading

__all__ = ["STATE"]


class _GradState(threading.local):
    """Per-thread recording switch, on by default."""

    enabled = True


STATE = _GradState()

"""gc_paused: cyclic garbage collection off while a Program, its backward or its plan is
built. A build allocates many objects that all stay alive; each full collection during it
would walk the whole graph built so far, making the build's cost grow faster than its
size. The previous state is restored on exit; nothing is collected there."""
import contextlib
import gc

__all__ = ["gc_paused"]


@contextlib.contextmanager
def gc_paused():
    """Context manager (and decorator) disabling the cyclic collector for its body."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

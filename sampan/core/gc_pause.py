"""gc_paused: cyclic garbage collection off while a Program, its backward or its plan is
built. A build allocates many objects that all stay alive; each full collection during it
would walk the whole graph built so far, making the build's cost grow faster than its
size. The previous state is restored on exit; nothing is collected there."""
import functools
import gc

__all__ = ["gc_paused"]


def gc_paused(fn):
    """Decorator running `fn` with the cyclic collector disabled (a plain wrapper, so
    tracebacks gain a frame inside sampan only, never one in contextlib)."""
    @functools.wraps(fn)
    def paused(*args, **kwargs):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()
    return paused

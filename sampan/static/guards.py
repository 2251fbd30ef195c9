"""`paddle.static` place and scope helpers: cpu_places, cuda_places, xpu_places,
name_scope, device_guard."""
import contextlib
import os

from ..core.place import CPUPlace

__all__ = ["cpu_places", "cuda_places", "xpu_places", "name_scope", "device_guard",
           "current_op_device"]

_DEVICE = {"current": None}


def cpu_places(device_count=None):
    """A list of `device_count` CPUPlace objects (default: the CPU_NUM variable, else 1).

    >>> paddle.static.cpu_places(2)
    [Place(cpu), Place(cpu)]
    """
    if device_count is None:
        device_count = int(os.environ.get("CPU_NUM", 1))
    return [CPUPlace() for _ in range(device_count)]


def cuda_places(device_ids=None):
    """CUDAPlace objects; this build has no CUDA, so, as in a CPU build of Paddle, an
    AssertionError saying so."""
    raise AssertionError("Not compiled with CUDA")


def xpu_places(device_ids=None):
    """XPUPlace objects; this build has no XPU, so, as in a CPU build of Paddle, an
    AssertionError saying so."""
    raise AssertionError("Not compiled with XPU")


@contextlib.contextmanager
def name_scope(prefix=None):
    """Group the ops built inside under `prefix`; sampan records no scope names, so this
    only checks its argument (Paddle uses it for graph visualisation)."""
    if prefix is not None and not isinstance(prefix, str):
        raise TypeError(f"name_scope: prefix must be a str or None, got {type(prefix).__name__}")
    yield


@contextlib.contextmanager
def device_guard(device=None):
    """Place the ops built inside on `device` ('cpu', 'cpu:N', 'gpu', 'gpu:N' or None):
    each op records it as its `op_device` attribute, as in Paddle. Every op runs on the
    CPU (as in a CPU build of Paddle, ops guarded for a GPU still run); the index N is
    the pipeline stage that `paddle.distributed` program partitioning gives the op to.
    Any other device string is an error."""
    if device is not None and not _is_device_name(str(device)):
        raise ValueError(f"device_guard: device must be 'cpu', 'cpu:N', 'gpu' or 'gpu:N', "
                         f"got {device!r}")
    previous = _DEVICE["current"]
    _DEVICE["current"] = None if device is None else str(device).lower()
    try:
        yield
    finally:
        _DEVICE["current"] = previous


def current_op_device():
    """The device of the innermost device_guard, or None."""
    return _DEVICE["current"]


def _is_device_name(name):
    """True for 'cpu', 'cpu:N', 'gpu' and 'gpu:N'."""
    kind, _, index = name.lower().partition(":")
    return kind in ("cpu", "gpu") and (not index or index.isdigit())

"""The global random generator used by every random kernel (seeded by `sampan.seed`)."""
import numpy as np

import contextlib

__all__ = ["seed", "generator", "get_rng_state", "set_rng_state", "get_cuda_rng_state",
           "set_cuda_rng_state", "fixed_seed"]

# Made on first use: importing numpy.random (and the hashlib, secrets and random modules it
# pulls in) is a noticeable part of `import sampan`.
_state = {"gen": None}


def seed(value):
    """Reseed the global generator so random ops repeat from here on."""
    _state["gen"] = np.random.default_rng(int(value))
    return _state["gen"]


def generator():
    """The current NumPy Generator (seeded with 0 until `seed` is called)."""
    gen = _state["gen"]
    if gen is None:
        gen = _state["gen"] = np.random.default_rng(0)
    return gen


@contextlib.contextmanager
def fixed_seed(value):
    """Random ops draw from a fresh generator seeded with `value` inside the block (a Program
    run with a `random_seed`); the global generator's stream resumes unchanged after it."""
    saved = _state["gen"]
    _state["gen"] = np.random.default_rng(int(value))
    try:
        yield
    finally:
        _state["gen"] = saved


def _check_device(device, fn):
    """Only the CPU generator exists (device None means the current device, the CPU)."""
    if device is not None and not str(device).lower().startswith("cpu"):
        raise ValueError(f"{fn}: sampan has only the CPU generator, got device {device!r}")


def get_rng_state(device=None):
    """A copy of the generator state as a one-element list (for checkpoints); restoring it
    with `set_rng_state` makes every random op repeat exactly."""
    _check_device(device, "get_rng_state")
    return [dict(generator().bit_generator.state)]


def set_rng_state(state_list, device=None):
    """Restore a state returned by `get_rng_state`."""
    _check_device(device, "set_rng_state")
    if len(state_list) != 1:
        raise ValueError(f"set_rng_state: expects the one-element list get_rng_state returns, "
                         f"got {len(state_list)} states")
    gen = np.random.default_rng()
    gen.bit_generator.state = state_list[0]
    _state["gen"] = gen


def get_cuda_rng_state():
    """The states of the CUDA generators: an empty list, as in Paddle's CPU build."""
    return []


def set_cuda_rng_state(state_list):
    """Restore CUDA generator states; with no CUDA device there is nothing to restore (Paddle's
    CPU build ignores the list too)."""
    return None

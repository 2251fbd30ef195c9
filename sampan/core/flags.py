"""Global flags (Paddle's `FLAGS_*`), settable from the environment or `sampan.set_flags`."""
import os

__all__ = ["FLAGS", "set_flags", "get_flags"]

_DEFAULTS = {
    "FLAGS_check_nan_inf": False,
    "FLAGS_eager_check_meta": True,
    # True: Executor.run runs ops one after another even when ExecutionStrategy.num_threads
    # asks for the parallel scheduler (reproducible order of side effects, e.g. print)
    "FLAGS_new_executor_sequential_run": False,
    "FLAGS_static_verify": False,
    # Paddle's switch for strided (view) kernels, on by default in Paddle 3; accepted for
    # code that sets it: sampan's view functions return copies either way
    "FLAGS_use_stride_kernel": True,
}
_TRUE_TEXT = ("1", "true", "yes", "on")


def _parse(name, value):
    """`value` converted to the type of flag `name`'s default (text "true"/"0"/... for a
    boolean flag, as in the environment)."""
    default = _DEFAULTS[name]
    if isinstance(default, bool) and isinstance(value, str):
        return value.strip().lower() in _TRUE_TEXT
    return type(default)(value)


def _known(name, verb):
    """`name` when it is a flag; ValueError naming the known flags otherwise."""
    if name not in FLAGS:
        raise ValueError(f"{verb}_flags: unknown flag {name!r}; known flags: {sorted(FLAGS)}")
    return name


FLAGS = {name: default if os.environ.get(name) is None else _parse(name, os.environ[name])
         for name, default in _DEFAULTS.items()}


def set_flags(flags):
    """Set flags from a dict {name: value}; unknown names raise ValueError."""
    for name, value in flags.items():
        FLAGS[name] = _parse(_known(name, "set"), value)  # checks the name first


def get_flags(names):
    """Return {name: value} for a name or a list of names; unknown names raise ValueError."""
    if isinstance(names, str):
        names = [names]
    return {_known(n, "get"): FLAGS[n] for n in names}

"""`paddle.framework`: the framework-level helpers Paddle also exposes under this name."""
from ..core.dtype import get_default_dtype, set_default_dtype
from ..core.random import get_rng_state, set_rng_state, seed
from ..framework_mode import in_dynamic_mode
from ..core.param_attr import ParamAttr
from ..save_load import load, save
from .. import core
from ..core.place import _set_expected_place
from . import random

__all__ = ["get_default_dtype", "set_default_dtype", "seed", "get_rng_state", "set_rng_state",
           "in_dynamic_mode", "ParamAttr", "save", "load", "use_pir_api", "in_pir_mode",
           "in_dynamic_or_pir_mode", "core", "random"]


def use_pir_api():
    """True: Paddle code written for both of Paddle's IRs takes its PIR branch here (static
    Variables with list shapes, `op.name()`, the `.json` program file)."""
    return True


def in_pir_mode():
    """True while building a static Program (Paddle's PIR static mode)."""
    return not in_dynamic_mode()


def in_dynamic_or_pir_mode():
    """True in either mode: dynamic, or static with Paddle's PIR (sampan's only static IR)."""
    return True

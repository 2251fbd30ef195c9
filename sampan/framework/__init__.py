"""`paddle.framework`: the framework-level helpers Paddle also exposes under this name."""
from .core.dtype import get_default_dtype, set_default_dtype
from .core.random import get_rng_state, set_rng_state, seed
from .framework_mode import in_dynamic_mode
from .core.param_attr import ParamAttr
from .save_load import load, save

__all__ = ["get_default_dtype", "set_default_dtype", "seed", "get_rng_state", "set_rng_state",
           "in_dynamic_mode", "ParamAttr", "save", "load"]

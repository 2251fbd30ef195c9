"""sampan: a deep-learning framework with PaddlePaddle's API and a dynamic-to-static compiler.

`import sampan as paddle` runs Paddle code that uses what sampan offers.
"""
from .core import dtype as _dtype_mod
from .core.allocator import tune_allocator as _tune_allocator
from .core.dispatch import set_default_mode as _set_default_mode
from .core.dtype import (bool_ as bool, complex64, complex128, float16, float32, float64,  # noqa: A001
                         get_default_dtype, int8, int16, int32, int64, set_default_dtype, uint8)
from .core.flags import get_flags, set_flags
from .core.place import CPUPlace, CUDAPlace, get_device, is_compiled_with_cuda, set_device
from .core.printing import set_printoptions
from .core.type_info import finfo, iinfo
from .core.random import get_rng_state, seed as _seed, set_rng_state
from .core.random import get_cuda_rng_state, set_cuda_rng_state
from .eager.autograd import grad
from .eager.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .eager.mode import EAGER as _EAGER
from .eager.tensor import Tensor
from . import tensor
from .tensor import *  # noqa: F401,F403
from .framework_mode import disable_static, enable_static, in_dynamic_mode
from . import nn, optimizer, version
from .core.param_attr import ParamAttr
from .core.lazy import lazy_exports as _lazy_exports
from .nn.layer.extra import create_parameter  # noqa: F401
from .nn.functional import (adaptive_avg_pool1d, conv1d, conv2d, conv3d,  # noqa: F401
                            group_norm, layer_norm)
from .tensor.windows import *  # noqa: F401,F403

dtype = _dtype_mod.DType
_set_default_mode(_EAGER)
_tune_allocator()

__version__ = version.full_version


def seed(seed):
    """Seed every random op (returns the generator, like Paddle returns one)."""
    return _seed(seed)


manual_seed = seed


def disable_signal_handler():
    """Nothing to do: sampan installs no signal handlers (Paddle's are for its C++ core)."""


# What a program touches later loads on first use: the subpackages (paddle.jit, .static's
# extras, .io, .vision, .hapi, .inference, ...) and the names below.
_lazy_exports(globals(), {
    ".save_load": ["save", "load"],
    ".distributed": ["DataParallel"],
    ".utils.dlpack": ["from_dlpack", "to_dlpack"],
    ".hapi": ["Model", "callbacks", "flops", "summary"],
    ".linalg": ["eigvalsh"],
    ".reader": ["batch"],
    ".device": ["is_compiled_with_xpu", "is_compiled_with_rocm", "is_compiled_with_cinn",
                "is_compiled_with_distribute", "is_compiled_with_ipu",
                "is_compiled_with_custom_device", "get_cudnn_version", "get_default_device",
                "set_default_device"],
})

# Paddle's constants and dtype aliases, bound last: `float` here is a dtype (as in Paddle,
# whose `from paddle import *` exports these too)
import math as _math  # noqa: E402

e, inf, nan, pi, newaxis = _math.e, _math.inf, _math.nan, _math.pi, None
float, double, half = float32, float64, float16  # noqa: A001
cfloat, cdouble = complex64, complex128

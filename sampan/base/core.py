"""`paddle.base.core`: what Paddle code reads from Paddle's compiled core, for sampan's
CPU-only build: the build queries and `core.eager.Tensor` (the eager Tensor class)."""
import types

from ..core.place import (is_compiled_with_cinn, is_compiled_with_cuda,
                          is_compiled_with_custom_device, is_compiled_with_distribute,
                          is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu)
from ..eager.tensor import Tensor

__all__ = ["is_compiled_with_cuda", "is_compiled_with_xpu", "is_compiled_with_rocm",
           "is_compiled_with_cinn", "is_compiled_with_distribute", "is_compiled_with_ipu",
           "is_compiled_with_custom_device", "eager"]

eager = types.SimpleNamespace(Tensor=Tensor)  # Paddle's core.eager module holds its Tensor

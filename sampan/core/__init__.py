"""Foundations shared by every layer: dtypes, errors, flags, names and the op funnel.

Also `paddle.core` (Paddle's name for its compiled core, `paddle.base.core`): the build
queries Paddle code asks it (`paddle.core.is_compiled_with_xpu()`), answered for sampan's
CPU-only build.
"""
from .lazy import lazy_exports

lazy_exports(globals(), {
    ".place": ["is_compiled_with_cuda", "is_compiled_with_xpu", "is_compiled_with_rocm",
               "is_compiled_with_cinn", "is_compiled_with_distribute", "is_compiled_with_ipu",
               "is_compiled_with_custom_device"],
})

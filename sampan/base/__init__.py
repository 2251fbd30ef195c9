"""`paddle.base`: Paddle's module layout for code that imports `paddle.base` (its `core`,
`framework` and `dygraph` and the names it re-exports), as aliases of sampan's own objects.
"""
from ..core.lazy import lazy_exports as _lazy_exports
from . import core

__all__ = ["core", "framework", "dygraph", "Program", "Variable", "Executor", "CPUPlace",
           "CUDAPlace", "ParamAttr", "program_guard", "default_main_program",
           "default_startup_program", "global_scope", "scope_guard", "name_scope",
           "in_dygraph_mode", "in_pir_mode", "in_dynamic_or_pir_mode", "unique_name",
           "is_compiled_with_cuda", "is_compiled_with_xpu", "is_compiled_with_rocm",
           "is_compiled_with_cinn", "enable_dygraph", "disable_dygraph", "gradients",
           "append_backward", "set_flags", "get_flags"]
_lazy_exports(globals(), {
    ".framework": ["Program", "Variable", "program_guard", "default_main_program",
                   "default_startup_program", "name_scope", "in_dygraph_mode", "in_pir_mode",
                   "in_dynamic_or_pir_mode", "unique_name"],
    ".dygraph": ["enable_dygraph", "disable_dygraph"],
    "..static": ["Executor", "global_scope", "scope_guard", "gradients", "append_backward"],
    "..core.place": ["CPUPlace", "CUDAPlace", "is_compiled_with_cuda", "is_compiled_with_xpu",
                     "is_compiled_with_rocm", "is_compiled_with_cinn"],
    "..core.param_attr": ["ParamAttr"],
    "..core.flags": ["set_flags", "get_flags"],
})

"""`paddle.jit.dy2static`: Paddle's module layout of the dynamic-to-static compiler, for
code that imports it. Every name is one of sampan's own objects (the runtime of converted
code in `jit/operators`, StaticFunction in `jit/program_translator`), never a copy.
"""
from ...core.lazy import lazy_exports
from .. import errors as error  # Paddle's `dy2static.error`: ERROR_DATA, ErrorData

__all__ = ["Call", "convert_call", "convert_to_static", "And", "Or", "Not", "Len", "Shape",
           "convert_logical_and", "convert_logical_or", "convert_logical_not", "convert_len",
           "convert_shape", "convert_var_dtype", "convert_assert", "convert_print",
           "StaticFunction", "ConcreteProgram", "error"]
lazy_exports(globals(), {
    ".convert_call_func": ["Call", "convert_call"],
    ".convert_operators": ["And", "Or", "Not", "Len", "Shape", "convert_logical_and",
                           "convert_logical_or", "convert_logical_not", "convert_len",
                           "convert_shape", "convert_var_dtype", "convert_assert",
                           "convert_print"],
    ".program_translator": ["StaticFunction", "ConcreteProgram", "convert_to_static"],
})

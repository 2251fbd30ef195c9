"""Static control flow with sub-blocks and gradients: cond, while_loop, case, switch_case,
tensor arrays and static_pylayer (importing this package registers their op types)."""
from .array_join import array_join
from .case import case, switch_case
from .cond import cond
from .static_pylayer import static_pylayer
from .tensor_array import array_length, array_pop, array_read, array_write, create_array
from .while_loop import while_loop

__all__ = ["cond", "while_loop", "case", "switch_case", "static_pylayer", "create_array",
           "array_write", "array_read", "array_length", "array_pop", "array_join"]

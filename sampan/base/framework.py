"""`paddle.base.framework`: the static IR classes, default programs and mode queries."""
from . import core
from ..core import unique_name
from ..framework import in_dynamic_or_pir_mode, in_pir_mode, use_pir_api
from ..framework_mode import in_dynamic_mode as in_dygraph_mode
from ..static import (Block, Operator, Parameter, Program, Variable, default_main_program,
                      default_startup_program, name_scope, program_guard)

__all__ = ["Block", "Operator", "Parameter", "Program", "Variable", "default_main_program",
           "default_startup_program", "program_guard", "name_scope", "in_dygraph_mode",
           "in_pir_mode", "in_dynamic_or_pir_mode", "use_pir_api", "core", "unique_name"]

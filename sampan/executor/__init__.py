"""Static-graph executor: compiled plans, passes, sequential and parallel scheduling."""
from .bind import EXEC_RULES
from .executor import Executor
from .plan import Plan, compile
from .run import OpError
from .scope import LoDTensor, Scope, global_scope, scope_guard
from .strategy import BuildStrategy, CompiledProgram, ExecutionStrategy
from ..static.graph_drawing import program_to_dot, program_to_mermaid

__all__ = ["Executor", "EXEC_RULES", "Plan", "compile", "OpError", "LoDTensor", "Scope",
           "global_scope", "scope_guard", "BuildStrategy", "CompiledProgram",
           "ExecutionStrategy", "program_to_dot", "program_to_mermaid"]

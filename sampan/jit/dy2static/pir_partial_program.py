"""`paddle.jit.dy2static.pir_partial_program`: Paddle 3's module name for the same layer
(sampan has one static IR)."""
from .partial_program import PartialProgram, partial_program_from

__all__ = ["partial_program_from", "PartialProgram"]

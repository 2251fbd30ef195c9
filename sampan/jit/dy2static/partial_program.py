"""`paddle.jit.dy2static.partial_program`: the layer that runs a ConcreteProgram."""
from ..partial_program import PartialProgram

__all__ = ["partial_program_from", "PartialProgram"]


def partial_program_from(concrete_program, from_method=False):
    """The PartialProgram running `concrete_program` (forward and backward plans)."""
    return concrete_program.partial_program

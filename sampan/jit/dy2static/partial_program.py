"""`paddle.jit.dy2static.partial_program`: the layer that runs a ConcreteProgram."""
from ..partial_program import PartialProgram

__all__ = ["partial_program_from", "PartialProgram"]


def partial_program_from(concrete_program, from_method=False):
    """A new PartialProgram running `concrete_program` on its current `parameters`
    (TypeError when they are not a list or tuple of Tensors)."""
    return concrete_program.new_partial_program()

"""`paddle.jit.dy2static.program_translator`: StaticFunction, ConcreteProgram and the
conversion of one function (`convert_to_static`)."""
from ..program_translator import ConcreteProgram, StaticFunction
from ..program_translator import convert_function as convert_to_static
from ..cache import ProgramCache

__all__ = ["StaticFunction", "ConcreteProgram", "ProgramCache", "convert_to_static"]

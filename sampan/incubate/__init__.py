"""`paddle.incubate`: APIs Paddle still marks experimental (functional autograd)."""
from . import autograd

__all__ = ["autograd"]

"""`paddle.jit.dy2static.convert_call_func`: `convert_call(fn)` is what converted code
calls in place of `fn` (the converted function, or `fn` itself when it runs as written)."""
from ..operators.call import Call

__all__ = ["convert_call", "Call"]

convert_call = Call

"""How a to_static call's arguments meet the function's parameters: every positional
parameter gets a value (from the call, a keyword or its default), so `f(x)` and `f(x, 1)`
with `def f(x, c=1)` share one program, as in Paddle; arguments that cannot bind raise
Paddle's errors before anything is traced."""
import inspect

__all__ = ["CallSignature"]

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


class CallSignature:
    """The parameters of one function as a to_static call binds them (a bound method's
    `self` left out); an unknown signature (a builtin) binds nothing."""

    def __init__(self, fn, skip_self):
        self.qualname = getattr(fn, "__qualname__", repr(fn))
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            params = None
        self.known = params is not None
        params = params or []
        self.positional = [p for p in params if p.kind in _POSITIONAL][1 if skip_self else 0:]
        self.names = [p.name for p in self.positional]
        self.varargs = any(p.kind is p.VAR_POSITIONAL for p in params)
        self.keyword_only = {p.name for p in params if p.kind is p.KEYWORD_ONLY}
        self.varkw = any(p.kind is p.VAR_KEYWORD for p in params)

    def check_input_spec(self, input_spec):
        """Raise when `input_spec` has more entries than the function has parameters."""
        if (self.known and input_spec is not None and not self.varargs
                and len(input_spec) > len(self.names)):
            raise ValueError(
                f"to_static({self.qualname}): input_spec has {len(input_spec)} entries but "
                f"the function takes {len(self.names)} argument(s) {self.names}")

    def bind(self, args, kwargs, with_spec=False):
        """(args, kwargs) with one positional value per parameter, filled from `kwargs` and
        the defaults; the kwargs left are keyword-only or `**kwargs` ones. With an
        input_spec (`with_spec`) every argument must be positional, as in Paddle."""
        n = len(self.names)
        if not self.known or (not kwargs and (len(args) == n or
                                              (self.varargs and len(args) > n))):
            return args, kwargs
        if len(args) > n and not self.varargs:
            raise ValueError(f"{self.qualname}() takes {n} argument(s) {self.names}, but "
                             f"{len(args)} were given")
        args, kwargs = list(args), dict(kwargs)
        for param in self.positional[len(args):]:
            if param.name in kwargs and param.kind is not param.POSITIONAL_ONLY:
                args.append(kwargs.pop(param.name))
            elif param.default is not param.empty:
                args.append(param.default)
            else:
                raise ValueError(f"{self.qualname}() is missing argument {param.name!r} "
                                 f"(it takes {self.names})")
        self._check_left(kwargs, with_spec)
        return tuple(args), kwargs

    def _check_left(self, kwargs, with_spec):
        """Raise for keyword arguments that bind to no parameter (any, with an input_spec)."""
        if kwargs and with_spec:
            raise ValueError(
                f"{self.qualname}() got keyword argument(s) {sorted(kwargs)} that are not "
                f"among its positional parameters {self.names}; a function with an "
                f"input_spec takes its arguments positionally")
        repeated = sorted(set(kwargs) & set(self.names))
        if repeated:
            raise TypeError(f"{self.qualname}() got multiple values for argument(s) {repeated}")
        unknown = [] if self.varkw else sorted(set(kwargs) - self.keyword_only)
        if unknown:
            raise TypeError(f"{self.qualname}() got unexpected keyword argument(s) {unknown}")

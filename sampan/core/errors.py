"""Exception types raised by sampan; each carries enough context to act on."""

__all__ = ["InvalidArgument", "OpError", "OpShapeError", "OpTypeError", "OpIndexError",
           "NotFoundError"]


class InvalidArgument(Exception):
    """Raised by infer_meta rules: ``arg`` names the offending argument, ``message`` says why.

    The dispatch funnel turns it into an `OpShapeError` / `OpTypeError` / `OpIndexError`
    (``kind`` "shape", "dtype" or "index") naming the op, every input's shape and dtype,
    and (in static mode) the user line that built the op.
    """

    def __init__(self, arg, message, kind="shape"):
        super().__init__(f"{arg}: {message}")
        self.arg = arg
        self.message = message
        self.kind = kind


class OpError(Exception):
    """Base of the errors that name an op."""


class OpShapeError(OpError, ValueError):
    """An op received tensors whose shapes (or attribute values) do not fit together."""


class OpTypeError(OpError, TypeError):
    """An op received a tensor of a dtype it does not accept."""


class OpIndexError(OpShapeError, IndexError):
    """An index lies outside a dimension (an IndexError too, as Python sequences raise)."""


class NotFoundError(KeyError):
    """A name (op, variable, rule) was looked up and is not registered."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""

"""`x.T` and `x.mT` for Tensor and Variable: transposes spelled as properties (Paddle's
surface), through the transpose op so that eager, static and to_static code agree."""
from .registry import OPS
from ..core.dispatch import dispatch

__all__ = ["AxisViewsMixin"]


class AxisViewsMixin:
    """Transpose properties shared by eager Tensors and static Variables (needs `ndim`)."""

    __slots__ = ()

    @property
    def T(self):  # noqa: N802
        """The tensor with its dimensions reversed."""
        return dispatch(OPS["transpose"], (self,), (tuple(range(self.ndim))[::-1],))

    @property
    def mT(self):  # noqa: N802
        """The tensor with its last two dimensions swapped (at least 2 dimensions)."""
        rank = self.ndim
        if rank < 2:
            raise ValueError(f"Tensor.mT needs at least 2 dimensions, got a {rank}-D tensor")
        return dispatch(OPS["transpose"], (self,), (tuple(range(rank - 2)) + (rank - 1, rank - 2),))

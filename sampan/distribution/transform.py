"""Transforms of random variables: y = f(x) with its inverse and log|det J|, for building
TransformedDistribution."""
import enum
import math
import numbers
from collections.abc import Sequence

import numpy as np

from .. import tensor as T
from ..tensor.extra import is_tensor
from . import variable
from .distribution import Distribution, broadcast_shape, sum_rightmost

__all__ = ["Transform", "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform",
           "IndependentTransform", "PowerTransform", "ReshapeTransform", "SigmoidTransform",
           "SoftmaxTransform", "StackTransform", "StickBreakingTransform", "TanhTransform"]


class Type(enum.Enum):
    """How a transform maps its domain: bijection, injection, surjection or other."""

    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, _type):
        """Whether the mapping is one-to-one (so a log-det-Jacobian exists)."""
        return _type in (cls.BIJECTION, cls.INJECTION)


def _check_tensor(value, name, who):
    if not is_tensor(value):
        raise TypeError(f"{who}: expected '{name}' to be a Tensor, got {type(value).__name__}")


class Transform:
    r"""Base of transforms y = f(x).

    Subclasses implement `_forward`, `_inverse` and one of `_forward_log_det_jacobian` /
    `_inverse_log_det_jacobian` (the other follows), plus `_forward_shape` /
    `_inverse_shape` when they change shapes, and `_domain` / `_codomain`.

    Calling a transform applies it: to a Distribution it gives a TransformedDistribution,
    to another Transform `ChainTransform([self, input])` (self applied first, as in
    Paddle), to a Tensor `forward`.
    """

    _type = Type.INJECTION

    @classmethod
    def _is_injective(cls):
        return Type.is_injective(cls._type)

    def __call__(self, input):  # noqa: A002 - Paddle's name
        if isinstance(input, Distribution):
            from .transformed_distribution import TransformedDistribution
            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def forward(self, x):
        """y = f(x)."""
        self._check_input(x, "x", self._domain, "forward")
        return self._forward(x)

    def inverse(self, y):
        """x = f^{-1}(y)."""
        self._check_input(y, "y", self._codomain, "inverse")
        return self._inverse(y)

    def forward_log_det_jacobian(self, x):
        """log|det df/dx| at x (injective transforms only)."""
        self._check_input(x, "x", self._domain, "forward_log_det_jacobian")
        if not self._is_injective():
            raise NotImplementedError(f"{type(self).__name__}.forward_log_det_jacobian: "
                                      f"a non-injective transform has none")
        if self._has("_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        return -self._inverse_log_det_jacobian(self.forward(x))

    def inverse_log_det_jacobian(self, y):
        """log|det df^{-1}/dy| at y."""
        self._check_input(y, "y", self._codomain, "inverse_log_det_jacobian")
        if self._has("_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        return -self._forward_log_det_jacobian(self.inverse(y))

    def forward_shape(self, shape):
        """The shape of f(x) for x of `shape`."""
        if not isinstance(shape, Sequence):
            raise TypeError(f"{type(self).__name__}.forward_shape: shape must be a sequence, "
                            f"got {type(shape).__name__}")
        return self._forward_shape(tuple(shape))

    def inverse_shape(self, shape):
        """The shape of f^{-1}(y) for y of `shape`."""
        if not isinstance(shape, Sequence):
            raise TypeError(f"{type(self).__name__}.inverse_shape: shape must be a sequence, "
                            f"got {type(shape).__name__}")
        return self._inverse_shape(tuple(shape))

    @property
    def _domain(self):
        return variable.real

    @property
    def _codomain(self):
        return variable.real

    def _forward(self, x):
        raise NotImplementedError(f"{type(self).__name__}: forward is not implemented")

    def _inverse(self, y):
        raise NotImplementedError(f"{type(self).__name__}: inverse is not implemented")

    def _forward_shape(self, shape):
        return shape

    def _inverse_shape(self, shape):
        return shape

    def _has(self, method):
        """Whether a subclass overrides `method` (the log-det-Jacobian pair)."""
        return any(method in vars(c) for c in type(self).__mro__ if c is not Transform)

    def _check_input(self, value, name, domain, method):
        who = f"{type(self).__name__}.{method}"
        _check_tensor(value, name, who)
        if len(value.shape) < domain.event_rank:
            raise ValueError(f"{who}: '{name}' has {len(value.shape)} dims, fewer than the "
                             f"event rank {domain.event_rank}")


class AbsTransform(Transform):
    """y = |x|. Not injective: `inverse` returns both preimages (-y, y)."""

    _type = Type.SURJECTION
    _codomain = variable.positive

    def _forward(self, x):
        return T.abs(x)

    def _inverse(self, y):
        return -y, y

    def _inverse_log_det_jacobian(self, y):
        zero = T.zeros_like(y)
        return zero, zero


class AffineTransform(Transform):
    """y = loc + scale * x.

    Args:
        loc (Tensor): the offset.
        scale (Tensor): the factor.
    """

    _type = Type.BIJECTION

    def __init__(self, loc, scale):
        _check_tensor(loc, "loc", "AffineTransform")
        _check_tensor(scale, "scale", "AffineTransform")
        self._loc, self._scale = loc, scale

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _forward(self, x):
        return self._loc + self._scale * x

    def _inverse(self, y):
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x):
        return T.log(T.abs(self._scale))

    def _forward_shape(self, shape):
        return broadcast_shape([shape, tuple(self._loc.shape), tuple(self._scale.shape)],
                               "AffineTransform.forward_shape")

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    """Transforms applied in order: forward runs transforms[0] first.

    Args:
        transforms (Sequence[Transform]): the transforms to compose.
    """

    def __init__(self, transforms):
        if not isinstance(transforms, Sequence) or not all(
                isinstance(t, Transform) for t in transforms):
            raise TypeError("ChainTransform: transforms must be a sequence of Transform")
        self.transforms = list(transforms)

    def _is_injective(self):
        return all(t._is_injective() for t in self.transforms)

    def _through(self, value, method, backwards=False):
        """`value` passed through every transform's `method`, in order or backwards."""
        for t in reversed(self.transforms) if backwards else self.transforms:
            value = getattr(t, method)(value)
        return value

    def _forward(self, x):
        return self._through(x, "forward")

    def _inverse(self, y):
        return self._through(y, "inverse", backwards=True)

    def _forward_log_det_jacobian(self, x):
        value = 0.0
        event_rank = self._domain.event_rank
        for t in self.transforms:
            value = value + sum_rightmost(t.forward_log_det_jacobian(x),
                                          event_rank - t._domain.event_rank)
            x = t.forward(x)
            event_rank += t._codomain.event_rank - t._domain.event_rank
        return value

    def _forward_shape(self, shape):
        return self._through(shape, "forward_shape")

    def _inverse_shape(self, shape):
        return self._through(shape, "inverse_shape", backwards=True)

    @property
    def _domain(self):
        return self._end_variable(inward=True)

    @property
    def _codomain(self):
        return self._end_variable(inward=False)

    def _end_variable(self, inward):
        """The chain's domain (walking in from the last codomain) or codomain (walking out
        from the first domain): the end transform's variable with the event rank the chain
        accumulates on the way."""
        chain = self.transforms[::-1] if inward else self.transforms
        near, far = ("_domain", "_codomain") if inward else ("_codomain", "_domain")
        end = getattr(chain[-1], near)
        event_rank = getattr(chain[0], far).event_rank
        for t in chain:
            event_rank += getattr(t, near).event_rank - getattr(t, far).event_rank
            event_rank = max(event_rank, getattr(t, near).event_rank)
        return variable.Independent(end, event_rank - end.event_rank)


class ExpTransform(Transform):
    """y = exp(x)."""

    _type = Type.BIJECTION
    _codomain = variable.positive

    def _forward(self, x):
        return T.exp(x)

    def _inverse(self, y):
        return T.log(y)

    def _forward_log_det_jacobian(self, x):
        return x


class IndependentTransform(Transform):
    """`base` with its `reinterpreted_batch_rank` rightmost batch axes treated as event axes
    (their log-det-Jacobians are summed).

    Args:
        base (Transform): the transform applied elementwise.
        reinterpreted_batch_rank (int): how many batch axes join the event, > 0.
    """

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Transform):
            raise TypeError(f"IndependentTransform: base must be a Transform, got "
                            f"{type(base).__name__}")
        if not isinstance(reinterpreted_batch_rank, numbers.Integral) or (
                reinterpreted_batch_rank <= 0):
            raise ValueError(f"IndependentTransform: reinterpreted_batch_rank must be a "
                             f"positive int, got {reinterpreted_batch_rank!r}")
        self._base = base
        self._reinterpreted_batch_rank = int(reinterpreted_batch_rank)

    def _is_injective(self):
        return self._base._is_injective()

    def _forward(self, x):
        return self._base.forward(x)

    def _inverse(self, y):
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x):
        return sum_rightmost(self._base.forward_log_det_jacobian(x),
                             self._reinterpreted_batch_rank)

    def _forward_shape(self, shape):
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape):
        return self._base.inverse_shape(shape)

    @property
    def _domain(self):
        return variable.Independent(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self):
        return variable.Independent(self._base._codomain, self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    """y = x ** power on the positive reals.

    Args:
        power (Tensor): the exponent.
    """

    _type = Type.BIJECTION
    _domain = variable.positive
    _codomain = variable.positive

    def __init__(self, power):
        _check_tensor(power, "power", "PowerTransform")
        self._power = power

    @property
    def power(self):
        return self._power

    def _forward(self, x):
        return T.pow(x, self._power)

    def _inverse(self, y):
        return T.pow(y, 1.0 / self._power)

    def _forward_log_det_jacobian(self, x):
        return T.log(T.abs(self._power * T.pow(x, self._power - 1.0)))

    def _forward_shape(self, shape):
        return broadcast_shape([shape, tuple(self._power.shape)], "PowerTransform.forward_shape")

    _inverse_shape = _forward_shape


class ReshapeTransform(Transform):
    """Reshapes the event part of x from `in_event_shape` to `out_event_shape`.

    Args:
        in_event_shape (Sequence[int]): the event shape before.
        out_event_shape (Sequence[int]): the event shape after (same number of elements).
    """

    _type = Type.BIJECTION

    def __init__(self, in_event_shape, out_event_shape):
        if not isinstance(in_event_shape, Sequence) or not isinstance(out_event_shape,
                                                                      Sequence):
            raise TypeError("ReshapeTransform: in_event_shape and out_event_shape must be "
                            "sequences of ints")
        if int(np.prod(in_event_shape)) != int(np.prod(out_event_shape)):
            raise ValueError(f"ReshapeTransform: in_event_shape {list(in_event_shape)} and "
                             f"out_event_shape {list(out_event_shape)} hold different "
                             f"numbers of elements")
        self._in_event_shape = tuple(in_event_shape)
        self._out_event_shape = tuple(out_event_shape)

    @property
    def in_event_shape(self):
        return self._in_event_shape

    @property
    def out_event_shape(self):
        return self._out_event_shape

    @property
    def _domain(self):
        return variable.Independent(variable.real, len(self._in_event_shape))

    @property
    def _codomain(self):
        return variable.Independent(variable.real, len(self._out_event_shape))

    def _forward(self, x):
        batch = list(x.shape[:len(x.shape) - len(self._in_event_shape)])
        return T.reshape(x, batch + list(self._out_event_shape))

    def _inverse(self, y):
        batch = list(y.shape[:len(y.shape) - len(self._out_event_shape)])
        return T.reshape(y, batch + list(self._in_event_shape))

    def _forward_log_det_jacobian(self, x):
        batch = list(x.shape[:len(x.shape) - len(self._in_event_shape)])
        return T.zeros(batch, x.dtype)

    def _forward_shape(self, shape):
        return self._swap_event(shape, self._in_event_shape, self._out_event_shape)

    def _inverse_shape(self, shape):
        return self._swap_event(shape, self._out_event_shape, self._in_event_shape)

    @staticmethod
    def _swap_event(shape, old, new):
        if len(shape) < len(old) or tuple(shape[len(shape) - len(old):]) != old:
            raise ValueError(f"ReshapeTransform: shape {list(shape)} does not end with the "
                             f"event shape {list(old)}")
        return tuple(shape[:len(shape) - len(old)]) + new


class SigmoidTransform(Transform):
    """y = sigmoid(x) = 1 / (1 + exp(-x))."""

    _type = Type.BIJECTION
    _codomain = variable.interval(0.0, 1.0)

    def _forward(self, x):
        return T.sigmoid(x)

    def _inverse(self, y):
        return T.log(y) - T.log1p(-y)

    def _forward_log_det_jacobian(self, x):
        return -T.softplus(-x) - T.softplus(x)


class SoftmaxTransform(Transform):
    """y = softmax(x) over the last axis. Not injective, so it has no log-det-Jacobian;
    `inverse` returns log(y)."""

    _type = Type.OTHER
    _domain = variable.Independent(variable.real, 1)
    _codomain = variable.simplex

    def _forward(self, x):
        e = T.exp(x - T.max(x, axis=-1, keepdim=True))
        return e / T.sum(e, axis=-1, keepdim=True)

    def _inverse(self, y):
        return T.log(y)

    def _forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("SoftmaxTransform: the shape needs at least one axis")
        return shape

    _inverse_shape = _forward_shape


class StackTransform(Transform):
    """Applies transforms[i] to slice i of x along `axis`.

    Args:
        transforms (Sequence[Transform]): one transform per slice.
        axis (int): the axis to split, 0 by default.
    """

    def __init__(self, transforms, axis=0):
        if not isinstance(transforms, Sequence) or not transforms or not all(
                isinstance(t, Transform) for t in transforms):
            raise TypeError("StackTransform: transforms must be a non-empty sequence of "
                            "Transform")
        if not isinstance(axis, numbers.Integral):
            raise TypeError(f"StackTransform: axis must be an int, got {type(axis).__name__}")
        self._transforms = list(transforms)
        self._axis = int(axis)

    @property
    def transforms(self):
        return self._transforms

    @property
    def axis(self):
        return self._axis

    def _is_injective(self):
        return all(t._is_injective() for t in self._transforms)

    def _each(self, value, method):
        if value.shape[self._axis] != len(self._transforms):
            raise ValueError(f"StackTransform: axis {self._axis} of the input has size "
                             f"{value.shape[self._axis]}, but there are "
                             f"{len(self._transforms)} transforms")
        parts = T.unstack(value, axis=self._axis)
        return T.stack([getattr(t, method)(p) for t, p in zip(self._transforms, parts)],
                       self._axis)

    def _forward(self, x):
        return self._each(x, "forward")

    def _inverse(self, y):
        return self._each(y, "inverse")

    def _forward_log_det_jacobian(self, x):
        return self._each(x, "forward_log_det_jacobian")

    @property
    def _domain(self):
        return variable.Stack([t._domain for t in self._transforms], self._axis)

    @property
    def _codomain(self):
        return variable.Stack([t._codomain for t in self._transforms], self._axis)


class StickBreakingTransform(Transform):
    """Maps R^K onto the interior of the (K+1)-simplex by stick breaking."""

    _type = Type.BIJECTION
    _domain = variable.Independent(variable.real, 1)
    _codomain = variable.simplex

    @staticmethod
    def _offset(x):
        """K - k for k = 0 .. K-1 on the last axis (x's shape)."""
        return float(x.shape[-1]) + 1.0 - T.cumsum(T.ones_like(x), axis=-1)

    def _forward(self, x):
        z = T.sigmoid(x - T.log(self._offset(x)))
        rest = T.cumprod(1.0 - z, dim=-1)
        return _pad_last(z, 0, 1) * _pad_last(rest, 1, 0)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = float(y.shape[-1]) - T.cumsum(T.ones_like(y_crop), axis=-1)
        sf = 1.0 - T.cumsum(y_crop, axis=-1)
        return T.log(y_crop) - T.log(sf) + T.log(offset)

    def _forward_log_det_jacobian(self, x):
        y = self.forward(x)
        x = x - T.log(self._offset(x))
        return T.sum(-x + T.logsigmoid(x) + T.log(y[..., :-1]), axis=-1)

    def _forward_shape(self, shape):
        if not shape:
            raise ValueError("StickBreakingTransform: the shape needs at least one axis")
        return tuple(shape[:-1]) + (shape[-1] + 1,)

    def _inverse_shape(self, shape):
        if not shape:
            raise ValueError("StickBreakingTransform: the shape needs at least one axis")
        return tuple(shape[:-1]) + (shape[-1] - 1,)


def _pad_last(x, before, after):
    """x padded with ones on its last axis."""
    parts = [x]
    shape = list(x.shape[:-1])
    if before:
        parts.insert(0, T.ones(shape + [before], x.dtype))
    if after:
        parts.append(T.ones(shape + [after], x.dtype))
    return T.concat(parts, axis=-1)


class TanhTransform(Transform):
    """y = tanh(x)."""

    _type = Type.BIJECTION
    _codomain = variable.interval(-1.0, 1.0)

    def _forward(self, x):
        return T.tanh(x)

    def _inverse(self, y):
        return T.atanh(y)

    def _forward_log_det_jacobian(self, x):
        return 2.0 * (math.log(2.0) - x - T.softplus(-2.0 * x))

"""Domains of random variables for transforms: a constraint on the values plus an event rank
(how many rightmost axes form one event)."""
from .. import tensor as T

__all__ = ["Constraint", "Range", "Variable", "Real", "Positive", "Independent", "Stack",
           "real", "positive", "simplex"]


class Constraint:
    """A predicate on values: `constraint(value)` is a boolean tensor."""

    def __call__(self, value):
        raise NotImplementedError


class _RealConstraint(Constraint):
    def __call__(self, value):
        return value == value


class Range(Constraint):
    """lower <= value <= upper."""

    def __init__(self, lower, upper):
        self._lower, self._upper = lower, upper

    def __call__(self, value):
        return T.logical_and(self._lower <= value, value <= self._upper)


class _PositiveConstraint(Constraint):
    def __call__(self, value):
        return value >= 0.0


class _SimplexConstraint(Constraint):
    def __call__(self, value):
        non_negative = T.all(value >= 0, axis=-1)
        return T.logical_and(non_negative, T.abs(T.sum(value, axis=-1) - 1.0) < 1e-6)


class Variable:
    """A random variable's domain: discreteness, event rank and a constraint."""

    def __init__(self, is_discrete=False, event_rank=0, constraint=None):
        self._is_discrete = is_discrete
        self._event_rank = event_rank
        self._constraint = constraint

    @property
    def is_discrete(self):
        return self._is_discrete

    @property
    def event_rank(self):
        return self._event_rank

    def constraint(self, value):
        """Whether `value` lies in the domain (boolean tensor)."""
        return self._constraint(value)


class Real(Variable):
    """The real line."""

    def __init__(self, event_rank=0):
        super().__init__(False, event_rank, _RealConstraint())


class Positive(Variable):
    """The non-negative reals."""

    def __init__(self, event_rank=0):
        super().__init__(False, event_rank, _PositiveConstraint())


class Independent(Variable):
    """`base` with its `reinterpreted_batch_rank` rightmost batch axes moved into the event."""

    def __init__(self, base, reinterpreted_batch_rank):
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__(base.is_discrete, base.event_rank + reinterpreted_batch_rank)

    def constraint(self, value):
        ret = self._base.constraint(value)
        rank = self._reinterpreted_batch_rank
        if len(ret.shape) < rank:
            raise ValueError(f"Independent: the value needs at least {rank} batch axes, got "
                             f"shape {list(value.shape)}")
        return T.all(T.reshape(ret, list(ret.shape[:len(ret.shape) - rank]) + [-1]), axis=-1)


class Stack(Variable):
    """Variables stacked along `axis`."""

    def __init__(self, vars, axis=0):  # noqa: A002 - Paddle's name
        self._vars = vars
        self._axis = axis
        super().__init__(any(v.is_discrete for v in vars), max(v.event_rank for v in vars))

    def constraint(self, value):
        if not (-len(value.shape) <= self._axis < len(value.shape)):
            raise ValueError(f"Stack: axis {self._axis} is out of range for shape "
                             f"{list(value.shape)}")
        parts = T.unstack(value, axis=self._axis)
        return T.stack([v.constraint(p) for v, p in zip(self._vars, parts)], self._axis)


real = Real()
positive = Positive()
simplex = Variable(False, 1, _SimplexConstraint())


def interval(lower, upper):
    """The reals between lower and upper."""
    return Variable(False, 0, Range(lower, upper))

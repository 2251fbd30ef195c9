"""Independent: a batch of distributions read as one distribution over a bigger event."""
import numbers

from .distribution import Distribution, sum_rightmost

__all__ = ["Independent"]


class Independent(Distribution):
    r"""`base` with its `reinterpreted_batch_rank` rightmost batch axes moved into the event:
    log_prob and entropy are summed over them.

    Args:
        base (Distribution): the distribution to reinterpret.
        reinterpreted_batch_rank (int): how many batch axes join the event,
            0 < rank <= len(base.batch_shape).

    Example:
        >>> beta = paddle.distribution.Beta(paddle.to_tensor([0.5, 0.5]),
        ...                                 paddle.to_tensor([0.5, 0.5]))
        >>> reinterpreted = paddle.distribution.Independent(beta, 1)
        >>> reinterpreted.batch_shape, reinterpreted.event_shape   # (), (2,)
    """

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Distribution):
            raise TypeError(f"Independent: base must be a Distribution, got "
                            f"{type(base).__name__}")
        rank = reinterpreted_batch_rank
        if not isinstance(rank, numbers.Integral) or not 0 < rank <= len(base.batch_shape):
            raise ValueError(f"Independent: reinterpreted_batch_rank must be an int in "
                             f"(0, {len(base.batch_shape)}] (the base's batch rank), got "
                             f"{rank!r}")
        self._base = base
        self._reinterpreted_batch_rank = int(rank)
        split = len(base.batch_shape) - self._reinterpreted_batch_rank
        super().__init__(base.batch_shape[:split], base.batch_shape[split:] + base.event_shape)

    @property
    def mean(self):
        """The base's mean."""
        return self._base.mean

    @property
    def variance(self):
        """The base's variance."""
        return self._base.variance

    def sample(self, shape=()):
        """The base's draws."""
        return self._base.sample(shape)

    def rsample(self, shape=()):
        """The base's reparameterized draws."""
        return self._base.rsample(shape)

    def log_prob(self, value):
        """The base's log_prob summed over the reinterpreted axes."""
        return sum_rightmost(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def entropy(self):
        """The base's entropy summed over the reinterpreted axes."""
        return sum_rightmost(self._base.entropy(), self._reinterpreted_batch_rank)

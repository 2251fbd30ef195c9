"""Paddle's function-style learning-rate decays (`paddle.optimizer.lr.noam_decay`, ...),
still used by older tutorials. Each returns the LRScheduler Paddle 3.3.1 returns in dynamic
mode, with the same arguments passed on and the same ones dropped (`exponential_decay`,
`natural_exp_decay` and `inverse_time_decay` decay once per `step()`, whatever
`decay_steps` and `staircase` say; `cosine_decay` anneals over `epochs` steps), so results
match Paddle's. In a static Program the scheduler is stepped like any other (Paddle's
static form counts the steps itself: docs/compatibility.md)."""
from .lr import (CosineAnnealingDecay, ExponentialDecay, InverseTimeDecay, LinearWarmup,
                 NaturalExpDecay, NoamDecay, PiecewiseDecay, PolynomialDecay)

__all__ = ["noam_decay", "piecewise_decay", "exponential_decay", "natural_exp_decay",
           "inverse_time_decay", "polynomial_decay", "cosine_decay", "linear_lr_warmup"]


def noam_decay(d_model, warmup_steps, learning_rate=1.0):
    """NoamDecay(d_model, warmup_steps, learning_rate)."""
    return NoamDecay(d_model, warmup_steps, learning_rate=learning_rate)


def piecewise_decay(boundaries, values):
    """PiecewiseDecay(boundaries, values); `values` has one more entry than `boundaries`."""
    if len(values) - len(boundaries) != 1:
        raise ValueError(f"piecewise_decay: values needs one more entry than boundaries, got "
                         f"{len(values)} values and {len(boundaries)} boundaries")
    return PiecewiseDecay(boundaries, values)


def exponential_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """ExponentialDecay(learning_rate, decay_rate): lr * decay_rate ** step."""
    return ExponentialDecay(learning_rate, decay_rate)


def natural_exp_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """NaturalExpDecay(learning_rate, decay_rate): lr * exp(-decay_rate * step)."""
    return NaturalExpDecay(learning_rate, decay_rate)


def inverse_time_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """InverseTimeDecay(learning_rate, decay_rate): lr / (1 + decay_rate * step)."""
    return InverseTimeDecay(learning_rate, decay_rate)


def polynomial_decay(learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                     cycle=False):
    """PolynomialDecay(learning_rate, decay_steps, end_learning_rate, power, cycle)."""
    return PolynomialDecay(learning_rate, decay_steps, end_learning_rate, power, cycle)


def cosine_decay(learning_rate, step_each_epoch, epochs):
    """CosineAnnealingDecay(learning_rate, epochs)."""
    if not isinstance(learning_rate, (int, float)):
        raise TypeError(f"cosine_decay: learning_rate must be a float, got "
                        f"{type(learning_rate).__name__}")
    return CosineAnnealingDecay(learning_rate, epochs)


def linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr):
    """LinearWarmup(learning_rate, warmup_steps, start_lr, end_lr): a linear ramp to
    `end_lr`, then `learning_rate` (a float or a scheduler)."""
    return LinearWarmup(learning_rate, warmup_steps, start_lr, end_lr)

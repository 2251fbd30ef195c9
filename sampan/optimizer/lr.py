"""Learning-rate schedulers (paddle.optimizer.lr): call step() once per epoch or batch."""
import math
import numbers
import warnings

import numpy as np

__all__ = ["LRScheduler", "NoamDecay", "StepDecay", "MultiStepDecay", "ExponentialDecay",
           "NaturalExpDecay", "InverseTimeDecay", "PolynomialDecay", "PiecewiseDecay",
           "CosineAnnealingDecay", "LinearWarmup", "LambdaDecay", "MultiplicativeDecay",
           "ReduceOnPlateau", "OneCycleLR", "CyclicLR", "LinearLR", "CosineAnnealingWarmRestarts"]


class _ArgumentError(ValueError, AssertionError):
    """A bad scheduler argument: a ValueError that is also an AssertionError, since Paddle
    checks some of these arguments with `assert`."""


def _check(ok, message):
    """Raise _ArgumentError(message) unless `ok`."""
    if not ok:
        raise _ArgumentError(message)


def _is_number(value):
    """A real number that is not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _check_type(value, name, scheduler, kinds=numbers.Real, kind_name="a float"):
    """TypeError unless `value` is of `kinds` (bools are never numbers here)."""
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise TypeError(f"{scheduler}: argument '{name}' must be {kind_name}, got "
                        f"{type(value).__name__}")


def _check_positive_int(value, name, scheduler):
    """Paddle asserts these counts are positive ints."""
    _check(isinstance(value, int) and not isinstance(value, bool) and value > 0,
           f"{scheduler}: argument '{name}' must be a positive int, got {value!r}")


class LRScheduler:
    """Base: `last_epoch` counts step() calls; `get_lr()` maps it to a learning rate.

    `state_keys()` sets `self.keys`, the attributes state_dict saves (Paddle's hook for
    subclasses)."""

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        _check_type(learning_rate, "learning_rate", type(self).__name__)
        if learning_rate < 0:
            raise ValueError(f"{type(self).__name__}: argument 'learning_rate' must be >= 0, "
                             f"got {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = self.base_lr
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self):
        return self.last_lr

    def step(self, epoch=None):
        """Advance one epoch (or jump to `epoch`) and recompute the learning rate.

        A jump uses the scheduler's closed form when it has one (`_closed_form_lr`), since
        a recurrence over `last_lr` only holds between consecutive epochs."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            self.last_lr = self._closed_form_lr()
        self._report()

    def _closed_form_lr(self):
        """The learning rate at `last_epoch` from scratch (default: get_lr)."""
        return self.get_lr()

    def _report(self):
        """Print the new learning rate when verbose."""
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    def get_lr(self):
        raise NotImplementedError

    def state_keys(self):
        """Set `self.keys`, the attributes saved by state_dict."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self):
        """The scheduler's counters (one-element tensors as floats)."""
        self.state_keys()
        state = {}
        for key in self.keys:
            if key in self.__dict__:
                value = self.__dict__[key]
                state[key] = float(value) if hasattr(value, "numpy") else value
        return state

    def set_state_dict(self, state_dict):
        """Restore counters saved by state_dict(); a missing one is a RuntimeError."""
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(f"{type(self).__name__}.set_state_dict: state_dict has no "
                                   f"{key!r} (it holds {sorted(state_dict)})")
            self.__dict__[key] = state_dict[key]
        unused = set(state_dict) - set(self.keys) - set(self._nested_state_keys)
        if unused:
            warnings.warn(f"{type(self).__name__}.set_state_dict: unused entries {sorted(unused)}")

    # entries of state_dict that are not attributes (a wrapped scheduler's state)
    _nested_state_keys = ()

    set_dict = set_state_dict


def _check_gamma(gamma, scheduler):
    """A decay factor must shrink the learning rate (Paddle refuses gamma >= 1)."""
    if gamma >= 1.0:
        raise ValueError(f"{scheduler}: argument 'gamma' should be < 1.0, got {gamma}")


class StepDecay(LRScheduler):
    """lr · gamma^(epoch // step_size)."""

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        _check_type(step_size, "step_size", "StepDecay", int, "an int")
        _check_gamma(gamma, "StepDecay")
        _check_positive_int(step_size, "step_size", "StepDecay")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class MultiStepDecay(LRScheduler):
    """lr · gamma^(number of milestones passed)."""

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        _check_type(milestones, "milestones", "MultiStepDecay", (list, tuple),
                    "a list or tuple")
        milestones = list(milestones)
        if any(a >= b for a, b in zip(milestones, milestones[1:])):
            raise ValueError(f"MultiStepDecay: argument 'milestones' must be increasing, got "
                             f"{milestones}")
        _check_gamma(gamma, "MultiStepDecay")
        self.milestones, self.gamma = milestones, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        passed = sum(1 for m in self.milestones if self.last_epoch >= m)
        return self.base_lr * self.gamma ** passed


class InverseTimeDecay(LRScheduler):
    """lr / (1 + gamma · epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class ExponentialDecay(InverseTimeDecay):
    """lr · gamma^epoch, gamma in (0, 1)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        _check(0 < gamma < 1, f"ExponentialDecay: argument 'gamma' must be in (0, 1), got {gamma}")
        super().__init__(learning_rate, gamma, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** self.last_epoch


class NaturalExpDecay(InverseTimeDecay):
    """lr · exp(−gamma · epoch), gamma > 0."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        _check(gamma > 0, f"NaturalExpDecay: argument 'gamma' must be > 0, got {gamma}")
        super().__init__(learning_rate, gamma, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """(lr − end_lr) · (1 − epoch / decay_steps)^power + end_lr (cycled when `cycle`)."""

    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False,
                 last_epoch=-1, verbose=False):
        _check_positive_int(decay_steps, "decay_steps", "PolynomialDecay")
        _check(power > 0, f"PolynomialDecay: argument 'power' must be > 0, got {power}")
        self.decay_steps, self.end_lr, self.power, self.cycle = decay_steps, end_lr, power, cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            steps *= max(math.ceil(epoch / steps), 1)
        else:
            epoch = min(epoch, steps)
        return (self.base_lr - self.end_lr) * (1 - epoch / steps) ** self.power + self.end_lr


class PiecewiseDecay(LRScheduler):
    """values[i] while epoch < boundaries[i]; the last value afterwards."""

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        if len(boundaries) == 0:
            raise ValueError("PiecewiseDecay: argument 'boundaries' must not be empty")
        if len(values) <= len(boundaries):
            raise ValueError(f"PiecewiseDecay: argument 'values' needs one more element than "
                             f"'boundaries' ({len(boundaries) + 1}), got {len(values)}")
        self.boundaries, self.values = boundaries, values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        for boundary, value in zip(self.boundaries, self.values):
            if self.last_epoch < boundary:
                return value
        return self.values[-1]


class CosineAnnealingDecay(LRScheduler):
    """eta_min + (lr − eta_min) · (1 + cos(π · epoch / T_max)) / 2.

    Like Paddle, step() advances by the recurrence over the previous learning rate (so
    its rounding matches Paddle's); step(epoch) uses the closed form."""

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1,  # noqa: N803
                 verbose=False):
        _check_type(T_max, "T_max", "CosineAnnealingDecay", int, "an int")
        _check_type(eta_min, "eta_min", "CosineAnnealingDecay")
        _check_positive_int(T_max, "T_max", "CosineAnnealingDecay")
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch, period = self.last_epoch, self.T_max
        if epoch == 0:
            return self.base_lr
        if (epoch - 1 - period) % (2 * period) == 0:
            # restarting from the minimum, where the ratio below would divide by zero
            return self.last_lr + (self.base_lr - self.eta_min) * (
                1 - math.cos(math.pi / period)) / 2
        ratio = (1 + math.cos(math.pi * epoch / period)) / (
            1 + math.cos(math.pi * (epoch - 1) / period))
        return ratio * (self.last_lr - self.eta_min) + self.eta_min

    def _closed_form_lr(self):
        cos = math.cos(math.pi * self.last_epoch / self.T_max)
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + cos) / 2


class LambdaDecay(LRScheduler):
    """lr · lr_lambda(epoch)."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError(f"{type(self).__name__}: argument 'lr_lambda' must be callable, got "
                            f"{type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LambdaDecay):
    """lr · lr_lambda(1) · lr_lambda(2) · ... · lr_lambda(epoch)."""

    def get_lr(self):
        lr = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            lr *= self.lr_lambda(epoch)
        return lr


class LinearWarmup(LRScheduler):
    """Linear ramp start_lr → end_lr over warmup_steps, then `learning_rate` (float/scheduler)."""

    _nested_state_keys = ("LinearWarmup_LR",)

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1,
                 verbose=False):
        _check_type(learning_rate, "learning_rate", "LinearWarmup",
                    (numbers.Real, LRScheduler), "a float or an LRScheduler")
        _check_positive_int(warmup_steps, "warmup_steps", "LinearWarmup")
        _check(end_lr > start_lr, f"LinearWarmup: argument 'end_lr' ({end_lr}) must be greater "
                                  f"than 'start_lr' ({start_lr})")
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps
        self.start_lr, self.end_lr = start_lr, end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            frac = self.last_epoch / self.warmup_steps
            return self.start_lr + (self.end_lr - self.start_lr) * frac
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate

    def state_dict(self):
        """The warm-up counters plus, under "LinearWarmup_LR", the wrapped scheduler's."""
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        """Restore the warm-up counters and the wrapped scheduler."""
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    set_dict = set_state_dict


class ReduceOnPlateau(LRScheduler):
    """Multiply lr by `factor` when `metrics` stop improving for `patience` steps; "rel"
    thresholds are relative to the best value (best·threshold, as Paddle computes them)."""

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        mode, threshold_mode = str(mode).lower(), str(threshold_mode).lower()
        if mode not in ("min", "max"):
            raise ValueError(f"ReduceOnPlateau: argument 'mode' must be 'min' or 'max', got "
                             f"{mode!r}")
        if factor >= 1.0:
            raise ValueError(f"ReduceOnPlateau: argument 'factor' must be < 1.0, got {factor}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"ReduceOnPlateau: argument 'threshold_mode' must be 'rel' or "
                             f"'abs', got {threshold_mode!r}")
        _check_type(learning_rate, "learning_rate", "ReduceOnPlateau")
        self.mode, self.factor, self.patience = mode, factor, patience
        self.threshold, self.threshold_mode = threshold, threshold_mode
        self.cooldown, self.min_lr, self.epsilon = cooldown, min_lr, epsilon
        self.best, self.cooldown_counter, self.num_bad_epochs = None, 0, 0
        self.base_lr = self.last_lr = float(learning_rate)
        self.last_epoch, self.verbose = 0, verbose

    def state_keys(self):
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def _better(self, current):
        if self.best is None:
            return True
        delta = self.threshold * self.best if self.threshold_mode == "rel" else self.threshold
        return current < self.best - delta if self.mode == "min" else current > self.best + delta

    def step(self, metrics, epoch=None):
        """Record a metric value (a number, or a one-element array or tensor) and maybe
        reduce lr."""
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        current = _metric_value(metrics)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self._better(current):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                self._report()


def _metric_value(metrics):
    """ReduceOnPlateau's monitored value as a float: a number, or an array or tensor of
    one element."""
    if hasattr(metrics, "numpy") or isinstance(metrics, np.ndarray):
        size = int(np.prod(metrics.shape))
        _check(size == 1, f"ReduceOnPlateau.step: argument 'metrics' must hold one value, got "
                          f"{size} (reduce it first, e.g. with mean)")
        return float(np.asarray(metrics.numpy() if hasattr(metrics, "numpy") else metrics)
                     .reshape(-1)[0])
    if not _is_number(metrics):
        raise TypeError(f"ReduceOnPlateau.step: argument 'metrics' must be a number, an array "
                        f"or a Tensor, got {type(metrics).__name__}")
    return float(metrics)


class NoamDecay(LRScheduler):
    """lr · d_model^−½ · min(epoch^−½, epoch · warmup_steps^−1.5) (epoch 0 takes 1 for the
    first term), the Transformer schedule."""

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        if d_model <= 0:
            raise ValueError(f"NoamDecay: d_model must be > 0, got {d_model}")
        self.d_model, self.warmup_steps = d_model, warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch = self.last_epoch
        decay = 1 if epoch == 0 else epoch ** -0.5
        warmup = self.warmup_steps ** -1.5 * epoch
        return self.base_lr * self.d_model ** -0.5 * min(decay, warmup)


def _cos_anneal(start, end, fraction):
    """From start (fraction 0) to end (fraction 1) along half a cosine."""
    return end + (start - end) / 2.0 * (math.cos(math.pi * fraction) + 1)


def _linear_anneal(start, end, fraction):
    """From start (fraction 0) to end (fraction 1) along a straight line."""
    return (end - start) * fraction + start


class OneCycleLR(LRScheduler):
    """One cycle: max_learning_rate / divide_factor up to max_learning_rate over the first
    phase_pct of total_steps, then down to end_learning_rate (three_phase: back to the
    initial rate over as many steps first), annealed by cosine or linearly."""

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0,
                 end_learning_rate=0.0001, phase_pct=0.3, anneal_strategy="cos",
                 three_phase=False, last_epoch=-1, verbose=False):
        _check_one_cycle(max_learning_rate, total_steps, divide_factor, end_learning_rate,
                         phase_pct, three_phase)
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"OneCycleLR: anneal_strategy must be 'cos' or 'linear', got "
                             f"{anneal_strategy!r}")
        self.total_steps = total_steps
        self.anneal_strategy = anneal_strategy
        initial = max_learning_rate / float(divide_factor)
        self._phases = _one_cycle_phases(initial, float(max_learning_rate),
                                         float(end_learning_rate), phase_pct * total_steps,
                                         total_steps, three_phase)
        super().__init__(initial, last_epoch, verbose)

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"OneCycleLR: stepped {step} times, but total_steps is "
                             f"{self.total_steps}")
        anneal = _cos_anneal if self.anneal_strategy == "cos" else _linear_anneal
        for i, (first, last, start_lr, end_lr) in enumerate(self._phases):
            if step <= last or i == len(self._phases) - 1:
                return anneal(start_lr, end_lr, (step - first) / (last - first))


def _check_one_cycle(max_learning_rate, total_steps, divide_factor, end_learning_rate,
                     phase_pct, three_phase):
    """Paddle's argument checks for OneCycleLR: TypeError for a wrong kind, ValueError for
    a value out of range."""
    for name, rate in (("max_learning_rate", max_learning_rate),
                       ("end_learning_rate", end_learning_rate)):
        _check_type(rate, name, "OneCycleLR")
        if rate < 0:
            raise ValueError(f"OneCycleLR: argument '{name}' must be >= 0, got {rate}")
    _check_type(total_steps, "total_steps", "OneCycleLR", int, "an int")
    if total_steps <= 0:
        raise ValueError(f"OneCycleLR: argument 'total_steps' must be > 0, got {total_steps}")
    _check_type(phase_pct, "phase_pct", "OneCycleLR", float, "a float")
    if not 0 <= phase_pct <= 1:
        raise ValueError(f"OneCycleLR: argument 'phase_pct' must be in [0, 1], got {phase_pct}")
    _check_type(divide_factor, "divide_factor", "OneCycleLR")
    if three_phase and phase_pct >= 0.5:
        raise ValueError("OneCycleLR: phase_pct must be < 0.5 when three_phase is True")


def _one_cycle_phases(initial, peak, final, up_steps, total_steps, three_phase):
    """(first step, last step, start lr, end lr) per phase; steps are Paddle's (fractional)
    boundaries, each phase ending one step before the next count."""
    if three_phase:
        bounds = [0, up_steps - 1, 2 * up_steps - 2, total_steps - 1]
        rates = [initial, peak, initial, final]
    else:
        bounds = [0, up_steps - 1, total_steps - 1]
        rates = [initial, peak, final]
    return [(bounds[i], bounds[i + 1], rates[i], rates[i + 1]) for i in range(len(bounds) - 1)]


class CyclicLR(LRScheduler):
    """Cycles between base_learning_rate and max_learning_rate: up over step_size_up steps,
    down over step_size_down; the amplitude is scaled by mode ("triangular": 1,
    "triangular2": halved each cycle, "exp_range": exp_gamma^iterations) or by scale_fn
    of the cycle number or the iteration count (scale_mode)."""

    _MODES = {"triangular": "cycle", "triangular2": "cycle", "exp_range": "iterations"}

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None,
                 mode="triangular", exp_gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1, verbose=False):
        _check_cyclic(max_learning_rate, step_size_up, step_size_down, exp_gamma)
        if scale_fn is None and mode not in self._MODES:
            raise ValueError(f"CyclicLR: mode must be one of {sorted(self._MODES)} when "
                             f"scale_fn is not given, got {mode!r}")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"CyclicLR: scale_mode must be 'cycle' or 'iterations', got "
                             f"{scale_mode!r}")
        up = float(step_size_up)
        down = up if step_size_down is None else float(step_size_down)
        self.cycle_size, self.step_up_pct = up + down, up / (up + down)
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        self.mode, self.gamma = mode, exp_gamma
        self.scale_fn = scale_fn if scale_fn is not None else getattr(self, "_" + mode)
        self.scale_mode = scale_mode if scale_fn is not None else self._MODES[mode]
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _triangular(self, cycle):
        return 1.0

    def _triangular2(self, cycle):
        return 1 / (2.0 ** (cycle - 1))

    def _exp_range(self, iterations):
        return self.gamma ** iterations

    def get_lr(self):
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        position = 1.0 + iterations / self.cycle_size - cycle
        if position <= self.step_up_pct:
            height = position / self.step_up_pct
        else:
            height = (1 - position) / (1 - self.step_up_pct)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else iterations)
        return self.base_lr + self.amplitude * height * scale


def _check_cyclic(max_learning_rate, step_size_up, step_size_down, exp_gamma):
    """Paddle's argument checks for CyclicLR."""
    _check_type(max_learning_rate, "max_learning_rate", "CyclicLR")
    if max_learning_rate < 0:
        raise ValueError(f"CyclicLR: argument 'max_learning_rate' must be >= 0, got "
                         f"{max_learning_rate}")
    for name, size in (("step_size_up", step_size_up), ("step_size_down", step_size_down)):
        if size is not None:
            _check_type(size, name, "CyclicLR", int, "an int")
            if size <= 0:
                raise ValueError(f"CyclicLR: argument '{name}' must be > 0, got {size}")
    if not isinstance(exp_gamma, float):
        raise TypeError(f"CyclicLR: exp_gamma must be a float, got {type(exp_gamma).__name__}")


class LinearLR(LRScheduler):
    """lr · start_factor rising (or falling) linearly to lr · end_factor over total_steps,
    then constant. Advanced by Paddle's recurrence over the previous learning rate."""

    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0,
                 last_epoch=-1, verbose=False):
        if not 0 < start_factor <= 1.0:
            raise ValueError(f"LinearLR: start_factor must be in (0, 1], got {start_factor}")
        if not 0 <= end_factor <= 1.0:
            raise ValueError(f"LinearLR: end_factor must be in [0, 1], got {end_factor}")
        if total_steps <= 0:
            raise ValueError(f"LinearLR: total_steps must be > 0, got {total_steps}")
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch = self.last_epoch
        if epoch == 0:
            return self.base_lr * self.start_factor
        if epoch > self.total_steps:
            return self.last_lr
        rise = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + rise / (self.total_steps * self.start_factor
                                             + (epoch - 1) * rise))

    def _closed_form_lr(self):
        fraction = min(self.last_epoch, self.total_steps) / self.total_steps
        factor = self.start_factor + (self.end_factor - self.start_factor) * fraction
        return self.base_lr * factor


class CosineAnnealingWarmRestarts(LRScheduler):
    """SGDR: eta_min + (lr − eta_min)·(1 + cos(π·T_cur/T_i))/2, where T_cur counts epochs
    since the last restart and the period T_i starts at T_0 and grows by T_mult at each
    restart. The state dict also keeps T_cur and T_i, so a restored scheduler resumes
    exactly."""

    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1,  # noqa: N803
                 verbose=False):
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_0 must be a positive int, "
                             f"got {T_0!r}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_mult must be an int >= 1, "
                             f"got {T_mult!r}")
        self.T_0 = self.T_i = T_0
        self.T_mult, self.eta_min = T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def state_keys(self):
        self.keys = ["last_epoch", "last_lr", "T_cur", "T_i"]

    def set_state_dict(self, state_dict):
        """Restore the counters; a state saved without T_cur / T_i (as Paddle saves it)
        has them recomputed from last_epoch."""
        if "T_cur" not in state_dict or "T_i" not in state_dict:
            self._jump(max(state_dict.get("last_epoch", 0), 0))
            state_dict = {"T_cur": self.T_cur, "T_i": self.T_i, **state_dict}
        super().set_state_dict(state_dict)

    set_dict = set_state_dict

    def get_lr(self):
        cos = math.cos(math.pi * self.T_cur / self.T_i)
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + cos) / 2

    def step(self, epoch=None):
        """Advance one epoch (restarting when the period ends) or jump to `epoch`."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            self._jump(epoch)
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        self._report()

    def _jump(self, epoch):
        """Set T_cur and T_i for an arbitrary (possibly fractional) epoch."""
        if epoch < 0:
            raise ValueError(f"CosineAnnealingWarmRestarts: epoch must be >= 0, got {epoch}")
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            restarts = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** restarts - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** restarts


# the function-style decays build the classes above, so they are imported last
from .lr_functions import *  # noqa: E402,F401,F403
from .lr_functions import __all__ as _function_names  # noqa: E402

__all__ += _function_names

"""Callbacks of `Model.fit/evaluate/predict` (Paddle's `paddle.callbacks`)."""
import numbers
import os
import time
import warnings

import numpy as np

__all__ = ["Callback", "CallbackList", "ProgBarLogger", "ModelCheckpoint", "EarlyStopping",
           "LRScheduler", "ReduceLROnPlateau"]


class Callback:
    """Base class: override the `on_*` hooks you need; `self.model` and `self.params` are set."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def _noop(self, *args, **kwargs):
        """Default hook: nothing."""

    on_train_begin = on_train_end = on_eval_begin = on_eval_end = _noop
    on_predict_begin = on_predict_end = on_epoch_begin = on_epoch_end = _noop
    on_train_batch_begin = on_train_batch_end = on_eval_batch_begin = _noop
    on_eval_batch_end = on_predict_batch_begin = on_predict_batch_end = _noop


class CallbackList:
    """Calls a hook on every callback in order."""

    def __init__(self, callbacks, model, params):
        self.callbacks = list(callbacks)
        for cb in self.callbacks:
            cb.set_model(model)
            cb.set_params(params)

    def call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(*args)


def _fmt(value):
    """A metric value for display."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    if isinstance(value, numbers.Number):
        return f"{value:.4f}"
    return str(value)


class ProgBarLogger(Callback):
    """A tqdm progress bar per epoch showing loss, metrics and samples per second."""

    def __init__(self, log_freq=1, verbose=2):
        super().__init__()
        self.log_freq = max(1, int(log_freq))
        self.verbose = verbose
        self._bar = None

    def _open(self, total, desc):
        if not self.verbose:
            return
        from tqdm.auto import tqdm
        self._bar = tqdm(total=total, desc=desc, leave=self.verbose >= 2, dynamic_ncols=True)
        self._start = time.perf_counter()
        self._samples = 0

    def _advance(self, step, logs):
        if self._bar is None:
            return
        self._samples += int(logs.get("batch_size", 0))
        if (step + 1) % self.log_freq == 0:
            elapsed = max(time.perf_counter() - self._start, 1e-9)
            shown = {k: _fmt(v) for k, v in logs.items() if k not in ("batch_size", "step")}
            shown["samples/s"] = f"{self._samples / elapsed:.1f}"
            self._bar.set_postfix(shown, refresh=False)
        self._bar.update(1)

    def _close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def on_epoch_begin(self, epoch, logs=None):
        self._open(self.params.get("steps"), f"Epoch {epoch + 1}/{self.params.get('epochs')}")

    def on_train_batch_end(self, step, logs=None):
        self._advance(step, logs or {})

    def on_epoch_end(self, epoch, logs=None):
        self._close()

    def on_eval_begin(self, logs=None):
        self._open((logs or {}).get("steps"), "Eval")

    def on_eval_batch_end(self, step, logs=None):
        self._advance(step, logs or {})

    def on_eval_end(self, logs=None):
        self._close()

    def on_predict_begin(self, logs=None):
        self._open((logs or {}).get("steps"), "Predict")

    def on_predict_batch_end(self, step, logs=None):
        self._advance(step, logs or {})

    def on_predict_end(self, logs=None):
        self._close()


class ModelCheckpoint(Callback):
    """Save the model every `save_freq` epochs under `save_dir/<epoch>` and at the end."""

    def __init__(self, save_freq=1, save_dir=None):
        super().__init__()
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_end(self, epoch, logs=None):
        if self.save_dir and (epoch + 1) % self.save_freq == 0:
            self.model.save(os.path.join(self.save_dir, str(epoch)))

    def on_train_end(self, logs=None):
        if self.save_dir:
            self.model.save(os.path.join(self.save_dir, "final"))


def _comparator(monitor, mode, min_delta, who):
    """(better(a, b), maximise) for a monitored quantity: "max" mode, or "auto" with "acc"
    in the name, wants larger values; an unknown mode warns and falls back to "auto"."""
    if mode not in ("auto", "min", "max"):
        warnings.warn(f"{who} mode {mode!r} is unknown; using 'auto'")
        mode = "auto"
    maximise = mode == "max" or (mode == "auto" and "acc" in monitor)
    if maximise:
        return (lambda a, b: a > b + min_delta), True
    return (lambda a, b: a < b - min_delta), False


def _monitored(logs, monitor, who):
    """The monitored value of eval logs as a float (the first of a list), or None (with a
    warning) when the logs lack it."""
    logs = logs or {}
    if monitor not in logs:
        warnings.warn(f"{who}: monitor {monitor!r} not in eval results {sorted(logs)}")
        return None
    value = logs[monitor]
    return float(value[0] if isinstance(value, (list, tuple)) else value)


class EarlyStopping(Callback):
    """Stop training when the monitored eval quantity stops improving."""

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0,
                 baseline=None, save_best_model=True):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.min_delta = abs(min_delta)
        self.baseline = baseline
        self.save_best_model = save_best_model
        self._better, _ = _comparator(monitor, mode, self.min_delta, "EarlyStopping")
        self.best = None
        self.wait = 0
        self.stopped_epoch = 0

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.best = self.baseline

    def on_eval_end(self, logs=None):
        value = _monitored(logs, self.monitor, "EarlyStopping")
        if value is None:
            return
        if self.best is None or self._better(value, self.best):
            self.best = value
            self.wait = 0
            save_dir = self.params.get("save_dir")
            if self.save_best_model and save_dir:
                self.model.save(os.path.join(save_dir, "best_model"))
            return
        self.wait += 1
        if self.wait > self.patience:
            self.model.stop_training = True
            if self.verbose:
                print(f"Early stopping: {self.monitor} did not improve for "
                      f"{self.wait} evaluations (best {self.best:.5f})")


class LRScheduler(Callback):
    """Step the optimizer's learning-rate scheduler every batch or every epoch."""

    def __init__(self, by_step=True, by_epoch=False):
        super().__init__()
        if by_step == by_epoch:
            raise ValueError("LRScheduler callback: exactly one of by_step and by_epoch")
        self.by_step = by_step

    def _step(self):
        from ..optimizer.lr import LRScheduler as Scheduler
        opt = self.model._optimizer
        lr = getattr(opt, "_learning_rate", None)
        if isinstance(lr, Scheduler):
            lr.step()

    def on_train_batch_end(self, step, logs=None):
        if self.by_step:
            self._step()

    def on_epoch_end(self, epoch, logs=None):
        if not self.by_step:
            self._step()


class ReduceLROnPlateau(Callback):
    """Multiply the optimizer's (float) learning rate by `factor` when the monitored eval
    quantity has not improved by `min_delta` for `patience` evaluations; then wait
    `cooldown` evaluations before counting again, and never go below `min_lr`."""

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau: argument 'factor' must be < 1.0, got {factor}")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.min_delta, self.cooldown, self.min_lr = min_delta, cooldown, min_lr
        self._better, maximise = _comparator(monitor, mode, min_delta, "ReduceLROnPlateau")
        self._start = -np.inf if maximise else np.inf
        self.epoch = 0
        self._reset()

    def _reset(self):
        """Forget the best value, the wait and the cooldown."""
        self.best, self.wait, self.cooldown_counter = self._start, 0, 0

    def on_train_begin(self, logs=None):
        self._reset()

    def on_eval_end(self, logs=None):
        value = _monitored(logs, self.monitor, "ReduceLROnPlateau")
        optimizer = getattr(self.model, "_optimizer", None)
        if value is None or optimizer is None:
            return
        if not isinstance(optimizer._learning_rate, numbers.Number):
            warnings.warn("ReduceLROnPlateau: the learning rate must be a float, got "
                          f"{type(optimizer._learning_rate).__name__}")
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._better(value, self.best):
            self.best, self.wait = value, 0
        elif self.cooldown_counter == 0:
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(optimizer)
        self.epoch += 1

    def _reduce(self, optimizer):
        """Lower the learning rate (not below min_lr) and start the cooldown."""
        old = optimizer.get_lr()
        if old > np.float32(self.min_lr):
            new = max(old * self.factor, self.min_lr)
            optimizer.set_lr(new)
            if self.verbose > 0:
                print(f"Epoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                      f"{new}.")
            self.cooldown_counter, self.wait = self.cooldown, 0

"""`sampan.Model`: fit / evaluate / predict around a Layer, with callbacks and metrics, as
Paddle's high-level API runs them in dygraph mode.

Each batch is flattened to a list of fields; the first `len(inputs)` feed the network (the
number of `forward`'s positional arguments when no `inputs` specs are given) and the rest are
labels. Logs carry the current batch's losses ('loss', a list) and the metrics accumulated so
far; `evaluate` returns those of the last batch, keyed by 'loss' and the metric names.
"""
import inspect
import os
import warnings

import numpy as np

from ..core.process_env import launched_world_size
from ..eager.grad_mode import no_grad
from ..eager.tensor import Tensor
from ..io import DataLoader, Dataset, DistributedBatchSampler, IterableDataset
from ..metric import Metric
from ..save_load import load, save
from ..tensor.creation import to_tensor
from .callbacks import config_callbacks

__all__ = ["Model"]

_AMP_LEVELS = ("O0", "O1", "O2")
_AMP_OPTIONS = {"init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling", "use_fp16_guard",
                "custom_white_list", "custom_black_list", "custom_black_varnames"}


def _as_list(value):
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _as_tensor(value):
    return value if isinstance(value, Tensor) else to_tensor(value)


def _numpy(value):
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def _flatten(data):
    """The leaves of nested lists / tuples / dicts (dict values by sorted key), in order."""
    if isinstance(data, dict):
        return [leaf for key in sorted(data) for leaf in _flatten(data[key])]
    if isinstance(data, (list, tuple)):
        return [leaf for item in data for leaf in _flatten(item)]
    return [data]


def _forward_arity(network):
    """How many positional arguments `network.forward` takes (None with *args)."""
    try:
        params = inspect.signature(network.forward).parameters.values()
    except (TypeError, ValueError):
        return None
    kinds = [p.kind for p in params]
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for kind in kinds if kind in positional)


def _input_specs(inputs, network):
    """`inputs` as a list (a dict is ordered by forward's argument names)."""
    if isinstance(inputs, dict):
        names = list(inspect.signature(network.forward).parameters)
        return [inputs[name] for name in names if name in inputs]
    return _as_list(inputs)


def _spec_seen(tensor):
    """The InputSpec of a batch field seen in fit/evaluate/predict: its shape with any batch
    size (the fit's batch size says nothing about the exported model's), and its dtype."""
    from ..static.input_spec import InputSpec
    shape = list(tensor.shape)
    return InputSpec([None] + shape[1:] if shape else shape, tensor.dtype)


def _check_amp_configs(amp_configs):
    """Paddle's validation of prepare's amp_configs (the level and option names)."""
    if not amp_configs:
        return
    if isinstance(amp_configs, str):
        if amp_configs not in _AMP_LEVELS:
            raise ValueError(f"amp_configs must be 'O0', 'O1' or 'O2', got {amp_configs!r}")
        return
    if amp_configs.get("level", "O1") not in _AMP_LEVELS:
        raise ValueError(f"amp_configs['level'] must be 'O0', 'O1' or 'O2', got "
                         f"{amp_configs['level']!r}")
    if "use_pure_fp16" in amp_configs:
        raise ValueError("amp_configs: 'use_pure_fp16' is not an option; the level ('O1' or "
                         "'O2') chooses mixed or pure float16")
    unknown = set(amp_configs) - _AMP_OPTIONS - {"level"}
    if unknown:
        raise ValueError(f"amp_configs: unknown keys {sorted(unknown)}")


def _batch_size(field):
    """The leading dimension of a batch's first field (1 for a scalar)."""
    shape = field.shape if hasattr(field, "shape") else np.shape(field)
    return int(shape[0]) if len(shape) else 1


def _loader_length(loader):
    """len(loader), or None when it has none."""
    try:
        return len(loader)
    except TypeError:
        return None


class Model:
    """A network plus its optimizer, loss and metrics, trained with `fit`.

    `inputs` / `labels` are InputSpecs (or lists of them); they say how many leading fields
    of each batch feed the network and how many are labels. AMP configurations are checked
    and kept; training runs in the parameters' own precision.
    """

    def __init__(self, network, inputs=None, labels=None):
        self.mode = "train"
        self.network = network
        self._inputs = _input_specs(inputs, network)
        self._seen_inputs = []  # specs of the first batch run, for save(training=False)
        self._labels = _as_list(labels)
        self._optimizer = None
        self._loss = None
        self._metrics = []
        self._amp_configs = None
        self._trainer = network
        self.stop_training = False
        self._static = None

    def _static_adapter(self):
        """The StaticAdapter running the batches after `paddle.enable_static()`, else None."""
        from ..framework_mode import in_dynamic_mode
        if in_dynamic_mode():
            return None
        if self._static is None:
            from .static_adapter import StaticAdapter
            self._static = StaticAdapter(self)
        return self._static

    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        """Set the optimizer, the loss (a Layer or function of outputs and labels), metrics."""
        if loss is not None and not callable(loss):
            raise TypeError(f"argument 'loss' must be a paddle.nn.Layer or a callable, got "
                            f"{type(loss).__name__}")
        metrics = _as_list(metrics)
        for metric in metrics:
            if not isinstance(metric, Metric):
                raise TypeError(f"argument 'metrics' must hold paddle.metric.Metric instances, "
                                f"got {type(metric).__name__}")
        _check_amp_configs(amp_configs)
        self._optimizer, self._loss, self._metrics = optimizer, loss, metrics
        self._amp_configs = amp_configs
        if launched_world_size() > 1 and self._trainer is self.network:
            # Launched as several ranks: train through DataParallel, as Paddle's Model does.
            from ..distributed import DataParallel, init_parallel_env
            init_parallel_env()
            self._trainer = DataParallel(self.network)

    def parameters(self, *args, **kwargs):
        return self.network.parameters(*args, **kwargs)

    # -- one batch --------------------------------------------------------------------
    def _num_inputs(self, fields):
        """How many leading fields of a flattened batch feed the network."""
        if self._inputs:
            return len(self._inputs)
        arity = _forward_arity(self.network)
        if arity is not None:
            return arity
        return len(fields) - len(self._labels) if self._labels else max(1, len(fields) - 1)

    def _outputs(self, inputs, network=None):
        """The network's outputs on `inputs` (arrays or tensors), as a list."""
        network = self.network if network is None else network
        tensors = [_as_tensor(x) for x in _as_list(inputs)]
        if not self._inputs and not self._seen_inputs:
            self._seen_inputs = [_spec_seen(t) for t in tensors]
        return _as_list(network(*tensors))

    def _losses(self, outputs, labels):
        return _as_list(self._loss(*outputs, *labels))

    def _update_metrics(self, outputs, labels):
        """Each metric's `update` of its `compute` on this batch."""
        return [m.update(*[_numpy(x) for x in _as_list(m.compute(*outputs, *labels))])
                for m in self._metrics]

    def train_batch(self, inputs, labels=None, update=True):
        """One optimisation step; returns [losses] (+ [metrics] when metrics are set)."""
        if self._optimizer is None or self._loss is None:
            raise RuntimeError("Model.train_batch: call prepare(optimizer, loss) first")
        self.mode = "train"
        if self._static_adapter():
            return self._static.train_batch(inputs, labels)
        self.network.train()
        outputs = self._outputs(inputs, self._trainer)
        labels = [_as_tensor(x) for x in _as_list(labels)]
        losses = self._losses(outputs, labels)
        total = losses[0]
        for extra in losses[1:]:
            total = total + extra
        total.backward()
        if update:
            self._optimizer.minimize(total)
            self.network.clear_gradients()
        metrics = self._update_metrics(outputs, labels)
        losses = [_numpy(v) for v in losses]
        return (losses, metrics) if metrics else losses

    @no_grad()
    def eval_batch(self, inputs, labels=None):
        """Losses and/or metrics of one batch in eval mode: (losses, metrics), losses alone
        without metrics, metrics alone without a loss."""
        self.mode = "eval"
        if self._static_adapter():
            return self._static.eval_batch(inputs, labels)
        self.network.eval()
        outputs = self._outputs(inputs)
        labels = [_as_tensor(x) for x in _as_list(labels)]
        losses = [_numpy(v) for v in self._losses(outputs, labels)] if self._loss else None
        metrics = self._update_metrics(outputs, labels)
        if self._loss and metrics:
            return losses, metrics
        return losses if self._loss else metrics

    @no_grad()
    def predict_batch(self, inputs):
        """The network's outputs for one batch, as NumPy arrays."""
        self.mode = "test"
        if self._static_adapter():
            return self._static.predict_batch(inputs)
        self.network.eval()
        return [_numpy(o) for o in self._outputs(inputs)]

    # -- loops ------------------------------------------------------------------------
    def _metrics_name(self):
        """'loss' (when there is a loss) and every metric's names."""
        names = ["loss"] if self._loss else []
        for metric in self._metrics:
            names.extend(_as_list(metric.name()))
        return names

    def _loader(self, data, batch_size, shuffle=False, drop_last=False, num_workers=0):
        """A DataLoader over a Dataset (batched by a DistributedBatchSampler as in Paddle; an
        IterableDataset by batch_size); any other iterable is used as it is."""
        if isinstance(data, IterableDataset):
            return DataLoader(data, batch_size=batch_size, drop_last=drop_last,
                              num_workers=num_workers)
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle,
                                              drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers)
        return data

    def _batch_logs(self, result):
        """{name: value} of one train/eval batch's result: the losses as floats, then each
        metric's accumulated value."""
        if self._metrics and self._loss:
            values = [[float(np.mean(v)) for v in result[0]]]
        elif self._loss:
            values = [[float(np.mean(v)) for v in result]]
        else:
            values = []
        for metric in self._metrics:
            values.extend(_as_list(metric.accumulate()))
        return dict(zip(self._metrics_name(), values))

    def _run_one_epoch(self, loader, cbks, mode, num_iters=None):
        """One pass of `mode` ('train', 'eval' or 'predict') over `loader`: the last logs
        (and, for predict, every batch's outputs); metrics are reset at the end."""
        logs, outputs, steps = {}, [], _loader_length(loader)
        for step, batch in enumerate(loader):
            fields = _flatten(batch)
            count = self._num_inputs(fields)
            cbks.on_batch_begin(mode, step, logs)
            if mode == "predict":
                outputs.append(self.predict_batch(fields[:count]))
            else:
                args = [fields[:count], fields[count:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == steps)
                logs.update(self._batch_logs(getattr(self, mode + "_batch")(*args)))
            logs["step"] = step
            logs["batch_size"] = _batch_size(fields[0])
            cbks.on_batch_end(mode, step, logs)
            if num_iters is not None and step + 1 >= num_iters:
                self.stop_training = True
                break
        for metric in self._metrics:
            metric.reset()
        return (logs, outputs) if mode == "predict" else logs

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1,
            log_freq=10, save_dir=None, save_freq=1, verbose=2, drop_last=False, shuffle=True,
            num_workers=0, callbacks=None, accumulate_grad_batches=1, num_iters=None):
        """Train for `epochs` epochs, evaluating after epochs 0, eval_freq, 2·eval_freq, ...
        `batch_size` may be [train, eval]; `num_iters` caps the training steps."""
        if train_data is None:
            raise ValueError("Model.fit: argument 'train_data' must be given")
        train_size, eval_size = _batch_sizes(batch_size)
        loader = self._loader(train_data, train_size, shuffle, drop_last, num_workers)
        eval_loader = None if eval_data is None else self._loader(eval_data, eval_size,
                                                                  num_workers=num_workers)
        self._accumulate = accumulate_grad_batches
        steps = _loader_length(loader)
        if num_iters is not None:
            if num_iters <= 0:
                raise ValueError(f"Model.fit: argument 'num_iters' must be > 0, got {num_iters}")
            if steps is not None:
                epochs, steps = num_iters // steps + 1, min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps,
                                log_freq=log_freq, save_freq=save_freq, save_dir=save_dir,
                                verbose=verbose, metrics=self._metrics_name())
        self._warn_early_stopping_without_eval(cbks, eval_loader)
        self.stop_training, logs, done = False, {}, 0
        cbks.on_begin("train")
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            remaining = None if num_iters is None else num_iters - done
            logs = self._run_one_epoch(loader, cbks, "train", remaining)
            done += logs.get("step", -1) + 1
            cbks.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                self._evaluate_with(eval_loader, cbks)
            if self.stop_training:
                break
        cbks.on_end("train", logs)

    @staticmethod
    def _warn_early_stopping_without_eval(cbks, eval_loader):
        from .callbacks import EarlyStopping
        if eval_loader is None and any(isinstance(c, EarlyStopping) for c in cbks):
            warnings.warn("EarlyStopping needs validation data (fit's eval_data)")

    def _evaluate_with(self, loader, cbks, num_iters=None):
        """Run the eval loop with its begin/end hooks; returns the last batch's logs."""
        steps = _loader_length(loader)
        if num_iters is not None and steps is not None:
            steps = min(num_iters, steps)
        cbks.on_begin("eval", {"steps": steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval", num_iters)
        cbks.on_end("eval", logs)
        return logs

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0,
                 callbacks=None, num_iters=None):
        """{'loss': [...], metric name: value} of the last batch (metrics accumulated over
        every batch), over `eval_data` or its first `num_iters` batches."""
        loader = self._loader(eval_data, batch_size, num_workers=num_workers)
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        if num_iters is not None and num_iters <= 0:
            raise ValueError(f"Model.evaluate: argument 'num_iters' must be > 0, got "
                             f"{num_iters}")
        logs = self._evaluate_with(loader, cbks, num_iters)
        self.stop_training = False
        return {name: logs[name] for name in self._metrics_name() if name in logs}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1,
                callbacks=None):
        """One entry per network output: the per-batch arrays (a tuple), or with
        `stack_outputs` those arrays stacked along the first axis (np.vstack)."""
        loader = self._loader(test_data, batch_size, num_workers=num_workers)
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": _loader_length(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(batches) for batches in outputs]
        cbks.on_end("predict", logs)
        return outputs

    # -- persistence ------------------------------------------------------------------
    def save(self, path, training=True):
        """`path.pdparams` (+ `path.pdopt` when the optimizer has state); `training=False`
        exports for inference, with the Model's `inputs`, else the input shapes and dtypes
        of the first batch it ran (batch size free)."""
        if not training:
            from ..jit import save as jit_save
            jit_save(self.network, path, input_spec=self._inputs or self._seen_inputs or None)
            return
        save(self.network.state_dict(), path + ".pdparams")
        optimizer_state = self._optimizer.state_dict() if self._optimizer is not None else {}
        if optimizer_state:
            save(optimizer_state, path + ".pdopt")

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        """Restore what `save` wrote: every parameter must be found with its shape (else a
        ValueError, or a warning and a skip with skip_mismatch, which also resets the
        optimizer); then the optimizer state unless reset_optimizer."""
        path = _strip_suffix(path)
        if not os.path.exists(path + ".pdparams"):
            raise ValueError(f"Model.load: no parameters file {path + '.pdparams'!r}")
        saved = load(path + ".pdparams")
        matched = {}
        for key, param in self.network.state_dict().items():
            problem = _mismatch(key, param, saved)
            if problem is None:
                matched[key] = saved[key]
            elif skip_mismatch:
                warnings.warn(f"Skip loading for {key}. {problem}")
                reset_optimizer = True
            else:
                raise ValueError(problem)
        self.network.set_state_dict(matched)
        if self._optimizer is not None and not reset_optimizer and os.path.exists(
                path + ".pdopt"):
            self._optimizer.set_state_dict(load(path + ".pdopt"))

    def summary(self, input_size=None, dtype=None):
        """Per-layer table of output shapes and parameter counts."""
        from .summary import summary
        if input_size is None and not self._inputs:
            raise ValueError("Model.summary: give input_size (or inputs when creating the Model)")
        return summary(self.network, self._inputs if input_size is None else input_size,
                       dtypes=dtype)


def _batch_sizes(batch_size):
    """(train, eval) batch sizes from an int or a [train, eval] pair."""
    if isinstance(batch_size, (list, tuple)):
        if len(batch_size) != 2:
            raise ValueError(f"Model.fit: argument 'batch_size' as a list must be [train, "
                             f"eval], got {batch_size}")
        return tuple(batch_size)
    return batch_size, batch_size


def _strip_suffix(path):
    """`path` without a .pdparams / .pdopt / .pdmodel suffix."""
    base, suffix = os.path.splitext(path)
    if suffix in ("", ".pdparams", ".pdopt", ".pdmodel"):
        return base
    raise ValueError(f"Model.load: unknown suffix {suffix!r} in {path!r}")


def _mismatch(key, param, saved):
    """Why `saved` cannot restore parameter `key` (None when it can)."""
    if key not in saved:
        return f"{key} is not found in the providing file."
    shape = list(np.shape(saved[key].numpy() if hasattr(saved[key], "numpy") else saved[key]))
    if shape != list(param.shape):
        return f"{key} receives a shape {shape}, but the expected shape is {list(param.shape)}."
    return None

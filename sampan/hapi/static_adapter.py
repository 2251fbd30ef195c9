"""`Model`'s batches in static mode (after `paddle.enable_static()`): the network, loss,
metrics and optimizer are built once into Programs (one per mode: train, eval, test) and
each batch is one Executor run; `fit` / `evaluate` / `predict`, their progress bar and
metrics are the same code as in dynamic mode.

The network must have been created in static mode (its parameters are Variables of the
default main program, initialised by the default startup program), and `Model` needs
`inputs` (and, to train or evaluate, `labels`) as InputSpecs, as in Paddle.
"""
import numpy as np

from .. import static
from ..static.program_state import default_main_program, default_startup_program


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _data(specs, prefix):
    """static.data Variables for InputSpecs (a None batch dim becomes -1)."""
    return [static.data(spec.name or f"{prefix}{k}", [-1 if d is None else d
                                                     for d in spec.shape], spec.dtype)
            for k, spec in enumerate(specs)]


class _Built:
    """One mode's Program: its feed names and the Variables to fetch."""

    def __init__(self, program, feeds, outputs, losses, metric_outputs):
        self.program, self.feeds = program, feeds
        self.outputs, self.losses, self.metric_outputs = outputs, losses, metric_outputs

    def fetch_list(self):
        return [*self.outputs, *self.losses, *(v for vs in self.metric_outputs for v in vs)]


class StaticAdapter:
    """Builds and runs the Programs of one Model in static mode."""

    def __init__(self, model):
        self._model = model
        self._base = default_main_program()
        self._startup = default_startup_program()
        self._built = {}
        self._initialised = False
        self._executor = static.Executor()

    def _check_specs(self, mode):
        model = self._model
        if not model._inputs:
            raise ValueError("Model in static mode needs `inputs` (InputSpecs of the network's "
                             "inputs), as Paddle's does: Model(net, inputs=[InputSpec(...)])")
        if mode != "test" and model._loss is not None and not model._labels:
            raise ValueError("Model in static mode needs `labels` (InputSpecs) to train or "
                             "evaluate: Model(net, inputs=[...], labels=[InputSpec(...)])")

    def _build(self, mode):
        """The Program of `mode`: forward, and for train/eval the loss and metrics, and for
        train the backward and optimizer ops."""
        model = self._model
        self._check_specs(mode)
        program = self._base.clone()
        with static.program_guard(program, self._startup):
            inputs = _data(model._inputs, "input_")
            labels = _data(model._labels, "label_") if mode != "test" else []
            outputs = _as_list(model.network(*inputs))
            losses = _as_list(model._loss(*outputs, *labels)) if (
                mode != "test" and model._loss is not None) else []
            metric_outputs = [_as_list(m.compute(*outputs, *labels))
                              for m in model._metrics] if mode != "test" else []
            if mode == "train":
                total = losses[0]
                for extra in losses[1:]:
                    total = total + extra
                model._optimizer.minimize(total)
        if mode != "train":
            program = program.clone(for_test=True)
        return _Built(program, [v.name for v in inputs + labels], outputs, losses,
                      metric_outputs)

    def _program(self, mode):
        """The built Program of `mode`; the first call builds every mode the model can run
        (the optimizer adds its state to the startup program) and runs the startup program
        once."""
        if not self._initialised:
            modes = ["train", "eval", "test"] if self._model._optimizer is not None else [
                "eval", "test"]
            for name in modes:
                self._built[name] = self._build(name)
            self._executor.run(self._startup)
            self._initialised = True
        if mode not in self._built:
            raise RuntimeError("Model.train_batch: call prepare(optimizer, loss) first")
        return self._built[mode]

    def _run(self, mode, inputs, labels):
        built = self._program(mode)
        arrays = [np.asarray(x.numpy() if hasattr(x, "numpy") else x)
                  for x in [*_as_list(inputs), *_as_list(labels or [])]]
        if len(arrays) != len(built.feeds):
            raise ValueError(f"Model: the {mode} program takes {len(built.feeds)} fields "
                             f"{built.feeds}, the batch has {len(arrays)}")
        values = self._executor.run(built.program, feed=dict(zip(built.feeds, arrays)),
                                    fetch_list=built.fetch_list())
        n_out, n_loss = len(built.outputs), len(built.losses)
        outputs, losses = values[:n_out], values[n_out:n_out + n_loss]
        rest, metrics = values[n_out + n_loss:], []
        for metric, computed in zip(self._model._metrics, built.metric_outputs):
            metrics.append(metric.update(*rest[:len(computed)]))
            rest = rest[len(computed):]
        return outputs, losses, metrics

    def train_batch(self, inputs, labels=None):
        _, losses, metrics = self._run("train", inputs, labels)
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs, labels=None):
        _, losses, metrics = self._run("eval", inputs, labels)
        if self._model._loss and metrics:
            return losses, metrics
        return losses if self._model._loss else metrics

    def predict_batch(self, inputs):
        outputs, _, _ = self._run("test", inputs, None)
        return outputs

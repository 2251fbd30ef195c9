"""paddle.jit.TracedLayer: a Layer's forward recorded into a static Program by running it once
(the tracing strategy; docs/to_static.md, "Tracing", contrasts it with to_static)."""
import os

import numpy as np

from ..core.dispatch import current_mode, mode_guard
from ..eager.tensor import Tensor
from ..executor import BuildStrategy, CompiledProgram, ExecutionStrategy, Executor, Scope
from ..inference.export import export_method, save_model
from ..nn.layer.layers import Layer
from ..static.control_flow.nest import flatten
from .program_translator import to_static_disabled
from .tracing import Recorder, TracingMode, watching_values

__all__ = ["TracedLayer"]

_IGNORED_SAVE_CONFIGS = {"clip_extra", "legacy_format"}


class TracedLayer:
    """A Layer's forward as a static Program recorded by running the layer once.

    Create one with `TracedLayer.trace(layer, inputs)`. Calling it runs the Program through
    the Executor and returns a list of ndarrays, one per output Tensor (nested outputs are
    flattened). The Program reads the layer's parameters and buffers as they are at each
    call: it shares them with the dygraph layer. Python control flow (an `if` on a shape or
    on a tensor's value, loop counts) is frozen to the path the trace took; use
    `paddle.jit.to_static` to keep data-dependent control flow.

    Inputs sharing their first dimension get feeds whose batch dimension is -1 when a probe
    run at the traced batch size + 1 gives outputs grown the same way; otherwise the Program
    only accepts the traced shapes.
    """

    def __init__(self, program, parameters, feed_names, fetch_names):
        self._program = program
        self._params = (dict(parameters) if isinstance(parameters, dict)
                        else {p.name: p for p in parameters})
        self._feed_names = list(feed_names)
        self._fetch_names = list(fetch_names)
        self._compiled = CompiledProgram(program)
        self._exe = Executor()
        self._scope = Scope()
        self._fixed_batch = None  # (traced batch size, why other sizes are refused)

    @staticmethod
    def trace(layer, inputs):
        """Run `layer(*inputs)` eagerly while recording every op into a static Program.

        Args:
            layer (paddle.nn.Layer): the layer to trace, in its current train/eval mode.
            inputs (Tensor|list[Tensor]|tuple[Tensor]): example inputs.

        Returns:
            tuple: (the eager outputs of `layer(*inputs)`, the TracedLayer).

        Example::

            out, static_layer = paddle.jit.TracedLayer.trace(layer, inputs=[x])
            (y,) = static_layer([x2])                  # a list of ndarrays
            static_layer.save_inference_model("model/infer")
        """
        inputs = _trace_inputs(layer, inputs)
        batch = _common_batch(inputs)
        recorder = Recorder()
        feeds = [recorder.feed(t, f"input_{k}", t.shape if batch is None else [-1] + t.shape[1:])
                 for k, t in enumerate(inputs)]
        with mode_guard(TracingMode(recorder)), watching_values(), to_static_disabled():
            outputs = layer(*inputs)
        recorder.finish()
        results = _output_tensors(outputs)
        fetch = [recorder.var_of(t).name for t in results]
        traced = TracedLayer(recorder.program, dict(recorder.state),
                             [v.name for v in feeds], fetch)
        if batch is not None:
            traced._settle_batch(inputs, results, batch)
        return outputs, traced

    @property
    def program(self):
        """The recorded static Program."""
        return self._program

    def set_strategy(self, build_strategy=None, exec_strategy=None):
        """Compile passes (BuildStrategy) and threads (ExecutionStrategy) of later runs."""
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"set_strategy: build_strategy must be a BuildStrategy, got "
                            f"{type(build_strategy).__name__}")
        if exec_strategy is not None and not isinstance(exec_strategy, ExecutionStrategy):
            raise TypeError(f"set_strategy: exec_strategy must be an ExecutionStrategy, got "
                            f"{type(exec_strategy).__name__}")
        self._compiled = CompiledProgram(self._program, build_strategy, exec_strategy)

    def __call__(self, inputs):
        """Run the Program on `inputs` (Tensors or ndarrays, in trace order); returns a list
        of ndarrays, one per output."""
        return self._run(self._build_feed(inputs))

    def _build_feed(self, inputs):
        if isinstance(inputs, (Tensor, np.ndarray)):
            inputs = [inputs]
        if not isinstance(inputs, (list, tuple)):
            raise TypeError(f"TracedLayer expects a list of inputs, got {type(inputs).__name__}")
        if len(inputs) != len(self._feed_names):
            raise ValueError(f"TracedLayer expects {len(self._feed_names)} input(s) "
                             f"{self._feed_names}, got {len(inputs)}")
        if self._fixed_batch is not None:
            batch, why = self._fixed_batch
            for name, value in zip(self._feed_names, inputs):
                if np.ndim(value) and np.shape(value)[0] != batch:
                    raise ValueError(
                        f"TracedLayer: input {name!r} has batch size {np.shape(value)[0]} but "
                        f"this Program runs only the traced batch size {batch}: sizes read in "
                        f"Python (x.shape) are baked into a traced Program ({why}); trace "
                        f"again with the batch size you need")
        return dict(zip(self._feed_names, inputs))

    def _run(self, feed):
        for name, tensor in self._params.items():
            self._scope._write(name, tensor._data)  # shared with the dygraph layer, no copy
        return self._exe.run(self._compiled, feed=feed, fetch_list=self._fetch_names,
                             scope=self._scope)

    def _settle_batch(self, inputs, results, batch):
        """Keep -1 batch feeds when a probe at batch + 1 agrees, else pin the traced shapes."""
        why = self._probe_batch(inputs, results, batch)
        if why is None:
            return
        block = self._program.global_block()
        for name, tensor in zip(self._feed_names, inputs):
            var = block.var(name)
            var._set_meta(tensor.shape, var.dtype)
        self._fixed_batch = (batch, why)

    def _probe_batch(self, inputs, results, batch):
        """None when the Program, fed one row more, grows each output's batch dimension and
        nothing else; else why not (a size baked in by Python code reading `x.shape`)."""
        grown = [np.concatenate([t._data, t._data[:1]]) for t in inputs]
        try:
            outs = self._run(dict(zip(self._feed_names, grown)))
        except Exception as exc:  # any failure means a size of the trace is baked in
            return (f"a batch of {batch + 1} fails: {type(exc).__name__}: "
                    f"{'; '.join(line.strip() for line in str(exc).splitlines())}")
        for k, (got, want) in enumerate(zip(outs, results)):
            expected = [batch + 1 if d == 0 and n == batch else n
                        for d, n in enumerate(want.shape)]
            if list(got.shape) != expected:
                return (f"for a batch of {batch + 1} output {k} has shape {list(got.shape)}, "
                        f"not {expected}")
        return None

    def save_inference_model(self, path, feed=None, fetch=None, **kwargs):
        """Write `path.pdmodel` + `path.pdiparams`, read by `paddle.static.load_inference_model`
        and `paddle.inference.create_predictor`.

        Args:
            path (str): the file prefix (`dirname/file_prefix` or `file_prefix`).
            feed (list[int], optional): indices of the inputs the model takes (default all).
            fetch (list[int], optional): indices of the outputs it returns (default all).
        """
        unknown = set(kwargs) - _IGNORED_SAVE_CONFIGS
        if unknown:
            raise TypeError(f"save_inference_model got unsupported config(s) {sorted(unknown)}")
        feeds = _pick(self._feed_names, feed, "feed")
        block = self._program.global_block()
        fetches = [block.var(n) for n in _pick(self._fetch_names, fetch, "fetch")]
        exported = export_method("forward", self._program, feeds, fetches)
        save_model(os.fspath(path), [exported],
                   {name: tensor._data for name, tensor in self._params.items()})


def _trace_inputs(layer, inputs):
    """The inputs as a list of Tensors, after checking the layer and the current mode."""
    if not isinstance(layer, Layer):
        raise TypeError(f"TracedLayer.trace: layer must be a paddle.nn.Layer, got "
                        f"{type(layer).__name__}")
    mode = current_mode()
    if mode.is_static:
        raise RuntimeError("TracedLayer.trace runs the layer in dygraph mode; call "
                           "paddle.disable_static() first")
    if isinstance(mode, TracingMode):
        raise RuntimeError("TracedLayer.trace cannot run inside another trace")
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"TracedLayer.trace: inputs must be a Tensor or a list/tuple of "
                        f"Tensors, got {type(inputs).__name__}")
    for k, value in enumerate(inputs):
        if not isinstance(value, Tensor):
            raise TypeError(f"TracedLayer.trace: input {k} must be a Tensor, got "
                            f"{type(value).__name__}")
    return list(inputs)


def _common_batch(inputs):
    """The first dimension all inputs share (a candidate batch size), else None."""
    sizes = {t.shape[0] if t.ndim else None for t in inputs}
    if len(sizes) == 1:
        (size,) = sizes
        if size:
            return size
    return None


def _output_tensors(outputs):
    """The Tensors of the layer's output structure; anything else is an error."""
    found = flatten(outputs)
    for k, value in enumerate(found):
        if not isinstance(value, Tensor):
            raise TypeError(f"TracedLayer.trace: output {k} of the layer is a "
                            f"{type(value).__name__}; a traced layer must return Tensors "
                            f"(or lists/tuples/dicts of them)")
    return found


def _pick(names, indices, what):
    """`names` selected by a list of int indices (None: all)."""
    if indices is None:
        return list(names)
    if not isinstance(indices, (list, tuple)) or not all(isinstance(i, int) for i in indices):
        raise TypeError(f"save_inference_model: {what} must be a list of int indices, got "
                        f"{indices!r}")
    bad = [i for i in indices if not -len(names) <= i < len(names)]
    if bad:
        raise ValueError(f"save_inference_model: {what} indices {bad} out of range for "
                         f"{len(names)} {what} variable(s)")
    return [names[i] for i in indices]

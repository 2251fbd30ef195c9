"""Predictor: runs a saved inference model through one compiled, prebound executor plan.

Parameters are loaded once into a private Scope and placed into a register template at
creation, so `run()` only copies the template, drops the inputs in and runs the
instruction loop.
"""
import numpy as np

from ..executor.plan import compile as compile_plan
from ..executor.run import run_sequential
from ..eager.tensor import Tensor
from ..executor.scope import Scope
from ..static.reinfer import InputShapeGate
from .config import Config
from .model_format import load_model

__all__ = ["Predictor", "InputHandle", "OutputHandle", "create_predictor"]


class InputHandle:
    """One model input: `copy_from_cpu`, `reshape`, `shape`."""

    __slots__ = ("name", "_declared", "_dtype", "_array")

    def __init__(self, name, shape, dtype):
        self.name = name
        self._declared = shape
        self._dtype = np.dtype(dtype)
        self._array = None

    def reshape(self, shape):
        """Declare the next input's shape (its rank is checked; sizes other than the saved
        fixed ones are checked against the model's shape rules at run)."""
        self._check_rank([int(d) for d in shape])

    def _check_rank(self, shape):
        if len(shape) != len(self._declared):
            raise ValueError(f"input {self.name!r}: shape {list(shape)} does not have the "
                             f"rank of the model's {self._declared}")

    def copy_from_cpu(self, data):
        """Set the input from an ndarray of the model's dtype (copied into a reused buffer)."""
        data = np.asarray(data)
        if data.dtype != self._dtype:
            raise TypeError(f"input {self.name!r}: dtype {data.dtype} does not match the "
                            f"model's {self._dtype}")
        if self._array is not None and self._array.shape == data.shape:
            np.copyto(self._array, data)
            return
        self._check_rank(data.shape)
        self._array = np.array(data, copy=True, order="C")

    def shape(self):
        """The current input's shape (the declared one before any copy)."""
        return list(self._declared if self._array is None else self._array.shape)

    def type(self):
        return self._dtype


class OutputHandle:
    """One model output: `copy_to_cpu`, `shape`."""

    __slots__ = ("name", "_array")

    def __init__(self, name):
        self.name = name
        self._array = None

    def copy_to_cpu(self):
        """The output of the last run as a new C-contiguous ndarray."""
        if self._array is None:
            raise RuntimeError(f"output {self.name!r}: call run() first")
        return np.array(self._array, copy=True, order="C")

    def shape(self):
        return [] if self._array is None else list(self._array.shape)

    def type(self):
        return None if self._array is None else self._array.dtype


class Predictor:
    """A loaded inference model bound to one compiled plan."""

    def __init__(self, config):
        methods, params = load_model(config.prog_file(), config.params_file(),
                                     inference=config.ir_optim())
        (self._method,) = methods.values()
        self._scope = Scope()
        for name, array in params.items():
            self._scope.var(name).get_tensor().set(array)
        feeds = [name for name, _, _ in self._method.inputs]
        self._plan = compile_plan(self._method.program, feeds, self._method.outputs,
                                  config.build_strategy())
        self._template = self._bind_template(self._plan)
        self._shape_gate = InputShapeGate(self._method.program,
                                          [(n, s) for n, s, _ in self._method.inputs],
                                          "the inference model")
        self._bind_handles()

    def _bind_handles(self):
        """Fresh input/output handles and their prebound register slots."""
        plan, method = self._plan, self._method
        self._inputs = {n: InputHandle(n, s, d) for n, s, d in method.inputs}
        self._outputs = {n: OutputHandle(n) for n in method.outputs}
        self._feed_slots = [(plan.slots[n], h) for n, h in self._inputs.items()
                            if n in plan.slots]
        fed = {slot for slot, _ in self._feed_slots}
        self._fetch = [(s, self._outputs[n], k in plan.fetch_copies or s in fed)
                       for k, (n, s) in enumerate(zip(method.outputs, plan.fetch_slots))]

    def _bind_template(self, plan):
        """The plan's register template with every parameter already in place."""
        regs = plan.template[:]
        for name, slot, _, _ in plan.externals:
            regs[slot] = np.asarray(self._scope.find_var(name).get_tensor())
        if plan.writeback:
            raise ValueError("the model program writes persistable variables; it is not an "
                             "inference program")
        return regs

    def get_input_names(self):
        return list(self._inputs)

    def get_output_names(self):
        return list(self._outputs)

    def get_input_handle(self, name):
        return self._inputs[name]

    def get_output_handle(self, name):
        return self._outputs[name]

    def run(self, inputs=None):
        """Run once on the inputs set through the handles (or the list `inputs`).

        With `inputs` the outputs are also returned as a list: of Tensors for Tensor inputs
        (as Paddle's `run(inputs)`), else of ndarrays.
        """
        if inputs is not None:
            if len(inputs) != len(self._inputs):
                raise ValueError(f"Predictor.run(): the model takes {len(self._inputs)} "
                                 f"inputs {list(self._inputs)}, got {len(inputs)}")
            for handle, data in zip(self._inputs.values(), inputs):
                handle.copy_from_cpu(data)
        regs = self._template[:]
        for slot, handle in self._feed_slots:
            if handle._array is None:
                raise RuntimeError(f"input {handle.name!r} was not set (copy_from_cpu)")
            regs[slot] = handle._array
        self._shape_gate.check([h._declared if h._array is None else h._array.shape
                                for h in self._inputs.values()])
        run_sequential(self._plan, regs)
        for slot, handle, copy in self._fetch:
            handle._array = regs[slot].copy() if copy else regs[slot]
        if inputs is not None:
            outputs = [handle.copy_to_cpu() for handle in self._outputs.values()]
            return [Tensor(a) for a in outputs] if _any_tensor(inputs) else outputs
        return True

    def try_shrink_memory(self):
        """Accepted for compatibility: intermediate values are freed after each run."""
        return 0

    def clear_intermediate_tensor(self):
        """Accepted for compatibility: no intermediate value outlives a run."""

    def clone(self):
        """A predictor sharing the plan and parameters but with its own input/output handles."""
        clone = object.__new__(Predictor)
        clone.__dict__.update(self.__dict__)
        clone._bind_handles()
        return clone

def _any_tensor(values):
    return any(isinstance(v, Tensor) for v in values)


def create_predictor(config):
    """A Predictor for `config` (a Config, or a model prefix for convenience)."""
    if not isinstance(config, Config):
        config = Config(config)
    return Predictor(config)

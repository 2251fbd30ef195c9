"""TranslatedLayer: a Layer running programs loaded by jit.load, with trainable parameters.

Each saved method runs as one eager `run_program` op (PartialProgram), so gradients reach
the loaded parameters and the layer can be fine-tuned with any optimizer. The saved
programs are inference programs (traced in eval mode); in train mode a copy switched to
training behaviour runs (dropout, batch statistics), as in Paddle. Called while a Program is
built (to_static or jit.save of a layer holding
it), a method's saved ops are appended to that Program.
"""
import operator

import numpy as np

from ..core.unique_name import generate
from ..eager.mode import signature_id
from ..eager.tensor import Parameter, Tensor
from ..inference.model_format import MODEL_SUFFIX as INFER_MODEL_SUFFIX
from ..inference.model_format import PARAMS_SUFFIX as INFER_PARAMS_SUFFIX
from ..nn.layer.layers import Layer
from ..ops._generated import api
from ..static.framework import Parameter as StaticParameter
from ..static.framework import Variable
from ..static.program_state import default_main_program
from ..static.reinfer import InputShapeGate
from .partial_program import PartialProgram, map_tensors

__all__ = ["TranslatedLayer", "INFER_MODEL_SUFFIX", "INFER_PARAMS_SUFFIX"]


def _flat(args):
    """The leaves of positional arguments (lists, tuples and dict values flattened)."""
    out = []
    stack = [args]
    while stack:
        value = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend(reversed(value))
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())))
        else:
            out.append(value)
    return out


_MAX_SIGNATURES = 1024  # input shape combinations remembered per method


# an eager Tensor's cached (shape, dtype) id, None until computed (signature_id): Tensors
# with the signatures of a call that passed every input check pass them again
_SIGNATURE = operator.attrgetter("_sig")


def _renamed(slots, names):
    """An op's {slot: [names]} with each name replaced through `names`."""
    return {slot: [names.get(n, n) for n in args] for slot, args in slots.items()}


def _training_copy(program):
    """`program` with its ops switched to training behaviour (is_test off; batch_norm
    normalising with batch statistics and writing its running ones back in place)."""
    copy = program.clone()
    for op in copy.global_block().ops:
        if "is_test" in op.attrs:
            op.attrs["is_test"] = False
        if op.type == "batch_norm":
            op.attrs["use_global_stats"] = False
            op.outputs["mean_out"] = list(op.inputs["mean"])
            op.outputs["variance_out"] = list(op.inputs["variance"])
    return copy


class _Method:
    """One loaded method: its PartialProgram and input checks."""

    def __init__(self, saved, state, layer):
        self.saved = saved
        self.layer = layer
        block = saved.program.global_block()
        inputs = [block.var(name) for name, _, _ in saved.inputs]
        self.checks = [(name, tuple(shape), np.dtype(v.dtype.np))
                       for (name, shape, _), v in zip(saved.inputs, inputs)]
        state = [(v.name, state[v.name]) for v in saved.persistables()]
        self.runner = PartialProgram(saved.program, inputs, saved.structure, state)
        self.train_runner = None
        self._train_args = (inputs, state)
        self.shape_gate = InputShapeGate(saved.program, [(n, s) for n, s, _ in self.checks],
                                         saved.name)
        self.signatures = set()  # _SIGNATURE of Tensor inputs that passed every check

    def _runner(self):
        """The saved (inference) program's runner in eval mode; in train mode, as Paddle's,
        a copy with training behaviour: dropout active, batch_norm on batch statistics
        updating its running ones."""
        if not self.layer.training:
            return self.runner
        if self.train_runner is None:
            program = _training_copy(self.saved.program)
            block = program.global_block()
            inputs, state = self._train_args
            structure = map_tensors(lambda v: block.var(v.name), self.saved.structure)
            self.train_runner = PartialProgram(program, [block.var(v.name) for v in inputs],
                                               structure, state)
        return self.train_runner

    def _tensor(self, value, check):
        """`value` as a Tensor checked against the saved input's rank and dtype."""
        name, shape, dtype = check
        if not isinstance(value, Tensor):
            value = Tensor(np.asarray(value))
        got = value._data.shape
        if len(got) != len(shape):
            raise ValueError(f"input {name!r} of {self.saved.name}: expected shape "
                             f"{list(shape)} (-1: any size), got {list(got)}")
        if value._data.dtype != dtype:
            raise TypeError(f"input {name!r} of {self.saved.name}: expected dtype {dtype}, "
                            f"got {value._data.dtype}")
        return value

    def __call__(self, *args):
        try:
            signature = tuple(map(_SIGNATURE, args))
        except AttributeError:  # an argument that is not a Tensor
            signature = None
        if signature in self.signatures:  # inputs like earlier checked ones: run at once
            return (self._runner() if self.layer.training else self.runner)(args)
        return self._checked_call(args, signature)

    def _checked_call(self, args, signature):
        """A call whose input signature has not passed the checks yet (or Tensors whose
        signature is not computed yet): check the inputs, then run."""
        if signature is not None and None in signature:
            signature = tuple(map(signature_id, args))
            if signature in self.signatures:
                return self._runner()(args)
        values = args if all(isinstance(a, Tensor) for a in args) else _flat(args)
        if len(values) != len(self.checks):
            raise TypeError(f"{self.saved.name}() takes {len(self.checks)} input tensor(s) "
                            f"{[c[0] for c in self.checks]}, got {len(values)}")
        if any(isinstance(v, Variable) for v in values):
            return self._inline(values)
        tensors = [self._tensor(v, c) for v, c in zip(values, self.checks)]
        self.shape_gate.check([t._data.shape for t in tensors])
        if values is args and len(self.signatures) < _MAX_SIGNATURES:
            self.signatures.add(signature)
        return self._runner()(tensors)

    def _inline(self, values):
        """While a Program is built (to_static of a layer holding this one, jit.save of
        it): append the saved ops to it, on the given Variables and this layer's state."""
        program = self.saved.program
        if program.num_blocks > 1:
            raise NotImplementedError(
                f"calling the loaded {self.saved.name}() while a Program is built: its saved "
                f"program has control flow blocks, which cannot be copied yet")
        block = default_main_program().current_block()
        names = {name: v.name for (name, _, _), v in zip(self.saved.inputs, values)}
        for var in self.saved.persistables():
            value = self.layer._current_state(var.name)
            names[var.name] = (value if isinstance(value, Variable) else api.assign(value)).name
        for op in program.global_block().ops:
            for name in op.output_arg_names:
                if name not in names:
                    source = program.global_block().var(name)
                    names[name] = block.create_var(generate(name), source.shape, source.dtype,
                                                   stop_gradient=False).name
            block.append_op(op.type, _renamed(op.inputs, names), _renamed(op.outputs, names),
                            dict(op.attrs), op.origin)
        return map_tensors(lambda v: block.var(names[v.name]), self.saved.structure)


class TranslatedLayer(Layer):
    """A Layer built from loaded programs; `forward` and other saved methods run them."""

    def __init__(self, methods, params):
        super().__init__()
        state = self._make_state(methods, params)
        self._methods = {name: _Method(saved, state, self) for name, saved in methods.items()}
        for name, method in self._methods.items():
            if not name.startswith("_") and not hasattr(self, name):
                object.__setattr__(self, name, method)
        self.eval()

    def _make_state(self, methods, params):
        """Parameters and buffers from the loaded arrays, registered on this layer."""
        state = {}
        for saved in methods.values():
            for var in saved.persistables():
                if var.name in state:
                    continue
                if isinstance(var, StaticParameter):
                    tensor = Parameter(params[var.name], name=var.name, trainable=var.trainable)
                    self.add_parameter(var.name, tensor)
                else:
                    tensor = Tensor(params[var.name])
                    self.register_buffer(var.name, tensor)
                state[var.name] = tensor
        return state

    def _current_state(self, name):
        """The parameter or buffer `name` as the layer holds it now (a Variable while an
        enclosing layer is traced by to_static)."""
        found = self._parameters.get(name)
        return self._buffers[name] if found is None else found

    def forward(self, *inputs):
        """Run the saved forward program on `inputs` (Tensors or arrays)."""
        return self._methods["forward"](*inputs)

    def program(self, method_name="forward"):
        """The loaded Program of a method."""
        return self._methods[method_name].saved.program

    @property
    def method_names(self):
        """Names of the loaded methods."""
        return list(self._methods)

    def saved_methods(self):
        """{name: SavedMethod} (program, inputs, output structure) of the loaded methods."""
        return {name: method.saved for name, method in self._methods.items()}

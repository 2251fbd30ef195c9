"""PyLayer: user-defined forward and backward functions as one node of the eager graph.

`apply` runs `forward` under no_grad, then links the float tensor outputs to a
`PyLayerNode`. The engine later calls the node with one gradient per tensor output; the
node runs the user's `backward` (recorded when create_graph is on, so a backward written
with sampan ops is itself differentiable) and checks what it returns.
"""
import numpy as np

from ..eager.autograd import NodeBase, edge_of
from ..eager.grad_mode import STATE, enable_grad, no_grad
from ..eager.tensor import Tensor, wrap
from ..static.control_flow.nest import flatten, rebuilt
from .saved_tensors_hooks import current_hooks

__all__ = ["PyLayer", "PyLayerContext", "PyLayerMeta"]


class PyLayerContext:
    """What forward hands to backward: saved tensors, output marks and any attribute."""

    def __init__(self):
        self._saved = ()
        self._packed = ()
        self._unpack = None
        self._not_inplace = ()
        self._non_differentiable = ()
        self.materialize_grads = True
        self.grad_in_dtype_consistent = True

    def save_for_backward(self, *tensors):
        """Keep tensors for backward (call once, inside forward); under saved_tensors_hooks
        each tensor is kept as pack_hook(tensor)."""
        hooks = current_hooks()
        self._unpack = None if hooks is None else hooks[1]
        self._packed = tuple(hooks is not None and isinstance(t, Tensor) for t in tensors)
        self._saved = tuple(hooks[0](t) if packed else t
                            for t, packed in zip(tensors, self._packed))

    def saved_tensor(self):
        """The tensors given to save_for_backward (unpacked by the hook they were packed
        with), as a tuple."""
        return tuple(self._unpack(v) if packed else v
                     for v, packed in zip(self._saved, self._packed))

    def mark_not_inplace(self, *tensors):
        """Inputs that forward returns unchanged: the outputs become new tensors."""
        self._not_inplace = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs that get stop_gradient=True and receive no gradient."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """Whether backward gets zeros (True, default) or None for outputs with no gradient."""
        self.materialize_grads = bool(value)

    def set_grad_in_dtype_consistent(self, flag):
        """Whether backward gets each output's gradient cast to that output's dtype (True,
        default) or in the dtype it arrives in (False: a later PyLayer's backward may have
        returned another dtype on purpose). Call inside forward."""
        self.grad_in_dtype_consistent = bool(flag)

    def _freeze_saved(self):
        """Pin the saved tensors' data and graph position against later in-place rebinding."""
        self._saved = tuple(_snapshot(t) for t in self._saved)


def _snapshot(value):
    """A tensor sharing `value`'s array and producer (leaves needing a gradient stay as is)."""
    if not isinstance(value, Tensor) or (value._node is None and not value.stop_gradient):
        return value
    copy = wrap(value._data, value.stop_gradient)
    copy._node, copy._index = value._node, value._index
    return copy


def _contains(tensors, t):
    """Identity membership (Tensor `==` is elementwise)."""
    return any(x is t for x in tensors)


class PyLayerMeta(type):
    """Metaclass of PyLayer classes, so converters can recognise them with isinstance."""


class PyLayer(metaclass=PyLayerMeta):
    """Subclass with static `forward(ctx, *args, **kwargs)` and `backward(ctx, *grads)`,
    then call `MyLayer.apply(...)`.

    backward receives one gradient per tensor output of forward and returns one gradient
    (or None) per tensor input (a list of tensors is one input, with a list of gradients).
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        """Compute the outputs from the inputs (ops here are not recorded)."""
        raise NotImplementedError("a PyLayer subclass must define forward(ctx, *args)")

    @staticmethod
    def backward(ctx, *grads):
        """Gradients of the tensor inputs from the gradients of the tensor outputs."""
        raise NotImplementedError("a PyLayer subclass must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward without recording ops and link its outputs to one PyLayer node."""
        ctx = PyLayerContext()
        with no_grad():
            outputs = cls.forward(ctx, *args, **kwargs)
        inputs = _tensor_inputs((*args, *kwargs.values()))
        _refuse_hidden_inputs(cls, (*args, *kwargs.values()), inputs)
        if not _output_tensors(outputs):
            raise TypeError(f"PyLayer {cls.__name__}.forward must return a Tensor or a "
                            f"tuple/list containing Tensors, got {type(outputs).__name__}")
        if STATE.enabled and any(not t.stop_gradient for t in _flat(inputs)):
            outputs = PyLayerNode.record(cls, ctx, inputs, outputs)
        return outputs


# -- inputs and outputs of forward --------------------------------------------------------

def _tensor_inputs(values):
    """The tensor inputs of forward: Tensors and lists/tuples of Tensors, in call order."""
    inputs = []
    for v in values:
        if isinstance(v, Tensor):
            inputs.append(v)
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, Tensor) for x in v):
            inputs.append(list(v))
    return inputs


def _refuse_hidden_inputs(layer, values, inputs):
    """A Tensor needing a gradient nested deeper than a list of Tensors (a dict, a list of
    lists, a tuple mixing other values) would silently get none: refuse it."""
    known = list(_flat(inputs))
    hidden = [t for t in flatten(values) if isinstance(t, Tensor)
              and not t.stop_gradient and not _contains(known, t)]
    if hidden and STATE.enabled:
        raise TypeError(
            f"PyLayer {layer.__name__}.apply: a Tensor that needs a gradient is nested in a "
            f"dict, a nested list or a list holding non-Tensors; eagerly, a PyLayer takes "
            f"Tensors and flat lists/tuples of Tensors as inputs (to_static also accepts "
            f"nested ones). Pass the Tensor as its own argument")


def _flat(inputs):
    """Every tensor of the input slots."""
    for slot in inputs:
        yield from (slot if slot.__class__ is list else (slot,))


def _output_tensors(outputs):
    """The tensor outputs of forward, in order."""
    items = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    return [t for t in items if isinstance(t, Tensor)]


def _map_tensors(outputs, fn):
    """`outputs` with every tensor output t replaced by fn(t) (same container type)."""
    if isinstance(outputs, Tensor):
        return fn(outputs)
    return rebuilt(outputs, [fn(t) if isinstance(t, Tensor) else t for t in outputs])


def _is_differentiable(t):
    """Float and complex tensors carry gradients."""
    return t._data.dtype.kind in "fc"


# -- the node -----------------------------------------------------------------------------

class _LayerNodeBase(NodeBase):
    """Shared by the nodes a PyLayer creates: knows its PyLayer class for messages."""

    __slots__ = ("cls",)

    def __repr__(self):
        return f"PyLayer {self.cls.__name__}"


class PyLayerNode(_LayerNodeBase):
    """One PyLayer call in the graph: runs the user's backward and checks its gradients."""

    __slots__ = ("ctx", "in_meta")

    @classmethod
    def record(cls, layer, ctx, inputs, outputs):
        """Create the node, link forward's differentiable outputs to it, return the outputs."""
        node = cls()
        node.cls, node.ctx, node.hooks = layer, ctx, None
        node.edges = [[edge_of(t) for t in s] if s.__class__ is list else edge_of(s)
                      for s in inputs]
        node.in_meta = [[t._data.shape for t in s] if s.__class__ is list else s._data.shape
                        for s in inputs]
        fixer = _OutputFixer(layer, ctx, list(_flat(inputs)))
        outputs = _map_tensors(outputs, fixer)
        tensors = _output_tensors(outputs)
        node.out_meta = [(t._data.shape, t._data.dtype) for t in tensors]
        for k, t in enumerate(tensors):
            if _is_differentiable(t) and not _contains(fixer.non_differentiable, t):
                t._node, t._index, t.stop_gradient = node, k, False
        ctx._freeze_saved()
        return outputs

    def release(self):
        """Free the context (saved tensors) after a backward pass without retain_graph."""
        super().release()
        self.ctx = None

    def apply(self, grads, create_graph):
        """Call the user's backward; gradients aligned with the forward tensor inputs."""
        ctx = self.ctx
        args = [_incoming(g, meta, ctx.materialize_grads, ctx.grad_in_dtype_consistent)
                for g, meta in zip(grads, self.out_meta)]
        with enable_grad() if create_graph else no_grad():
            result = self.cls.backward(ctx, *args)
        slots = _result_slots(self.cls, result, self.edges)
        return [self._input_grad(i, g, create_graph) for i, g in enumerate(slots)]

    def _input_grad(self, i, g, create_graph):
        """Checked gradient(s) of input slot i, in the engine's representation."""
        edge, shape = self.edges[i], self.in_meta[i]
        if edge.__class__ is not list:
            return self._one_grad(str(i), g, edge, shape, create_graph)
        if not isinstance(g, (list, tuple)) or len(g) != len(edge):
            raise TypeError(f"PyLayer {self.cls.__name__}.backward must return a list of "
                            f"{len(edge)} gradients for input {i} (a list of tensors)")
        return [self._one_grad(f"{i}[{k}]", gk, ek, sk, create_graph)
                for k, (gk, ek, sk) in enumerate(zip(g, edge, shape))]

    def _one_grad(self, where, g, edge, shape, create_graph):
        """Validate one gradient; None when its input needs none."""
        if g is None or edge is None:
            return None
        data = g._data if isinstance(g, Tensor) else np.asarray(g)
        if data.shape != shape:
            raise ValueError(f"PyLayer {self.cls.__name__}.backward returned a gradient of "
                             f"shape {list(data.shape)} for input {where}, whose shape is "
                             f"{list(shape)}")
        if not create_graph:
            return data
        if isinstance(g, Tensor) and not g.stop_gradient:
            return g
        return _NotDifferentiableNode.output(self, data)


def _incoming(g, meta, materialize, consistent):
    """The gradient of one output as backward sees it: a Tensor (in the output's dtype when
    `consistent`), zeros, or None."""
    if g is None:
        return wrap(np.zeros(*meta)) if materialize else None
    if consistent and g.dtype != meta[1]:
        return wrap(g._data.astype(meta[1])) if isinstance(g, Tensor) else wrap(g.astype(meta[1]))
    return g if isinstance(g, Tensor) else wrap(g)


def _result_slots(layer, result, edges):
    """backward's result as one entry per input slot; wrong counts raise naming the class."""
    single_list_input = len(edges) == 1 and edges[0].__class__ is list
    if isinstance(result, tuple) or (isinstance(result, list) and not single_list_input):
        slots = list(result)
    else:
        slots = [result]
    if len(slots) != len(edges):
        raise ValueError(f"PyLayer {layer.__name__}.backward returned {len(slots)} "
                         f"gradient(s) but forward has {len(edges)} tensor input(s); return "
                         f"one gradient (or None) per tensor input")
    return slots


class _OutputFixer:
    """Makes forward's tensor outputs safe to link: new tensors where needed, marks applied."""

    def __init__(self, layer, ctx, inputs):
        self.layer, self.ctx, self.inputs = layer, ctx, inputs
        self.seen = []
        self.non_differentiable = []

    def __call__(self, t):
        """The tensor to use as output for forward's result `t`."""
        original = t
        if _contains(self.ctx._not_inplace, t) or _contains(self.seen, t):
            t = wrap(t._data)
        elif t._node is None and not t.stop_gradient:
            raise RuntimeError(
                f"PyLayer {self.layer.__name__}.forward returned a leaf tensor that needs a "
                f"gradient; a leaf cannot be an in-place output: call "
                f"ctx.mark_not_inplace(x) in forward to get a new output tensor instead")
        if _contains(self.ctx._non_differentiable, original):
            self.non_differentiable.append(t)
            if not _contains(self.inputs, t):
                t.stop_gradient = True
        self.seen.append(t)
        return t


class _NotDifferentiableNode(_LayerNodeBase):
    """Producer of a create_graph gradient whose backward was not recorded: differentiating
    through it raises (first-order create_graph results stay usable)."""

    __slots__ = ()

    @classmethod
    def output(cls, layer_node, data):
        """A gradient tensor linked to a new error node that depends on the layer's inputs."""
        node = cls()
        node.cls, node.hooks = layer_node.cls, None
        node.edges = list(layer_node.edges)
        node.out_meta = [(data.shape, data.dtype)]
        t = wrap(data)
        node.link_outputs([t])
        return t

    def apply(self, grads, create_graph):
        """Differentiating a gradient the user's backward did not record is an error."""
        raise RuntimeError(
            f"PyLayer {self.cls.__name__}.backward is not differentiable: under "
            f"create_graph=True it returned gradients that do not require grad although its "
            f"inputs do. Write backward with sampan ops on the tensors it receives (and saved "
            f"tensors) so that double backward can differentiate it")

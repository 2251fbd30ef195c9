"""`SomePyLayer.apply(...)` in converted code: one `static_pylayer` op whose forward and
backward blocks are traced from the converted `forward` and `backward`."""
from ...static.backward import GRAD_SUFFIX
from ...static.control_flow import static_pylayer
from ...static.program_state import default_main_program
from ..segments import breaks
from ..segments.breaks import BreakInBlock
from .common import is_variable

__all__ = ["pylayer_apply", "StaticPyLayerContext"]


class StaticPyLayerContext:
    """The `ctx` of a PyLayer under to_static: saved Variables reach the backward block as
    extra outputs of the forward block; Tensor attributes are rejected."""

    def __init__(self, cls):
        object.__setattr__(self, "_cls", cls)
        object.__setattr__(self, "_saved", ())
        object.__setattr__(self, "materialize_grads", True)

    def __setattr__(self, name, value):
        if _has_variable(value):
            raise TypeError(
                f"PyLayer {self._cls.__name__}: ctx.{name} = <Tensor> is not supported under "
                f"to_static (the backward block cannot read forward values through "
                f"attributes); pass tensors with ctx.save_for_backward(...) and read them "
                f"with ctx.saved_tensor()")
        object.__setattr__(self, name, value)

    def save_for_backward(self, *tensors):
        """Keep tensors for backward."""
        object.__setattr__(self, "_saved", tensors)

    def saved_tensor(self):
        """The saved tensors, as the backward block sees them."""
        return self._saved

    def mark_not_inplace(self, *tensors):
        """Static outputs are always new Variables: nothing to do."""

    def mark_non_differentiable(self, *tensors):
        """Accepted; their gradients are zeros in the static backward."""

    def set_materialize_grads(self, value):
        """Static output gradients are always materialised (zeros)."""
        object.__setattr__(self, "materialize_grads", bool(value))


def _has_variable(value):
    """True when `value` is a Variable or a list/tuple/dict holding one."""
    if isinstance(value, (list, tuple)):
        return any(map(_has_variable, value))
    if isinstance(value, dict):
        return any(map(_has_variable, value.values()))
    return is_variable(value)


def _convert(fn):
    """The converted version of a PyLayer's forward/backward."""
    from ..program_translator import convert_function
    return convert_function(fn)


def pylayer_apply(cls, *args, **kwargs):
    """`cls.apply(*args, **kwargs)`: eager when no argument is a Variable, else one op."""
    slots = [k for k, a in enumerate(args) if is_variable(a)]
    keys = [k for k, a in kwargs.items() if is_variable(a)]
    if not slots and not keys:
        return cls.apply(*args, **kwargs)
    call = _StaticApply(cls, args, kwargs, slots + keys)
    try:
        static_pylayer(call.forward, [args[k] for k in slots] + [kwargs[k] for k in keys],
                       call.backward)
    except BreakInBlock:
        builder = breaks.active()
        if builder is None:
            raise
        return builder.call_eagerly(cls.apply, args, kwargs,
                                    f"{cls.__name__}.forward reads a value (run eagerly)")
    block = default_main_program().current_block()
    return call.result([block.var(n) for n in block.ops[-1].output("Out")][:call.count])


class _StaticApply:
    """The forward/backward functions of one `apply` call, as static_pylayer builds them."""

    def __init__(self, cls, args, kwargs, positions):
        self.cls, self.args, self.kwargs, self.positions = cls, args, kwargs, positions
        self.ctx = StaticPyLayerContext(cls)
        self.count, self.kind, self.local = 0, None, []
        self.template, self.tensor_at = [], []

    def forward(self, *inputs):
        """Converted forward on the block's inputs; outputs, then the saved local values."""
        args, kwargs = list(self.args), dict(self.kwargs)
        for k, v in zip(self.positions, inputs):
            (args if isinstance(k, int) else kwargs)[k] = v
        result = _convert(self.cls.forward)(self.ctx, *args, **kwargs)
        self.template = list(result) if isinstance(result, (list, tuple)) else [result]
        self.tensor_at = [k for k, o in enumerate(self.template) if is_variable(o)]
        if not self.tensor_at:
            raise TypeError(f"PyLayer {self.cls.__name__}.forward must return a Tensor under "
                            f"to_static, got {result!r}")
        outs = [self.template[k] for k in self.tensor_at]
        block = default_main_program().current_block()
        saved = self.ctx._saved
        self.local = [k for k, s in enumerate(saved) if is_variable(s) and s.block is block]
        self.count = len(outs)
        self.kind = type(result) if isinstance(result, (list, tuple)) else None
        return outs + [saved[k] for k in self.local]

    def result(self, outs):
        """forward's result with the op's outputs in place of its Tensors (its other
        values, such as None or numbers, as forward returned them)."""
        values = list(self.template)
        for k, out in zip(self.tensor_at, outs):
            values[k] = out
        return values[0] if self.kind is None else self.kind(values)

    def backward(self, *grads):
        """Converted backward; saved local values are read as the op's extra outputs."""
        parent = default_main_program().current_block().parent
        saved = list(self.ctx._saved)
        for k, g in zip(self.local, grads[self.count:]):
            saved[k] = parent.var(g.name[:-len(GRAD_SUFFIX)])  # g is "<out>@GRAD"
        object.__setattr__(self.ctx, "_saved", tuple(saved))
        return _convert(self.cls.backward)(self.ctx, *grads[:self.count])

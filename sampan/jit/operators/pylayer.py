"""`SomePyLayer.apply(...)` in converted code: one `static_pylayer` op whose forward and
backward blocks are traced from the converted `forward` and `backward`."""
from ...static.backward import GRAD_SUFFIX
from ...static.control_flow import static_pylayer
from ...static.control_flow.nest import flatten, pack, replace_leaves
from ...static.program_state import default_main_program
from .. import report
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
        if any(map(is_variable, flatten(value))):
            raise AttributeError(
                f"`ctx.{name} = tensor` is not allowed in static mode, please use "
                f"`ctx.save_for_backward(tensor)` instead. (PyLayer {self._cls.__name__}: "
                f"under to_static the backward block cannot read forward values through "
                f"ctx attributes; read them in backward with ctx.saved_tensor())")
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


def _convert(fn):
    """The converted version of a PyLayer's forward/backward."""
    from ..program_translator import convert_function
    return convert_function(fn)


def pylayer_apply(cls, *args, **kwargs):
    """`cls.apply(*args, **kwargs)`: eager when no argument holds a Variable, else one op.

    Arguments may nest Variables in lists, tuples and dicts: each Variable is one input of
    the op, in flatten order (positional arguments, then keyword arguments)."""
    inputs = [v for v in flatten([list(args), list(kwargs.values())]) if is_variable(v)]
    if not inputs:
        report.pylayer(cls, "eager call while building", "no argument is a Tensor")
        return cls.apply(*args, **kwargs)
    call = _StaticApply(cls, args, kwargs)
    point = report.mark()
    try:
        with breaks.building_block():
            static_pylayer(call.forward, inputs, call.backward)
    except BreakInBlock as exc:
        builder = breaks.active()
        if builder is None:
            raise
        report.rollback(point)
        outs = builder.call_eagerly(cls.apply, args, kwargs,
                                    f"{cls.__name__}.forward reads a value (run eagerly)")
        report.pylayer(cls, "eager call (graph break)",
                       f"forward reads a value: {exc.graph_break.operation} at line "
                       f"{exc.graph_break.lineno}")
        return outs
    report.pylayer_op(cls, args, kwargs)
    block = default_main_program().current_block()
    return call.result([block.var(n) for n in block.ops[-1].output("Out")][:call.count])


class _StaticApply:
    """The forward/backward functions of one `apply` call, as static_pylayer builds them.

    The forward block reads the argument Variables of the enclosing block directly, so
    forward runs on the call's own arguments."""

    def __init__(self, cls, args, kwargs):
        self.cls, self.args, self.kwargs = cls, args, kwargs
        self.ctx = StaticPyLayerContext(cls)
        self.count, self.result_template, self.local = 0, None, []

    def forward(self, *inputs):
        """Converted forward; its Variable outputs (any nesting), then the saved Variables
        local to the forward block."""
        result = _convert(self.cls.forward)(self.ctx, *self.args, **self.kwargs)
        outs = [v for v in flatten(result) if is_variable(v)]
        if not outs:
            raise TypeError(f"PyLayer {self.cls.__name__}.forward must return a Tensor (or a "
                            f"list/tuple/dict holding one) under to_static, got {result!r}")
        block = default_main_program().current_block()
        saved = flatten(self.ctx._saved)
        self.local = [k for k, s in enumerate(saved) if is_variable(s) and s.block is block]
        self.count, self.result_template = len(outs), result
        return outs + [saved[k] for k in self.local]

    def result(self, outs):
        """forward's result with the op's outputs in place of its Variables (its other
        values, such as None or numbers, as forward returned them)."""
        return replace_leaves(self.result_template, is_variable, outs)

    def backward(self, *grads):
        """Converted backward; saved local values are read as the op's extra outputs."""
        parent = default_main_program().current_block().parent
        saved = flatten(self.ctx._saved)
        for k, g in zip(self.local, grads[self.count:]):
            saved[k] = parent.var(g.name[:-len(GRAD_SUFFIX)])  # g is "<out>@GRAD"
        object.__setattr__(self.ctx, "_saved", pack(self.ctx._saved, saved))
        return _convert(self.cls.backward)(self.ctx, *grads[:self.count])

"""Shape re-inference of a Program for input shapes other than the declared ones.

A model saved with a fixed input shape (`InputSpec([4, 3])`) may still run a batch of 2:
each op's infer_meta rule, walked in program order from the new input shapes, says whether
it can. The first op that cannot is reported with the input dimension that changed."""
from ..core.errors import InvalidArgument
from ..ops.meta import MetaTensor
from ..ops.registry import OPS

__all__ = ["ShapeReinferError", "reinfer_shapes", "InputShapeGate"]


class ShapeReinferError(ValueError):
    """The Program cannot run with the given input shapes."""


def op_input_metas(opdef, op, meta_of):
    """The MetaTensor arguments of `op`'s infer_meta rule, each variable's from `meta_of`."""
    metas = []
    for name, kind in zip(opdef.tensor_names, opdef.tensor_kinds):
        ms = [meta_of(n) for n in op.input(name)]
        metas.append(ms if kind == "Tensor[]" else (ms[0] if ms else None))
    return metas


def _where(op):
    origin = op.origin
    return f" (built at {origin})" if origin else ""


def reinfer_shapes(program, shapes, changed):
    """Walk `program`'s global block from the input `shapes` {name: shape}.

    Returns {variable name: inferred shape}. `changed` describes the inputs that differ
    from their declared shapes (for the message); an op whose rule rejects the new shapes
    raises ShapeReinferError naming it, the change and the rule's reason. Ops without a
    registry rule (control flow) keep their outputs' declared shapes."""
    block = program.global_block()
    inferred = {name: tuple(shape) for name, shape in shapes.items()}

    def meta_of(name):
        var = block.var(name)
        return MetaTensor(inferred.get(name, var._shape), var.dtype)

    for op in block.ops:
        opdef = OPS.get(op.type)
        if opdef is None:
            continue
        try:
            out = opdef.infer_meta(*op_input_metas(opdef, op, meta_of),
                                   *opdef.attrs_tuple(op.attrs))
        except InvalidArgument as err:
            raise ShapeReinferError(f"{changed}: op {op.type}{_where(op)} cannot take it: "
                                    f"{err}") from None
        for name, kind, meta in zip(opdef.output_names, opdef.output_kinds,
                                    opdef.result_tuple(out)):
            for n, m in zip(op.output(name), meta if kind == "Tensor[]" else [meta]):
                inferred[n] = tuple(m.shape)
    return inferred


class InputShapeGate:
    """Lets a saved Program run input shapes other than its fixed declared ones when its
    shape rules accept them (as Paddle re-infers); each new shape combination is checked
    once. `inputs` are (name, declared shape) pairs, `owner` names the model in messages."""

    def __init__(self, program, inputs, owner):
        self.program = program
        self.inputs = [(name, tuple(shape)) for name, shape in inputs]
        self.owner = owner
        self.accepted = set()

    def check(self, shapes):
        """Raise ShapeReinferError naming the changed input dimensions and the first op
        that cannot take `shapes` (one shape per input, in order)."""
        shapes = tuple(tuple(s) for s in shapes)
        if shapes in self.accepted:
            return
        changes = []
        for (name, declared), got in zip(self.inputs, shapes):
            dims = [i for i, d in enumerate(declared) if d >= 0 and d != got[i]]
            if dims:
                changes.append(f"input {name!r} of {self.owner} was saved with shape "
                               f"{list(declared)} and is {list(got)} here (dimension "
                               f"{', '.join(map(str, dims))})")
        if changes:
            reinfer_shapes(self.program, {name: got for (name, _), got in
                                          zip(self.inputs, shapes)}, "; ".join(changes))
        self.accepted.add(shapes)

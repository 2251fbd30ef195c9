"""The neutral form both Paddle program readers produce and the builder consumes: ops in
blocks over numbered values, attributes as plain Python values."""

__all__ = ["TensorType", "PaddleOp", "PaddleBlock", "PaddleGraph"]


class TensorType:
    """A dense tensor's dtype name and dims (-1 unknown); `items` for a vector of them."""

    __slots__ = ("dtype", "shape", "items")

    def __init__(self, dtype=None, shape=(), items=None):
        self.dtype, self.shape, self.items = dtype, list(shape), items

    def __repr__(self):
        return f"vec{self.items}" if self.items is not None else f"{self.dtype}{self.shape}"


class PaddleOp:
    """One op: its full type name (`pd_op.conv2d`), input value ids (None for an absent
    optional input), output (id, TensorType) pairs, attributes and nested blocks."""

    __slots__ = ("type", "inputs", "outputs", "attrs", "blocks")

    def __init__(self, type, inputs, outputs, attrs, blocks=()):
        self.type, self.inputs, self.outputs = type, inputs, outputs
        self.attrs, self.blocks = attrs, list(blocks)


class PaddleBlock:
    """Ops in order; `args` are (id, TensorType) of block arguments (a while body's)."""

    __slots__ = ("args", "ops")

    def __init__(self, args, ops):
        self.args, self.ops = args, ops


class PaddleGraph:
    """A whole program: its top block and the format it came from ("pir" or "legacy")."""

    __slots__ = ("block", "source")

    def __init__(self, block, source):
        self.block, self.source = block, source

    def op_types(self):
        """Every op type of every block."""
        seen, todo = set(), [self.block]
        while todo:
            for op in todo.pop().ops:
                seen.add(op.type)
                todo.extend(op.blocks)
        return seen

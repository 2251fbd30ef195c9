"""PIR's in-place tensor array writes made single-assignment, as the builder needs.

`pd_op.array_write_(array, x, i)` changes `array` itself: its result and `array` are the
same array, and a `while` body that appends to an array made before the loop neither
carries nor yields it. Here every write gives the array a new value that later reads of
any of its aliases see, and a `while` (or `if`) whose blocks write an outer array carries
it: one more loop value (block argument, yield, output) or one more `if` output.
"""

__all__ = ["carry_array_writes"]

WRITE = "pd_op.array_write_"


class _Values:
    """Alias roots of arrays and the value each root holds now (per block, copied into
    nested blocks)."""

    def __init__(self, roots, current):
        self.roots, self.current = roots, current

    def nested(self):
        return _Values(self.roots, dict(self.current))

    def read(self, vid):
        root = self.roots.get(vid, vid)
        return self.current.get(root, vid)


def carry_array_writes(block):
    """Rewrite `block` (a PaddleBlock, nested blocks included) in place."""
    if _writes(block.ops):
        _rewrite(block.ops, _Values({}, {}), [0])


def _writes(ops):
    return any(op.type == WRITE or any(_writes(b.ops) for b in op.blocks) for op in ops)


def _defined(ops, out):
    for op in ops:
        out.update(vid for vid, _ in op.outputs)
        for block in op.blocks:
            out.update(vid for vid, _ in block.args)
            _defined(block.ops, out)
    return out


def _outer_writes(blocks, roots):
    """Alias roots of the arrays written in `blocks` that are defined outside them."""
    inside, written = set(), []
    for block in blocks:
        inside |= _defined(block.ops, {vid for vid, _ in block.args})
        _written(block.ops, roots, written)
    return [r for r in dict.fromkeys(written) if r not in inside]


def _written(ops, roots, out):
    for op in ops:
        if op.type == WRITE and op.inputs:
            out.append(roots.get(op.inputs[0], op.inputs[0]))
        for block in op.blocks:
            _written(block.ops, roots, out)


def _fresh(counter):
    counter[0] += 1
    return f"@array{counter[0]}"


def _rewrite(ops, values, counter):
    for op in ops:
        original = list(op.inputs)
        op.inputs = [values.read(v) for v in op.inputs]
        if op.type == WRITE and original and op.outputs:
            root = values.roots.get(original[0], original[0])
            values.roots[op.outputs[0][0]] = root
            values.current[root] = op.outputs[0][0]
        elif op.blocks and op.type in ("pd_op.while", "pd_op.if"):
            _carry(op, values, counter)


def _carry(op, values, counter):
    """Add the outer arrays `op`'s blocks write to what it carries or returns."""
    carried = _outer_writes(op.blocks, values.roots)
    if not carried:
        for block in op.blocks:
            _rewrite(block.ops, values.nested(), counter)
        return
    looping = op.type == "pd_op.while"
    for block in op.blocks:
        inner = values.nested()
        if looping:
            for root in carried:
                arg = _fresh(counter)
                op.inputs.append(values.read(root))
                block.args.append((arg, None))
                inner.current[root] = arg
        _rewrite(block.ops, inner, counter)
        if not block.ops or block.ops[-1].type != "cf.yield":
            raise ValueError(f"{op.type}: a block does not end in cf.yield")
        block.ops[-1].inputs = list(block.ops[-1].inputs) + [inner.read(r) for r in carried]
    for root in carried:
        out = _fresh(counter)
        op.outputs.append((out, None))
        values.current[root] = out

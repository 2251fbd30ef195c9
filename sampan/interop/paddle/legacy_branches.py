"""The two `if`s of one legacy `cond` joined into one `pd_op.if` with both branches.

Paddle's legacy `cond(pred, true_fn, false_fn)` is a `conditional_block` on pred, one on
`logical_not(pred)`, and a `select_input(cast(pred), [false value, true value])` per
result. `legacy_blocks` turns each conditional_block into an `if` whose untaken side
leaves the results unset (None); here each such pair becomes one `if` on pred that yields
the true block's values on one side and the false block's on the other, and the
`select_input`s read its outputs. Outputs still unset on one side are dropped when
nothing reads them (an op that does is refused by the builder).
"""
from .graph import PaddleOp

__all__ = ["merge_branches"]


def merge_branches(ops):
    """`ops` (a block's, nested blocks included) with every recognised cond pair joined."""
    ops = _merge_block(ops)
    _drop_unset_outputs(ops, _reads(ops))
    return ops


def _merge_block(ops):
    for op in ops:
        for block in op.blocks:
            block.ops = _merge_block(block.ops)
    producers = {vid: (op, k) for op in ops for k, (vid, _) in enumerate(op.outputs)
                 if vid is not None}
    groups = {}
    for op in ops:
        match = _cond_pair(op, producers) if op.type == "pd_op.select_input" else None
        if match:
            taken, other, j, i = match
            groups.setdefault((id(taken), id(other)), (taken, other, []))[2].append((op, j, i))
    for taken, other, selects in groups.values():
        ops = _join(ops, taken, other, selects)
    return ops


def _producer(producers, vid, kind):
    op, k = producers.get(vid, (None, None))
    return (op, k) if op is not None and op.type == kind else (None, None)


def _cond_pair(select, producers):
    """(if on pred, if on not pred, output index in each) a select_input merges, or None."""
    if len(select.inputs) != 3:
        return None
    mask, when_false, when_true = select.inputs
    cast, _ = _producer(producers, mask, "pd_op.cast")
    taken, j = _producer(producers, when_true, "pd_op.if")
    other, i = _producer(producers, when_false, "pd_op.if")
    if cast is None or taken is None or other is None or taken is other:
        return None
    pred = cast.inputs[0]
    negation, _ = _producer(producers, other.inputs[0], "pd_op.logical_not")
    if taken.inputs[0] != pred or negation is None or negation.inputs[0] != pred:
        return None
    return taken, other, j, i


def _position(ops, target):
    return next(k for k, op in enumerate(ops) if op is target)


def _join(ops, taken, other, selects):
    """`ops` with `taken` and `other` replaced by one if (at the later one's place) and
    `selects` removed; unchanged when an op between them reads the earlier one's results."""
    first, last = sorted((_position(ops, taken), _position(ops, other)))
    earlier, later = ops[first], ops[last]
    earlier_outs = {vid: k for k, (vid, _) in enumerate(earlier.outputs)}
    if set(earlier_outs) & _reads(ops[first + 1:last] + later.blocks[0].ops):
        return ops
    run = {op: _yielded(op, 0) for op in (taken, other)}
    skip = {op: _yielded(op, 1) for op in (taken, other)}
    # where the later if's block does not run, the earlier one's block did
    skip[later] = [run[earlier][earlier_outs[v]] if v in earlier_outs else v
                   for v in skip[later]]
    outputs = taken.outputs + other.outputs + [s.outputs[0] for s, _, _ in selects]
    true_block, false_block = taken.blocks[0], other.blocks[0]
    _set_yield(true_block, run[taken] + skip[other] + [run[taken][j] for _, j, _ in selects])
    _set_yield(false_block, skip[taken] + run[other] + [run[other][i] for _, _, i in selects])
    merged = PaddleOp("pd_op.if", [taken.inputs[0]], outputs, {}, [true_block, false_block])
    dropped = {id(s) for s, _, _ in selects} | {id(earlier)}
    return [merged if op is later else op for op in ops if id(op) not in dropped]


def _yielded(op, side):
    return list(op.blocks[side].ops[-1].inputs)


def _set_yield(block, vids):
    block.ops[-1] = PaddleOp("cf.yield", vids, [], {})


def _reads(ops):
    """Every value id the ops (and their nested blocks) read."""
    out = set()
    for op in ops:
        out.update(op.inputs)
        for block in op.blocks:
            out |= _reads(block.ops)
    return out


def _drop_unset_outputs(ops, reads):
    """Remove if outputs unset on one side that nothing reads."""
    for op in ops:
        for block in op.blocks:
            _drop_unset_outputs(block.ops, reads)
        if op.type != "pd_op.if" or len(op.blocks) != 2:
            continue
        sides = [_yielded(op, 0), _yielded(op, 1)]
        keep = [k for k, (vid, _) in enumerate(op.outputs)
                if (sides[0][k] is not None and sides[1][k] is not None) or vid in reads]
        if len(keep) != len(op.outputs):
            op.outputs = [op.outputs[k] for k in keep]
            for side, block in zip(sides, op.blocks):
                _set_yield(block, [side[k] for k in keep])

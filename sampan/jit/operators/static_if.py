"""A converted `if` (or ternary) on a Tensor: both branches traced into `static.nn.cond`."""
from ...static.control_flow import cond
from ...static.program_state import default_main_program
from .common import NO_RETURN, Undefined, is_variable
from .effects import ordered_like
from .values import NoPlaceholder, as_variable, in_block, is_missing, is_number, placeholder

__all__ = ["tensor_if"]


def tensor_if(pred, true_fn, false_fn, values, names, tracked):
    """Run `true_fn(*values)` / `false_fn(*values)` as the branches of one `cond` op.

    A name bound in one branch only merges with a zero placeholder (so a later read under
    the same condition works); when none can be built it stays Undefined. Objects the
    branches change in place (`tracked`) start each branch as they were before the if;
    their states are outputs of the op, written back into them afterwards."""
    built, blocks, undefined = [], [], {}
    count = len(names)
    labels = list(names) + tracked.labels()
    tracked.save()

    def branch(fn):
        def run():
            tracked.restore()
            result = list(fn(*values))
            if tracked:
                result = tracked.refer(result) + tracked.states()
            built.append(result)
            blocks.append(default_main_program().current_block())
            if len(built) == 2:
                if tracked:
                    tracked.prune(built[0][count:], built[1][count:])
                    tracked.check_pair(built[0][count:], built[1][count:])
                undefined.update(_reconcile(*built, labels, blocks))
            return result
        return run
    try:
        outs = list(cond(pred, branch(true_fn), branch(false_fn)))
    finally:
        tracked.restore()
    tracked.put(ordered_like(outs[count:], built[0][count:]))
    outs = tracked.resolve(outs[:count]) if tracked else outs
    return tuple(undefined.get(k, out) for k, out in enumerate(outs))


def _reconcile(a, b, names, blocks):
    """Make the two branch result lists mergeable in place (stand-ins are built in their
    branch's block); {index: Undefined} for names that stay undefined."""
    undefined = {}
    for k, name in enumerate(names):
        try:
            a[k], b[k] = _pair(a[k], b[k], *blocks)
        except NoPlaceholder:
            missing = a[k] if isinstance(a[k], Undefined) else b[k]
            if not isinstance(missing, Undefined):
                raise NotImplementedError(
                    f"{name!r}: a return inside an if on a Tensor needs the returned value's "
                    f"shape while building (assign the result to a variable before the "
                    f"if, and return it after)") from None
            a[k] = b[k] = None
            undefined[k] = missing
    return undefined


def _pair(a, b, block_a, block_b):
    """(a, b) with stand-ins where one side is missing or a number facing a Variable."""
    if a is b:
        return a, b
    if is_missing(a) or is_missing(b):
        with in_block(block_a if is_missing(a) else block_b):
            unread = (a if is_missing(a) else b) is NO_RETURN
            return ((placeholder(b, unread), b) if is_missing(a)
                    else (a, placeholder(a, unread)))
    if isinstance(a, (list, tuple)) and type(a) is type(b) and len(a) == len(b):
        pairs = [_pair(x, y, block_a, block_b) for x, y in zip(a, b)]
        return type(a)(p[0] for p in pairs), type(b)(p[1] for p in pairs)
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        pairs = {k: _pair(a[k], b[k], block_a, block_b) for k in a}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    if (is_variable(a) or is_number(a)) and (is_variable(b) or is_number(b)) and (
            is_variable(a) or is_variable(b) or a != b):
        with in_block(block_a):
            a_var = as_variable(a, b)
        with in_block(block_b):
            return a_var, as_variable(b, a)
    return a, b

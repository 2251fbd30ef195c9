"""A converted `if` (or ternary) on a Tensor: both branches traced into `static.nn.cond`."""
from ...static.control_flow.cond import build_cond
from ...static.program_state import default_main_program
from ...static.control_flow.nest import flatten, structure
from .common import NO_RETURN, Dygraph2StaticException, Undefined, is_variable, where
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
                    tracked.unrefer(built[0], built[1], count)
                    tracked.prune(built[0][count:], built[1][count:])
                    tracked.check_pair(built[0][count:], built[1][count:])
                undefined.update(_reconcile(*built, labels, blocks))
                _check_results(*built, names, true_fn)
            return result
        return run
    try:
        # branches may leave a Tensor of different ranks (a list item replaced by a value
        # of another shape): the output's rank is the true branch's, its dims unknown
        outs = list(build_cond(pred, branch(true_fn), branch(false_fn), same_rank=False))
    finally:
        tracked.restore()
    tracked.put(ordered_like(outs[count:], built[0][count:]))
    outs = tracked.resolve(outs[:count]) if tracked else outs
    return tuple(undefined.get(k, out) for k, out in enumerate(outs))


def _check_results(a, b, names, fn):
    """Raise Dygraph2StaticException (as Paddle does) when the branches leave a variable
    with different nestings or kinds of value, which no cond output can hold."""
    for name, x, y in zip(names, a, b):
        if x is None and y is None:
            continue  # stays Undefined
        if structure(x) != structure(y):
            what = "number of return value" if name.startswith("return_value") else \
                f"structure of {name!r}"
        elif any(map(_differs, flatten(x), flatten(y))):
            what = "return type" if name.startswith("return_value") else f"type of {name!r}"
        else:
            continue
        file, line = where(fn)
        raise Dygraph2StaticException(
            f"Your if/else have different {what}: {_describe(x)} in the true branch, "
            f"{_describe(y)} in the false branch of the if at {file}:{line} whose condition "
            f"is a Tensor (both branches become one cond op, so they must leave the same "
            f"number and kinds of values)")


def _differs(p, q):
    """True when two leaves cannot be one cond output: a Variable facing a Python value, or
    two different Python values."""
    if is_variable(p) or is_variable(q):
        return is_variable(p) != is_variable(q)
    if p is q:
        return False
    try:
        return not bool(p == q)
    except Exception:  # an object whose == is not a truth value (an array): not the same
        return True


def _describe(value):
    """A short description of a branch result."""
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__} of {len(value)}"
    return "Tensor" if is_variable(value) else repr(value)


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
                    f"{name!r}: a return inside an if on a Tensor returns {missing!r}, for "
                    f"which no stand-in can be built on the path where no return ran "
                    f"(return a Tensor, or assign the result to a variable before the if "
                    f"and return it after)") from None
            a[k] = b[k] = None
            undefined[k] = missing
    return undefined


def _pair(a, b, block_a, block_b):
    """(a, b) with stand-ins where one side is a pending return value (never read on that
    path) or a number facing a Variable. A name bound in one branch only has none: it stays
    Undefined after the if (reading it raises, as Python would on one of the paths)."""
    if a is b:
        return a, b
    if is_missing(a) or is_missing(b):
        if a is not NO_RETURN and b is not NO_RETURN:
            raise NoPlaceholder(a if is_missing(a) else b)
        with in_block(block_a if is_missing(a) else block_b):
            return ((placeholder(b, True), b) if is_missing(a)
                    else (a, placeholder(a, True)))
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

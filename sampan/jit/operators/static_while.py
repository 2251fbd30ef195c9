"""A converted `while` on a Tensor: the loop-carried variables go through
`static.nn.while_loop`; lists become tensor arrays, missing values get placeholders."""
from ...static.control_flow import while_loop
from ...static.program_state import default_main_program
from .. import report
from .arrays import ArrayList, ProbeList, to_array
from .common import NO_RETURN, is_variable
from .effects import fill_state, split_state
from .values import NoPlaceholder, as_variable, is_missing, is_number, placeholder

__all__ = ["tensor_while"]


def tensor_while(cond_fn, body_fn, values, names, as_bool, tracked):
    """Run the loop as one `while` op; returns the final values of all routed names.
    Objects the body changes in place (`tracked`) carry their Variable and number items
    as loop variables and hold the final values afterwards."""
    before = list(values)
    tracked.save()
    if any(is_missing(v) or _is_list(v) for v in before):
        values = _with_probe(before, _probe(body_fn, before, tracked))
        tracked.drop({id(a) for a, v in zip(before, values) if isinstance(v, ArrayList)})
        for name, value in zip(names, values):
            if isinstance(value, ArrayList):
                report.tensor_array(cond_fn, name)
    else:
        values = before
    carried = [k for k, v in enumerate(values) if is_variable(v) or is_number(v)
               or isinstance(v, ArrayList)]
    # a carried Variable written in place (`x[i] = v`, or a tensor array's `a[i] = v`) is
    # carried under its name already
    tracked.drop({id(_unwrap(values[k])) for k in carried if is_variable(_unwrap(values[k]))})
    first_block = len(default_main_program().blocks)
    try:
        return _build(cond_fn, body_fn, values, names, as_bool, tracked, carried)
    except _Retype as retype:  # a number the body makes a Tensor of another kind: again,
        default_main_program()._discard_blocks(first_block)  # starting from that kind
        values = retype.apply(values, carried, tracked)
        return _build(cond_fn, body_fn, values, names, as_bool, tracked, carried)


def _build(cond_fn, body_fn, values, names, as_bool, tracked, carried):
    """The `while` op over the carried values and the tracked objects' items."""
    start = [v.var if isinstance(v, ArrayList) else v for v in (values[k] for k in carried)]
    template, leaves = split_state(tracked.states())
    own = len(start)

    def full(loop):
        tracked.put(fill_state(template, loop[own:]))
        return _args(values, carried, loop[:own])

    def body(*loop):
        result = list(body_fn(*full(loop)))
        _check_invariants(values, result, names, carried)
        after, changed = split_state(tracked.states())
        tracked.check_same(template, after)
        return _matched(start + leaves, loop,
                        [_unwrap(result[k]) for k in carried] + changed)
    try:
        finals = while_loop(lambda *loop: as_bool(cond_fn(*full(loop))), body,
                            start + leaves)
    finally:
        tracked.restore()
    tracked.put(fill_state(template, finals[own:]))
    return tuple(_args(values, carried, finals[:own]))


class _Retype(Exception):
    """Loop variables that start as Python numbers and leave the body as Variables of
    another dtype or shape: {loop variable index: the body's Variable}."""

    def __init__(self, found):
        super().__init__(found)
        self.found = found

    def apply(self, values, carried, tracked):
        """`values` (and the tracked objects' items) with those numbers made Variables of
        the body's dtype and shape."""
        values = list(values)
        template, leaves = split_state(tracked.states())
        for i, like in self.found.items():
            number = values[carried[i]] if i < len(carried) else leaves[i - len(carried)]
            var = as_variable(number, like)
            if i < len(carried):
                values[carried[i]] = var
            else:
                leaves[i - len(carried)] = var
        tracked.put(fill_state(template, leaves))
        return values


def _matched(start, holders, outs):
    """Body outputs fit for their loop variables: a number returned for a Variable becomes
    a constant of its dtype and shape; a Variable of another kind returned for a number
    asks for the loop to be built again from that kind (_Retype)."""
    retype = {}
    for i, (first, holder, out) in enumerate(zip(start, holders, outs)):
        if is_number(out) and is_variable(holder) and not is_number(first):
            try:
                outs[i] = as_variable(out, holder)
            except NoPlaceholder:
                pass
        elif (is_number(first) and is_variable(out) and out.kind == "dense"
              and (out.dtype != holder.dtype or list(out.shape) != list(holder.shape))
              and all(d >= 0 for d in out.shape)):
            retype[i] = out
    if retype:
        raise _Retype(retype)
    return outs


def _args(values, carried, loop):
    """The routed values with the carried ones replaced by loop variables (arrays wrapped
    as ArrayLists)."""
    args = list(values)
    for k, v in zip(carried, loop):
        args[k] = ArrayList(v) if is_variable(v) and v.kind == "array" else v
    return args


def _is_list(value):
    """A Python list of Variables (empty included): appended to, it becomes an array."""
    return isinstance(value, list) and all(is_variable(v) for v in value)


def _unwrap(value):
    """A body result as a loop variable."""
    return value.var if isinstance(value, ArrayList) else value


def _probe(body_fn, values, tracked):
    """Trace the body once into a scratch block (then discarded) to learn what missing
    values and appended lists hold; returns (results, the lists after the body). Objects
    the body changes in place are put back afterwards."""
    program = default_main_program()
    count, current = len(program.blocks), program._current
    program._create_block()
    args = [ProbeList(v) if _is_list(v) else v for v in values]
    try:
        return list(body_fn(*args)), args
    finally:
        del program.blocks[count:]
        program._current = current
        tracked.restore()


def _with_probe(values, probe):
    """Initial values: placeholders for missing ones, arrays for lists (when appended)."""
    results, lists = probe
    out = []
    for v, result, after in zip(values, results, lists):
        if is_missing(v):
            try:
                v = placeholder(result, unread=v is NO_RETURN)
            except NoPlaceholder:
                pass
        elif _is_list(v) and (after.appended is not None or len(after) > len(v)):
            # the item appended last, even if popped since (a number while the probe's
            # loop counter is still one)
            like = after[-1] if after.appended is None else after.appended
            v = ArrayList(to_array(v, as_variable(like, like) if is_number(like) else like))
        elif _is_list(v) and isinstance(result, ArrayList):
            # an inner Tensor loop appended to it: an array of the inner array's items
            v = ArrayList(to_array(v, result.var))
        out.append(v)
    return out


_VALUE_TYPES = (range, str, bytes, int, float, bool, type(None))


def _unchanged(before, after):
    """True when the body left a Python value as it was: the same object, or an equal
    immutable value made again (an inner loop's `range(3)` rebuilt at each iteration)."""
    if after is before:
        return True
    return type(after) is type(before) and isinstance(after, _VALUE_TYPES) and after == before


def _check_invariants(values, result, names, carried):
    """Values the loop cannot carry (Python objects) must not change in the body."""
    kept = set(carried)
    for k, (before, after) in enumerate(zip(values, result)):
        if k not in kept and not is_missing(before) and not _unchanged(before, after):
            raise NotImplementedError(
                f"{names[k]!r} is rebound to a non-Tensor value ({after!r}) inside a loop "
                f"whose condition is a Tensor; only Tensors, numbers and lists appended to "
                f"can change there")

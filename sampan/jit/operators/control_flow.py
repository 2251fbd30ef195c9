"""`if`, `a if c else b` and `while` of converted code: Python control flow on Python values,
static control flow when the test is a Variable (`_tensor_if` / `_tensor_while`)."""
from ...ops._generated import api
from ...static.mode import constant_var
from .. import report
from ..segments import breaks
from ..segments.breaks import BreakInBlock
from .common import is_variable, load_values, where
from .effects import MutationError, Tracked
from .static_if import tensor_if
from .static_while import tensor_while

__all__ = ["IfElse", "IfElseExpr", "While"]


def _as_bool(pred):
    """A bool Variable for test `pred` (a Variable or a Python value)."""
    if not is_variable(pred):
        return constant_var(bool(pred))
    return pred if pred.dtype.name == "bool" else api.cast(pred, "bool")


def _tracked(effects, fn):
    """The objects a converted if/loop changes in place, placed at `fn`'s user line."""
    return Tracked(effects, "%s:%s" % where(fn) if effects else "")


# What makes a Tensor if/while run as Python under full_graph=False (its test read at a
# break): a break inside its body, or an in-place change of an object no op can carry.
_AS_PYTHON = (BreakInBlock, MutationError, NotImplementedError)


def _tensor_if(pred, true_fn, false_fn, values, names, effects=(), expression=None):
    """Both branches as sub-blocks of one `cond` op (the one place choosing how). Under
    full_graph=False a branch that needs a value (a graph break inside a sub-block) makes
    the if Python: the test's value is read at a break and one branch runs. `expression`:
    the converted code's true function of an `a if c else b` (for the report)."""
    site, construct = (true_fn, "if") if expression is None else (expression, "if expression")
    point = report.mark()
    try:
        with breaks.building_block():
            outs = tensor_if(_as_bool(pred), true_fn, false_fn, values, names,
                             _tracked(effects, true_fn))
    except _AS_PYTHON as exc:
        if breaks.active() is None:
            raise
        report.rollback(point)
        inside = getattr(exc, "graph_break", exc)
    else:
        report.cond(site, pred, construct)
        return outs
    outs = true_fn(*values) if pred else false_fn(*values)
    report.python_after_break(site, inside, construct)
    return outs


def IfElse(pred, true_fn, false_fn, getters, names, effects=()):
    """Run `if pred` on the loaded variables; returns their new values (a tuple).
    `effects`: (getter, attributes or None, label) of the objects the branches change in
    place (only looked at when `pred` is a Tensor)."""
    values = load_values(getters, names, true_fn)
    if is_variable(pred):
        return _tensor_if(pred, true_fn, false_fn, values, names, effects)
    if pred:
        report.python_if(true_fn, pred, True)
        return true_fn(*values)
    report.python_if(true_fn, pred, False)
    return false_fn(*values)


def IfElseExpr(pred, true_fn, false_fn):
    """`true_fn() if pred else false_fn()` (lazy zero-argument functions)."""
    if is_variable(pred):
        return _tensor_if(pred, lambda: (true_fn(),), lambda: (false_fn(),), (),
                          ("<conditional expression>",), expression=true_fn)[0]
    if pred:
        report.python_if(true_fn, pred, True, "if expression")
        return true_fn()
    report.python_if(true_fn, pred, False, "if expression")
    return false_fn()


def _tensor_while(cond_fn, body_fn, values, names, effects, test, unrolled):
    """The loop-carried variables through one `while` op (the one place choosing how); as
    `_tensor_if`, a graph break in its body makes it a Python loop, one break per test.
    `test`, the first Tensor test, and `unrolled`, the iterations run as Python before it,
    are for the conversion report."""
    point = report.mark()
    try:
        with breaks.building_block():
            outs = tensor_while(cond_fn, body_fn, values, names, _as_bool,
                                _tracked(effects, cond_fn))
    except _AS_PYTHON as exc:
        if breaks.active() is None:
            raise
        report.rollback(point)
        inside = getattr(exc, "graph_break", exc)
    else:
        report.tensor_loop(cond_fn, test, unrolled)
        return outs
    while cond_fn(*values):
        values = body_fn(*values)
    report.python_after_break(cond_fn, inside, None)
    return values


def While(cond_fn, body_fn, getters, names, effects=()):
    """Run `while cond` on the loaded loop variables; returns their final values (a tuple).
    `effects` as for IfElse (the objects the body changes in place)."""
    values = load_values(getters, names, cond_fn)
    iterations = 0
    while True:
        test = cond_fn(*values)
        if is_variable(test):
            return _tensor_while(cond_fn, body_fn, values, names, effects, test, iterations)
        if not test:
            report.unrolled(cond_fn, iterations)
            return values
        values = body_fn(*values)
        iterations += 1

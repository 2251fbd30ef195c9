"""`and` / `or` / `not` and chained comparisons: Python short-circuit on Python values,
logical ops on Variables."""
import operator

from ...ops._generated import api
from .common import is_variable

__all__ = ["And", "Or", "Not", "Compare"]

_COMPARISONS = {"Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt, "GtE": operator.ge,
                "Eq": operator.eq, "NotEq": operator.ne, "Is": operator.is_,
                "IsNot": operator.is_not, "In": lambda a, b: a in b,
                "NotIn": lambda a, b: a not in b}


def _as_bool_var(value):
    """A bool Variable for a Variable operand."""
    return value if value.dtype.name == "bool" else api.cast(value, "bool")


def _fold(op, value, rest, stop_when):
    """Combine a Variable with the remaining (lazy) operands by `op`; those are evaluated
    as Python would nest them (`v or (a or b)`), so a Python operand that decides stops
    the ones after it (`t > 1 or a is None or a > 1` never compares None)."""
    other = _short_circuit(rest, stop_when, op)
    return op(_as_bool_var(value), _as_bool_var(other) if is_variable(other) else bool(other))


def _short_circuit(fns, stop_when, op):
    """Evaluate lazy operands left to right like Python, switching to `op` on a Variable."""
    value = fns[0]()
    for k, fn in enumerate(fns[1:], start=1):
        if is_variable(value):
            return _fold(op, value, fns[k:], stop_when)
        if bool(value) == stop_when:
            return value
        value = fn()
    return value


def And(*fns):
    """`a and b and ...` with operands given as zero-argument functions."""
    return _short_circuit(fns, False, api.logical_and)


def Or(*fns):
    """`a or b or ...` with operands given as zero-argument functions."""
    return _short_circuit(fns, True, api.logical_or)


def Not(value):
    """`not value`."""
    return api.logical_not(_as_bool_var(value)) if is_variable(value) else not value


def Compare(left, names, *operands):
    """`a < b <= c ...`: the comparisons joined by `and` as Python does, each operand (a
    zero-argument function) evaluated at most once and in order; on Tensors the results
    are combined by logical_and instead of asking a Variable for its truth value."""
    values = [left()]

    def comparison(k):
        def run():
            right = operands[k]()
            result = _COMPARISONS[names[k]](values[-1], right)
            values.append(right)
            return result
        return run
    return And(*[comparison(k) for k in range(len(names))])

"""`paddle.static.py_func`: a Python function run as an op of a static Program.

The functions live in a process-wide table; the `py_func` op names them by index
(`forward_callable_id`, `backward_callable_id`), as Paddle's op does, so the Program
stays plain data. The op's exec rule calls the function on NumPy arrays and checks each
result against the declared output variable; its grad rule appends a `py_func` op
calling `backward_func`.
"""
import numpy as np

from .backward import register_grad_rule
from .control_flow.rules import Bound, in_dynamic_mode, register
from .framework import Variable
from .mode import user_origin
from .program_state import default_main_program

__all__ = ["py_func"]

_CALLABLES = []


def _callable_id(fn):
    """Index of `fn` in the table (-1 for None)."""
    if fn is None:
        return -1
    _CALLABLES.append(fn)
    return len(_CALLABLES) - 1


def _as_vars(value, what):
    """A list of Variables from None, one Variable or a list/tuple of them."""
    items = [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]
    for item in items:
        if not isinstance(item, Variable):
            raise TypeError(f"py_func(): argument '{what}' must be a Variable, a list of "
                            f"Variables or None, got an item of type {type(item).__name__}")
    return items


def _as_results(result, count, where):
    """The function's return value as a list of `count` items."""
    if count == 0:
        return []
    items = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(items) != count:
        raise ValueError(f"py_func(): {where} returned {len(items)} values for {count} "
                         f"outputs")
    return items


def _checked(value, name, shape, dtype, where):
    """`value` as an array of the declared dtype; ValueError when its shape does not fit
    the declared one (-1 dims match any size)."""
    if value is None:
        raise ValueError(f"py_func(): {where} returned None for output {name!r}")
    array = np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype=dtype.np)
    if len(shape) != array.ndim or any(d >= 0 and d != n for d, n in zip(shape, array.shape)):
        raise ValueError(f"py_func(): {where} returned shape {list(array.shape)} for output "
                         f"{name!r}, declared {list(shape)}")
    return array


def _py_func_rule(node, ctx):
    """Executor rule: call the function, keep the results listed in `keep`, check them."""
    fn = _CALLABLES[node.attrs["forward_callable_id"]]
    keep, outs = node.attrs["keep"], node.outputs.get("Out", [])
    metas = [(n, ctx.block.var(n)._shape, ctx.block.var(n).dtype) for n in outs]
    where = getattr(fn, "__name__", "func")

    def run(*values):
        results = _as_results(fn(*values), node.attrs["result_count"], where)
        return tuple(_checked(results[k], n, s, d, where)
                     for k, (n, s, d) in zip(keep, metas))
    return Bound(run, node.inputs.get("X", []), outs, False)


def _wants_grad(block, name):
    """True for forward inputs that take a gradient: floating and not stop_gradient."""
    var = block.var(name)
    return var.dtype.is_floating and not var.stop_gradient


def _py_func_grad(block, op, table):
    """Append the `py_func` op calling backward_func(x, out, out grads minus skipped)."""
    backward_id = op.attr("backward_callable_id")
    if backward_id < 0:
        return
    skip = set(op.attr("skip_vars"))
    xs, outs = op.input("X"), op.output("Out")
    reads = [n for n in xs + outs if n not in skip] + [table.read(n) for n in outs]
    keep = [k for k, n in enumerate(xs) if _wants_grad(block, n)]
    block.append_op("py_func", {"X": reads},
                    {"Out": [table.output_name(xs[k]) for k in keep]},
                    {"forward_callable_id": backward_id, "backward_callable_id": -1,
                     "skip_vars": [], "keep": keep, "result_count": len(xs)}, op.origin)


register("py_func", _py_func_rule)
register_grad_rule("py_func", _py_func_grad)


def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
    """Run `func(*arrays of x)` as an op; its results fill the Variables `out` (created
    beforehand with their shape and dtype). Returns `out`.

    `backward_func` receives the values of x, out and the gradients of out (leaving out
    the Variables in `skip_vars_in_backward_input`) and returns one gradient per x.
    Static mode only.
    """
    if in_dynamic_mode():
        raise RuntimeError("py_func() adds an op to a static Program; call the Python "
                           "function directly in dynamic mode")
    if not callable(func):
        raise TypeError(f"py_func(): argument 'func' must be callable, got "
                        f"{type(func).__name__}")
    if backward_func is not None and not callable(backward_func):
        raise TypeError(f"py_func(): argument 'backward_func' must be callable or None, got "
                        f"{type(backward_func).__name__}")
    xs, outs = _as_vars(x, "x"), _as_vars(out, "out")
    skips = _as_vars(skip_vars_in_backward_input, "skip_vars_in_backward_input")
    known = {v.name for v in xs + outs}
    for var in skips:
        if var.name not in known:
            raise ValueError(f"py_func(): argument 'skip_vars_in_backward_input' names "
                             f"{var.name!r}, which is neither in 'x' nor in 'out'")
    for var in outs:
        var.stop_gradient = backward_func is None
    default_main_program().current_block().append_op(
        "py_func", {"X": [v.name for v in xs]}, {"Out": [v.name for v in outs]},
        {"forward_callable_id": _callable_id(func),
         "backward_callable_id": _callable_id(backward_func),
         "skip_vars": [v.name for v in skips], "keep": list(range(len(outs))),
         "result_count": len(outs)}, user_origin())
    return out

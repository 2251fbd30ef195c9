"""`assert` on a Tensor in a static Program: an `assert` op checked at each run.

Converted code's `assert cond, msg` appends it when `cond` is a Variable, so a failing
assertion raises at run time (as in Paddle) instead of being skipped. An exec-rule op
type: the executor never prunes it although it has no outputs.
"""
import numpy as np

from .control_flow.rules import Bound, in_dynamic_mode, register
from .mode import user_origin
from .program_state import default_main_program

__all__ = ["Assert"]


def _message(attrs, cond_name, data):
    text = attrs["message"] or f"the condition {cond_name!r} is false"
    shown = [np.asarray(d).reshape(-1)[:attrs["summarize"]].tolist() for d in data]
    return f"assertion failed: {text}" + (f"; data: {shown}" if shown else "")


def _assert_rule(node, ctx):
    """Executor rule: raise ValueError when any element of the condition is false."""
    attrs, cond_name = node.attrs, node.inputs["Cond"][0]

    def run(cond, *data):
        if not np.all(cond):
            raise ValueError(_message(attrs, cond_name, data))
        return ()
    return Bound(run, node.inputs["Cond"] + node.inputs.get("Data", []), [], False)


register("assert", _assert_rule, fields=({"Cond": "one", "Data": "many"}, {},
                                         {"summarize": "int", "message": "str"}))


def Assert(cond, data=None, summarize=20, message=None):  # noqa: N802 (Paddle's name)
    """Check that every element of bool tensor `cond` is true: at once in dynamic mode, at
    each run of the Program in static mode; ValueError (showing `data`) otherwise."""
    data = list(data or [])
    attrs = {"summarize": int(summarize), "message": message or ""}
    if in_dynamic_mode():
        if not np.all(cond.numpy()):
            raise ValueError(_message(attrs, getattr(cond, "name", "cond"),
                                      [d.numpy() for d in data]))
        return None
    block = default_main_program().current_block()
    block.append_op("assert", {"Cond": [cond.name], "Data": [d.name for d in data]}, {},
                    attrs, user_origin())
    return None

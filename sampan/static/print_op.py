"""Print ops: `paddle.static.Print` shows a tensor's value when the Program runs, and
`print_line` is one Python `print(...)` call of converted code, printed at each run.

In static mode Print appends a `print` op (an exec-rule op type, so the executor never
prunes, merges or folds it) whose output is its input; its gradient passes the output
gradient through, printing it when `print_phase` includes the backward pass. In dynamic
mode the tensor is printed at once. The text follows Paddle's tensor formatter.
"""
import sys

import numpy as np

from ..core.printing import tensor_text
from ..core.unique_name import generate
from .backward import register_grad_rule
from .framework import Variable
from .control_flow.rules import Bound, in_dynamic_mode, register
from .mode import user_origin
from .program_state import default_main_program

__all__ = ["Print", "format_tensor", "print_line", "STREAMS"]

_PHASES = ("FORWARD", "BACKWARD", "BOTH")
_PRINTABLE = ("float32", "float64", "int32", "int64", "bool", "float16", "bfloat16")


def _number(value):
    """A value as C++ streams write it (6 significant digits; bools as 0/1)."""
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return str(int(value))
    return "%g" % float(value)


def _data_line(array, dtype_name, summarize):
    """`  - data: [...]` with the first `summarize` values (-1: all)."""
    if dtype_name not in _PRINTABLE:
        return f"  - data: unprintable type: {dtype_name}"
    flat = np.asarray(array).reshape(-1)
    count = flat.size if summarize == -1 else min(summarize, flat.size)
    items = [_number(flat[0])] if count > 0 else []
    items += ["%g" % float(np.float32(v)) for v in flat[1:count]]
    return "  - data: [" + " ".join(items) + "]"


def format_tensor(array, name, message="", summarize=20, print_tensor_name=True,
                  print_tensor_type=True, print_tensor_shape=True, print_tensor_lod=True):
    """The text Print writes for one tensor value (ends with a newline)."""
    array = np.asarray(array)
    dtype_name = array.dtype.name
    lines = [f"Variable: {name}"] if print_tensor_name and name else []
    if message:
        lines.append(f"  - message: {message}")
    if print_tensor_lod:
        lines.append("  - lod: {}")
    lines.append("  - place: Place(cpu)")
    if print_tensor_shape:
        lines.append("  - shape: [" + ", ".join(str(d) for d in array.shape) + "]")
    lines.append("  - layout: NCHW")
    if print_tensor_type:
        lines.append(f"  - dtype: {dtype_name}")
    lines.append(_data_line(array, dtype_name, summarize))
    return "\n".join(lines) + "\n"


def _show(array, name, attrs):
    """Write one tensor to stdout as the print op does."""
    sys.stdout.write(format_tensor(array, name, attrs["message"], attrs["summarize"],
                                   attrs["print_tensor_name"], attrs["print_tensor_type"],
                                   attrs["print_tensor_shape"], attrs["print_tensor_lod"]))
    sys.stdout.flush()


def _print_rule(node, ctx):
    """Executor rule: print (the first `first_n` runs of this op, -1: every run) in the
    phases `print_phase` names, and pass the value on."""
    attrs, runs = node.attrs, [0]
    phase = "FORWARD" if attrs["is_forward"] else "BACKWARD"
    active = attrs["print_phase"] in (phase, "BOTH")

    def run(value):
        if active and (attrs["first_n"] < 0 or runs[0] < attrs["first_n"]):
            _show(value, attrs["var_name"], attrs)
        runs[0] += 1
        return value
    return Bound(run, node.inputs["In"], node.outputs["Out"], True)


def _print_grad(block, op, table):
    """The gradient of print is a print of the output gradient (or a plain pass when the
    backward phase is not printed)."""
    grad_in = table.read(op.output("Out")[0])
    grad_out = table.output_name(op.input("In")[0])
    attrs = dict(op.attrs, is_forward=False, var_name=grad_in)
    block.append_op("print", {"In": [grad_in]}, {"Out": [grad_out]}, attrs, op.origin)


register("print", _print_rule, fields=(
    {"In": "one"}, {"Out": "one"},
    {"first_n": "int", "message": "str", "summarize": "int", "print_tensor_name": "bool",
     "print_tensor_type": "bool", "print_tensor_shape": "bool", "print_tensor_lod": "bool",
     "print_phase": "str", "is_forward": "bool", "var_name": "str"}))
register_grad_rule("print", _print_grad)


def _check_args(input, first_n, message, summarize, print_phase):
    """ValueError / TypeError naming the argument Print cannot use."""
    if not hasattr(input, "dtype") or not hasattr(input, "shape"):
        raise TypeError(f"Print(): argument 'input' must be a Tensor, got "
                        f"{type(input).__name__}")
    for name, value in (("first_n", first_n), ("summarize", summarize)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"Print(): argument '{name}' must be an int, got {value!r}")
    if message is not None and not isinstance(message, str):
        raise TypeError(f"Print(): argument 'message' must be a str or None, got "
                        f"{type(message).__name__}")
    if not isinstance(print_phase, str) or print_phase.upper() not in _PHASES:
        raise ValueError(f"Print(): argument 'print_phase' must be 'forward', 'backward' or "
                         f"'both', got {print_phase!r}")


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True,  # noqa: A002,N802
          print_tensor_type=True, print_tensor_shape=True, print_tensor_lod=True,
          print_phase="both"):
    """Print `input` (name, message, lod, place, shape, layout, dtype and its first
    `summarize` values) when it is computed; returns a tensor equal to `input`.

    In static mode the printing happens at each Executor run (at most `first_n` times,
    -1: always) and, with print_phase 'backward' or 'both', also for its gradient.
    """
    _check_args(input, first_n, message, summarize, print_phase)
    attrs = {"first_n": int(first_n), "message": message or "", "summarize": int(summarize),
             "print_tensor_name": bool(print_tensor_name),
             "print_tensor_type": bool(print_tensor_type),
             "print_tensor_shape": bool(print_tensor_shape),
             "print_tensor_lod": bool(print_tensor_lod),
             "print_phase": print_phase.upper(), "is_forward": True, "var_name": input.name}
    if in_dynamic_mode():
        if attrs["first_n"] != 0 and attrs["print_phase"] != "BACKWARD":
            _show(input.numpy(), input.name, attrs)
        return input
    block = default_main_program().current_block()
    out = block.create_var(generate("print"), input._shape, input.dtype,
                           stop_gradient=input.stop_gradient)
    block.append_op("print", {"In": [input.name]}, {"Out": [out.name]}, attrs, user_origin())
    return out


STREAMS = {"stdout": lambda: sys.stdout, "stderr": lambda: sys.stderr}


def _print_line_rule(node, ctx):
    """Executor rule: print the call's pieces, each tensor as an eager Tensor prints."""
    attrs = node.attrs

    def run(*arrays):
        values = iter(zip(arrays, attrs["dtypes"], attrs["stop_gradients"]))
        pieces = [tensor_text(*next(values)) if is_tensor else text
                  for text, is_tensor in zip(attrs["texts"], attrs["is_tensor"])]
        print(*pieces, sep=attrs["sep"], end=attrs["end"], file=STREAMS[attrs["stream"]](),
              flush=attrs["flush"])
        return ()
    return Bound(run, node.inputs["X"], [], False)


register("print_line", _print_line_rule)


def print_line(args, sep=" ", end="\n", stream="stdout", flush=False):
    """Append a `print_line` op: `print(*args, sep=sep, end=end)` at each run of the
    Program, a Variable among `args` showing its value (Python values print as they are
    now). `stream` is "stdout" or "stderr"."""
    is_tensor = [isinstance(a, Variable) for a in args]
    variables = [a for a, t in zip(args, is_tensor) if t]
    attrs = {"texts": ["" if t else str(a) for a, t in zip(args, is_tensor)],
             "is_tensor": is_tensor, "dtypes": [v.dtype.name for v in variables],
             "stop_gradients": [bool(v.stop_gradient) for v in variables],
             "sep": " " if sep is None else sep, "end": "\n" if end is None else end,
             "stream": stream, "flush": bool(flush)}
    block = default_main_program().current_block()
    block.append_op("print_line", {"X": [v.name for v in variables]}, {}, attrs,
                    user_origin())

"""StaticMode: append an Operator to the current Block; outputs get inferred metas."""
import contextlib
import os
import sys
import threading

import numpy as np

from ..core import dtype as dtypes
from ..core.errors import InvalidArgument
from ..core.grad_state import STATE as GRAD_STATE
from ..core.unique_name import generate
from ..ops.diagnostics import invalid_argument_error
from .guards import current_op_device
from ..ops.meta import MetaTensor
from ..ops.registry import OPS
from .framework import Variable
from .program_state import default_main_program

__all__ = ["StaticMode", "STATIC", "user_origin", "is_sampan_file", "constant_var",
           "register_origin_translator", "capturing_tensors", "is_capturing_tensors", "observing_arguments",
           "outputs_named_after", "quiet_while_recording"]

_SAMPAN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TRANSLATORS = []


def register_origin_translator(translate):
    """Map generated code back to user code in op origins.

    `translate(filename, lineno)` returns (file, line, function, source text) for a line of
    code that some layer generated (to_static's converted functions), or None.
    """
    _TRANSLATORS.append(translate)


def is_sampan_file(path):
    """True for a source file of sampan itself."""
    return path.startswith(_SAMPAN_DIR)


def user_origin():
    """(file, line, function, source line) of the innermost caller outside sampan. Generated
    code counts as the source it was converted from, so a sampan layer converted by
    to_static (`to_static(nn.Linear(4, 3))`) is skipped too: the origin is the line that
    called it."""
    frame = sys._getframe(1)
    while frame is not None:
        found = _user_frame(frame)
        if found is not None:
            return found
        frame = frame.f_back
    return None


def _user_frame(frame):
    """The user origin of one frame, or None for a frame of sampan's own code."""
    filename = frame.f_code.co_filename
    if is_sampan_file(filename):
        return None
    for translate in _TRANSLATORS:
        found = translate(filename, frame.f_lineno)
        if found is not None:
            return None if is_sampan_file(found[0]) else found
    import linecache
    text = linecache.getline(filename, frame.f_lineno).strip()
    return (filename, frame.f_lineno, frame.f_code.co_name, text)


def constant_var(value, like=None):
    """A Variable holding a Python scalar or array, built with a full/assign_value op."""
    if isinstance(value, (bool, int, float)):
        dt = dtypes.scalar_dtype(value, like)
        return STATIC.run_op(OPS["full"], (), ((), value, dt))
    array = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
    dt = dtypes.from_numpy_dtype(array.dtype)
    return STATIC.run_op(OPS["assign_value"], (), (tuple(array.shape), dt, array.tolist()))


class _Capture(threading.local):
    """Per thread: how an eager tensor read by a static op enters the Program (None: as a
    constant holding its current values)."""

    tensor_to_var = None


_CAPTURE = _Capture()


def is_capturing_tensors():
    """True inside `capturing_tensors`: while to_static builds its Program."""
    return _CAPTURE.tensor_to_var is not None


@contextlib.contextmanager
def capturing_tensors(tensor_to_var):
    """Inside: an eager tensor given to a static op becomes `tensor_to_var(tensor)`, a
    Variable (to_static reads parameters and tensors from outside the function as inputs of
    each run, so they train and stay current, instead of freezing them as constants)."""
    previous = _CAPTURE.tensor_to_var
    _CAPTURE.tensor_to_var = tensor_to_var
    try:
        yield
    finally:
        _CAPTURE.tensor_to_var = previous


class _Observer(threading.local):
    """Per thread: a function shown the Python arguments of every op recorded (None: none)."""

    observe = None


_OBSERVER = _Observer()


@contextlib.contextmanager
def observing_arguments(observe):
    """Inside: `observe(tensors, attrs)` sees each recorded op's arguments before they are
    converted (to_static's graph-break mode learns there which values read at a break a
    Program depends on)."""
    previous = _OBSERVER.observe
    _OBSERVER.observe = observe
    try:
        yield
    finally:
        _OBSERVER.observe = previous


class _QuietProfile(threading.local):
    """Per thread: a profile function that need not see ops being recorded (to_static's
    effect audit, which trusts sampan's own code), or None."""

    hook = None


_QUIET = _QuietProfile()


@contextlib.contextmanager
def quiet_while_recording(hook):
    """Inside: while `hook` is this thread's profile function, recording an op runs
    without it (tracing a large function makes millions of profile events there)."""
    previous = _QUIET.hook
    _QUIET.hook = hook
    try:
        yield
    finally:
        _QUIET.hook = previous


class _LayerPrefix(threading.local):
    """Per thread: the unique name of the static layer being built (None: outside one)."""

    prefix = None


_LAYER = _LayerPrefix()


@contextlib.contextmanager
def outputs_named_after(prefix):
    """Inside: op outputs are named `<prefix>.tmp_N`, as Paddle's layers name their
    temporaries, so that a layer such as static.nn.conv2d uses up one unique name
    (`conv2d_0`) instead of one more per op it records."""
    previous = _LAYER.prefix
    _LAYER.prefix = prefix
    try:
        yield
    finally:
        _LAYER.prefix = previous


def _output_name(op_prefix, pos, k=None):
    """The name of output `pos` (item `k` of a list output) of an op being recorded."""
    if _LAYER.prefix is not None:
        return generate(f"{_LAYER.prefix}.tmp")
    return f"{op_prefix}.tmp_{pos}" if k is None else f"{op_prefix}.tmp_{pos}_{k}"


def _first_dtype(tensors):
    for t in tensors:
        if isinstance(t, Variable):
            return t.dtype
    return None


def _as_var(op, name, kind, value, like):
    """Variable (or list/None) for one tensor argument."""
    if kind == "Tensor[]":
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{op.name}(): argument '{name}' must be a list of Variables")
        return [_as_var(op, name, "Tensor", v, like) for v in value]
    if value is None:
        if kind != "Tensor?":
            raise TypeError(f"{op.name}(): argument '{name}' is required, got None")
        return None
    if isinstance(value, Variable):
        return value
    if _CAPTURE.tensor_to_var is not None and hasattr(value, "_node"):
        return _CAPTURE.tensor_to_var(value)
    if isinstance(value, (bool, int, float, np.ndarray, np.generic)) or hasattr(value, "numpy"):
        return constant_var(value, like)
    raise TypeError(f"{op.name}(): argument '{name}' must be a Variable, got "
                    f"{type(value).__name__}")


def _meta(var):
    if var is None:
        return None
    if isinstance(var, list):
        return [_meta(v) for v in var]
    return MetaTensor(var._shape, var._dtype)


def _names(var):
    if var is None:
        return []
    if isinstance(var, list):
        return [v.name for v in var]
    return [var.name]


class StaticMode:
    """Records ops into the current block of the default main program."""

    is_static = True

    def run_op(self, op, tensors, attrs):
        """Infer output metas, create output Variables and append the Operator."""
        hook = _QUIET.hook
        if hook is not None and sys.getprofile() is hook:
            sys.setprofile(None)
            try:
                return self._record(op, tensors, attrs)
            finally:
                sys.setprofile(hook)
        return self._record(op, tensors, attrs)

    def _record(self, op, tensors, attrs):
        if _OBSERVER.observe is not None:
            _OBSERVER.observe(tensors, attrs)
        like = _first_dtype(tensors)
        vars_in = [_as_var(op, n, k, v, like)
                   for n, k, v in zip(op.tensor_names, op.tensor_kinds, tensors)]
        metas = [_meta(v) for v in vars_in]
        origin = user_origin()
        try:
            out_metas = op.infer_meta(*metas, *attrs)
        except InvalidArgument as err:
            where = f"built at {origin[0]}:{origin[1]}: {origin[3]}" if origin else ""
            raise invalid_argument_error(op, metas, attrs, err, where) from None
        out_metas = op.result_tuple(out_metas)
        block = default_main_program().current_block()
        stop = op.backward is None or not GRAD_STATE.enabled or all(
            v is None or (all(x.stop_gradient for x in v) if isinstance(v, list)
                          else v.stop_gradient)
            for i, v in enumerate(vars_in) if i in op.grad_inputs)
        prefix = generate(op.name) if _LAYER.prefix is None else None
        outs, out_names = [], {}
        for pos, (name, kind, meta) in enumerate(zip(op.output_names, op.output_kinds,
                                                     out_metas)):
            no_grad = stop or pos not in op.grad_outputs
            if kind == "Tensor[]":
                made = [block.create_var(_output_name(prefix, pos, k), m.shape, m.dtype,
                                         stop_gradient=no_grad) for k, m in enumerate(meta)]
            else:
                made = block.create_var(_output_name(prefix, pos), meta.shape, meta.dtype,
                                        stop_gradient=no_grad)
            outs.append(made)
            out_names[name] = _names(made)
        op_attrs = op.attrs_dict(attrs)
        device = current_op_device()
        if device is not None:
            op_attrs["op_device"] = device
        block.append_op(op.name, {n: _names(v) for n, v in zip(op.tensor_names, vars_in)},
                        out_names, op_attrs, origin)
        return outs[0] if op.single_output else outs


STATIC = StaticMode()

"""Tensor creation with Paddle signatures (to_tensor, zeros, ones, full, ...)."""
import functools
import inspect
import numbers

import numpy as np

from ..core import dtype as dtypes
from ..core.dispatch import current_mode
from ..eager.grad_mode import no_grad
from ..eager.tensor import Tensor
from ..ops._generated import api
from ..ops.indexing_methods import arange_at_run_time
from .manipulation import has_symbolic_size, size_tensor, sizes_as_list

__all__ = ["to_tensor", "zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "empty",
           "empty_like", "arange", "eye", "rand", "uniform", "randn", "standard_normal", "normal",
           "randint", "randperm", "rand_like", "randn_like", "linspace", "randint_like"]


def _check_device(device, fn):
    """Refuse a device other than the CPU (the only one sampan runs on) for `fn`."""
    if device is None or str(device).lower().replace("place", "").startswith(("cpu", "(cpu")):
        return
    raise ValueError(f"{fn}: argument 'device' is {device!r}, but sampan runs on the CPU "
                     f"only (pass None or 'cpu')")


def _creation_options(fn):
    """Give creation function `fn` Paddle 3's keyword-only options: `device` (the CPU only),
    `requires_grad` (the result's stop_gradient is its negation) and `pin_memory` (no effect
    on the CPU)."""
    @functools.wraps(fn)
    def create(*args, device=None, requires_grad=False, pin_memory=False, **kwargs):
        _check_device(device, fn.__name__)
        out = fn(*args, **kwargs)
        if requires_grad:
            out.stop_gradient = False
        return out
    signature = inspect.signature(fn)
    options = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d)
               for n, d in (("device", None), ("requires_grad", False), ("pin_memory", False))]
    create.__signature__ = signature.replace(parameters=[*signature.parameters.values(),
                                                         *options])
    return create


def _infer_array(data, dtype, error=TypeError):
    """NumPy array for `to_tensor` with Paddle's default dtypes. Data that is no number,
    nested list or array (a dict, a set, None, text) raises `error`: a TypeError eagerly,
    a RuntimeError while a Program is built (Paddle's types in each mode)."""
    if isinstance(data, Tensor):
        array = data._data
    else:
        try:
            array = np.asarray(data)
        except ValueError as err:
            raise ValueError(f"to_tensor: {type(data).__name__} data must be rectangular "
                             f"(nested lists of equal lengths at every level): {err}") from None
        if dtype is None and array.dtype.kind in "fc" and array.dtype.itemsize >= 8 and \
                not isinstance(data, (np.ndarray, np.generic)):
            # Python floats/complexes take the default float (complex64 beside float32)
            array = array.astype(_default_of_kind(array.dtype.kind))
        elif array.dtype.kind in "USVO":
            items = " of text" if array.dtype.kind in "US" else " of other objects"
            held = items if isinstance(data, (list, tuple, np.ndarray)) else ""
            raise error(f"to_tensor: Do not support transform type `{type(data)}`{held} to "
                        f"tensor: data must be a number, a nested list or tuple of numbers, "
                        f"a numpy.ndarray or a Tensor")
    if dtype is not None:
        array = array.astype(dtypes.to_dtype(dtype).np)
    return array


def _default_of_kind(kind):
    """The default float dtype ("f") or its complex counterpart ("c")."""
    floating = dtypes.default_float().np
    return floating if kind == "f" else np.result_type(floating, np.complex64)


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """A new tensor holding `data` (Python float -> float32, int -> int64, like Paddle).
    A tensor is copied by an op (so tracing records it), with no autograd history."""
    if isinstance(data, Tensor) and not current_mode().is_static:
        with no_grad():
            out = api.assign(data) if dtype is None else api.cast(api.assign(data), dtype)
        out.stop_gradient = stop_gradient
        return out
    if current_mode().is_static:
        return _static_to_tensor(data, dtype, stop_gradient)
    return Tensor(np.array(_infer_array(data, dtype), copy=True), stop_gradient=stop_gradient)


def _static_to_tensor(data, dtype, stop_gradient):
    """to_tensor while a Program is built: a Variable is copied by an assign op (a cast
    when `dtype` differs), a list holding Variables is stacked from its items, and other
    data becomes a constant."""
    from ..static.framework import Variable
    from ..static.mode import constant_var
    if isinstance(data, Variable):
        out = api.assign(data)
        if dtype is not None and dtypes.to_dtype(dtype) != out.dtype:
            out = api.cast(out, dtype)
    elif isinstance(data, (list, tuple)) and _holds_variable(data, Variable):
        like = dtype or next(v.dtype for v in _variables(data, Variable))
        out = api.stack([_static_to_tensor(item, like, stop_gradient) for item in data])
    else:
        out = constant_var(np.array(_infer_array(data, dtype, RuntimeError), copy=True))
    out.stop_gradient = stop_gradient
    return out


def _variables(data, kind):
    """The `kind` objects (Variables) in nested lists/tuples `data`, in order."""
    if isinstance(data, kind):
        yield data
    elif isinstance(data, (list, tuple)):
        for item in data:
            yield from _variables(item, kind)


def _holds_variable(data, kind):
    """True when nested lists/tuples `data` hold a `kind` object (a Variable)."""
    return next(_variables(data, kind), None) is not None


def _shape(shape):
    """Shape argument as a tuple of ints (accepts an int, list, tuple or tensor)."""
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape._data.reshape(-1))
    return tuple(int(s) for s in shape)


def _sizes(shape):
    """A shape argument as a tuple of ints, or as a 1-D int64 tensor when some size is known
    only at run time (a static Variable in the list, or one holding all the sizes)."""
    if has_symbolic_size(shape):
        return size_tensor(shape)
    if getattr(shape, "symbolic_size", False):
        return api.reshape(api.cast(shape, "int64"), [-1])
    return _shape(shape)


def _sizes_like(x):
    """x's shape as ints, or x's run-time shape tensor when a dim is unknown while building."""
    return api.shape(x) if -1 in x.shape else tuple(x.shape)


def _at_run_time(sizes):
    """True when `_sizes` gave a run-time size tensor rather than a tuple of ints."""
    return sizes.__class__ is not tuple


@_creation_options
def full(shape, fill_value, dtype=None, name=None):
    """A tensor of `shape` filled with `fill_value`; sizes may be run-time tensors."""
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    sizes = _sizes(shape)
    if _at_run_time(sizes):
        return api.full_dynamic(sizes, fill_value, dtype)
    return api.full(sizes, fill_value, dtype)


def fill_constant(shape, dtype, value, force_cpu=False, out=None, place=None, name=None):
    """Paddle's older `full` (`paddle.tensor.fill_constant`): a tensor of `shape` and
    `dtype` filled with `value`; with `out`, written into that tensor, which is returned."""
    result = full(shape, value, dtype)
    if out is None:
        return result
    out._take_over(result)
    return out


@_creation_options
@sizes_as_list("shape", leading=0)
def zeros(shape, dtype=None, name=None):
    """A tensor of zeros (default float32)."""
    return full(shape, 0.0, dtype or dtypes.default_float())


@_creation_options
@sizes_as_list("shape", leading=0)
def ones(shape, dtype=None, name=None):
    """A tensor of ones (default float32)."""
    return full(shape, 1.0, dtype or dtypes.default_float())


@_creation_options
@sizes_as_list("shape", leading=0)
def empty(shape, dtype=None, name=None):
    """An uninitialised tensor (zeros here)."""
    return zeros(shape, dtype)


@_creation_options
def full_like(x, fill_value, dtype=None, name=None):
    """A tensor like `x` filled with `fill_value`."""
    return api.full_like(x, fill_value, dtype)


@_creation_options
def zeros_like(x, dtype=None, name=None):
    """Zeros with `x`'s shape (and dtype unless given)."""
    return api.full_like(x, 0, dtype)


@_creation_options
def ones_like(x, dtype=None, name=None):
    """Ones with `x`'s shape (and dtype unless given)."""
    return api.full_like(x, 1, dtype)


@_creation_options
def empty_like(x, dtype=None, name=None):
    """An uninitialised tensor like `x` (zeros here)."""
    return zeros_like(x, dtype)


@_creation_options
def arange(start=0, end=None, step=1, dtype=None, name=None):
    """Evenly spaced values in [start, end) (one argument: [0, start)); bounds may be
    static Variables (e.g. `x.shape[1]` of an unknown dim under to_static)."""
    if end is None:
        start, end = 0, start
    if has_symbolic_size((start, end, step)):
        return _arange_at_run_time(start, end, step, dtype)
    return api.arange(start, end, step, dtype)


def _is_integral(value):
    """True for a Python int or an integer tensor (arange's dtype rule)."""
    if hasattr(value, "dtype"):
        return dtypes.to_dtype(value.dtype).np.kind in "iu"
    return isinstance(value, numbers.Integral)


def _arange_at_run_time(start, end, step, dtype):
    """arange whose bounds exist only when the Program runs, in Paddle's dtype (int64 when
    every bound is integral, else the default float)."""
    if dtype is None:
        integral = all(_is_integral(v) for v in (start, end, step))
        dtype = "int64" if integral else dtypes.default_float()
    return arange_at_run_time(start, end, step, dtype)


@_creation_options
def eye(num_rows, num_columns=None, dtype=None, name=None):
    """A 2-D tensor with ones on the diagonal."""
    return api.eye(num_rows, -1 if num_columns is None else num_columns, dtype)


def _uniform(sizes, dtype, low, high, seed):
    """A uniform draw of `sizes` (ints, or a run-time size tensor)."""
    if _at_run_time(sizes):
        return api.uniform_random(sizes, dtype, low, high, seed)
    return api.uniform(sizes, dtype, low, high, seed)


def _gaussian(sizes, mean, std, seed, dtype):
    """A normal draw of `sizes` (ints, or a run-time size tensor)."""
    if _at_run_time(sizes):
        return api.gaussian_random(sizes, mean, std, seed, dtype)
    return api.gaussian(sizes, mean, std, seed, dtype)


def _randint(low, high, sizes, dtype):
    """Integers in [low, high) of `sizes`; with a run-time size tensor, the floor of a
    float64 uniform draw in [low, high) (clamped below high against rounding)."""
    if not _at_run_time(sizes):
        return api.randint(low, high, sizes, dtype)
    if low >= high:
        raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
    draw = api.floor(api.uniform_random(sizes, "float64", float(low), float(high), 0))
    return api.cast(api.minimum(draw, api.full([], high - 1, "float64")), dtype or "int64")


@_creation_options
@sizes_as_list("shape", leading=0)
def rand(shape, dtype=None, name=None):
    """Uniform random values in [0, 1)."""
    return _uniform(_sizes(shape), dtype, 0.0, 1.0, 0)


@_creation_options
def uniform(shape, dtype=None, min=0.0, max=1.0, seed=0, name=None):  # noqa: A002
    """Uniform random values in [min, max) ([0, 1) by default, as in Paddle 3.3)."""
    return _uniform(_sizes(shape), dtype, min, max, seed)


@_creation_options
@sizes_as_list("shape", leading=0)
def randn(shape, dtype=None, name=None):
    """Standard normal random values."""
    return _gaussian(_sizes(shape), 0.0, 1.0, 0, dtype)


standard_normal = randn


def _with_spread(sample, mean, std):
    """sample * std + mean (mean, std numbers or tensors)."""
    scaled = api.multiply(sample, std) if hasattr(std, "shape") else api.scale(sample,
                                                                                float(std))
    return api.add(scaled, mean) if hasattr(mean, "shape") else api.scale(scaled, 1.0,
                                                                           float(mean))


def normal(mean=0.0, std=1.0, shape=None, name=None):
    """Normal random values with the given mean and standard deviation; when mean or std is
    a tensor the result takes its shape and dtype (shape is ignored), one sample each."""
    like = mean if hasattr(mean, "shape") else std if hasattr(std, "shape") else None
    if like is None:
        return _gaussian(_sizes(shape if shape is not None else [1]), float(mean),
                         float(std), 0, None)
    if hasattr(mean, "shape") and hasattr(std, "shape") and list(mean.shape) != list(
            std.shape):
        raise ValueError(f"normal: arguments 'mean' and 'std' must have the same shape, got "
                         f"{list(mean.shape)} and {list(std.shape)}")
    sample = _gaussian(_sizes_like(like), 0.0, 1.0, 0, like.dtype)
    return _with_spread(sample, mean, std)


def randint(low=0, high=None, shape=(1,), dtype=None, name=None):
    """Random integers in [low, high) (one bound: [0, low))."""
    if high is None:
        low, high = 0, low
    return _randint(low, high, _sizes(shape), dtype)


@_creation_options
def randperm(n, dtype="int64", name=None):
    """A random permutation of 0..n-1."""
    return api.randperm(n, dtype)


def _like_dtype(x, dtype):
    return x.dtype if dtype is None else dtypes.to_dtype(dtype)


@_creation_options
def rand_like(input, dtype=None, name=None):  # noqa: A002 - Paddle's name
    """Uniform [0, 1) values shaped like input, in dtype (default: input's dtype)."""
    return _uniform(_sizes_like(input), _like_dtype(input, dtype), 0.0, 1.0, 0)


@_creation_options
def randn_like(x, dtype=None, name=None):
    """Standard normal values shaped like x, in dtype (default: x's dtype)."""
    return _gaussian(_sizes_like(x), 0.0, 1.0, 0, _like_dtype(x, dtype))


linspace = _creation_options(api.linspace)


def randint_like(x, low=0, high=None, dtype=None, name=None):
    """Random integers in [low, high) (one bound: [0, low)) shaped like x, cast to dtype
    (default: x's dtype)."""
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError(f"randint_like: low ({low}) must be less than high ({high})")
    return api.cast(_randint(low, high, _sizes_like(x), "int64"), _like_dtype(x, dtype))

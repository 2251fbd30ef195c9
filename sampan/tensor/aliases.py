"""Paddle 3's second names for existing functions (cat, clamp, eq, mul, ...) and the functions
and Tensor methods that came with them (permute, narrow, range, scatter_add, new_zeros, byte,
...), each composed from the functions it renames."""
import builtins
import functools
import inspect
import numbers

from ..core import dtype as dtypes
from ..ops._generated import api
from ..ops.out_param import OUT_TAKING, write_out
from .creation import _check_device, to_tensor
from .extra import nonzero, put_along_axis
from .inplace import _inplace
from .manipulation import slice as slice_, split, tile
from .math import broadcast_shape, divide, sort

__all__ = ["true_divide", "ravel", "permute", "narrow", "msort", "matrix_transpose",
           "argwhere", "range", "as_tensor", "asarray", "from_numpy", "broadcast_shapes",
           "scatter_add", "scatter_add_", "scatter_reduce", "vecdot"]
# ALIASES: second names of functions defined elsewhere; METHODS: Tensor-only methods.

ALIASES = {
    "cat": "concat", "concatenate": "concat", "clamp": "clip", "clamp_": "clip_",
    "eq": "equal", "ne": "not_equal", "gt": "greater_than", "ge": "greater_equal",
    "lt": "less_than", "le": "less_equal", "greater": "greater_than", "less": "less_than",
    "less_": "less_than_", "div": "divide", "div_": "divide_", "mul": "multiply",
    "mul_": "multiply_", "sub": "subtract", "sub_": "subtract_", "negative": "neg",
    "bitwise_invert": "bitwise_not", "bitwise_invert_": "bitwise_not_", "reverse": "flip",
    "view_as_complex": "as_complex", "view_as_real": "as_real", "ger": "outer",
    "take_along_dim": "take_along_axis",
}


def aliases(namespace):
    """{second name: the function it names} for the ALIASES whose target is in namespace."""
    return {alias: namespace[target] for alias, target in ALIASES.items() if target in namespace}


def true_divide(input, other, name=None):  # noqa: A002 - Paddle's name
    """input / other (integers give the default float)."""
    return divide(input, other)


def ravel(input):  # noqa: A002 - Paddle's name
    """input flattened to 1-D."""
    return api.flatten(input, 0, -1)


def _int_list(values):
    """A list of ints from varargs ints or one list/tuple of them."""
    if len(values) == 1 and isinstance(values[0], (list, tuple)):
        values = values[0]
    return [int(v) for v in values]


def permute(input, *dims):  # noqa: A002 - Paddle's name
    """input with its dims reordered by `dims` (a list, or the dims as arguments)."""
    return api.transpose(input, _int_list(dims))


def narrow(input, dim, start, length):  # noqa: A002 - Paddle's name
    """The `length` elements of input from `start` along `dim`."""
    start = int(start.item() if hasattr(start, "item") else start)
    if start < 0:
        start += input.shape[dim]
    return slice_(input, [dim], [start], [start + int(length)])


def msort(input):  # noqa: A002 - Paddle's name
    """input sorted along its first axis."""
    return sort(input, axis=0)


def matrix_transpose(x, name=None):
    """x with its last two dims swapped."""
    if len(x.shape) < 2:
        raise ValueError(f"matrix_transpose: argument 'x' needs at least 2 dims, got shape "
                         f"{list(x.shape)}")
    perm = list(builtins.range(len(x.shape)))
    perm[-2], perm[-1] = perm[-1], perm[-2]
    return api.transpose(x, perm)


def argwhere(input):  # noqa: A002 - Paddle's name
    """[count, ndim] int64 indices of the nonzero elements of input."""
    return nonzero(input)


def range(start=0, end=None, step=1, dtype=None, *, device=None,  # noqa: A001
          requires_grad=False, name=None):
    """start, start + step, ... up to and including end (one bound: [0, start]), in dtype
    (default: the default float, as Paddle's range)."""
    _check_device(device, "range")
    if end is None:
        start, end = 0, start
    bounds = [float(v.item() if hasattr(v, "item") else v) for v in (start, end, step)]
    if bounds[2] == 0:
        raise ValueError("range: argument 'step' must not be 0")
    count = max(int((bounds[1] - bounds[0]) // bounds[2]) + 1, 0)
    steps = api.arange(0, count, 1, dtypes.float64)
    out = api.cast(api.scale(steps, bounds[2], bounds[0]), dtype or dtypes.default_float())
    out.stop_gradient = not requires_grad
    return out


def as_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A tensor holding data (to_tensor's dtype rules)."""
    _check_device(device, "as_tensor")
    return to_tensor(data, dtype, stop_gradient=not requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """A tensor holding obj (always a copy here)."""
    _check_device(device, "asarray")
    return to_tensor(obj, dtype, stop_gradient=not requires_grad)


def from_numpy(ndarray):
    """A tensor holding a copy of the NumPy array, its dtype kept."""
    return to_tensor(ndarray)


def broadcast_shapes(*shapes):
    """The shape all `shapes` broadcast to, as a list."""
    return functools.reduce(broadcast_shape, shapes, [])


def scatter_add(input, dim, index, src):  # noqa: A002 - Paddle's names
    """input with src[i] added at index[i] along dim (index's shape picks the src part)."""
    return put_along_axis(input, index, src, dim, "add", broadcast=False)


_REDUCTIONS = {"sum": "add", "prod": "mul", "mean": "mean", "amin": "amin", "amax": "amax"}


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):  # noqa: A002
    """input with src reduced into the cells index names along dim ('sum', 'prod', 'mean',
    'amin', 'amax'); include_self=False leaves input's own value out."""
    if reduce not in _REDUCTIONS:
        raise ValueError(f"scatter_reduce: argument 'reduce' must be one of "
                         f"{sorted(_REDUCTIONS)}, got {reduce!r}")
    return put_along_axis(input, index, src, dim, _REDUCTIONS[reduce], include_self,
                          broadcast=False)


scatter_add_ = _inplace(scatter_add, "scatter_add_")


def vecdot(x, y, axis=-1, name=None):
    """Dot products of conj(x) and y along axis."""
    return api.sum(api.multiply(api.conj(x), y), [axis])


def _new(fill, name):
    """Tensor method `name`: a tensor of `size` (a list or the sizes as arguments) holding
    `fill` (new_full: fill_value), in x's dtype unless given."""
    def make(x, size, *more, fill_value=None, dtype=None, device=None, requires_grad=False,
             pin_memory=False):
        sizes = _int_list((size,) + more) if isinstance(size, numbers.Integral) else size
        _check_device(device, name)
        out = api.full(list(sizes), fill if fill is not None else fill_value,
                       dtype or x.dtype)
        out.stop_gradient = not requires_grad
        return out
    make.__name__ = name
    return make


def _new_full(x, size, fill_value, **options):
    """A tensor of `size` filled with fill_value, in x's dtype unless given."""
    return _new(None, "new_full")(x, size, fill_value=fill_value, **options)


def _repeat(x, *repeats):
    """x tiled `repeats` times per dim (a list, or the counts as arguments)."""
    return tile(x, _int_list(repeats))


def _element_strides(x, dim=None):
    """Strides in elements of x laid out row-major (sampan tensors are always contiguous):
    the list, or the stride of axis `dim`."""
    strides, step = [], 1
    for size in reversed(list(x.shape)):
        strides.insert(0, step)
        step *= max(size, 1)
    return strides if dim is None else strides[dim]


def _requires_grad_(x, requires_grad=True):
    """Set stop_gradient to the negation of requires_grad; returns x."""
    x.stop_gradient = not requires_grad
    return x


def _split_with_sizes(x, split_sizes, dim=0):
    """x split along dim into pieces of the given sizes."""
    return split(x, list(split_sizes), dim)


def _is_same_shape(x, y):
    """True when x and y have the same shape."""
    return list(x.shape) == list(y.shape)


METHODS = {
    "permute": permute, "narrow": narrow, "ravel": ravel, "msort": msort,
    "matrix_transpose": matrix_transpose, "argwhere": argwhere, "true_divide": true_divide,
    "scatter_add": scatter_add, "scatter_add_": scatter_add_, "scatter_reduce": scatter_reduce,
    "repeat": _repeat, "new_zeros": _new(0, "new_zeros"), "new_ones": _new(1, "new_ones"),
    "new_empty": _new(0, "new_empty"), "new_full": _new_full,
    "sigmoid_": _inplace(api.sigmoid, "sigmoid_"), "requires_grad_": _requires_grad_,
    "split_with_sizes": _split_with_sizes, "is_same_shape": _is_same_shape,
    "itemsize": property(lambda x: x.dtype.itemsize, doc="Bytes per element."),
    "is_cuda": property(lambda x: False, doc="False: sampan runs on the CPU only."),
    "offset": property(lambda x: 0, doc="0: every tensor starts its own storage."),
    "stride": _element_strides, "get_strides": _element_strides,
    "get_device": lambda x: -1,  # Paddle's device id of a tensor not on a GPU
}



# Functions that also take Paddle 3's torch-style keywords: input= for x, dim= for axis
# (not concat or stack: to_static recognises those by identity, to join tensor arrays).
KEYWORD_ALIASED = (
    "sum", "mean", "prod", "argmax", "argmin", "cumsum", "cumprod", "var", "std", "logsumexp",
    "all", "any", "amax", "amin", "median", "nansum", "nanmean", "norm", "squeeze",
    "unsqueeze", "flatten", "argsort", "sort", "diff", "unbind", "trace",
    "diagonal", "tril", "triu", "clip", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh",
    "sigmoid", "floor", "ceil", "round", "sign", "isnan", "isinf", "isfinite", "neg",
    "softmax", "view_as_complex", "view_as_real")
_KEYWORD_ALIASES = (("input", "x"), ("dim", "axis"))


def with_keyword_aliases(fn):
    """fn also accepting `input=` for its `x` and `dim=` for its `axis` (where it has those
    parameters and not the aliases themselves); fn itself when nothing applies."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return fn
    renames = {alias: name for alias, name in _KEYWORD_ALIASES
               if name in params and alias not in params}
    if not renames:
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if kwargs:  # the common x.sum() passes none: nothing to rename
            for alias, name in renames.items():
                if alias in kwargs:
                    if name in kwargs:
                        raise TypeError(f"{fn.__name__}() got both '{name}' and its alias "
                                        f"'{alias}'")
                    kwargs[name] = kwargs.pop(alias)
        return fn(*args, **kwargs)
    return call


def with_out(fn):
    """fn also taking `out=`: the result is written into that tensor, which is returned."""
    @functools.wraps(fn)
    def call(*args, out=None, **kwargs):
        result = fn(*args, **kwargs)
        return result if out is None else write_out(out, result)
    call.__signature__ = _with_out_parameter(fn)
    return call


def _with_out_parameter(fn):
    """fn's signature with a keyword-only `out=None` (before any **kwargs)."""
    sig = inspect.signature(fn)
    params = [p for p in sig.parameters.values() if p.name != "out"]
    at = next((k for k, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
    params.insert(at, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    return sig.replace(parameters=params)


def keyword_aliased(namespace):
    """{name: function with its keyword aliases (input=, dim=) and out= where Paddle 3 has
    them} for the KEYWORD_ALIASED and OUT_TAKING names in namespace."""
    table = {}
    for name in sorted(set(KEYWORD_ALIASED) | set(OUT_TAKING)):
        if name not in namespace:
            continue
        fn = with_keyword_aliases(namespace[name]) if name in KEYWORD_ALIASED \
            else namespace[name]
        takes_out = name in OUT_TAKING and "out" not in inspect.signature(fn).parameters
        table[name] = with_out(fn) if takes_out else fn  # generated ops take out= natively
    return table

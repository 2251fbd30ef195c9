"""More Paddle functions composed of registry ops (so autograd and static mode work):
stacking (hstack, vstack, dstack, column_stack, row_stack), broadcast_tensors, logspace,
multiplex, scatter_nd, tril/triu_indices, unique_consecutive, polar, ldexp, frexp,
nextafter, pdist, nanmedian, shard_index; and the methods type_as, matrix_power,
fill_diagonal_, scatter_, data_ptr (METHODS).
"""
import numpy as np

from ..core import dtype as dtypes
from ..eager.tensor import Tensor
from ..ops._generated import api
from .creation import to_tensor
from .extra import _to_float
from .inplace import _inplace
from .manipulation import atleast_1d, atleast_2d, atleast_3d
from .tensor_lists import tensor_list
from .axes import axes_in_range, axis_in_range

__all__ = ["broadcast_tensors", "logspace", "multiplex", "scatter_nd", "tril_indices",
           "triu_indices", "unique_consecutive", "column_stack", "row_stack", "hstack",
           "vstack", "dstack", "polar", "ldexp", "frexp", "nextafter", "pdist", "nanmedian",
           "shard_index", "scatter_"]


def _const(value, like):
    """A 0-d tensor holding `value` in like's dtype (broadcasts against like)."""
    return api.full([], value, like.dtype)


def _pow2(e):
    """2 ** e for a float tensor of integral values (exact)."""
    return api.elementwise_pow(_const(2.0, e), e)


# ------------------------------------------------------------------ stacking


def _stack_with(lift, x, axis, fn):
    """Concatenate the tensors of list x along `axis` after lifting each with `lift`."""
    if not x:
        raise ValueError(f"{fn}: expects a non-empty list of tensors")
    return api.concat([lift(t) for t in x], axis)


def hstack(x, name=None):
    """Stack tensors horizontally: along axis 0 for 1-D inputs, else axis 1.

    Example: ``paddle.hstack([paddle.to_tensor([1, 2]), paddle.to_tensor([3])])`` -> [1, 2, 3]
    """
    x = tensor_list(x, "x", "hstack")
    one_d = all(len(t.shape) <= 1 for t in x)
    return _stack_with(atleast_1d, x, 0 if one_d else 1, "hstack")


def vstack(x, name=None):
    """Stack tensors vertically (row-wise) after making each at least 2-D."""
    return _stack_with(atleast_2d, tensor_list(x, "x", "vstack"), 0, "vstack")


row_stack = vstack


def dstack(x, name=None):
    """Stack tensors depth-wise (axis 2) after making each at least 3-D."""
    return _stack_with(atleast_3d, tensor_list(x, "x", "dstack"), 2, "dstack")


def column_stack(x, name=None):
    """Stack 0-/1-D tensors as columns of a matrix (2-D inputs are concatenated on axis 1)."""
    return _stack_with(lambda t: api.reshape(t, [-1, 1]) if len(t.shape) < 2 else t,
                       tensor_list(x, "x", "column_stack"), 1, "column_stack")


def broadcast_tensors(input, name=None):  # noqa: A002 - Paddle's name
    """The tensors of `input` broadcast to their common shape (a list)."""
    input = tensor_list(input, "input", "broadcast_tensors")  # noqa: A001
    try:
        shape = list(np.broadcast_shapes(*[tuple(t.shape) for t in input]))
    except ValueError as err:
        raise ValueError(f"broadcast_tensors: shapes {[list(t.shape) for t in input]} do not "
                         f"broadcast") from err
    return [t if list(t.shape) == shape else api.expand(t, shape) for t in input]


# ------------------------------------------------------------------ creation


def _scalar(v):
    """A Python number from a number or a 0-d tensor."""
    return v.item() if isinstance(v, Tensor) else v


def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """`num` values base**e for e evenly spaced in [start, stop] (no gradient).

    Example: ``paddle.logspace(0, 10, 5, 2)`` -> [1, 5.66, 32, 181.02, 1024]
    """
    start, stop, num, base = (_scalar(v) for v in (start, stop, num, base))
    exps = api.linspace(float(start), float(stop), int(num), dtypes.float64)
    out = api.elementwise_pow(api.full([], float(base), dtypes.float64), exps)
    return api.cast(out, dtypes.to_dtype(dtype) if dtype else dtypes.default_float())


def _index_pairs(pairs, dtype):
    """A [2, N] index tensor from numpy's (rows, cols)."""
    return to_tensor(np.stack(pairs).astype(np.int64), dtype=dtype)


def tril_indices(row, col, offset=0, dtype="int64"):
    """[2, N] row and column indices of the lower triangle (below diagonal `offset`)
    of a row x col matrix."""
    return _index_pairs(np.tril_indices(row, offset, col), dtype)


def triu_indices(row, col=None, offset=0, dtype="int64"):
    """[2, N] row and column indices of the upper triangle (from diagonal `offset`)
    of a row x col matrix (col defaults to row)."""
    return _index_pairs(np.triu_indices(row, offset, row if col is None else col), dtype)


# ------------------------------------------------------------------ indexing


def multiplex(inputs, index, name=None):
    """Row i of the output is row i of inputs[index[i]]; index is [M, 1] int.

    Example: ``paddle.multiplex([a, b], paddle.to_tensor([[1], [0]]))`` -> [b[0], a[1]]
    """
    inputs = tensor_list(inputs, "inputs", "multiplex")
    if not inputs:
        raise ValueError("multiplex: inputs must be a non-empty list of tensors")
    stacked = api.stack(inputs, 0)
    rows = api.arange(0, inputs[0].shape[0], 1, index.dtype)
    pairs = api.concat([api.reshape(index, [-1, 1]), api.reshape(rows, [-1, 1])], 1)
    return api.gather_nd(stacked, pairs)


def scatter_nd(index, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` added at the slices `index` selects
    (repeated indices accumulate)."""
    return api.scatter_nd_add(api.full(list(shape), 0, updates.dtype), index, updates)


def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):  # noqa: A002
    """Each value v of the shard `shard_id` (of nshards equal ranges of [0, index_num))
    becomes its offset in the shard; other values become `ignore_value`."""
    if not 0 <= shard_id < nshards:
        raise ValueError(f"shard_index: shard_id {shard_id} must be in [0, nshards={nshards})")
    if input.shape and input.shape[-1] != 1:
        raise ValueError(f"shard_index: the last dim of input must be 1, got shape "
                         f"{list(input.shape)}")
    size = (index_num + nshards - 1) // nshards
    low = shard_id * size
    inside = api.logical_and(api.greater_equal(input, _const(low, input)),
                             api.less_than(input, _const(low + size, input)))
    return api.where(inside, api.subtract(input, _const(low, input)),
                     api.full_like(input, ignore_value))


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None,
                       dtype="int64", name=None):
    """x with every run of equal consecutive elements (or slices along `axis`) reduced to
    its first; plus the inverse indices and run lengths when asked for.

    Example: ``paddle.unique_consecutive(paddle.to_tensor([1, 1, 2, 2, 3, 1]))`` -> [1, 2, 3, 1]
    """
    if axis is None:
        x, axis = api.reshape(x, [-1]), 0
    axis = axis_in_range(axis, len(x.shape), "unique_consecutive")
    n = x.shape[axis]
    ndim = len(x.shape)
    later = api.slice(x, [axis], [1], [n])
    earlier = api.slice(x, [axis], [0], [n - 1])
    differs = api.not_equal(later, earlier)
    others = [d for d in range(ndim) if d != axis]
    if others:
        differs = api.any(differs, others, False)
    starts = api.concat([api.full([1], True, dtypes.bool_), differs], 0)
    first = api.reshape(api.nonzero(starts), [-1])
    out = api.index_select(x, first, axis)
    int_dtype = dtypes.to_dtype(dtype)
    extra = []
    if return_inverse:
        run = api.cumsum(api.cast(starts, dtypes.int64), 0)
        extra.append(api.cast(api.subtract(run, _const(1, run)), int_dtype))
    if return_counts:
        ends = api.concat([api.slice(first, [0], [1], [2 ** 62]),
                           api.full([1], n, first.dtype)], 0)
        extra.append(api.cast(api.subtract(ends, first), int_dtype))
    return tuple([out] + extra) if extra else out


# ------------------------------------------------------------------ elementwise math


def polar(abs, angle, name=None):  # noqa: A002 - Paddle's name
    """The complex tensor abs * (cos(angle) + i sin(angle))."""
    return api.complex(api.multiply(abs, api.cos(angle)), api.multiply(abs, api.sin(angle)))


def ldexp(x, y, name=None):
    """x * 2**y (y an integer tensor); float output (float32 for integer x)."""
    if y.dtype.is_floating:
        raise TypeError(f"ldexp: y must be an integer tensor, got {y.dtype.name}")
    x = _to_float(x)
    return api.multiply(x, _pow2(api.cast(y, x.dtype)))


def _frexp_abs(a):
    """(m, e) with a = m * 2**e and m in [0.5, 1) for positive finite a (a float tensor)."""
    e = api.add(api.floor(api.log2(a)), _const(1.0, a))
    half = api.floor(api.scale(e, 0.5))
    # two half-size powers keep 2**-e finite for subnormal a
    m = api.multiply(api.multiply(a, _pow2(api.scale(half, -1.0))),
                     _pow2(api.subtract(half, e)))
    for too, fix_m, fix_e in ((api.greater_equal(m, _const(1.0, m)), 0.5, 1.0),
                              (api.less_than(m, _const(0.5, m)), 2.0, -1.0)):
        m = api.where(too, api.scale(m, fix_m), m)
        e = api.where(too, api.add(e, _const(fix_e, e)), e)
    return m, e


def _regular(x):
    """True where x is finite and non-zero (where frexp's arithmetic applies)."""
    return api.logical_and(api.isfinite(x), api.not_equal(x, _const(0.0, x)))


def frexp(x, name=None):
    """(mantissa, exponent) with x = mantissa * 2**exponent, |mantissa| in [0.5, 1); both
    in x's float dtype (0, inf and nan give exponent 0, as NumPy)."""
    x = _to_float(x)
    regular = _regular(x)
    a = api.where(regular, api.abs(x), api.full_like(x, 1.0))
    m, e = _frexp_abs(a)
    mantissa = api.where(regular, api.multiply(api.sign(x), m), x)
    return mantissa, api.where(regular, e, api.full_like(x, 0.0))


def nextafter(x, y, name=None):
    """The next representable value after x towards y, elementwise (x's float dtype)."""
    info = np.finfo(x.dtype.np)
    bits = float(info.nmant + 1)
    tiny = float(info.smallest_subnormal)
    m, e = _frexp_abs(api.where(_regular(x), api.abs(x), api.full_like(x, 1.0)))
    step = api.sign(api.subtract(y, x))
    down = api.logical_and(api.less_than(api.multiply(step, x), _const(0.0, x)),
                           api.equal(m, _const(0.5, m)))  # below a power of two
    exp = api.subtract(e, api.where(down, api.full_like(e, bits + 1), api.full_like(e, bits)))
    ulp = api.maximum(_pow2(exp), _const(tiny, x))
    out = api.add(x, api.multiply(step, ulp))
    out = api.where(api.equal(x, _const(0.0, x)), api.scale(step, tiny), out)
    out = api.where(api.isinf(x), api.scale(api.sign(x), float(info.max)), out)
    return api.where(api.equal(x, y), y, out)


# ------------------------------------------------------------------ statistics


def pdist(x, p=2.0, name=None):
    """The p-norm distances between every pair of rows i < j of x [N, M], as a vector of
    N * (N - 1) / 2 values (row-major over the pairs)."""
    if len(x.shape) != 2:
        raise ValueError(f"pdist: x must be 2-D [N, M], got shape {list(x.shape)}")
    rows, cols = np.triu_indices(x.shape[0], 1)
    if rows.size == 0:
        return api.full([0], 0, x.dtype)
    diff = api.subtract(api.gather(x, to_tensor(rows), 0), api.gather(x, to_tensor(cols), 0))
    return api.p_norm(diff, float(p), 1, 1e-12, False, False)


def _reduce_last(x, axis):
    """x with the dims of `axis` moved last and merged: (tensor, kept dims, reduced dims)."""
    ndim = len(x.shape)
    axes = list(range(ndim)) if axis is None else axes_in_range(axis, ndim, "nanmedian")
    axes = sorted(axes) if ndim else []
    kept = [d for d in range(ndim) if d not in axes]
    flat = api.transpose(x, kept + axes) if ndim else x
    return api.reshape(flat, [x.shape[d] for d in kept] + [-1]), kept, axes


def nanmedian(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median of the non-NaN values along `axis` (all dims when None); NaN where all are
    NaN. mode "avg" averages the two middle values of an even count, "min" takes the lower
    one and, for an int axis, also returns its index.

    Example: ``paddle.nanmedian(paddle.to_tensor([[nan, 2., 3.], [0., 1., 2.]]), 0)``
    -> [0., 1.5, 2.5]
    """
    if mode not in ("avg", "min"):
        raise ValueError(f"nanmedian: mode must be 'avg' or 'min', got {mode!r}")
    flat, kept, axes = _reduce_last(_to_float(x), axis)
    values, order = api.sort(flat, -1, False, True)  # NaNs sort last
    count = api.sum(api.cast(api.logical_not(api.isnan(flat)), dtypes.int64), [-1], None, True)
    low = api.maximum(api.floor_divide(api.subtract(count, _const(1, count)), _const(2, count)),
                      _const(0, count))
    out = api.take_along_axis(values, low, -1)
    if mode == "avg":
        high = api.floor_divide(count, _const(2, count))
        high = api.minimum(high, _const(max(flat.shape[-1] - 1, 0), count))
        out = api.scale(api.add(out, api.take_along_axis(values, high, -1)), 0.5)
    shape = ([1 if d in axes else x.shape[d] for d in range(len(x.shape))] if keepdim
             else [x.shape[d] for d in kept])
    out = api.reshape(out, shape)
    if mode == "min" and isinstance(axis, int):
        return out, api.reshape(api.take_along_axis(order, low, -1), shape)
    return out


# ------------------------------------------------------------------ methods


def type_as(x, other):
    """x cast to other's dtype."""
    return x if x.dtype == other.dtype else api.cast(x, other.dtype)


def matrix_power(x, n, name=None):
    """Method form of paddle.linalg.matrix_power (x @ x ... n times)."""
    from .. import linalg  # linalg sits above tensor; imported on call
    return linalg.matrix_power(x, n)


def _diagonal_mask(shape, offset, wrap):
    """Boolean NumPy mask of the positions fill_diagonal_ writes."""
    if len(shape) < 2:
        raise ValueError(f"fill_diagonal_: x must be at least 2-D, got shape {list(shape)}")
    mask = np.zeros(shape, dtype=bool)
    if len(shape) > 2:
        if len(set(shape)) != 1:
            raise ValueError(f"fill_diagonal_: all dims of a tensor with more than 2 dims "
                             f"must be equal, got shape {list(shape)}")
        mask[(np.arange(shape[0]),) * len(shape)] = True
        return mask
    rows, cols = shape
    start = offset if offset >= 0 else -offset * cols
    flat = np.arange(start, rows * cols, cols + 1)
    if not wrap:
        flat = flat[flat % cols == flat // cols + offset]
    mask.reshape(-1)[flat] = True
    return mask


def _fill_diagonal(x, value, offset=0, wrap=False, name=None):
    """x with `value` on its diagonal `offset` (wrapping every cols + 1 rows of a tall
    matrix when `wrap`)."""
    mask = to_tensor(_diagonal_mask(list(x.shape), offset, wrap))
    return api.where(mask, api.full_like(x, value), x)


def _data_ptr(x):
    """The address of the tensor's NumPy buffer (an int)."""
    return np.asarray(x).ctypes.data


scatter_ = _inplace(api.scatter, "scatter_")

METHODS = {
    "type_as": type_as,
    "matrix_power": matrix_power,
    "fill_diagonal_": _inplace(_fill_diagonal, "fill_diagonal_"),
}
def _global_block(x):
    """The default main Program's global block: what Paddle's eager tensors report as
    their `block` (model code passes it to an initializer: `init(param, param.block)`)."""
    from ..static.program_state import default_main_program
    return default_main_program().global_block()


# eager only: a Variable holds no buffer and has its own block
TENSOR_METHODS = {"data_ptr": _data_ptr, "block": property(_global_block)}

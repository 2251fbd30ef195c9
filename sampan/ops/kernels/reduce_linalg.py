"""NumPy kernels of reductions, scans, norms, matrix products, softmax and sorting.

Reductions take `axis` as a tuple where () means every axis. They call the ufunc
`.reduce` methods directly (np.sum & co. add several microseconds of argument handling).
NumPy returns scalars for full reductions and 0-d arithmetic, so results that may be 0-d
go through `_arr`.
"""
import math

import numpy as np

from ..infer_meta.reduce_linalg import einsum_subscripts, reduced_axes, reduced_shape
from .elementwise import _conj, _sum_to

__all__ = [
    "reduce_sum", "sum_grad", "reduce_mean", "mean_grad", "reduce_max", "reduce_min",
    "extreme_grad", "extreme_grad_split", "reduce_prod", "prod_grad", "logsumexp",
    "logsumexp_grad", "reduce_all", "reduce_any", "var", "var_grad", "std", "std_grad",
    "argmax", "argmin", "cumsum", "cumsum_grad", "cumprod", "cumprod_grad", "p_norm",
    "p_norm_grad", "matmul", "matmul_grad", "matmul_double_grad", "bmm", "bmm_grad", "dot",
    "dot_grad", "mv", "mv_grad", "einsum", "einsum_grad", "softmax", "softmax_grad",
    "log_softmax", "log_softmax_grad", "topk", "topk_grad", "sort", "sort_grad", "argsort",
]

_WIDENED_BY_SUM = {np.dtype(np.bool_).num, np.dtype(np.int32).num}  # dtype numbers: cheap test
_FLOAT16 = np.dtype(np.float16)
_NDARRAY = np.ndarray


# ---------------------------------------------------------------- shared helpers

def _arr(value):
    """The result as an ndarray (NumPy returns scalars for 0-d results)."""
    return value if value.__class__ is np.ndarray else np.array(value)


def _reduced_count(shape, axis):
    """How many input elements each reduction output combines."""
    return math.prod(shape[a] for a in reduced_axes(axis, len(shape)))


def _restore_reduced(value, shape, axis, keepdim):
    """A reduction output (or its gradient) with the reduced axes of `shape` back as size-1
    dims, so that it broadcasts against the input."""
    if keepdim or not axis or not shape:
        return value
    return value.reshape(reduced_shape(shape, axis, True))


def _broadcast_like(value, x):
    """A fresh array of x's shape and dtype filled by broadcasting `value`."""
    out = np.empty(x.shape, x.dtype)
    out[...] = value
    return out


def _reduce(ufunc, x, axis, keepdim, dtype=None):
    """ufunc.reduce of x over `axis` as an ndarray (positional arguments and the inlined
    helpers keep this hot path short)."""
    value = ufunc.reduce(x, axis if axis and x.ndim else None, dtype, None, keepdim)
    return value if value.__class__ is _NDARRAY else np.array(value)


def _empty_reduction(x, axis, keepdim, fill):
    """The reduction output of an empty x, filled with `fill` (no warnings)."""
    return np.full(reduced_shape(x.shape, axis, keepdim), fill, x.dtype)


def _at_least_1d(x):
    """x, or a 0-d x viewed as shape [1] (axis -1 and 0 then address its only element)."""
    return x if x.ndim else x.reshape(1)


def _exclusive_cumprod(a):
    """Products of the elements strictly before each position along the last axis."""
    shifted = np.ones_like(a)
    shifted[..., 1:] = a[..., :-1]
    return np.multiply.accumulate(shifted, axis=-1)


def _reverse_cumsum(a, axis):
    """Sums of the elements at and after each position along `axis`."""
    return np.flip(np.add.accumulate(np.flip(a, axis), axis=axis, dtype=a.dtype), axis)


# ---------------------------------------------------------------- sum, mean, all, any

def reduce_sum(x, axis, dtype, keepdim):
    """Sum over `axis`; bool and int32 inputs sum to int64 unless `dtype` says otherwise."""
    if dtype is not None:
        out_dtype = dtype.np
    else:
        out_dtype = np.int64 if x.dtype.num in _WIDENED_BY_SUM else x.dtype
    return _reduce(np.add, x, axis, keepdim, out_dtype)


def sum_grad(x, out_grad, axis, dtype, keepdim):
    """out_grad broadcast back over the summed axes."""
    out = np.empty(x.shape, x.dtype)
    out[...] = _restore_reduced(out_grad, x.shape, axis, keepdim) if axis else out_grad
    return out


def _mean_accumulator(dtype):
    """The dtype a mean sums in: float32 for float16, float64 for bools (np.add of bools is
    `or`), else x's own."""
    if dtype == _FLOAT16:
        return np.float32
    return np.float64 if dtype.kind == "b" else None


def reduce_mean(x, axis, keepdim):
    """Mean over `axis` in x's dtype (float16 accumulates in float32; integers and bools
    average in float64 and are cast back, truncating, as Paddle does); NaN (0 for integers)
    where nothing is averaged."""
    if x.size == 0:
        return _empty_reduction(x, axis, keepdim, np.nan if x.dtype.kind in "fc" else 0)
    total = _reduce(np.add, x, axis, keepdim, _mean_accumulator(x.dtype))
    return _arr(total / _reduced_count(x.shape, axis)).astype(x.dtype, copy=False)


def mean_grad(x, out_grad, axis, keepdim):
    """out_grad / count broadcast back over the averaged axes (an empty x has nothing to fill)."""
    count = max(_reduced_count(x.shape, axis), 1)
    return _broadcast_like(_restore_reduced(out_grad, x.shape, axis, keepdim) / count, x)


def reduce_all(x, axis, keepdim):
    """Whether every element over `axis` is true."""
    return _reduce(np.logical_and, x, axis, keepdim, np.bool_)


def reduce_any(x, axis, keepdim):
    """Whether any element over `axis` is true."""
    return _reduce(np.logical_or, x, axis, keepdim, np.bool_)


# ---------------------------------------------------------------- max, min, prod, logsumexp

def reduce_max(x, axis, keepdim):
    """Largest element over `axis` (max and amax)."""
    return _reduce(np.maximum, x, axis, keepdim)


def reduce_min(x, axis, keepdim):
    """Smallest element over `axis` (min and amin)."""
    return _reduce(np.minimum, x, axis, keepdim)


def _tie_mask_and_grad(x, out, out_grad, axis, keepdim):
    """Where x equals its reduced extreme, and out_grad broadcastable against x."""
    hit = x == _restore_reduced(out, x.shape, axis, keepdim)
    return hit, _restore_reduced(out_grad, x.shape, axis, keepdim)


def extreme_grad(x, out, out_grad, axis, keepdim):
    """max/min gradient: every element equal to the extreme receives the full out_grad."""
    hit, grad = _tie_mask_and_grad(x, out, out_grad, axis, keepdim)
    return _arr(hit * grad)


def extreme_grad_split(x, out, out_grad, axis, keepdim):
    """amax/amin gradient: out_grad shared evenly among the elements equal to the extreme."""
    hit, grad = _tie_mask_and_grad(x, out, out_grad, axis, keepdim)
    ties = _reduce(np.add, hit, axis, True, x.dtype)
    return _arr(hit * (grad / ties))


def reduce_prod(x, axis, keepdim):
    """Product over `axis`, in x's dtype."""
    return _reduce(np.multiply, x, axis, keepdim, x.dtype)


def prod_grad(x, out, out_grad, axis, keepdim):
    """out_grad times the product of the other reduced elements (exact when x holds zeros)."""
    if np.logical_and.reduce(x != 0, axis=None):
        ratio = _restore_reduced(out * out_grad, x.shape, axis, keepdim) / x
        return _arr(ratio).astype(x.dtype, copy=False)
    reduced = reduced_axes(axis, x.ndim)
    kept = tuple(a for a in range(x.ndim) if a not in reduced)
    order = kept + reduced
    moved = np.transpose(x, order)
    rows = moved.reshape(moved.shape[:len(kept)] + (-1,))
    others = _exclusive_cumprod(rows) * np.flip(_exclusive_cumprod(np.flip(rows, -1)), -1)
    grad_rows = others * out_grad.reshape(rows.shape[:-1] + (1,))
    return np.transpose(grad_rows.reshape(moved.shape), np.argsort(order))


def logsumexp(x, axis, keepdim):
    """log(sum(exp(x))) over `axis`, shifted by the maximum for stability."""
    if x.size == 0:
        return _empty_reduction(x, axis, keepdim, -np.inf)
    peak = _reduce(np.maximum, x, axis, True)
    peak[~np.isfinite(peak)] = 0
    total = _reduce(np.add, np.exp(x - peak), axis, keepdim)
    return _arr(np.log(total) + (peak if keepdim else peak.reshape(total.shape)))


def logsumexp_grad(x, out, out_grad, axis, keepdim):
    """out_grad * softmax(x) over the reduced axes."""
    grad = _restore_reduced(out_grad, x.shape, axis, keepdim)
    return _arr(grad * np.exp(x - _restore_reduced(out, x.shape, axis, keepdim)))


# ---------------------------------------------------------------- var, std

def _deviation(x, axis):
    """x minus its mean over `axis`."""
    return x - reduce_mean(x, axis, True)


def _moment_divisor(shape, axis, unbiased):
    """N - 1 (unbiased) or N, N being the reduced count."""
    return _reduced_count(shape, axis) - (1 if unbiased else 0)


def var(x, axis, unbiased, keepdim):
    """Variance over `axis` (NaN when the divisor is not positive, as NumPy)."""
    divisor = _moment_divisor(x.shape, axis, unbiased)
    if divisor <= 0:
        return _empty_reduction(x, axis, keepdim, np.nan)
    deviation = _deviation(x, axis)
    return _arr(_reduce(np.add, deviation * deviation, axis, keepdim) / divisor)


def std(x, axis, unbiased, keepdim):
    """Standard deviation over `axis`."""
    return _arr(np.sqrt(var(x, axis, unbiased, keepdim)))


def _moment_grad(x, scale, axis, unbiased, keepdim):
    """(x - mean) * scale / divisor, scale being the per-output factor of the moment."""
    divisor = _moment_divisor(x.shape, axis, unbiased)
    if divisor <= 0:
        return np.full_like(x, np.nan)
    restored = _restore_reduced(scale, x.shape, axis, keepdim)
    return _arr(_deviation(x, axis) * (restored / divisor))


def var_grad(x, out_grad, axis, unbiased, keepdim):
    """2 (x - mean) out_grad / divisor."""
    return _moment_grad(x, out_grad * 2, axis, unbiased, keepdim)


def std_grad(x, out, out_grad, axis, unbiased, keepdim):
    """(x - mean) out_grad / (divisor * std)."""
    return _moment_grad(x, out_grad / out, axis, unbiased, keepdim)


# ---------------------------------------------------------------- argmax, argmin

def _arg_extreme(find, x, axis, keepdim, dtype):
    """Index of the extreme along `axis` (None: of the flattened x), as `dtype`."""
    np_axis = None if axis is None or not x.ndim else int(axis)
    return _arr(find(x, axis=np_axis, keepdims=keepdim)).astype(dtype.np, copy=False)


def argmax(x, axis, keepdim, dtype):
    """Index of the largest element along `axis` (first one on ties)."""
    return _arg_extreme(np.argmax, x, axis, keepdim, dtype)


def argmin(x, axis, keepdim, dtype):
    """Index of the smallest element along `axis` (first one on ties)."""
    return _arg_extreme(np.argmin, x, axis, keepdim, dtype)


# ---------------------------------------------------------------- cumsum, cumprod

def cumsum(x, axis):
    """Running sum along `axis`; axis None runs over the flattened x (a 1-D output)."""
    if axis is None:
        return np.add.accumulate(x.reshape(-1), dtype=x.dtype)
    return np.add.accumulate(_at_least_1d(x), axis=int(axis), dtype=x.dtype).reshape(x.shape)


def cumsum_grad(x, out_grad, axis):
    """Reverse running sum of out_grad, shaped like x."""
    axis = -1 if axis is None else int(axis)
    return _reverse_cumsum(_at_least_1d(out_grad), axis).reshape(x.shape)


def cumprod(x, dim):
    """Running product along `dim`."""
    return np.multiply.accumulate(_at_least_1d(x), axis=dim, dtype=x.dtype).reshape(x.shape)


def cumprod_grad(x, out, out_grad, dim):
    """Gradient of the running product (exact when x holds zeros)."""
    rows, out_rows, grad_rows = _at_least_1d(x), _at_least_1d(out), _at_least_1d(out_grad)
    if np.logical_and.reduce(rows != 0, axis=None):
        return (_reverse_cumsum(out_rows * grad_rows, dim) / rows).reshape(x.shape)
    rows, grad_rows = np.moveaxis(rows, dim, -1), np.moveaxis(grad_rows, dim, -1)
    n = rows.shape[-1]
    after = np.triu(np.ones((n, n), dtype=bool), 1)
    # runs[..., i, j] = prod(x[i+1 .. j]) for j >= i
    runs = np.multiply.accumulate(np.where(after, rows[..., None, :], 1), axis=-1)
    tails = np.add.reduce(np.triu(runs * grad_rows[..., None, :]), axis=-1)
    grad = _exclusive_cumprod(rows) * tails
    return np.moveaxis(grad, -1, dim).reshape(x.shape)


# ---------------------------------------------------------------- p_norm

def _norm_axis(axis, asvector):
    """The reduction axis of p_norm as a reduction `axis` tuple (() = every axis)."""
    return () if asvector else (axis,)


def p_norm(x, porder, axis, epsilon, keepdim, asvector):
    """Vector p-norm along `axis` (or over all of x); inf/-inf give max/min |x|, 0 counts
    nonzeros."""
    norm_axis = _norm_axis(axis, asvector)
    magnitude = np.abs(x)
    if porder == math.inf:
        return _reduce(np.maximum, magnitude, norm_axis, keepdim)
    if porder == -math.inf:
        return _reduce(np.minimum, magnitude, norm_axis, keepdim)
    if porder == 0:
        return _reduce(np.add, magnitude != 0, norm_axis, keepdim, magnitude.dtype)
    if porder == 2:
        return _arr(np.sqrt(_reduce(np.add, magnitude * magnitude, norm_axis, keepdim)))
    return _arr(_reduce(np.add, magnitude ** porder, norm_axis, keepdim) ** (1.0 / porder))


def p_norm_grad(x, out, out_grad, porder, axis, epsilon, keepdim, asvector):
    """sign(x) |x|^(p-1) out_grad / max(out, epsilon)^(p-1); inf norms route to the extremes."""
    norm_axis = _norm_axis(axis, asvector)
    norm = _restore_reduced(out, x.shape, norm_axis, keepdim)
    grad = _restore_reduced(out_grad, x.shape, norm_axis, keepdim)
    if porder == 0:
        return np.zeros_like(x)
    if porder in (math.inf, -math.inf):
        return _arr((np.abs(x) == norm) * np.sign(x) * grad).astype(x.dtype, copy=False)
    if porder == 2:
        return _arr(x * (grad / np.maximum(norm, epsilon)))
    scale = grad / np.maximum(norm, epsilon) ** (porder - 1)
    return _arr(np.sign(x) * np.abs(x) ** (porder - 1) * scale)


# ---------------------------------------------------------------- matmul family

def _swap_last(a):
    """a with its last two axes swapped (a view)."""
    return a.swapaxes(-1, -2)


def matmul(x, y, transpose_x, transpose_y):
    """x @ y with optional transposes of the last two axes (ignored for 1-D operands)."""
    if x.ndim == 2 == y.ndim:
        # np.dot: the same products bit for bit, with less dispatch than np.matmul
        return np.dot(x.T if transpose_x else x, y.T if transpose_y else y)
    if transpose_x and x.ndim > 1:
        x = _swap_last(x)
    if transpose_y and y.ndim > 1:
        y = _swap_last(y)
    return _arr(np.matmul(x, y))


def _lifted(x, y, out_grad, transpose_x, transpose_y):
    """The matrices matmul multiplied (1-D operands lifted to a row / column, transposes
    applied) and out_grad lifted to match."""
    left = x[None, :] if x.ndim == 1 else (_swap_last(x) if transpose_x else x)
    right = y[:, None] if y.ndim == 1 else (_swap_last(y) if transpose_y else y)
    if y.ndim == 1:
        out_grad = out_grad[..., None]
    if x.ndim == 1:
        out_grad = out_grad[..., None, :]
    return left, right, out_grad


def _operand_grad(grad, operand, transposed, lifted_axis):
    """A gradient with respect to a lifted, transposed matmul operand, brought back to the
    operand's shape (summing broadcast batch dims)."""
    if operand.ndim == 1:
        grad = grad.squeeze(lifted_axis)
    elif transposed:
        grad = _swap_last(grad)
    return _sum_to(grad, operand.shape)


def _matmul_x_grad(x, y, out_grad, transpose_x, transpose_y):
    """Gradient of matmul(x, y) with respect to x."""
    _, right, grad = _lifted(x, y, out_grad, transpose_x, transpose_y)
    return _operand_grad(grad @ _conj(_swap_last(right)), x, transpose_x, -2)


def _matmul_y_grad(x, y, out_grad, transpose_x, transpose_y):
    """Gradient of matmul(x, y) with respect to y."""
    left, _, grad = _lifted(x, y, out_grad, transpose_x, transpose_y)
    return _operand_grad(_conj(_swap_last(left)) @ grad, y, transpose_y, -1)


def matmul_grad(x, y, out_grad, transpose_x, transpose_y, *, need=(True, True)):
    """Gradients of matmul, reduced to the shapes of x and y (None where not `need`ed)."""
    if (x.ndim == 2 and y.ndim == 2 and not (transpose_x or transpose_y)
            and x.dtype.kind != "c" and y.dtype.kind != "c"):
        # a Linear layer's case: nothing to lift, transpose back, conjugate or sum
        return (out_grad @ y.T if need[0] else None, x.T @ out_grad if need[1] else None)
    return (_matmul_x_grad(x, y, out_grad, transpose_x, transpose_y) if need[0] else None,
            _matmul_y_grad(x, y, out_grad, transpose_x, transpose_y) if need[1] else None)


def matmul_double_grad(x, y, out_grad, x_grad_grad, y_grad_grad, transpose_x, transpose_y):
    """Gradients of matmul_grad; it is bilinear, so each is a matmul or a matmul gradient
    (an absent x_grad_grad / y_grad_grad counts as zero)."""
    flags = (transpose_x, transpose_y)
    out_grad_grad = np.zeros_like(out_grad)
    if y_grad_grad is None:
        x_grad = np.zeros_like(x)
    else:
        x_grad = _matmul_x_grad(x, y_grad_grad, out_grad, *flags)
        out_grad_grad += matmul(x, y_grad_grad, *flags)
    if x_grad_grad is None:
        y_grad = np.zeros_like(y)
    else:
        y_grad = _matmul_y_grad(x_grad_grad, y, out_grad, *flags)
        out_grad_grad += matmul(x_grad_grad, y, *flags)
    return x_grad, y_grad, out_grad_grad


def bmm(x, y):
    """Batched matrix product of two 3-D tensors."""
    return np.matmul(x, y)


def bmm_grad(x, y, out_grad):
    """Gradients of bmm."""
    return out_grad @ _swap_last(y), _swap_last(x) @ out_grad


def dot(x, y):
    """Sum of x * y over the last axis (row-wise for 2-D operands); no conjugation."""
    return _arr(np.vecdot(np.conj(x) if x.dtype.kind == "c" else x, y))


def dot_grad(x, y, out_grad):
    """Gradients of dot: out_grad times the other operand, row by row."""
    grad = out_grad[..., None]
    return _arr(grad * y), _arr(grad * x)


def mv(x, vec):
    """Matrix-vector product."""
    return np.matmul(x, vec)


def mv_grad(x, vec, out_grad):
    """Gradients of mv: outer(out_grad, vec) and x^T out_grad."""
    return np.outer(out_grad, vec), out_grad @ x


# ---------------------------------------------------------------- einsum

def einsum(operands, equation):
    """np.einsum of the operands (explicit or implicit output, no ellipsis)."""
    return _arr(np.einsum(equation, *operands, optimize=True))


def _letter_view(array, subscripts, letters):
    """A view of `array` indexed by its distinct subscript letters, in `letters` order (a
    repeated letter walks the diagonal)."""
    sizes, strides = {}, dict.fromkeys(letters, 0)
    for letter, size, stride in zip(subscripts, array.shape, array.strides):
        sizes[letter] = size
        strides[letter] += stride
    return np.lib.stride_tricks.as_strided(
        array, [sizes[c] for c in letters], [strides[c] for c in letters])


def _einsum_operand_grad(index, operands, out_grad, inputs, output):
    """Gradient of einsum with respect to operand `index`: out_grad contracted with the
    other operands, broadcast over letters only that operand has, placed on its diagonals."""
    operand, subscripts = operands[index], inputs[index]
    others = [s for i, s in enumerate(inputs) if i != index]
    letters = "".join(dict.fromkeys(subscripts))
    kept = "".join(c for c in letters if c in set(output).union(*others))
    spec = ",".join([output, *others]) + "->" + kept
    grad = np.einsum(spec, out_grad, *(a for i, a in enumerate(operands) if i != index),
                     optimize=True)
    if kept == subscripts:
        return _arr(grad).astype(operand.dtype, copy=False)
    size_of = dict(zip(subscripts, operand.shape))
    result = np.zeros_like(operand)
    _letter_view(result, subscripts, letters)[...] = np.reshape(
        grad, [size_of[c] if c in kept else 1 for c in letters])
    return result


def einsum_grad(operands, out_grad, equation):
    """Gradients of einsum, one per operand."""
    inputs, output = einsum_subscripts(equation)
    return [_einsum_operand_grad(i, operands, out_grad, inputs, output)
            for i in range(len(operands))]


# ---------------------------------------------------------------- softmax, log_softmax

def _shifted(rows, axis):
    """rows minus their maximum along `axis` (a fresh array)."""
    return rows - np.maximum.reduce(rows, axis=axis, keepdims=True)


def softmax(x, axis):
    """exp(x) normalised along `axis`, shifted by the maximum for stability."""
    rows = _at_least_1d(x)
    if rows.size == 0:
        return np.empty_like(x)
    out = _shifted(rows, axis)
    np.exp(out, out=out)
    out /= np.add.reduce(out, axis=axis, keepdims=True)
    return out.reshape(x.shape)


def softmax_grad(out, out_grad, axis):
    """out * (out_grad - sum(out_grad * out)) along `axis`."""
    rows, grad = _at_least_1d(out), _at_least_1d(out_grad)
    inner = np.add.reduce(grad * rows, axis=axis, keepdims=True)
    return (rows * (grad - inner)).reshape(out.shape)


def log_softmax(x, axis):
    """x - logsumexp(x) along `axis`, shifted by the maximum for stability."""
    rows = _at_least_1d(x)
    if rows.size == 0:
        return np.empty_like(x)
    out = _shifted(rows, axis)
    out -= np.log(np.add.reduce(np.exp(out), axis=axis, keepdims=True))
    return out.reshape(x.shape)


def log_softmax_grad(out, out_grad, axis):
    """out_grad - exp(out) * sum(out_grad) along `axis`."""
    rows, grad = _at_least_1d(out), _at_least_1d(out_grad)
    total = np.add.reduce(grad, axis=axis, keepdims=True)
    return (grad - np.exp(rows) * total).reshape(out.shape)


# ---------------------------------------------------------------- sort, argsort, topk

def _sort_indices(rows, axis, descending, stable):
    """int64 indices sorting `rows` (at least 1-D) along `axis`; a stable descending sort
    keeps equal elements in their original order."""
    kind = "stable" if stable else None
    if not descending:
        return np.argsort(rows, axis=axis, kind=kind).astype(np.int64, copy=False)
    reversed_order = np.argsort(np.flip(rows, axis), axis=axis, kind=kind)
    return (rows.shape[axis] - 1 - np.flip(reversed_order, axis)).astype(np.int64, copy=False)


def _scatter_grad(x, indices, out_grad, axis):
    """Zeros shaped like x with out_grad placed at `indices` along `axis`."""
    grad = np.zeros_like(_at_least_1d(x))
    np.put_along_axis(grad, _at_least_1d(indices), _at_least_1d(out_grad), axis)
    return grad.reshape(x.shape)


def sort(x, axis, descending, stable):
    """x sorted along `axis`, and the int64 indices that sort it."""
    rows = _at_least_1d(x)
    indices = _sort_indices(rows, axis, descending, stable)
    return np.take_along_axis(rows, indices, axis).reshape(x.shape), indices.reshape(x.shape)


def sort_grad(x, indices, out_grad, axis, descending, stable):
    """out_grad routed back to the positions the sort took its elements from."""
    return _scatter_grad(x, indices, out_grad, axis)


def argsort(x, axis, descending, stable):
    """The int64 indices that sort x along `axis`."""
    return _sort_indices(_at_least_1d(x), axis, descending, stable).reshape(x.shape)


def topk(x, k, axis, largest, sorted):
    """The k largest (or smallest) elements along `axis`, always in sorted order (which
    `sorted=False` permits), and their int64 indices; ties keep the lower index first."""
    rows = _at_least_1d(x)
    leading_k = (slice(None),) * (axis % rows.ndim) + (slice(0, int(k)),)
    indices = _sort_indices(rows, axis, largest, True)[leading_k]
    values = np.take_along_axis(rows, indices, axis)
    if not x.ndim:
        return values.reshape(()), indices.reshape(())
    return values, indices


def topk_grad(x, indices, out_grad, k, axis, largest, sorted):
    """out_grad routed back to the positions topk took its elements from."""
    return _scatter_grad(x, indices, out_grad, axis)

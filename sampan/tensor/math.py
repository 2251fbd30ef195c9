"""Math functions whose Paddle signature differs from the op they call, plus products
(inner, addmm, baddbmm, tensordot), NaN-aware or pairwise functions, sign helpers and
reduce_as composed from ops, and the incomplete gamma functions with Paddle's argument checks."""
import math
import numbers

import numpy as np

from ..core import dtype as dtypes
from ..eager.tensor import Tensor
from ..ops._generated import api
from ..ops.attrs import as_scalar
from .axes import axes_in_range
from .logic import signbit

__all__ = ["pow", "add", "subtract", "divide", "trunc", "cumsum", "cumprod", "sort", "einsum",
           "mm", "increment", "assign", "floor_mod", "mod", "add_n", "sign", "neg", "rsqrt",
           "equal_all", "inner", "addmm", "baddbmm", "tensordot", "clip", "nansum", "nanmean",
           "hypot", "fmax", "fmin", "logaddexp", "copysign", "sgn", "sinc", "positive", "gammaln",
           "round", "bitwise_left_shift", "bitwise_right_shift", "multigammaln", "mean", "prod",
           "broadcast_shape", "gammainc", "gammaincc", "reduce_as"]
# OPERATORS: the shift and unary plus operators of Tensor and Variable.

sign = api.sign
neg = api.neg
rsqrt = api.rsqrt
mod = floor_mod = api.remainder
gammaln = api.lgamma


def mm(input, mat2, name=None):  # noqa: A002 - Paddle's names
    """Matrix product input @ mat2."""
    return api.matmul(input, mat2)


def trunc(input, name=None):  # noqa: A002 - Paddle's name
    """input rounded toward zero."""
    return api.trunc(input)


def _times(y, alpha):
    """y * alpha, skipping the multiply for the usual alpha of 1."""
    return y if alpha == 1 else api.multiply(y, alpha)


def add(x, y, name=None, *, alpha=1):
    """x + alpha * y with broadcasting."""
    return api.add(x, _times(y, alpha))


def subtract(x, y, name=None, *, alpha=1):
    """x - alpha * y with broadcasting."""
    return api.subtract(x, _times(y, alpha))


def _truncated_quotient(x, y):
    """x / y rounded toward zero, in x and y's promoted dtype (integers divide in float64,
    exact below 2**53, and are cast back)."""
    promoted = dtypes.promote(x.dtype, y.dtype) if hasattr(y, "dtype") else x.dtype
    if promoted.is_floating:
        return api.trunc(api.divide(x, y))
    wide = api.divide(api.cast(x, dtypes.float64), api.cast(y, dtypes.float64) if hasattr(
        y, "dtype") else y)
    return api.cast(api.trunc(wide), promoted)


def divide(x, y, name=None, *, rounding_mode=None):
    """x / y (integers give the default float); rounding_mode 'trunc' rounds the quotient
    toward zero and 'floor' down, keeping an integer dtype as Paddle does."""
    if rounding_mode is None:
        return api.divide(x, y)
    if rounding_mode == "floor":
        return api.floor_divide(x, y)
    if rounding_mode == "trunc":
        return _truncated_quotient(x, y)
    raise ValueError(f"divide: argument 'rounding_mode' must be None, 'trunc' or 'floor', "
                     f"got {rounding_mode!r}")


def pow(x, y, name=None):  # noqa: A001 - Paddle's name
    """x ** y for a Python number or a tensor `y`."""
    if isinstance(y, numbers.Number) and not isinstance(y, bool):
        return api.pow(x, y)
    return api.elementwise_pow(x, y)


_SUMS_IN_INT64 = ("bool", "int8", "int16", "int32", "uint8")


def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along `axis` (flattened when None), x first cast to dtype; without dtype
    bools and integers narrower than int64 sum in int64, as in Paddle (and paddle.sum)."""
    if dtype is None and x.dtype.name in _SUMS_IN_INT64:
        dtype = dtypes.int64
    if dtype is not None:
        x = api.cast(x, dtype)
    return api.cumsum(x, axis)


def cumprod(x, dim=None, dtype=None, name=None):
    """Running product along `dim` (over the flattened x when None), optionally cast first."""
    if dtype is not None:
        x = api.cast(x, dtype)
    if dim is None:
        return api.cumprod(api.reshape(x, [-1]), 0)
    return api.cumprod(x, dim)


def sort(x, axis=-1, descending=False, stable=False, name=None):
    """x sorted along `axis` (values only, like Paddle; see argsort for indices)."""
    return api.sort(x, axis, descending, stable)[0]


def _ellipsis_sizes(terms, operands, width):
    """Per ellipsis position (right-aligned, `width` of them) the broadcast size, from every
    operand whose term has an ellipsis (-1 where a static size is unknown)."""
    sizes = [1] * width
    for term, operand in zip(terms, operands):
        if "..." in term:
            start, rank = term.index("..."), len(operand.shape) - (len(term) - 3)
            dims = list(operand.shape)[start:start + rank]
            for k, n in enumerate(dims, width - len(dims)):
                sizes[k] = -1 if -1 in (n, sizes[k]) else max(sizes[k], n)
    return sizes


def _spell_out_ellipsis(equation, operands):
    """(equation, operands) with every '...' replaced by unused letters (broadcast dims first
    in an implicit output, as NumPy and Paddle order them) and size-1 ellipsis dims expanded
    to the broadcast size, so the einsum op sees plain letters."""
    lhs, arrow, rhs = equation.replace(" ", "").partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: equation {equation!r} has {len(terms)} operand subscripts "
                         f"but {len(operands)} operands were given")
    spare = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
             if c not in equation]
    ranks = [len(op.shape) - (len(t) - 3) for t, op in zip(terms, operands) if "..." in t]
    if min(ranks) < 0:
        raise ValueError(f"einsum: an operand has fewer dims than {equation!r} names")
    width = max(ranks)
    letters = "".join(spare[:width])
    sizes = _ellipsis_sizes(terms, operands, width)
    spelled, expanded = [], []
    for term, operand in zip(terms, operands):
        if "..." in term:
            rank = len(operand.shape) - (len(term) - 3)
            start = term.index("...")
            shape = list(operand.shape)
            target = shape[:start] + sizes[width - rank:] + shape[start + rank:]
            if -1 not in target and target != shape:
                operand = api.expand(operand, target)
            term = term.replace("...", letters[width - rank:])
        spelled.append(term)
        expanded.append(operand)
    if arrow:
        rhs = rhs.replace("...", letters)
    else:
        named = lhs.replace("...", "").replace(",", "")
        once = sorted(c for c in set(named) if named.count(c) == 1)
        rhs = letters + "".join(once)
    return ",".join(spelled) + "->" + rhs, expanded


def einsum(equation, *operands):
    """Einstein summation over the operands; '...' stands for broadcast dims."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if "..." in equation:
        equation, operands = _spell_out_ellipsis(equation, operands)
    return api.einsum(list(operands), equation)


def add_n(inputs, name=None):
    """Elementwise sum of a list of tensors."""
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    total = inputs[0]
    for t in inputs[1:]:
        total = api.add(total, t)
    return total


def increment(x, value=1.0, name=None):
    """x += value, in place (Paddle semantics); returns x."""
    x._take_over(api.increment(x, value))
    return x


def assign(x, output=None):
    """A copy of `x` (a tensor, array, list or number); with `output`, written into it."""
    if not hasattr(x, "dtype") or not hasattr(x, "shape") or not callable(
            getattr(x, "astype", None)):
        from .creation import to_tensor
        x = to_tensor(x)
    elif not hasattr(x, "_take_over"):
        from .creation import to_tensor
        x = to_tensor(x)
    result = api.assign(x)
    if output is None:
        return result
    output._take_over(result)
    return output


def equal_all(x, y, name=None):
    """A 0-d bool tensor: True when x and y have the same shape and all elements equal."""
    if list(x.shape) != list(y.shape):
        return api.full([], False, "bool")
    return api.all(api.equal(x, y))


# ---------------------------------------------------------------- products

def inner(x, y, name=None):
    """Sum over the last axis of x[..., k]·y[..., k]: shape x.shape[:-1] + y.shape[:-1]."""
    if not x.shape or not y.shape:
        return api.multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"inner: the last dims of x {x.shape} and y {y.shape} differ")
    flat = api.matmul(api.reshape(x, [-1, x.shape[-1]]), api.reshape(y, [-1, y.shape[-1]]),
                      False, True)
    return api.reshape(flat, list(x.shape[:-1]) + list(y.shape[:-1]))


def _scaled_sum(input, product, beta, alpha):  # noqa: A002 - Paddle's name
    """beta·input + alpha·product."""
    return api.add(api.scale(input, float(beta)), api.scale(product, float(alpha)))


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):  # noqa: A002
    """beta·input + alpha·(x @ y) for 2-D x and y (input broadcasts)."""
    if len(x.shape) != 2 or len(y.shape) != 2:
        raise ValueError(f"addmm: x and y must be 2-D, got {x.shape} and {y.shape}")
    return _scaled_sum(input, api.matmul(x, y), beta, alpha)


def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):  # noqa: A002
    """beta·input + alpha·bmm(x, y) for 3-D x and y (input broadcasts)."""
    if len(x.shape) != 3 or len(y.shape) != 3:
        raise ValueError(f"baddbmm: x and y must be 3-D, got {x.shape} and {y.shape}")
    return _scaled_sum(input, api.bmm(x, y), beta, alpha)


def _contracted_axes(axes, x_ndim):
    """(x axes, y axes) contracted by tensordot's `axes` argument."""
    if hasattr(axes, "numpy"):
        axes = axes.numpy().tolist()
    if isinstance(axes, numbers.Integral):
        return list(range(x_ndim - axes, x_ndim)), list(range(axes))
    axes = list(axes)
    if axes and isinstance(axes[0], numbers.Integral):
        return axes, axes
    x_axes, y_axes = (list(axes[0]), list(axes[1])) if len(axes) == 2 else (axes[0], axes[0])
    # the shorter list continues with the longer one's remaining axes (Paddle's expansion:
    # [[0, 1, 3], [1, 0]] contracts y's axes [1, 0, 3])
    if len(x_axes) < len(y_axes):
        x_axes = list(x_axes) + y_axes[len(x_axes):]
    return list(x_axes), list(y_axes) + list(x_axes)[len(y_axes):]


def tensordot(x, y, axes=2, name=None):
    """Sum of products over the contracted axes of x and y (an int n: the last n of x with
    the first n of y; one list: the same axes of both; two lists: x's and y's axes, the
    shorter one extended with the longer one's trailing entries)."""
    x_axes, y_axes = _contracted_axes(axes, len(x.shape))
    x_axes = axes_in_range(x_axes, len(x.shape), "tensordot", "axes")
    y_axes = axes_in_range(y_axes, len(y.shape), "tensordot", "axes")
    if [x.shape[a] for a in x_axes] != [y.shape[a] for a in y_axes]:
        raise ValueError(f"tensordot: contracted dims of x {x.shape} (axes {x_axes}) and y "
                         f"{y.shape} (axes {y_axes}) differ")
    x_free = [a for a in range(len(x.shape)) if a not in x_axes]
    y_free = [a for a in range(len(y.shape)) if a not in y_axes]
    k = int(np.prod([x.shape[a] for a in x_axes]))
    left = api.reshape(api.transpose(x, x_free + x_axes), [-1, k])
    right = api.reshape(api.transpose(y, y_axes + y_free), [k, -1])
    return api.reshape(api.matmul(left, right),
                       [x.shape[a] for a in x_free] + [y.shape[a] for a in y_free])


# ---------------------------------------------------------------- NaN-aware and pairwise

def _nan_free(x):
    """x with NaNs replaced by zeros, and the float mask of its non-NaN entries."""
    nan = api.isnan(x)
    return api.where(nan, api.full_like(x, 0), x), api.cast(api.logical_not(nan), x.dtype)


def clip(x, min=None, max=None, name=None):  # noqa: A002 - Paddle's names
    """x limited to [min, max] (a None bound is open); an int32/int64 x with a float bound is
    clipped in float32, as Paddle does, instead of truncating the bound."""
    min, max = as_scalar(min), as_scalar(max)
    if x.dtype in (dtypes.int32, dtypes.int64) and (isinstance(min, float)
                                                   or isinstance(max, float)):
        x = api.cast(x, dtypes.float32)
    return api.clip(x, min, max)


def mean(x, axis=None, keepdim=False, name=None, *, dtype=None):
    """Mean over axis (every axis when None) in x's dtype, x first cast to dtype when given."""
    if dtype is not None:
        x = api.cast(x, dtype)
    return api.mean(x, axis, keepdim)


def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    """Product over axis (every axis when None), x first cast to dtype when given."""
    if dtype is not None:
        x = api.cast(x, dtype)
    return api.prod(x, axis, keepdim)


def broadcast_shape(x_shape, y_shape):
    """The shape two tensors of these shapes broadcast to, as a list."""
    try:
        return list(np.broadcast_shapes(tuple(x_shape), tuple(y_shape)))
    except ValueError:
        raise ValueError(f"broadcast_shape: shapes {list(x_shape)} and {list(y_shape)} do "
                         f"not broadcast") from None


def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over axis treating NaN as zero."""
    clean, _ = _nan_free(x)
    return api.sum(clean, axis, dtype, keepdim)


def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean over axis of the non-NaN entries (NaN where all are NaN)."""
    clean, kept = _nan_free(x)
    return api.divide(api.sum(clean, axis, None, keepdim), api.sum(kept, axis, None, keepdim))


def hypot(x, y, name=None):
    """sqrt(x² + y²) elementwise."""
    return api.sqrt(api.add(api.square(x), api.square(y)))


def _nan_aware(pick, x, y):
    """pick(x, y) where both are numbers, the other operand where one is NaN."""
    return api.where(api.isnan(x), y, api.where(api.isnan(y), x, pick(x, y)))


def fmax(x, y, name=None):
    """Elementwise maximum ignoring NaN (NaN only where both are NaN)."""
    return _nan_aware(api.maximum, x, y)


def fmin(x, y, name=None):
    """Elementwise minimum ignoring NaN (NaN only where both are NaN)."""
    return _nan_aware(api.minimum, x, y)


def logaddexp(x, y, name=None):
    """log(exp(x) + exp(y)), computed as max(x, y) + log1p(exp(-|x - y|)) so it never
    overflows."""
    gap = api.abs(api.subtract(x, y))
    return api.add(api.maximum(x, y), api.log1p(api.exp(api.neg(gap))))


# ---------------------------------------------------------------- signs

def copysign(x, y, name=None):
    """|x| with the sign of y (y a tensor or a number; -0.0 counts as negative)."""
    if not hasattr(y, "shape"):
        y = api.full([], float(y), x.dtype if x.dtype.is_floating else None)
    magnitude = api.abs(x)
    if not magnitude.dtype.is_floating:
        magnitude = api.cast(magnitude, y.dtype if y.dtype.is_floating else "float32")
    return api.where(signbit(y), api.neg(magnitude), magnitude)


def sgn(x, name=None):
    """sign(x) for real x; x / |x| for complex x (0 where x == 0)."""
    if x.dtype.np.kind != "c":
        return api.sign(x)
    size = api.abs(x)
    nonzero = api.not_equal(size, api.full_like(size, 0))
    safe = api.where(nonzero, size, api.full_like(size, 1))
    unit = api.divide(x, api.cast(safe, x.dtype))
    return api.where(nonzero, unit, api.full_like(x, 0))


def sinc(x, name=None):
    """sin(pi x) / (pi x), 1 at x == 0 (the zeros are replaced before dividing, so the
    gradient there is 0, the true derivative)."""
    zero = api.equal(x, api.full_like(x, 0))
    scaled = api.scale(api.where(zero, api.full_like(x, 1), x), math.pi)
    return api.where(zero, api.full_like(x, 1), api.divide(api.sin(scaled), scaled))


def positive(x, name=None):
    """x itself (unary plus); bool tensors are refused as in Paddle."""
    if x.dtype.np.kind == "b":
        raise TypeError("positive: the unary + operator is not supported for bool tensors")
    return x


def round(x, decimals=0, name=None):  # noqa: A001 - Paddle's name
    """x rounded half to even, to `decimals` places (negative: to tens, hundreds, ...)."""
    if not decimals:
        return api.round(x)
    factor = api.full([], 10.0 ** decimals, x.dtype)
    return api.divide(api.round(api.multiply(x, factor)), factor)


def _shift_amount(x, y, op):
    """y as a tensor of x's dtype, after checking that x holds integers."""
    if not x.dtype.is_integer:
        raise TypeError(f"{op}: argument 'x' must be an integer tensor, got {x.dtype.name}")
    return api.full([], y, x.dtype) if isinstance(y, numbers.Integral) else y


def _power_of_two(y):
    """2 ** y elementwise, in y's dtype."""
    return api.elementwise_pow(api.full_like(y, 2), y)


def bitwise_left_shift(x, y, is_arithmetic=True, name=None):
    """x << y elementwise (arithmetic and logical left shifts agree)."""
    y = _shift_amount(x, y, "bitwise_left_shift")
    return api.multiply(x, _power_of_two(y))


def bitwise_right_shift(x, y, is_arithmetic=True, name=None):
    """x >> y elementwise: arithmetic (sign-filling) by default; with is_arithmetic=False
    the bits of a negative x shift as an unsigned pattern (zero-filling)."""
    y = _shift_amount(x, y, "bitwise_right_shift")
    if is_arithmetic or not np.issubdtype(x.dtype.np, np.signedinteger):
        return api.floor_divide(x, _power_of_two(y))
    one = api.full_like(y, 1)
    high_cleared = api.bitwise_and(api.floor_divide(x, api.full_like(x, 2)),
                                   api.full_like(x, np.iinfo(x.dtype.np).max))
    rest = api.floor_divide(high_cleared, _power_of_two(api.maximum(api.subtract(y, one),
                                                                    api.full_like(y, 0))))
    return api.where(api.equal(y, api.full_like(y, 0)), x, rest)


def multigammaln(x, p, name=None):
    """log of the multivariate gamma function of dimension p:
    p(p-1)/4 log(pi) + sum over i < p of lgamma(x - i/2)."""
    if not (isinstance(p, numbers.Integral) and p >= 1):
        raise ValueError(f"multigammaln: argument 'p' must be a positive int, got {p!r}")
    total = api.lgamma(x)
    for i in range(1, p):
        total = api.add(total, api.lgamma(api.scale(x, 1.0, -i / 2.0)))
    return api.scale(total, 1.0, 0.25 * p * (p - 1) * math.log(math.pi))



def _check_non_negative(fn, **tensors):
    """Paddle's ValueError when an eager tensor argument holds a negative (or NaN) value
    (static Variables have no values to check)."""
    for arg, t in tensors.items():
        if isinstance(t, Tensor) and not (t.numpy() >= 0).all():
            raise ValueError(f"{fn}: argument '{arg}' must be greater than or equal to 0")


def gammainc(x, y, name=None):
    """Regularized lower incomplete gamma P(x, y) of shape x >= 0 and limit y >= 0
    (differentiable in y only, as in Paddle)."""
    _check_non_negative("gammainc", x=x, y=y)
    return api.gammainc(x, y)


def gammaincc(x, y, name=None):
    """Regularized upper incomplete gamma Q(x, y) = 1 - P(x, y) of shape x >= 0 and limit
    y >= 0 (differentiable in y only, as in Paddle)."""
    _check_non_negative("gammaincc", x=x, y=y)
    return api.gammaincc(x, y)


def _reduced_axes(x_shape, target_shape):
    """Axes of x that reduce_as sums: the leading ones target lacks and those where target
    has size 1 (each other size must match x's)."""
    lead = len(x_shape) - len(target_shape)
    if lead < 0:
        raise ValueError(f"reduce_as: argument 'target' has rank {len(target_shape)}, more "
                         f"than x's rank {len(x_shape)}")
    axes = list(range(lead))
    for i, (size, want) in enumerate(zip(x_shape[lead:], target_shape)):
        if want == 1 and size != 1:
            axes.append(lead + i)
        elif want != size and -1 not in (want, size):
            raise ValueError(f"reduce_as: argument 'target' of shape {list(target_shape)} "
                             f"cannot be reached by summing x of shape {list(x_shape)}")
    return axes


def reduce_as(x, target, name=None):
    """x summed to target's shape over the axes broadcasting would add (the gradient of a
    broadcast); bool and int32 give int64 as paddle.sum does."""
    axes = _reduced_axes(list(x.shape), list(target.shape))
    if not axes:
        return api.cast(x, "int64") if x.dtype.name in ("bool", "int32") else x
    lead = x.ndim - target.ndim
    out = api.sum(x, axes, keepdim=True)
    return api.squeeze(out, list(range(lead))) if lead else out


OPERATORS = {"__lshift__": bitwise_left_shift, "__rshift__": bitwise_right_shift,
             "__pos__": positive}

"""In-place functions and methods (`x.add_(y)`, `x.zero_()`, `paddle.clip_(x)`, ...).

Each runs its out-of-place op and then hands the result to `x` through `_take_over`, the
mechanism `x[i] = v` uses: the object keeps its identity and sees the new value, a
non-leaf tensor's autograd history continues from the op, and a static Variable is
renamed to the op's output. Like Paddle, a leaf tensor that requires a gradient refuses
in-place updates while grad mode is on; under `no_grad` its values are replaced.
"""
import functools

from ..core import dtype as dtypes
from ..eager.grad_mode import is_grad_enabled
from ..eager.tensor import Tensor
from ..ops._generated import api
from .manipulation import reshape
from .math import add as _add, divide as _divide, pow as _pow, subtract as _subtract
from .extra import where
from .scatter_into import index_put

__all__ = ["add_", "subtract_", "multiply_", "divide_", "pow_", "scale_", "clip_", "exp_",
           "sqrt_", "rsqrt_", "tanh_", "floor_", "ceil_", "reciprocal_", "masked_fill_",
           "reshape_", "squeeze_", "unsqueeze_", "flatten_", "uniform_", "normal_", "index_put_",
           "where_"]
# METHODS: in-place operations Paddle offers only as Tensor methods.


def _check_leaf(x, op):
    """Raise Paddle's error for an in-place op on a leaf that needs a gradient."""
    if isinstance(x, Tensor) and x.is_leaf and not x.stop_gradient and is_grad_enabled():
        raise ValueError(f"(InvalidArgument) {op}: Leaf Tensor ({x.name}) that doesn't stop "
                         f"gradient can't use inplace strategy; call it under paddle.no_grad() "
                         f"or on a copy (x.clone())")


def _check_same_meta(x, out, op, keep_dtype=True):
    """The result of a shape-preserving in-place op must keep x's shape (and its dtype when
    keep_dtype)."""
    known = all(d >= 0 for d in list(x.shape) + list(out.shape))
    if known and list(out.shape) != list(x.shape):
        raise ValueError(f"{op}: the broadcast output shape {list(out.shape)} differs from "
                         f"the shape {list(x.shape)} of the tensor updated in place")
    if keep_dtype and out.dtype != x.dtype:
        raise TypeError(f"{op}: the result dtype {out.dtype.name} differs from the dtype "
                        f"{x.dtype.name} of the tensor updated in place")


def write_inplace(x, out, op):
    """Make `x` hold `out` (the op's result) and return x."""
    _check_leaf(x, op)
    if isinstance(x, Tensor) and x.is_leaf and not x.stop_gradient:
        x._set_data(out.numpy())  # under no_grad: a parameter keeps its flags and identity
    else:
        x._take_over(out)
    return x


def _inplace(fn, name, same_meta=True, keep_dtype=True):
    """The in-place twin `name` of out-of-place `fn` (same signature, returns x); with
    same_meta the result must keep x's shape, and its dtype too when keep_dtype."""
    @functools.wraps(fn)
    def twin(x, *args, **kwargs):
        _check_leaf(x, name)
        out = fn(x, *args, **kwargs)
        if same_meta:
            _check_same_meta(x, out, name, keep_dtype)
        return write_inplace(x, out, name)
    twin.__name__ = twin.__qualname__ = name
    twin.__doc__ = f"In-place {fn.__name__}: x takes the result and is returned."
    return twin


def _scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """scale * x + bias (or scale * (x + bias)), Paddle's scale signature."""
    if act is not None:
        raise NotImplementedError("scale_(act=...) is not supported; apply the activation")
    return api.scale(x, scale, bias, bias_after_scale)


def _uniform_like(x, min=0.0, max=1.0, seed=0, name=None):  # noqa: A002 - Paddle's names
    """Uniform samples in [min, max) shaped and typed like x."""
    return api.uniform(x.shape, x.dtype, float(min), float(max), seed)


def _normal_like(x, mean=0.0, std=1.0, name=None):
    """Normal samples with `mean` and `std` shaped and typed like x."""
    return api.gaussian(x.shape, float(mean), float(std), 0, x.dtype)


add_ = _inplace(_add, "add_")
subtract_ = _inplace(_subtract, "subtract_")
multiply_ = _inplace(api.multiply, "multiply_")
divide_ = _inplace(_divide, "divide_", keep_dtype=False)  # int / int makes x float, as Paddle
scale_ = _inplace(_scale, "scale_")
clip_ = _inplace(api.clip, "clip_")
exp_ = _inplace(api.exp, "exp_")
sqrt_ = _inplace(api.sqrt, "sqrt_")
rsqrt_ = _inplace(api.rsqrt, "rsqrt_")
tanh_ = _inplace(api.tanh, "tanh_")
floor_ = _inplace(api.floor, "floor_")
ceil_ = _inplace(api.ceil, "ceil_")
reciprocal_ = _inplace(api.reciprocal, "reciprocal_")
pow_ = _inplace(_pow, "pow_")
masked_fill_ = _inplace(api.masked_fill, "masked_fill_")
uniform_ = _inplace(_uniform_like, "uniform_")
normal_ = _inplace(_normal_like, "normal_")
reshape_ = _inplace(reshape, "reshape_", same_meta=False)
squeeze_ = _inplace(api.squeeze, "squeeze_", same_meta=False)
unsqueeze_ = _inplace(api.unsqueeze, "unsqueeze_", same_meta=False)
flatten_ = _inplace(api.flatten, "flatten_", same_meta=False)
index_put_ = _inplace(index_put, "index_put_")


def _filled(x, value):
    """A tensor like x holding `value` everywhere; a gradient-carrying x passes zeros."""
    fill = api.full_like(x, value)
    if x.stop_gradient:
        return fill
    return api.where(api.full_like(x, True, dtypes.bool_), fill, x)


def _zeros(x):
    """Zeros like x."""
    return _filled(x, 0)


def _copied(x, src, blocking=True):
    """src's values cast to x's dtype (x's shape, broadcasting src)."""
    src = src if x.dtype == src.dtype else api.cast(src, x.dtype)
    return src if list(src.shape) == list(x.shape) else api.expand(src, x.shape)


def _inplace_assign(x, y):
    """x becomes a copy of y (values, shape, dtype and autograd history) and is returned.

    Unlike the other in-place ops, Paddle allows it on a leaf that requires a gradient: the
    leaf then continues y's history, so a backward pass reaches y's inputs."""
    out = api.assign(y)
    if isinstance(x, Tensor):
        x._take_over(out, allow_leaf=True)
    else:
        x._take_over(out)
    return x


METHODS = {
    "_inplace_assign": _inplace_assign,
    "zero_": _inplace(_zeros, "zero_"),
    "fill_": _inplace(_filled, "fill_"),
    "copy_": _inplace(_copied, "copy_"),
}


def where_(condition, x=None, y=None, name=None):
    """In-place where: x takes where(condition, x, y) and is returned."""
    out = where(condition, x, y)
    _check_same_meta(x, out, "where_")
    return write_inplace(x, out, "where_")


# Public functions whose in-place twin `<name>_` keeps x's shape and dtype ...
_SAME_META = (
    "abs", "acos", "acosh", "addmm", "asin", "asinh", "baddbmm", "atan", "atanh", "bitwise_and",
    "bitwise_not", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
    "copysign", "cos", "cosh", "digamma", "erf", "erfinv", "expm1", "floor_divide",
    "floor_mod", "frac", "gammainc", "gammaincc", "gammaln", "gcd", "hypot", "i0", "index_add",
    "index_fill", "lcm", "ldexp", "lerp", "lgamma", "log", "log10", "log1p", "log2", "logit",
    "masked_scatter", "mod", "multigammaln", "nan_to_num", "neg", "polygamma", "put_along_axis",
    "remainder", "renorm", "round", "sin", "sinh", "sinc", "square", "tan", "tril", "triu", "trunc")
# ... and those whose result may have another shape or dtype (casts, transposes,
# comparisons, running sums that flatten).
_NEW_META = (
    "cast", "t", "transpose", "cumsum", "cumprod", "equal", "not_equal", "greater_equal",
    "greater_than", "less_equal", "less_than", "logical_and", "logical_or", "logical_xor",
    "logical_not")


def inplace_variants(namespace):
    """In-place twins `<name>_` of the public functions in `namespace` that lack one."""
    return {base + "_": _inplace(namespace[base], base + "_", base in _SAME_META)
            for base in _SAME_META + _NEW_META
            if base in namespace and base + "_" not in namespace}

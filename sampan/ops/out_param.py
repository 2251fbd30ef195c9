"""Paddle 3's `out=` keyword: which public functions take it, and how a result is written
into the tensor given. Read by tools/gen_ops.py (by path: no package import), which gives
the generated op functions in the list the keyword natively, and by sampan.tensor.aliases,
which wraps the others."""

__all__ = ["OUT_TAKING", "write_out"]

# Public functions that take Paddle 3's `out=` tensor, which receives the result (not cat,
# concat, concatenate or stack: to_static recognises those by identity)
OUT_TAKING = (
    "abs", "acos", "acosh", "add", "all", "amax", "amin", "any", "arange", "atanh",
    "bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_not", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "bmm", "bucketize", "ceil", "clamp", "clip",
    "complex", "cos", "cosh", "cumprod", "cumsum", "diff", "div", "divide", "dot", "empty",
    "eq", "equal", "exp", "expm1", "eye", "floor", "floor_divide", "floor_mod", "frac", "full",
    "gather", "ge", "ger", "greater", "greater_equal", "greater_than", "gt", "index_add",
    "index_select", "le", "less", "less_equal", "less_than", "linspace", "log", "log10",
    "log1p", "log2", "logical_and", "logical_not", "logical_or", "logical_xor", "logsumexp",
    "lt", "masked_select", "matmul", "maximum", "mean", "median", "minimum", "mod", "msort",
    "mul", "multinomial", "multiply", "ne", "nonzero", "norm", "normal", "not_equal", "ones",
    "outer", "polar", "pow", "prod", "quantile", "rand", "randn", "randperm", "range",
    "remainder", "round", "rsqrt", "scatter", "searchsorted", "sigmoid", "sign", "sin", "sinh",
    "softmax", "sqrt", "standard_normal", "sub", "subtract", "sum", "take_along_axis",
    "take_along_dim", "tanh", "topk", "tril", "triu", "true_divide", "uniform", "var", "where",
    "zeros")


def write_out(out, result):
    """Make `out` (a tensor, or a tuple of them for a tuple result) hold `result`."""
    if isinstance(result, (tuple, list)):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"out= needs a tuple of {len(result)} tensors for this function")
        for o, r in zip(out, result):
            o._take_over(r)
        return tuple(out)
    out._take_over(result)
    return out

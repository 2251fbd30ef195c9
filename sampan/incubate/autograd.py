"""`paddle.incubate.autograd`: functional autodiff over a Python function.

`vjp` / `jvp` give vector-Jacobian and Jacobian-vector products; `Jacobian` / `Hessian` are
lazily evaluated matrices over all inputs flattened and joined (and all outputs, for the
Jacobian). Everything runs on the eager engine with `create_graph=True`, so the results
are differentiable; `jvp` uses the double-backward trick (the vjp is linear in its
cotangent, so differentiating it with respect to that cotangent gives the jvp).
"""
from ..autograd.functional import (LazyRows, flat_pieces, gradients, normalize_index, ones_like,
                                   zeros_like)
from ..eager.tensor import Tensor

__all__ = ["vjp", "jvp", "Jacobian", "Hessian"]


def _as_list(value):
    return [value] if isinstance(value, Tensor) else list(value)


def _check_inputs(func, xs, v=None):
    if not callable(func):
        raise TypeError(f"func must be callable, got {type(func).__name__}")
    for name, value in (("xs", xs), ("v", v)):
        if value is None and name == "v":
            continue
        if not isinstance(value, (Tensor, list, tuple)) or not all(
                isinstance(t, Tensor) for t in _as_list(value)):
            raise TypeError(f"{name} must be a Tensor or a sequence of Tensors, got "
                            f"{type(value).__name__}")


def _check_v(v, refs, what):
    """Raise unless `v` matches `refs` (a Tensor or list of them) in count and shapes."""
    if v is None:
        return
    v, refs = _as_list(v), _as_list(refs)
    if len(v) != len(refs):
        raise RuntimeError(f"v has {len(v)} tensors but {what} has {len(refs)}")
    for k, (a, b) in enumerate(zip(v, refs)):
        if a.shape != b.shape:
            raise RuntimeError(f"v[{k}] has shape {a.shape} but {what}[{k}] has shape "
                               f"{b.shape}")


def _separate(xs):
    """Fresh differentiable copies of the inputs, so the derivatives cover exactly the
    paths through `func` (an input that already depends on another one stays connected to
    it, so the results remain differentiable with respect to the caller's graph)."""
    copies = []
    for x in _as_list(xs):
        if x.stop_gradient:
            x = x.detach()
            x.stop_gradient = False
            copies.append(x)
        else:
            copies.append(x.clone())
    return copies[0] if isinstance(xs, Tensor) else tuple(copies)


def _call(func, xs):
    return func(xs) if isinstance(xs, Tensor) else func(*xs)


def _shaped_like(results, xs):
    return results[0] if isinstance(xs, Tensor) else tuple(results)


def vjp(func, xs, v=None):
    """(func(xs), v^T J): the vector-Jacobian product at `xs`.

    Args:
        func (callable): takes the tensors of `xs` as positional arguments and returns a
            Tensor or a sequence of Tensors.
        xs (Tensor|Sequence[Tensor]): where to evaluate.
        v (Tensor|Sequence[Tensor]|None): cotangents shaped like func's outputs; ones when
            None.

    Returns:
        (func_out, vjp), the vjp shaped like `xs`.

    Example:
        >>> _, g = paddle.incubate.autograd.vjp(lambda x: paddle.matmul(x, x),
        ...                                     paddle.ones([2, 2]))   # [[4, 4], [4, 4]]
    """
    _check_inputs(func, xs, v)
    xs = _separate(xs)
    ys = _call(func, xs)
    _check_v(v, ys, "func's output")
    y_list = _as_list(ys)
    seeds = _as_list(v) if v is not None else [ones_like(y) for y in y_list]
    return ys, _shaped_like(gradients(y_list, _as_list(xs), seeds), xs)


def jvp(func, xs, v=None):
    """(func(xs), J v): the Jacobian-vector product at `xs`.

    Args:
        func (callable): takes the tensors of `xs` as positional arguments and returns a
            Tensor or a sequence of Tensors.
        xs (Tensor|Sequence[Tensor]): where to evaluate.
        v (Tensor|Sequence[Tensor]|None): tangents shaped like `xs`; ones when None.

    Returns:
        (func_out, jvp), the jvp shaped like func's output.
    """
    _check_inputs(func, xs, v)
    xs = _separate(xs)
    ys = _call(func, xs)
    _check_v(v, xs, "xs")
    x_list, y_list = _as_list(xs), _as_list(ys)
    cotangents = [zeros_like(y, stop_gradient=False) for y in y_list]
    pulled = gradients(y_list, x_list, cotangents)
    tangents = _as_list(v) if v is not None else [ones_like(x) for x in x_list]
    return ys, _shaped_like(gradients(pulled, cotangents, tangents), ys)


class _FlatMatrix:
    """Indexing and shape shared by the function-based Jacobian and Hessian."""

    _rows: LazyRows

    @property
    def shape(self):
        """[M, N], or [B, M, N] when batched."""
        return list(self._rows.shape)

    def __getitem__(self, index):
        return self._rows[normalize_index(index, self._rows.shape, type(self).__name__)]

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape})"


class Jacobian(_FlatMatrix):
    """The Jacobian of `func` at `xs`: all inputs flattened (past the batch axis when
    `is_batched`) and joined into N columns, all outputs likewise into M rows; rows are
    computed lazily when indexed (`J[:]`, `J[i, :]`, `J[:, j]`).

    Example:
        >>> x = paddle.to_tensor([[1., 2.], [3., 4.]])
        >>> J = paddle.incubate.autograd.Jacobian(paddle.matmul, [x, x])
        >>> J.shape         # [4, 8]
    """

    def __init__(self, func, xs, is_batched=False):
        _check_inputs(func, xs)
        x_list = _as_list(_separate(xs))
        y_list = _as_list(func(*x_list))
        self._rows = LazyRows(flat_pieces(y_list, is_batched), x_list, is_batched)


class Hessian(_FlatMatrix):
    """The Hessian of the single-element `func` (one element per sample when
    `is_batched`) at `xs`, all inputs flattened and joined: [N, N] or [B, N, N].

    Example:
        >>> H = paddle.incubate.autograd.Hessian(lambda x: (x * x).sum(), paddle.rand([2, 2]))
        >>> H[:]            # 2 * identity(4)
    """

    def __init__(self, func, xs, is_batched=False):
        _check_inputs(func, xs)
        x_list = _as_list(_separate(xs))
        y = func(*x_list)
        if not isinstance(y, Tensor):
            raise RuntimeError(f"the function given to Hessian must return a Tensor, got "
                               f"{type(y).__name__}")
        if (y.size // y.shape[0] if is_batched and y.ndim else y.size) != 1:
            raise RuntimeError(f"the function given to Hessian must return one element (one "
                               f"per sample when is_batched=True), got shape {y.shape}")
        firsts = gradients([y], x_list, [ones_like(y)])
        self._rows = LazyRows(flat_pieces(firsts, is_batched), x_list, is_batched)

"""`paddle.autograd.jacobian` / `hessian`: matrices of derivatives evaluated lazily.

A Jacobian is computed a row at a time by the eager reverse-mode engine: row `i` is the
gradient of output element `i` (of every sample's element `i` under `batch_axis=0`), taken
with `create_graph=True` so rows stay differentiable and a Hessian is the Jacobian of a
gradient. Rows are computed when an index first asks for them and cached.
"""
import numpy as np

from ..core.array_protocol import export_array
from ..eager.autograd import grad
from ..eager.tensor import Tensor, wrap
from ..tensor import concat, stack

__all__ = ["Jacobian", "Hessian", "jacobian", "hessian"]


# ---------------------------------------------------------------------- rows of derivatives


def gradients(ys, xs, seeds):
    """d(sum_k seeds[k] * ys[k]) / d(x) for each x of `xs`, differentiable (create_graph).

    Outputs that do not need a gradient contribute nothing and inputs no output reaches
    get zeros, so a function that is constant (or linear, for second derivatives) in an
    input gives a zero derivative instead of an error.
    """
    pairs = [(y, s) for y, s in zip(ys, seeds) if not y.stop_gradient]
    found = [None] * len(xs)
    if pairs:
        found = grad([y for y, _ in pairs], list(xs), [s for _, s in pairs],
                     create_graph=True, allow_unused=True)
    return [zeros_like(x) if g is None else g for g, x in zip(found, xs)]


def zeros_like(t, stop_gradient=True):
    """A new zero tensor of `t`'s shape and dtype."""
    return wrap(np.zeros(t._data.shape, t._data.dtype), stop_gradient)


def ones_like(t):
    """A new tensor of ones of `t`'s shape and dtype."""
    return wrap(np.ones(t._data.shape, t._data.dtype))


def flat_pieces(tensors, batched):
    """The tensors reshaped to [N_k] (or [B, N_k])."""
    return [t.reshape([t.shape[0], -1] if batched else [-1]) for t in tensors]


def flatten(tensors, batched):
    """The tensors reshaped to [N_k] (or [B, N_k]) and joined along the last axis."""
    flat = flat_pieces(tensors, batched)
    return flat[0] if len(flat) == 1 else concat(flat, axis=-1)


class LazyRows:
    """d(ys)/d(xs) as an [M, N] matrix, or [B, M, N] when batched (samples are assumed
    independent, as in Paddle); rows along M are computed on first use and cached.

    `pieces` are the outputs, each flattened to [M_k] (or [B, M_k]); the rows are theirs
    in order. They are seeded one at a time rather than joined first, so a row's backward
    pass never runs through an extra concat.
    """

    def __init__(self, pieces, xs, batched):
        self._pieces, self._xs, self._batched = list(pieces), list(xs), batched
        self._rows = {}
        lead = 1 if batched else 0
        widths = [p.shape[lead] for p in self._pieces]
        self._starts = np.cumsum([0] + widths)
        width = sum(int(np.prod(x.shape[lead:], dtype=np.int64)) for x in self._xs)
        self.shape = tuple(self._pieces[0].shape[:lead]) + (int(self._starts[-1]), width)
        self.axis = lead

    def row(self, i):
        """Row `i` ([N], or [B, N] when batched)."""
        got = self._rows.get(i)
        if got is None:
            k = int(np.searchsorted(self._starts, i, side="right")) - 1
            piece = self._pieces[k]
            seed = np.zeros(piece._data.shape, piece._data.dtype)
            seed[..., i - self._starts[k]] = 1
            got = flatten(gradients([piece], self._xs, [wrap(seed)]), self._batched)
            self._rows[i] = got
        return got

    def __getitem__(self, index):
        """`index`: a full tuple of in-range ints and slices (see `normalize_index`)."""
        axis = self.axis
        chosen = index[axis]
        if isinstance(chosen, int):
            return _select(self.row(chosen), index[:axis] + index[axis + 1:])
        rows = range(*chosen.indices(self.shape[axis]))
        if rows:
            block = stack([self.row(i) for i in rows], axis=axis)
        else:
            empty = list(self.shape)
            empty[axis] = 0
            block = wrap(np.zeros(empty, self._pieces[0]._data.dtype))
        return _select(block, index[:axis] + (slice(None),) + index[axis + 1:])


def _select(t, index):
    if all(i == slice(None) for i in index):
        return t
    return t[index]


def normalize_index(index, shape, what="Jacobian"):
    """`index` as a tuple of one non-negative int or slice per axis of `shape`."""
    index = index if isinstance(index, tuple) else (index,)
    if any(i is Ellipsis for i in index):
        raise IndexError(f"{what} indexing does not support Ellipsis (...); index every "
                         f"axis of its shape {list(shape)} explicitly")
    if len(index) > len(shape):
        raise IndexError(f"too many indices for a {what} of shape {list(shape)}: "
                         f"{len(index)} given")
    out = []
    for axis, i in enumerate(index):
        if isinstance(i, slice):
            out.append(i)
            continue
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"{what} indices must be ints or slices, got "
                            f"{type(i).__name__} at axis {axis}")
        size = shape[axis]
        if not -size <= i < size:
            raise IndexError(f"index {i} is out of range for axis {axis} of size {size} "
                             f"(a {what} of shape {list(shape)})")
        out.append(int(i) % size)
    return tuple(out) + (slice(None),) * (len(shape) - len(out))


# ----------------------------------------------------------------------------- public API


def _check_ndim(t, name, batched):
    low, high = (1, 2) if batched else (0, 1)
    if not low <= t.ndim <= high:
        mode = "batch_axis=0" if batched else "batch_axis=None"
        raise ValueError(f"{name} must be {low}-D or {high}-D with {mode}, got shape "
                         f"{t.shape}; flatten the non-batch dims first")


class Jacobian:
    """The Jacobian of `ys` with respect to `xs` (both 0-D/1-D, or 1-D/2-D with a leading
    batch axis), evaluated lazily by indexing: `J[:]`, `J[i, :]`, `J[:, j]`, `J[1:3]`.

    Shape: [M, N] for ys [M] and xs [N]; [B, M, N] with is_batched. A 0-D ys (or 1-D ys
    when batched) contributes no axis, and likewise xs. Attribute access and arithmetic
    (`J.numpy()`, `J * 2`) act on the whole evaluated matrix.
    """

    def __init__(self, ys, xs, is_batched=False):
        _check_ndim(ys, "ys", is_batched)
        _check_ndim(xs, "xs", is_batched)
        if is_batched and ys.shape[0] != xs.shape[0]:
            raise ValueError(f"ys and xs must share the batch size (axis 0) with "
                             f"batch_axis=0, got shapes {ys.shape} and {xs.shape}")
        lead = 1 if is_batched else 0
        self._rows = LazyRows(flat_pieces([ys], is_batched), [xs], is_batched)
        self._kept = (True,) * lead + (ys.ndim > lead, xs.ndim > lead)
        self.shape = [d for d, kept in zip(self._rows.shape, self._kept) if kept]

    def __getitem__(self, index):
        if not self.shape:
            raise IndexError("a Jacobian of 0-D ys with respect to 0-D xs is a scalar and "
                             "cannot be indexed; use J.numpy() or J.item()")
        public = iter(normalize_index(index, self.shape, type(self).__name__))
        return self._rows[tuple(next(public) if kept else 0 for kept in self._kept)]

    def _evaluate_all(self):
        return self._rows[(0, 0)] if not self.shape else self[:]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    def __array__(self, dtype=None, copy=None):
        return export_array(self._evaluate_all().numpy(), dtype, copy)

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape})"


def _evaluated_operator(name):
    def operator(self, other):
        rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(self._evaluate_all(), name)(rhs)
    operator.__name__ = name
    return operator


for _name in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__",
              "__floordiv__", "__matmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
              "__ge__", "__radd__", "__rsub__", "__rmul__", "__rtruediv__"):
    setattr(Jacobian, _name, _evaluated_operator(_name))
Jacobian.__neg__ = lambda self: -self._evaluate_all()
Jacobian.__hash__ = object.__hash__


class Hessian(Jacobian):
    """The Hessian of a scalar (per sample) `ys`: the Jacobian of its gradient. See
    `hessian`."""


def _is_batched(batch_axis):
    if batch_axis is None:
        return False
    if type(batch_axis) is int and batch_axis == 0:
        return True
    raise ValueError(f"batch_axis must be None or 0, got {batch_axis!r}")


def _tensor_list(value, name, api):
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Tensor)
                                                          for v in value):
        return list(value)
    raise TypeError(f"{api}(): {name} must be a Tensor or a non-empty tuple/list of "
                    f"Tensors, got {type(value).__name__}")


def _differentiable_xs(xs, api):
    found = _tensor_list(xs, "xs", api)
    for k, x in enumerate(found):
        if x.stop_gradient:
            where = "xs" if isinstance(xs, Tensor) else f"xs[{k}]"
            raise ValueError(f"{api}(): {where} has stop_gradient=True, so nothing can "
                             f"be differentiated with respect to it; set "
                             f"x.stop_gradient = False before computing ys")
    return found


def jacobian(ys, xs, batch_axis=None):
    """Jacobian(s) of `ys` with respect to `xs`, evaluated lazily when indexed.

    Args:
        ys (Tensor|tuple[Tensor]): outputs computed from `xs` (0-D or 1-D; 1-D or 2-D with
            `batch_axis=0`).
        xs (Tensor|tuple[Tensor]): inputs with `stop_gradient=False`, same rank rules.
        batch_axis (None|int): None, or 0 when axis 0 of every tensor is a batch of
            independent samples.

    Returns:
        A `Jacobian` for Tensor ys and xs; a tuple over xs (or over ys) when one of them is
        a tuple; a tuple (over ys) of tuples (over xs) when both are.

    Example:
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> J = paddle.autograd.jacobian(x * x, x)
        >>> J[:]            # [[2., 0.], [0., 4.]]
    """
    batched = _is_batched(batch_axis)
    y_list = _tensor_list(ys, "ys", "jacobian")
    x_list = _differentiable_xs(xs, "jacobian")
    table = [[Jacobian(y, x, batched) for x in x_list] for y in y_list]
    if isinstance(xs, Tensor):
        table = [row[0] for row in table]
    else:
        table = [tuple(row) for row in table]
    return table[0] if isinstance(ys, Tensor) else tuple(table)


def hessian(ys, xs, batch_axis=None):
    """Hessian(s) of the scalar `ys` (one value per sample with `batch_axis=0`) with
    respect to `xs`, evaluated lazily when indexed.

    Args:
        ys (Tensor): one element (0-D or [1]); with `batch_axis=0`, shape [B] or [B, 1].
        xs (Tensor|tuple[Tensor]): inputs with `stop_gradient=False`: 0-D or 1-D (1-D or
            2-D with `batch_axis=0`).
        batch_axis (None|int): None or 0.

    Returns:
        A `Hessian` ([N, N], or [B, N, N]) for a Tensor xs; for a tuple xs, a tuple of
        tuples whose [i][j] entry is d2 ys / (d xs[i] d xs[j]).

    Example:
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> H = paddle.autograd.hessian((x ** 3).sum(), x)
        >>> H[:]            # [[6., 0.], [0., 12.]]
    """
    batched = _is_batched(batch_axis)
    if not isinstance(ys, Tensor):
        raise TypeError(f"hessian(): ys must be a single Tensor, got {type(ys).__name__}")
    x_list = _differentiable_xs(xs, "hessian")
    for k, x in enumerate(x_list):
        _check_ndim(x, "xs" if isinstance(xs, Tensor) else f"xs[{k}]", batched)
    if not batched and ys.size != 1:
        raise ValueError(f"hessian(): ys must hold one element with batch_axis=None, got "
                         f"shape {ys.shape}")
    if batched and (ys.ndim not in (1, 2) or ys.size != ys.shape[0]):
        raise ValueError(f"hessian(): ys must have shape [B] or [B, 1] with batch_axis=0, "
                         f"got {ys.shape}")
    ys = ys.reshape([-1] if batched else [])
    firsts = gradients([ys], x_list, [ones_like(ys)])
    table = tuple(tuple(Hessian(g, x, batched) for x in x_list) for g in firsts)
    return table[0][0] if isinstance(xs, Tensor) else table

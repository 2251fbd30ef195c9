"""Shape/dtype rules of grid_sample and affine_grid (4-D and 5-D, -1 dims propagate)."""
from ...core.errors import InvalidArgument
from ..meta import MetaTensor

__all__ = ["grid_sample", "affine_grid", "affine_grid_grad"]

_MODES = ("bilinear", "nearest")
_PADDING_MODES = ("zeros", "border", "reflection")


def _same_size(a, b):
    """Whether two dims agree (an unknown -1 agrees with anything)."""
    return a == b or -1 in (a, b)


def _check_float(meta, arg):
    """Refuse a non-floating tensor."""
    if not meta.dtype.is_floating:
        raise InvalidArgument(arg, f"expects float32 or float64, got {meta.dtype.name}", "dtype")


def grid_sample(x, grid, mode, padding_mode, align_corners):
    """(N, C, *grid.shape[1:-1]): x is (N, C, H, W) with grid (N, H', W', 2), or
    (N, C, D, H, W) with grid (N, D', H', W', 3)."""
    if x.ndim not in (4, 5):
        raise InvalidArgument("x", f"expects a 4-D (N, C, H, W) or 5-D (N, C, D, H, W) "
                                   f"tensor, got {x.ndim}-D", "shape")
    nd = x.ndim - 2
    if grid.ndim != x.ndim or not _same_size(grid.shape[-1], nd):
        raise InvalidArgument("grid", f"expects a {x.ndim}-D grid whose last dim is {nd} for "
                                      f"a {x.ndim}-D x, got shape {list(grid.shape)}", "shape")
    if not _same_size(grid.shape[0], x.shape[0]):
        raise InvalidArgument("grid", f"batch size {grid.shape[0]} differs from x's "
                                      f"{x.shape[0]}", "shape")
    if mode not in _MODES:
        raise InvalidArgument("mode", f"expects one of {list(_MODES)}, got {mode!r}")
    if padding_mode not in _PADDING_MODES:
        raise InvalidArgument("padding_mode", f"expects one of {list(_PADDING_MODES)}, got "
                                              f"{padding_mode!r}")
    _check_float(x, "x")
    if grid.dtype is not x.dtype:
        raise InvalidArgument("grid", f"expects x's dtype {x.dtype.name}, got "
                                      f"{grid.dtype.name}", "dtype")
    batch = x.shape[0] if x.shape[0] != -1 else grid.shape[0]
    return MetaTensor((batch, x.shape[1]) + tuple(grid.shape[1:-1]), x.dtype)


def affine_grid(theta, out_shape, align_corners):
    """(N, H, W, 2) for theta (N, 2, 3) and out_shape [N, C, H, W]; (N, D, H, W, 3) for
    theta (N, 3, 4) and out_shape [N, C, D, H, W]."""
    if theta.ndim != 3 or theta.shape[1:] not in ((2, 3), (3, 4)):
        raise InvalidArgument("theta", f"expects shape [N, 2, 3] or [N, 3, 4], got "
                                       f"{list(theta.shape)}", "shape")
    _check_float(theta, "theta")
    nd = theta.shape[1]
    if len(out_shape) != nd + 2 or any(s <= 0 for s in out_shape[2:]):
        raise InvalidArgument("out_shape", f"expects {nd + 2} sizes [N, C, {'D, ' * (nd - 2)}"
                                           f"H, W] for theta {list(theta.shape)}, got "
                                           f"{list(out_shape)}")
    return MetaTensor((theta.shape[0],) + tuple(out_shape[2:]) + (nd,), theta.dtype)


def affine_grid_grad(out_grad, out_shape, align_corners):
    """theta's gradient: (N, 2, 3) or (N, 3, 4) from the grid gradient's last dim."""
    nd = out_grad.shape[-1]
    return MetaTensor((out_grad.shape[0], nd, nd + 1), out_grad.dtype)

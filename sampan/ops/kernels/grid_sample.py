"""NumPy kernels of grid_sample and affine_grid, for 4-D (N, C, H, W) and 5-D (N, C, D, H, W)
inputs with Paddle's conventions.

A grid holds normalised (x, y[, z]) locations in [-1, 1], x indexing the last (width) axis.
Each location becomes a pixel coordinate per spatial axis (`_source_coords`: unnormalise, then
clip or reflect for the border / reflection padding modes, keeping the derivative of the map);
bilinear sampling blends the 2**nd neighbouring pixels (`_corners`), nearest takes the rounded
one, and pixels outside x read as zero.
"""
import itertools
import math

import numpy as np

__all__ = ["grid_sample", "grid_sample_grad", "affine_grid", "affine_grid_grad"]


def _unnormalize(g, size, align_corners):
    """(pixel coordinate, its derivative) of normalised locations g along an axis of `size`."""
    if align_corners:
        scale = (size - 1) / 2.0
        return (g + 1.0) * scale, scale
    scale = size / 2.0
    return (g + 1.0) * scale - 0.5, scale


def _reflect(c, low, high):
    """(c mirrored into [low, high] at both ends as often as needed, the derivative +-1)."""
    span = high - low
    if span <= 0:
        return np.full_like(c, low), np.zeros_like(c)
    extra = np.mod(np.abs(c - low), 2.0 * span)
    back = extra > span
    reflected = np.where(back, 2.0 * span - extra, extra) + low
    return reflected, np.where((c < low) ^ back, -1.0, 1.0)


def _source_coords(grid, sizes, padding_mode, align_corners):
    """Per spatial axis of x (depth, height, width order): the pixel coordinate of each output
    location and d coordinate / d grid value (0 where border or reflection clipped it)."""
    nd = len(sizes)
    coords, slopes = [], []
    for axis, size in enumerate(sizes):
        c, scale = _unnormalize(grid[..., nd - 1 - axis], size, align_corners)
        slope = np.full_like(c, scale)
        if padding_mode == "reflection":
            low, high = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
            c, flip = _reflect(c, low, high)
            slope = slope * flip
        if padding_mode != "zeros":
            slope = np.where((c > 0) & (c < size - 1), slope, 0.0)
            c = np.clip(c, 0.0, size - 1.0)
        coords.append(c)
        slopes.append(slope)
    return coords, slopes


def _flat_index(index, sizes):
    """(flat index of each pixel into the spatial dims, 0 where outside; in-bounds mask)."""
    valid = np.ones(index[0].shape, bool)
    for i, size in zip(index, sizes):
        valid &= (i >= 0) & (i <= size - 1)
    flat = np.zeros(index[0].shape, np.int64)
    for i, size in zip(index, sizes):
        flat = flat * size + np.where(valid, i, 0).astype(np.int64)
    return flat, valid


def _corners(coords, sizes):
    """Each of the 2**nd neighbours of bilinear sampling: (flat index, weight, d weight /
    d coordinate per axis), weights zero for pixels outside x."""
    lows = [np.floor(c) for c in coords]
    fracs = [c - low for c, low in zip(coords, lows)]
    for bits in itertools.product((0, 1), repeat=len(coords)):
        flat, valid = _flat_index([low + b for low, b in zip(lows, bits)], sizes)
        factors = [f if b else 1.0 - f for f, b in zip(fracs, bits)]
        weight = math.prod(factors) * valid
        slopes = [(1.0 if b else -1.0) * valid * math.prod(factors[:k] + factors[k + 1:])
                  for k, b in enumerate(bits)]
        yield flat, weight, slopes


def _nearest(coords, sizes):
    """The one neighbour of nearest sampling (coordinates rounded half away from zero)."""
    rounded = [np.copysign(np.floor(np.abs(c) + 0.5), c) for c in coords]
    flat, valid = _flat_index(rounded, sizes)
    return flat, valid.astype(coords[0].dtype), None


def _neighbours(x, grid, mode, padding_mode, align_corners):
    """(x as (N, C, pixels), neighbours as (flat (N, 1, Q), weight (N, 1, Q), slopes), the
    coordinate slopes): everything a forward or backward pass needs."""
    n, c, sizes = x.shape[0], x.shape[1], x.shape[2:]
    coords, coord_slopes = _source_coords(grid.reshape(n, -1, len(sizes)), sizes, padding_mode,
                                          align_corners)
    found = [_nearest(coords, sizes)] if mode == "nearest" else list(_corners(coords, sizes))
    shaped = [(flat[:, None, :], weight[:, None, :].astype(x.dtype), slopes)
              for flat, weight, slopes in found]
    return x.reshape(n, c, -1), shaped, coord_slopes


def grid_sample(x, grid, mode, padding_mode, align_corners):
    """x sampled at the grid's locations: (N, C, *grid.shape[1:-1])."""
    flat_x, neighbours, _ = _neighbours(x, grid, mode, padding_mode, align_corners)
    out = np.zeros(x.shape[:2] + (math.prod(grid.shape[1:-1]),), x.dtype)
    for flat, weight, _ in neighbours:
        out += np.take_along_axis(flat_x, flat, axis=2) * weight
    return out.reshape(x.shape[:2] + grid.shape[1:-1])


def grid_sample_grad(x, grid, out_grad, mode, padding_mode, align_corners, *,
                     need=(True, True)):
    """Gradients of grid_sample: out_grad scattered back onto x's pixels with the sampling
    weights, and for the grid (bilinear only; nearest is piecewise constant) the change of
    the blend with each coordinate times the coordinate map's slope."""
    flat_x, neighbours, coord_slopes = _neighbours(x, grid, mode, padding_mode, align_corners)
    og = out_grad.reshape(flat_x.shape[:2] + (-1,))
    x_grad = _scatter(neighbours, og, x.shape) if need[0] else None
    grid_grad = None
    if need[1]:
        grid_grad = np.zeros(grid.shape, grid.dtype)
        if mode == "bilinear":
            _grid_grad_into(grid_grad, flat_x, neighbours, coord_slopes, og)
    return x_grad, grid_grad


def _scatter(neighbours, og, shape):
    """sum over neighbours of og * weight added onto the pixels read (one bincount)."""
    n, c, pixels = shape[0], shape[1], math.prod(shape[2:])
    base = (np.arange(n)[:, None, None] * c + np.arange(c)[None, :, None]) * pixels
    keys = np.concatenate([np.broadcast_to(base + flat, og.shape).reshape(-1)
                           for flat, _, _ in neighbours])
    values = np.concatenate([(og * weight).reshape(-1) for _, weight, _ in neighbours])
    total = np.bincount(keys, values, minlength=n * c * pixels)
    return total.astype(og.dtype, copy=False).reshape(shape)


def _grid_grad_into(grid_grad, flat_x, neighbours, coord_slopes, og):
    """Accumulate d loss / d grid of bilinear sampling into grid_grad (N, ..., nd)."""
    nd = len(coord_slopes)
    by_axis = [np.zeros((og.shape[0], og.shape[2]), og.dtype) for _ in range(nd)]
    for flat, _, slopes in neighbours:
        pull = np.einsum("ncq,ncq->nq", og, np.take_along_axis(flat_x, flat, axis=2))
        for axis in range(nd):
            by_axis[axis] += pull * slopes[axis]
    view = grid_grad.reshape(og.shape[0], -1, nd)
    for axis in range(nd):
        view[..., nd - 1 - axis] = by_axis[axis] * coord_slopes[axis]


def _base_grid(sizes, align_corners, dtype):
    """(prod(sizes), nd + 1) rows [x, y(, z), 1] of normalised output locations, x along
    the last size."""
    axes = []
    for size in sizes:
        line = np.linspace(-1.0, 1.0, size)
        axes.append(line if align_corners else line * (size - 1) / size)
    mesh = np.meshgrid(*axes, indexing="ij")
    columns = [m.reshape(-1) for m in reversed(mesh)] + [np.ones(mesh[0].size)]
    return np.stack(columns, axis=1).astype(dtype)


def affine_grid(theta, out_shape, align_corners):
    """Locations theta @ [x, y(, z), 1] over an out_shape (N, C, (D,) H, W) output."""
    sizes = tuple(out_shape[2:])
    base = _base_grid(sizes, align_corners, theta.dtype)
    out = np.matmul(base, np.swapaxes(theta, 1, 2))
    return out.reshape((theta.shape[0],) + sizes + (len(sizes),))


def affine_grid_grad(out_grad, out_shape, align_corners):
    """Gradient of affine_grid for theta: out_grad^T @ base per batch."""
    nd = out_grad.shape[-1]
    base = _base_grid(tuple(out_shape[2:]), align_corners, out_grad.dtype)
    flat = out_grad.reshape(out_grad.shape[0], -1, nd)
    return np.matmul(np.swapaxes(flat, 1, 2), base)

"""Cases of grid_sample and affine_grid (kernels/grid_sample.py). The references are plain
per-location loops written from Paddle's description (unnormalise, pad, blend the corners)."""
import itertools
import math

import numpy as np

from tests.ops.case import OpCase, rand


def _source(g, size, padding_mode, align_corners):
    """Pixel coordinate of one normalised location g along an axis of `size`."""
    c = (g + 1) * (size - 1) / 2 if align_corners else ((g + 1) * size - 1) / 2
    if padding_mode == "reflection":
        low, high = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
        if high == low:
            return low
        c = abs(c - low) % (2 * (high - low))
        c = low + min(c, 2 * (high - low) - c)
    if padding_mode != "zeros":
        c = min(max(c, 0.0), size - 1.0)
    return c


def _pixel(x, b, index):
    """x[b, :, *index], zeros when index falls outside x."""
    if all(0 <= i < s for i, s in zip(index, x.shape[2:])):
        return x[(b, slice(None)) + tuple(index)]
    return np.zeros(x.shape[1])


def _sample(x, b, coords, mode):
    """One output location's channel values from its pixel coordinates."""
    if mode == "nearest":
        return _pixel(x, b, [int(math.copysign(math.floor(abs(c) + 0.5), c)) for c in coords])
    total = np.zeros(x.shape[1])
    for bits in itertools.product((0, 1), repeat=len(coords)):
        weight, index = 1.0, []
        for c, bit in zip(coords, bits):
            low = math.floor(c)
            weight *= (c - low) if bit else (1 - (c - low))
            index.append(low + bit)
        total = total + weight * _pixel(x, b, index)
    return total


def reference_grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True):
    """grid_sample by a loop over output locations."""
    n, nd = x.shape[0], x.ndim - 2
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])
    for b in range(n):
        for at in itertools.product(*map(range, grid.shape[1:-1])):
            loc = grid[(b,) + at]
            coords = [_source(loc[nd - 1 - a], x.shape[2 + a], padding_mode, align_corners)
                      for a in range(nd)]
            out[(b, slice(None)) + at] = _sample(x, b, coords, mode)
    return out


def reference_affine_grid(theta, out_shape, align_corners=True):
    """affine_grid by a loop: theta @ [x, y(, z), 1] at every output location."""
    sizes = list(out_shape[2:])
    lines = [np.linspace(-1, 1, s) * (1 if align_corners else (s - 1) / s) for s in sizes]
    out = np.zeros((theta.shape[0],) + tuple(sizes) + (len(sizes),))
    for b in range(theta.shape[0]):
        for at in itertools.product(*map(range, sizes)):
            point = [lines[a][i] for a, i in reversed(list(enumerate(at)))] + [1.0]
            out[(b,) + at] = theta[b] @ np.array(point)
    return out


def _grid_case(mode, padding_mode, align_corners, nd=2, dtype="float64"):
    x = rand(*(2, 2, 4, 3, 5)[:nd + 2], dtype=dtype)
    grid = rand(*(2, 3, 2, 2)[:nd + 1], nd, low=-1.3, high=1.3, dtype=dtype)
    attrs = {"mode": mode, "padding_mode": padding_mode, "align_corners": align_corners}
    return OpCase("grid_sample", {"x": x, "grid": grid}, attrs, ref=reference_grid_sample,
                  grad=() if dtype == "float32" else None, rtol=1e-5 if dtype == "float32"
                  else 1e-6, name=f"{nd}d-{mode}-{padding_mode}-{align_corners}")


GRID_SAMPLE = ([_grid_case(m, p, a) for m in ("bilinear", "nearest")
                for p in ("zeros", "border", "reflection") for a in (True, False)]
               + [_grid_case("bilinear", p, a, nd=3) for p in ("zeros", "reflection")
                  for a in (True, False)]
               + [_grid_case("nearest", "border", False, nd=3),
                  _grid_case("bilinear", "border", True, dtype="float32")])

AFFINE_GRID = [
    OpCase("affine_grid", {"theta": rand(2, 2, 3)}, {"out_shape": [2, 3, 4, 5]},
           ref=reference_affine_grid),
    OpCase("affine_grid", {"theta": rand(1, 2, 3)}, {"out_shape": [1, 1, 3, 2],
                                                    "align_corners": False},
           ref=reference_affine_grid, name="edges"),
    OpCase("affine_grid", {"theta": rand(2, 3, 4)}, {"out_shape": [2, 1, 2, 3, 2]},
           ref=reference_affine_grid, name="3d"),
]

CASES = GRID_SAMPLE + AFFINE_GRID

"""paddle.histogramdd: counts (or summed weights) of the points in the rows of x over a grid of
bins, computed eagerly with NumPy (its values are data-dependent bin lists, which a static
Program cannot hold; no gradient, as in Paddle)."""
import numbers

import numpy as np

from ..eager.tensor import Tensor
from .creation import to_tensor

__all__ = ["histogramdd"]


def _points(x):
    """x as an (M, N) array of N-dimensional points (all leading dims flattened)."""
    if not isinstance(x, Tensor):
        raise NotImplementedError("histogramdd: only eager tensors are supported (the bin "
                                  "edges depend on the data)")
    if x.ndim < 2:
        raise ValueError(f"histogramdd: argument 'x' must have at least 2 dims, got shape "
                         f"{list(x.shape)}")
    values = x.numpy()
    return values.reshape(-1, values.shape[-1])


def _bin_spec(bins, dims):
    """NumPy's bins argument: a count per dim, or an increasing edge array per dim."""
    if isinstance(bins, numbers.Integral):
        bins = [bins] * dims
    if len(bins) != dims:
        raise ValueError(f"histogramdd: argument 'bins' needs one entry per dim ({dims}), got "
                         f"{len(bins)}")
    spec = []
    for b in bins:
        if isinstance(b, Tensor):
            edges = b.numpy().astype(np.float64)
            if edges.ndim != 1 or edges.size < 2 or np.any(np.diff(edges) <= 0):
                raise ValueError("histogramdd: argument 'bins' edge tensors must be 1-D and "
                                 "strictly increasing with at least 2 edges")
            spec.append(edges)
        elif isinstance(b, numbers.Integral) and b >= 1:
            spec.append(int(b))
        else:
            raise ValueError(f"histogramdd: argument 'bins' entries must be positive ints or "
                             f"edge tensors, got {b!r}")
    return spec


def _range_spec(ranges, dims):
    """NumPy's range argument from Paddle's flat [left0, right0, left1, right1, ...]."""
    if ranges is None:
        return None
    if len(ranges) != 2 * dims:
        raise ValueError(f"histogramdd: argument 'ranges' needs 2 values per dim ({2 * dims}), "
                         f"got {len(ranges)}")
    pairs = [(float(ranges[2 * i]), float(ranges[2 * i + 1])) for i in range(dims)]
    if any(not lo <= hi for lo, hi in pairs):
        raise ValueError(f"histogramdd: argument 'ranges' needs left <= right per dim, got "
                         f"{list(ranges)}")
    return pairs


def _weights(weights, points, x):
    """The weight per point as a flat array, or None."""
    if weights is None:
        return None
    if list(weights.shape) != list(x.shape)[:-1]:
        raise ValueError(f"histogramdd: argument 'weights' must have shape "
                         f"{list(x.shape)[:-1]}, got {list(weights.shape)}")
    return weights.numpy().reshape(points.shape[0])


def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    """(hist, edges): the N-D histogram of the rows of x (N = x.shape[-1]) and the list of N
    1-D bin-edge tensors, in x's dtype; density divides by the total and the bin volumes.

    Example: ``hist, edges = paddle.histogramdd(paddle.rand([100, 2]), bins=[3, 4])``
    """
    points = _points(x)
    dims = points.shape[1]
    hist, edges = np.histogramdd(points, bins=_bin_spec(bins, dims),
                                 range=_range_spec(ranges, dims), density=bool(density),
                                 weights=_weights(weights, points, x))
    dtype = x.numpy().dtype if x.dtype.is_floating else np.float32
    return (to_tensor(hist.astype(dtype)), [to_tensor(e.astype(dtype)) for e in edges])

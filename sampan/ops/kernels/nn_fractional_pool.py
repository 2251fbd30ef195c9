"""Fractional max pooling (Graham, "Fractional Max-Pooling", 2015) over the spatial axes of
a channels-first input, with Paddle's window placement.

Along an axis of input size n pooled to o outputs with offset u in (0, 1), window i starts
at ceil(alpha * (i + u) - 1), shifted so the first window starts at 0:
  * disjoint mode (kernel 0): alpha = n / o, u is first scaled into the range that keeps
    every window inside the input, and window i ends where window i + 1 starts (the last
    at n), so the windows tile the axis with sizes floor(alpha) or ceil(alpha);
  * overlapping mode (kernel k): alpha = (n - k) / (o - 1) and every window is k long.
The arithmetic follows Paddle's rounding (u, alpha and i + u in float32, the product in
double) so that the windows agree with Paddle's for the same u.
"""
import math

import numpy as np

from ...core.errors import InvalidArgument
from ...core.random import generator

__all__ = ["fractional_max_pool"]

_F32 = np.float32


def _disjoint_alpha_u(n, o, u):
    """(alpha, u scaled into the offsets that keep the tiling inside n) of disjoint mode."""
    alpha = _F32(n) / _F32(o)
    base = n // o
    u_max = min(_F32(base + 2) / alpha - _F32(1), _F32(n + 1 - base) / alpha - _F32(o - 1))
    return alpha, _F32(u * u_max)


def _window_bounds(n, o, k, u):
    """(starts, ends) int arrays of the o windows along an axis of size n (k = 0: disjoint)."""
    u = _F32(u)
    if k:
        alpha = _F32(n - k) / _F32(o - 1) if o > 1 else _F32(0)
    else:
        alpha, u = _disjoint_alpha_u(n, o, u)
    raw = np.array([math.ceil(float(alpha) * float(_F32(i) + u) - 1.0) for i in range(o + 1)])
    raw -= raw[0]
    starts = raw[:o]
    ends = starts + k if k else raw[1:]
    return starts, np.minimum(ends, n)


def _check_sizes(in_sizes, output_size, kernel_size):
    """Refuse an output or kernel that leaves a window empty or outside the input."""
    for axis, (n, o, k) in enumerate(zip(in_sizes, output_size, kernel_size)):
        if o < 1 or k < 0:
            raise InvalidArgument("output_size", f"axis {axis}: output size {o} and kernel "
                                  f"size {k} must be positive")
        if (n < o + k - 1) if k else (n < o):
            need = f"output_size - 1 + kernel_size = {o + k - 1}" if k else f"output_size {o}"
            raise InvalidArgument("output_size", f"axis {axis}: input size {n} is smaller "
                                  f"than {need}")


def _draw_u():
    """A uniform offset in the open interval (0, 1) from the global generator."""
    u = 0.0
    while u == 0.0:
        u = float(generator().random())
    return u


def _max_along(values, positions, axis, starts, ends):
    """Window maxima along one axis and the positions they came from (first maximum)."""
    length = int((ends - starts).max())
    # windows shorter than the longest repeat their last element: it cannot beat itself
    taps = np.minimum(starts[:, None] + np.arange(length), ends[:, None] - 1)
    gathered = np.take(values, taps, axis=axis)
    first = np.expand_dims(np.argmax(gathered, axis=axis + 1), axis + 1)
    return (np.take_along_axis(gathered, first, axis + 1).squeeze(axis + 1),
            np.take_along_axis(np.take(positions, taps, axis=axis), first,
                               axis + 1).squeeze(axis + 1))


def fractional_max_pool(x, output_size, kernel_size, random_u):
    """(out, int32 mask) of fractional max pooling of an [N, C, *spatial] array: mask holds
    each window's first maximum (row-major) as a flat index into its image's spatial axes.
    random_u = 0 draws the offset from the global generator (paddle.seed repeats it)."""
    spatial = x.shape[2:]
    _check_sizes(spatial, output_size, kernel_size)
    u = random_u or _draw_u()
    values = x
    positions = np.broadcast_to(np.arange(int(np.prod(spatial)), dtype=np.int32)
                                .reshape(spatial), x.shape)
    # the last axis first: ties on an earlier axis then go to the lowest row, as row-major
    for axis in range(x.ndim - 1, 1, -1):
        starts, ends = _window_bounds(spatial[axis - 2], output_size[axis - 2],
                                     kernel_size[axis - 2], u)
        values, positions = _max_along(values, positions, axis, starts, ends)
    return values, positions

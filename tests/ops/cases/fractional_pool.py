"""Cases of fractional max pooling (2-D and 3-D, disjoint and overlapping windows). The
reference places each window from the formula of Graham's paper as Paddle rounds it
(u, alpha and i + u in float32) and takes the first maximum by a loop over outputs."""
import itertools
import math

import numpy as np

from tests.ops.case import OpCase, distinct

f32 = np.float32


def axis_windows(n, o, k, u):
    """[(start, end), ...] along an axis of size n pooled to o (k = 0: disjoint windows)."""
    u = f32(u)
    if k:
        alpha = f32(n - k) / f32(o - 1) if o > 1 else f32(0)
    else:
        alpha = f32(n) / f32(o)
        low = n // o
        u = f32(u * min(f32(low + 2) / alpha - 1, f32(n + 1 - low) / alpha - f32(o - 1)))
    edge = [math.ceil(float(alpha) * float(f32(i) + u) - 1) for i in range(o + 1)]
    edge = [e - edge[0] for e in edge]
    return [(edge[i], min(edge[i] + k if k else edge[i + 1], n)) for i in range(o)]


def fractional_ref(x, output_size, kernel_size=None, random_u=0.5):
    """(out, mask) by scanning every window of every image."""
    spatial = x.shape[2:]
    kernel_size = kernel_size or [0] * len(spatial)
    per_axis = [axis_windows(n, o, k, random_u)
                for n, o, k in zip(spatial, output_size, kernel_size)]
    out = np.zeros(x.shape[:2] + tuple(output_size), x.dtype)
    mask = np.zeros(out.shape, np.int32)
    for index in itertools.product(*(range(o) for o in output_size)):
        box = tuple(slice(*per_axis[a][i]) for a, i in enumerate(index))
        for b, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
            window = x[(b, c) + box]
            at = np.unravel_index(np.argmax(window), window.shape)
            spot = tuple(s.start + p for s, p in zip(box, at))
            out[(b, c) + index] = window[at]
            mask[(b, c) + index] = np.ravel_multi_index(spot, spatial)
    return out, mask


_TWO, _THREE = "fractional_max_pool2d", "fractional_max_pool3d"
CASES = [
    OpCase(_TWO, {"x": distinct(2, 3, 7, 9)}, {"output_size": [5, 4], "random_u": 0.3},
           ref=fractional_ref, name="disjoint"),
    OpCase(_TWO, {"x": distinct(1, 2, 10, 8)},
           {"output_size": [4, 3], "kernel_size": [3, 4], "random_u": 0.55},
           ref=fractional_ref, name="overlapping"),
    OpCase(_TWO, {"x": distinct(1, 1, 11, 6)}, {"output_size": [4, 6], "random_u": 0.85},
           ref=fractional_ref, name="offset_wraps"),
    OpCase(_THREE, {"x": distinct(1, 2, 5, 6, 7)}, {"output_size": [2, 3, 4],
                                                    "random_u": 0.4},
           ref=fractional_ref, name="disjoint"),
    OpCase(_THREE, {"x": distinct(2, 1, 6, 5, 4)},
           {"output_size": [3, 2, 2], "kernel_size": [2, 3, 2], "random_u": 0.7},
           ref=fractional_ref, name="overlapping"),
]

"""Max-pool gradients with tied maxima: each window's gradient goes to its first maximum in
row-major order (Paddle's rule), on every kernel path (tiling, overlapping, gapped,
padded, single-tap axes, gathered adaptive windows) and in both layouts."""
import itertools

import numpy as np
import pytest

import sampan as paddle
import sampan.nn.functional as F


def _windows(size, out, kernel, stride, pad, adaptive):
    """(start, end) of each window on one axis, clipped to the input."""
    if adaptive:
        return [(o * size // out, -(-(o + 1) * size // out)) for o in range(out)]
    return [(max(o * stride - pad, 0), min(o * stride - pad + kernel, size)) for o in range(out)]


def first_max_grad(x, out_grad, kernel, stride, pad=0, adaptive=False):
    """Loop reference: out_grad of every window added at its first (row-major) maximum."""
    grad = np.zeros_like(x)
    (oh, ow), (h, w) = out_grad.shape[2:], x.shape[2:]
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        rows = _windows(h, oh, kernel[0], stride[0], pad, adaptive)
        cols = _windows(w, ow, kernel[1], stride[1], pad, adaptive)
        for (i, (h0, h1)), (j, (w0, w1)) in itertools.product(enumerate(rows), enumerate(cols)):
            window = x[n, c, h0:h1, w0:w1]
            r, s = np.unravel_index(np.argmax(window), window.shape)
            grad[n, c, h0 + r, w0 + s] += out_grad[n, c, i, j]
    return grad


def _tied(shape, seed):
    """Values drawn from {0, 1, 2}: most windows hold tied maxima."""
    return np.random.default_rng(seed).integers(0, 3, shape).astype("float32")


def _pool_grad(x, out_grad, data_format, pool):
    """(gradient of sum(pool(x) * out_grad) w.r.t. x) through sampan, NCHW in and out."""
    to_layout = (lambda a: a.transpose(0, 2, 3, 1)) if data_format == "NHWC" else (lambda a: a)
    xt = paddle.to_tensor(np.ascontiguousarray(to_layout(x)), stop_gradient=False)
    out = pool(xt, data_format)
    out.backward(paddle.to_tensor(np.ascontiguousarray(to_layout(out_grad))))
    grad = xt.grad.numpy()
    return grad.transpose(0, 3, 1, 2) if data_format == "NHWC" else grad


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("size, kernel, stride, pad", [
    ((8, 8), (2, 2), (2, 2), 0),     # windows tile the input
    ((9, 7), (2, 2), (2, 2), 0),     # tiles, last row / column uncovered
    ((7, 7), (3, 3), (1, 1), 0),     # overlapping windows
    ((7, 8), (3, 2), (2, 2), 1),     # padding
    ((8, 9), (2, 2), (3, 3), 0),     # gaps between windows
    ((6, 8), (1, 2), (1, 2), 0),     # one tap along H
    ((6, 6), (6, 6), (6, 6), 0),     # above the tap-loop limit: gathered windows
])
def test_max_pool_grad_goes_to_first_tied_maximum(data_format, size, kernel, stride, pad):
    x = _tied((2, 3) + size, seed=sum(size) + kernel[0])

    def pool(t, layout):
        return F.max_pool2d(t, kernel, stride, pad, data_format=layout)
    out_shape = pool(paddle.to_tensor(x), "NCHW").shape
    out_grad = np.random.default_rng(1).standard_normal(out_shape).astype("float32")
    np.testing.assert_allclose(_pool_grad(x, out_grad, data_format, pool),
                               first_max_grad(x, out_grad, kernel, stride, pad), atol=1e-6)


def test_adaptive_max_pool_grad_goes_to_first_tied_maximum():
    x = _tied((2, 2, 7, 5), seed=3)
    out_grad = np.random.default_rng(2).standard_normal((2, 2, 3, 2)).astype("float32")
    grad = _pool_grad(x, out_grad, "NCHW", lambda t, _: F.adaptive_max_pool2d(t, (3, 2)))
    np.testing.assert_allclose(grad, first_max_grad(x, out_grad, (0, 0), (0, 0), adaptive=True),
                               atol=1e-6)


def test_row_major_order_beats_column_major():
    """A maximum tied at (0, 1) and (1, 0): the gradient goes to (0, 1)."""
    x = np.array([[[[0.0, 5.0], [5.0, 1.0]]]], "float32")
    grad = _pool_grad(x, np.ones((1, 1, 1, 1), "float32"), "NCHW",
                      lambda t, layout: F.max_pool2d(t, 2, 2, data_format=layout))
    assert grad.tolist() == [[[[0.0, 1.0], [0.0, 0.0]]]]

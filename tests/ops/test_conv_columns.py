"""conv2d saves its im2col columns as a view of a padded copy of the input: the backward
must still see the input as it was at the call, even after its buffer is written in place."""
import numpy as np

import sampan as paddle
import sampan.nn.functional as F


def test_filter_grad_uses_the_input_as_it_was_at_the_call():
    # N = 1 and no padding: the CHWN transpose of x is contiguous, so nothing but an explicit
    # copy keeps the saved columns from aliasing x
    xn = np.random.default_rng(0).standard_normal((1, 1, 4, 4)).astype("float32")
    x = paddle.to_tensor(xn.copy())
    w = paddle.to_tensor(np.ones((1, 1, 3, 3), "float32"), stop_gradient=False)
    y = F.conv2d(x, w)
    x._data[...] = 0.0  # an in-place write into x's buffer, as in-place updates do
    y.sum().backward()
    expected = np.lib.stride_tricks.sliding_window_view(xn[0, 0], (3, 3)).sum(axis=(0, 1))
    np.testing.assert_allclose(w.grad.numpy()[0, 0], expected, rtol=1e-5)


def test_pointwise_fast_path_equals_the_im2col_path():
    # without the columns (inference), 1x1 stride-1 unpadded convs are one matmul
    from sampan.ops.kernels.nn_conv import conv
    rng = np.random.default_rng(1)
    for x_shape, f_shape, layout in [((1, 24, 5, 7), (8, 24, 1, 1), "NCHW"),
                                     ((3, 5, 4, 6), (7, 5, 1, 1), "NCHW"),
                                     ((2, 4, 3, 3, 3), (6, 4, 1, 1, 1), "NCDHW")]:
        x = rng.standard_normal(x_shape).astype("float32")
        f = rng.standard_normal(f_shape).astype("float32")
        nd = len(x_shape) - 2
        args = (x, f, [1] * nd, [0] * nd, "EXPLICIT", [1] * nd, 1, layout)
        general, columns = conv(*args, need=(True, True))
        fast, none = conv(*args, need=(True, False))
        assert columns is not None and none is None
        np.testing.assert_allclose(fast, general, rtol=1e-5, atol=1e-6)
        assert fast.shape == general.shape and fast.flags.c_contiguous

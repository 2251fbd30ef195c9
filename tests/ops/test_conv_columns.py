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

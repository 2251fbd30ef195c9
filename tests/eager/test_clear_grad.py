"""clear_grad(set_to_zero=True) frees the old gradient buffer at once and still reads as
zeros (a reference taken earlier sees zeros too, as in Paddle)."""
import numpy as np

import sampan


def test_cleared_gradient_keeps_no_buffer_and_reads_as_zeros():
    w = sampan.to_tensor(np.ones((256, 256), "float32"), stop_gradient=False)
    (w * 3.0).sum().backward()
    held = w.grad
    w.clear_grad()
    assert held._data.strides == (0, 0) and held.shape == [256, 256]
    np.testing.assert_array_equal(held.numpy(), np.zeros((256, 256), "float32"))
    grad = w.grad
    assert grad._data.flags.writeable and grad._data.strides == (1024, 4)
    np.testing.assert_array_equal(grad.numpy(), 0.0)


def test_the_next_backward_replaces_the_cleared_gradient():
    w = sampan.to_tensor(np.ones((3, 2), "float32"), stop_gradient=False)
    (w * 2.0).sum().backward()
    w.clear_grad()
    (w * 5.0).sum().backward()
    (w * 1.0).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full((3, 2), 6.0, "float32"))

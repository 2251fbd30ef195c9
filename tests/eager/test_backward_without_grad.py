"""backward() of a tensor that needs no gradient does nothing, as in Paddle 3.3.1 (a loss
computed from data alone, or under no_grad, is a no-op instead of an error)."""
import numpy as np

import sampan as paddle


def test_backward_of_a_constant_loss_is_a_no_op():
    x = paddle.to_tensor([1.0, 2.0])
    loss = (x * 2).sum()
    loss.backward()
    assert x.grad is None


def test_backward_under_no_grad_leaves_parameters_alone():
    w = paddle.to_tensor([3.0], stop_gradient=False)
    with paddle.no_grad():
        loss = (w * w).sum()
    loss.backward()
    assert w.grad is None


def test_autograd_backward_skips_only_the_tensors_without_gradient():
    w = paddle.to_tensor([3.0], stop_gradient=False)
    constant = paddle.to_tensor([1.0]).sum()
    paddle.autograd.backward([constant, (w * w).sum()])
    np.testing.assert_allclose(w.grad.numpy(), [6.0])

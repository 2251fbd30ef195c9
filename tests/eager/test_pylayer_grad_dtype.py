"""PyLayerContext.set_grad_in_dtype_consistent: backward gets each output's gradient cast
to the output's dtype by default, in the dtype it arrived in after set(False) (as Paddle)."""
import numpy as np
import pytest

import sampan as paddle
from sampan.autograd import PyLayer


class Tanh(PyLayer):
    seen = []

    @staticmethod
    def forward(ctx, x, consistent):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        ctx.set_grad_in_dtype_consistent(consistent)
        return y

    @staticmethod
    def backward(ctx, dy):
        Tanh.seen.append(dy.dtype)
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


class DoubleToHalf(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return paddle.cast(dy * 2, paddle.float16)


@pytest.mark.parametrize("consistent, dtype", [(True, paddle.float32), (False, paddle.float16)])
def test_incoming_gradient_dtype_follows_the_flag(consistent, dtype):
    x0 = np.random.default_rng(0).standard_normal((3, 3)).astype("float32")
    x = paddle.to_tensor(x0, stop_gradient=False)
    DoubleToHalf.apply(Tanh.apply(x, consistent)).sum().backward()
    assert Tanh.seen[-1] == dtype
    np.testing.assert_allclose(x.grad.numpy(), 2 * (1 - np.tanh(x0) ** 2), rtol=2e-3)

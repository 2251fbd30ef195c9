"""Gradients of complex inputs follow the conjugate convention (Paddle's and PyTorch's):
for a real loss L, x.grad = dL/d(re x) + i dL/d(im x). Checked against central differences."""
import numpy as np
import pytest

import sampan as paddle

RNG = np.random.default_rng(0)


def complex_normal(shape):
    return RNG.normal(size=shape) + 1j * RNG.normal(size=shape)


def numeric_grad(f, a, eps=1e-6):
    """dL/d(re a) + i dL/d(im a) of the real function f by central differences."""
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        for unit in (1, 1j):
            step = np.zeros_like(a)
            step[i] = eps * unit
            grad[i] += unit * (f(a + step) - f(a - step)) / (2 * eps)
    return grad


@pytest.mark.parametrize("name,op", [("multiply", lambda a, b: a * b),
                                     ("divide", lambda a, b: a / b),
                                     ("matmul", lambda a, b: a @ b.T)])
def test_binary_op_gradients_of_complex_inputs(name, op):
    x0, y0 = complex_normal((2, 3)), complex_normal((2, 3))
    weights = complex_normal(op(x0, y0).shape)
    x = paddle.to_tensor(x0, stop_gradient=False)
    y = paddle.to_tensor(y0, stop_gradient=False)
    paddle.real(op(x, y) * paddle.to_tensor(weights.conj())).sum().backward()

    def loss(a, b):
        return np.real(np.sum(op(a, b) * weights.conj()))

    np.testing.assert_allclose(x.grad.numpy(), numeric_grad(lambda a: loss(a, y0), x0),
                               atol=1e-7)
    np.testing.assert_allclose(y.grad.numpy(), numeric_grad(lambda b: loss(x0, b), y0),
                               atol=1e-7)

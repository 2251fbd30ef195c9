"""paddle.tensor is both the package and Paddle 3's tensor(data, ...) constructor; its
modules resolve the functions Paddle's files of the same name hold."""
import types

import numpy as np
import pytest

import sampan as paddle
import sampan.tensor as tensor_package


def test_the_package_is_callable_and_still_a_module():
    assert paddle.tensor is tensor_package and isinstance(paddle.tensor, types.ModuleType)
    x = paddle.tensor(1, requires_grad=True)
    assert x.dtype == paddle.int64 and x.shape == [] and not x.stop_gradient
    copy = paddle.tensor(x)
    assert copy is not x and copy.stop_gradient and int(copy) == 1
    z = paddle.tensor([[1 + 1j, 2]], dtype="complex64")
    assert z.dtype == paddle.complex64
    assert paddle.tensor([1.5]).dtype == paddle.float32
    w = paddle.tensor([[0.1, 0.2]], device=paddle.CPUPlace(), requires_grad=True)
    (w * 2).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[2, 2]])


def test_paddle_module_paths_resolve():
    mantissa, exponent = paddle.tensor.math.frexp(paddle.to_tensor([8.0]))
    assert float(mantissa) == 0.5 and int(exponent) == 4
    found = paddle.tensor.search.argwhere(paddle.to_tensor([0.0, 2.0]))
    np.testing.assert_array_equal(found.numpy(), [[1]])
    with pytest.raises(AttributeError):
        paddle.tensor.math.no_such_function

"""Tensor conveniences Paddle code uses: gradient(), _grad_ivar(), requires_grad, apply /
apply_, strides, is_dense / is_sparse, cast shorthands, and Place predicates."""
import numpy as np
import pytest

import sampan as paddle


def test_gradient_is_the_numpy_grad():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert x.gradient() is None and x._grad_ivar() is None
    (x * x).sum().backward()
    np.testing.assert_allclose(x.gradient(), [2.0, 4.0])
    assert isinstance(x.gradient(), np.ndarray)
    np.testing.assert_allclose(x._grad_ivar().numpy(), [2.0, 4.0])


def test_requires_grad_mirrors_stop_gradient():
    x = paddle.to_tensor([1.0])
    assert x.requires_grad is False
    x.requires_grad = True
    assert x.stop_gradient is False


def test_apply_runs_a_function_and_refuses_tensors_needing_grad():
    x = paddle.to_tensor([1.0, 2.0])
    np.testing.assert_allclose(x.apply(lambda t: t * 3).numpy(), [3.0, 6.0])
    x.apply_(lambda t: t + 1)
    np.testing.assert_allclose(x.numpy(), [2.0, 3.0])
    with pytest.raises(RuntimeError, match="requires a gradient"):
        paddle.to_tensor([1.0], stop_gradient=False).apply(lambda t: t)


def test_strides_density_and_casts():
    x = paddle.ones([2, 3, 4])
    assert x.strides == [12, 4, 1]
    assert x.is_dense() and not x.is_sparse()
    assert x.double().dtype == paddle.float64 and x.long().dtype == paddle.int64
    assert x.int().dtype == paddle.int32 and x.half().dtype == paddle.float16
    assert x.bool().dtype == paddle.bool and x.long().float().dtype == paddle.float32


def test_cast_shorthands_are_differentiable():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x.double() * 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])


def test_place_predicates():
    place = paddle.to_tensor([1.0]).place
    assert place.is_cpu_place() and not place.is_gpu_place() and not place.is_xpu_place()

"""Eager tensors a to_static function reads from outside (layers it closes over, global
parameters, closure tensors) enter its Program as inputs of every run: they train, and
later changes to them are seen, instead of being frozen as constants at trace time."""
import numpy as np
import pytest

import sampan as paddle


def test_a_layer_outside_the_function_trains_as_in_eager():
    paddle.seed(0)
    lin = paddle.nn.Linear(3, 2)
    x = paddle.randn([4, 3])
    grads = []
    for fn in (lambda x: (lin(x) ** 2).sum(), paddle.jit.to_static(lambda x: (lin(x) ** 2).sum())):
        fn(x).backward()
        grads.append((lin.weight.grad.numpy(), lin.bias.grad.numpy()))
        lin.clear_gradients()
    for got, want in zip(grads[1], grads[0]):
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_a_closure_tensor_that_needs_a_gradient_gets_it():
    w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    fn = paddle.jit.to_static(lambda x: (x * w * w).sum())
    fn(paddle.to_tensor([1.0, 1.0, 2.0])).backward()
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0, 12.0])


def test_later_changes_of_a_closure_tensor_are_seen():
    scale = paddle.to_tensor([2.0])
    fn = paddle.jit.to_static(lambda x: x * scale)
    x = paddle.to_tensor([1.0, 3.0])
    np.testing.assert_allclose(fn(x).numpy(), [2.0, 6.0])
    scale.set_value(np.array([5.0], "float32"))
    np.testing.assert_allclose(fn(x).numpy(), [5.0, 15.0])
    assert len(fn.program_cache) == 1


def test_a_tensor_read_in_both_branches_of_a_tensor_if_is_one_input():
    w = paddle.to_tensor([3.0], stop_gradient=False)

    @paddle.jit.to_static
    def fn(x):
        if x.sum() > 0:
            y = x * w
        else:
            y = x - w
        return y.sum()

    fn(paddle.to_tensor([1.0, 2.0])).backward()
    fn(paddle.to_tensor([-1.0, -2.0])).backward()
    np.testing.assert_allclose(w.grad.numpy(), [3.0 - 2.0])
    state = fn.concrete_program.partial_program.state
    assert sum(t is w for _, t in state) == 1


class Counter(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.count = paddle.to_tensor([1])

    def forward(self, x):
        self.count = self.count + 1
        return x * self.count


def test_a_buffer_rebound_in_the_function_keeps_its_new_value():
    """`self.count = self.count + 1` writes the buffer, as eagerly (it was silently lost)."""
    eager, static = Counter(), paddle.jit.to_static(Counter(), full_graph=True)
    x = paddle.ones([2])
    for _ in range(3):
        np.testing.assert_array_equal(static(x).numpy(), eager(x).numpy())
        np.testing.assert_array_equal(static.count.numpy(), eager.count.numpy())
    np.testing.assert_array_equal(static.count.numpy(), [4])


class ResetsBuffer(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.b = paddle.to_tensor([2])

    def forward(self):
        self.b = None
        self.b = paddle.to_tensor([3])
        return self.b


def test_a_buffer_set_to_none_then_to_a_tensor_is_a_runtime_error():
    net = paddle.jit.to_static(ResetsBuffer(), full_graph=True)
    with pytest.raises(RuntimeError, match=r"ResetsBuffer.b is a buffer set to None"):
        net()

"""PyLayer: custom forward/backward in eager mode (Paddle semantics)."""
import gc

import numpy as np
import pytest

import sampan as paddle
import sampan.autograd  # noqa: F401  (paddle.autograd)
import sampan.nn  # noqa: F401  (paddle.nn)
import sampan.optimizer  # noqa: F401  (paddle.optimizer)
from tests.pylayers import CusTanh as cus_tanh, MulAdd as mul_add

PyLayer = paddle.autograd.PyLayer


def leaf(values, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=False)


class numpy_tanh(cus_tanh):
    """Same function, but backward computes on NumPy arrays (not differentiable)."""

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return paddle.to_tensor(dy.numpy() * (1 - y.numpy() ** 2))


def test_cus_tanh_matches_builtin_tanh():
    x = leaf(np.linspace(-2, 2, 7))
    y = cus_tanh.apply(x)
    assert not y.stop_gradient and not y.is_leaf
    (y * y).sum().backward()
    x2 = leaf(np.linspace(-2, 2, 7))
    y2 = paddle.tanh(x2)
    (y2 * y2).sum().backward()
    np.testing.assert_allclose(y.numpy(), y2.numpy())
    np.testing.assert_allclose(x.grad.numpy(), x2.grad.numpy(), rtol=1e-12)


def test_classes_are_recognisable_by_metaclass():
    assert isinstance(cus_tanh, paddle.autograd.PyLayerMeta)
    assert not isinstance(paddle.nn.Linear, paddle.autograd.PyLayerMeta)


def test_forward_is_not_recorded_and_no_grad_inputs_give_no_node():
    seen = {}

    class probe(PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen["inner"] = (x * 2.0).stop_gradient
            return x * 2.0

        @staticmethod
        def backward(ctx, dy):
            return dy * 2.0

    assert not probe.apply(leaf([1.0])).stop_gradient
    assert seen["inner"]
    assert probe.apply(paddle.to_tensor([1.0])).stop_gradient
    with paddle.no_grad():
        assert probe.apply(leaf([1.0])).stop_gradient


def test_two_inputs_two_outputs():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 5.0])
    p, s = mul_add.apply(a, b)
    (p * 3.0 + s * s).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), 3 * b.numpy() + 2 * (a.numpy() + b.numpy()))
    np.testing.assert_allclose(b.grad.numpy(), 3 * a.numpy() + 2 * (a.numpy() + b.numpy()))


def test_non_tensor_argument_and_context_attributes():
    class scale(PyLayer):
        @staticmethod
        def forward(ctx, x, factor, name="unused"):
            ctx.factor = factor
            return x * factor, name

        @staticmethod
        def backward(ctx, dy):
            return dy * ctx.factor

    x = leaf([1.0, -2.0])
    y, name = scale.apply(x, 2.5, name="tag")
    assert name == "tag"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.5, 2.5])


def test_backward_may_return_none_for_an_input():
    class first_only(PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, dy):
            return dy, None

    a, b = leaf([1.0]), leaf([2.0])
    first_only.apply(a, b).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [1.0])
    assert b.grad is None


def test_list_of_tensors_is_one_input_with_a_list_of_gradients():
    class total(PyLayer):
        @staticmethod
        def forward(ctx, xs, w):
            return paddle.add_n(xs) * w

        @staticmethod
        def backward(ctx, dy):
            return [dy, dy * 0.0], None

    xs = [leaf([1.0]), leaf([2.0])]
    total.apply(xs, paddle.to_tensor([3.0])).sum().backward()
    np.testing.assert_allclose(xs[0].grad.numpy(), [1.0])
    np.testing.assert_allclose(xs[1].grad.numpy(), [0.0])


def test_mark_non_differentiable_outputs():
    class scaled_and_twice(PyLayer):
        @staticmethod
        def forward(ctx, x):
            scaled, twice = x * 1.0, x * 2.0
            ctx.mark_non_differentiable(twice)
            return scaled, twice

        @staticmethod
        def backward(ctx, d_scaled, d_twice):
            np.testing.assert_allclose(d_twice.numpy(), 0.0)
            return d_scaled

    x = leaf([1.0, 2.0])
    scaled, twice = scaled_and_twice.apply(x)
    assert twice.stop_gradient and not scaled.stop_gradient
    scaled.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 1.0])


def test_integer_outputs_get_no_gradient():
    class with_count(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 3.0, paddle.to_tensor(np.array(2, "int64"))

        @staticmethod
        def backward(ctx, dy, d_count):
            return dy * 3.0

    y, count = with_count.apply(leaf([1.0]))
    assert count.stop_gradient and not y.stop_gradient


def test_set_materialize_grads_false_passes_none_for_unused_outputs():
    received = []

    class two(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx, da, db):
            received.append((da, db))
            return da * 2.0

    x = leaf([1.0, 1.0])
    a, _ = two.apply(x)
    a.sum().backward()
    assert received[0][1] is None
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])


def test_materialized_grads_are_zeros_by_default():
    received = []

    class two(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx, da, db):
            received.append(db.numpy())
            return da * 2.0 + db * 3.0

    a, _ = two.apply(leaf([1.0, 1.0]))
    a.sum().backward()
    np.testing.assert_array_equal(received[0], [0.0, 0.0])


def test_wrong_number_of_gradients_names_the_class():
    class too_many(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, dy):
            return dy * 2.0, dy

    with pytest.raises(ValueError, match=r"too_many\.backward returned 2 gradient.*1 tensor"):
        too_many.apply(leaf([1.0])).sum().backward()


def test_wrong_gradient_shape_names_class_input_and_shapes():
    class bad_shape(PyLayer):
        @staticmethod
        def forward(ctx, x, w):
            return x * w

        @staticmethod
        def backward(ctx, dy):
            return dy, dy.sum()

    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    with pytest.raises(ValueError, match=r"bad_shape.*shape \[\] for input 1.*\[2\]"):
        bad_shape.apply(x, w).sum().backward()


def test_forward_without_tensor_output_fails_clearly():
    class no_tensor(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return 3

        @staticmethod
        def backward(ctx, dy):
            return dy

    with pytest.raises(TypeError, match="no_tensor.forward must return a Tensor"):
        no_tensor.apply(leaf([1.0]))


def test_returning_a_leaf_input_needs_mark_not_inplace():
    class identity(PyLayer):
        @staticmethod
        def forward(ctx, x, mark):
            if mark:
                ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy * 5.0

    x = leaf([1.0])
    with pytest.raises(RuntimeError, match="identity.*mark_not_inplace"):
        identity.apply(x, False)
    y = identity.apply(x, True)
    assert y is not x and x.is_leaf and not y.is_leaf
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0])


def test_numeric_gradient_of_hand_written_backward():
    class softplus_mul(PyLayer):
        """f(x, w) = log(1 + exp(x @ w))."""

        @staticmethod
        def forward(ctx, x, w):
            z = paddle.matmul(x, w)
            ctx.save_for_backward(x, w, z)
            return paddle.log(1.0 + paddle.exp(z))

        @staticmethod
        def backward(ctx, dy):
            x, w, z = ctx.saved_tensor()
            dz = dy * paddle.nn.functional.sigmoid(z)
            dx = paddle.matmul(dz, w, transpose_y=True)
            return dx, paddle.matmul(x, dz, transpose_x=True)

    rng = np.random.default_rng(0)
    x0, w0 = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    weights = rng.standard_normal((3, 2))

    def loss(xv, wv):
        out = softplus_mul.apply(paddle.to_tensor(xv), paddle.to_tensor(wv))
        return float((out * paddle.to_tensor(weights)).sum())

    x, w = leaf(x0), leaf(w0)
    (softplus_mul.apply(x, w) * paddle.to_tensor(weights)).sum().backward()
    for value, analytic, bump in ((x0, x.grad, lambda v: loss(v, w0)),
                                  (w0, w.grad, lambda v: loss(x0, v))):
        numeric = np.zeros_like(value)
        for idx in np.ndindex(value.shape):
            plus, minus = value.copy(), value.copy()
            plus[idx] += 1e-6
            minus[idx] -= 1e-6
            numeric[idx] = (bump(plus) - bump(minus)) / 2e-6
        np.testing.assert_allclose(analytic.numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_pylayer_used_twice_in_one_graph():
    x = leaf([0.3, -0.7])
    y = cus_tanh.apply(cus_tanh.apply(x)) + cus_tanh.apply(x)
    y.sum().backward()
    t = np.tanh(x.numpy())
    expected = (1 - np.tanh(t) ** 2) * (1 - t ** 2) + (1 - t ** 2)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12)


def test_second_backward_without_retain_graph_fails_clearly():
    y = cus_tanh.apply(leaf([0.5]))
    y.backward()
    with pytest.raises(RuntimeError, match="second time.*CusTanh"):
        y.backward()


def test_retain_graph_allows_second_backward():
    x = leaf([0.5])
    y = cus_tanh.apply(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (1 - np.tanh(0.5) ** 2))


def test_double_backward_through_differentiable_backward():
    x = leaf([0.2, -1.1, 0.8])
    g, = paddle.grad(cus_tanh.apply(x).sum(), x, create_graph=True)
    assert not g.stop_gradient
    gg, = paddle.grad(g.sum(), x)
    t = np.tanh(x.numpy())
    np.testing.assert_allclose(g.numpy(), 1 - t ** 2, rtol=1e-12)
    np.testing.assert_allclose(gg.numpy(), -2 * t * (1 - t ** 2), rtol=1e-12)


def test_double_backward_matches_builtin_gradient_penalty():
    def penalty(fn):
        x = leaf([0.4, -0.3])
        g, = paddle.grad((fn(x) ** 3).sum(), x, create_graph=True)
        (g * g).sum().backward()
        return x.grad.numpy()

    np.testing.assert_allclose(penalty(cus_tanh.apply), penalty(paddle.tanh), rtol=1e-10)


def test_double_backward_through_non_differentiable_backward_fails_clearly():
    x = leaf([0.2, -1.1])
    g, = paddle.grad(numpy_tanh.apply(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), 1 - np.tanh(x.numpy()) ** 2)
    with pytest.raises(RuntimeError, match="numpy_tanh.backward is not differentiable"):
        paddle.grad(g.sum(), x)
    with pytest.raises(RuntimeError, match="numpy_tanh.backward is not differentiable"):
        g.sum().backward()


def test_backward_records_ops_only_under_create_graph():
    seen = []

    class probe(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, dy):
            seen.append(paddle.is_grad_enabled())
            return dy * 2.0

    x = leaf([1.0])
    probe.apply(x).sum().backward()
    paddle.grad(probe.apply(x).sum(), x)
    paddle.grad(probe.apply(x).sum(), x, create_graph=True)
    assert seen == [False, False, True]


def test_saved_tensors_survive_in_place_rebinding():
    class mul(PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(b)
            return a * b

        @staticmethod
        def backward(ctx, dy):
            b, = ctx.saved_tensor()
            return dy * b, None

    a, b = leaf([1.0, 2.0]), paddle.to_tensor([3.0, 4.0], dtype="float64")
    y = mul.apply(a, b)
    b[0] = 100.0
    y.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [3.0, 4.0])


def test_tensor_hooks_on_pylayer_outputs():
    x = leaf([0.5])
    y = cus_tanh.apply(x)
    y.register_hook(lambda g: g * 10.0)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 10 * (1 - np.tanh(0.5) ** 2))


def test_context_is_released_after_backward():
    x = leaf([0.5])
    y = cus_tanh.apply(x)
    node = y._node
    y.sum().backward()
    assert node.ctx is None
    del y, node
    gc.collect()


def test_autograd_backward_of_several_tensors():
    x = leaf([1.0, 2.0])
    a, b = mul_add.apply(x, paddle.to_tensor([3.0, 3.0], dtype="float64"))
    weights = paddle.to_tensor([1.0, 10.0], dtype="float64")
    paddle.autograd.backward([a.sum(), b], [None, weights])
    np.testing.assert_allclose(x.grad.numpy(), [3.0 + 1.0, 3.0 + 10.0])
    with pytest.raises(ValueError, match="2 tensors but 1 grad_tensors"):
        paddle.autograd.backward([a, b], [None])


def test_model_with_pylayer_trains_like_builtin_ops():
    class TanhMLP(paddle.nn.Layer):
        def __init__(self, act):
            super().__init__()
            self.fc1 = paddle.nn.Linear(4, 8)
            self.fc2 = paddle.nn.Linear(8, 1)
            self.act = act

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))

    rng = np.random.default_rng(1)
    data = paddle.to_tensor(rng.standard_normal((16, 4)).astype("float32"))
    target = paddle.to_tensor(rng.standard_normal((16, 1)).astype("float32"))

    def train(act):
        paddle.seed(7)
        model = TanhMLP(act)
        opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
        losses = []
        for _ in range(5):
            loss = ((model(data) - target) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses, [p.numpy() for p in model.parameters()]

    losses, params = train(cus_tanh.apply)
    ref_losses, ref_params = train(paddle.tanh)
    assert losses[-1] < losses[0]
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
    for p, q in zip(params, ref_params):
        np.testing.assert_allclose(p, q, rtol=1e-5, atol=1e-6)

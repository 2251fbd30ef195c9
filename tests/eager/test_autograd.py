"""Eager autograd: accumulation, retain_graph, grad(), double backward, hooks, no_grad."""
import numpy as np
import pytest

import sampan as paddle


def leaf(values, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=False)


def test_stop_gradient_defaults_and_propagation():
    a = paddle.to_tensor([1.0, 2.0])
    b = leaf([3.0, 4.0])
    assert a.stop_gradient and not b.stop_gradient
    assert (a * a).stop_gradient
    assert not (a * b).stop_gradient
    assert (a * b).grad is None


def test_backward_accumulates_across_calls():
    x = leaf([1.0, 2.0, 3.0])
    for _ in range(2):
        (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * 2 * np.array([1.0, 2.0, 3.0]))
    x.clear_grad()
    np.testing.assert_allclose(x.grad.numpy(), 0.0)


def test_cleared_gradient_tensor_is_reused_as_in_paddle():
    """clear_grad() keeps the grad tensor: a reference taken before it sees the zeros and
    then the next backward's gradient (Paddle zeroes and refills the same tensor)."""
    x = leaf([1.0, 2.0])
    (x * x).sum().backward()
    held = x.grad
    x.clear_grad()
    assert x.grad is held
    np.testing.assert_allclose(held.numpy(), 0.0)
    (x * 3.0).sum().backward()
    assert x.grad is held
    np.testing.assert_allclose(held.numpy(), [3.0, 3.0])
    x.clear_grad()
    (x * 5.0).sum().backward()  # cleared and never read: the new gradient replaces it
    assert x.grad is held
    np.testing.assert_allclose(held.numpy(), [5.0, 5.0])


def test_shared_input_gradients_are_summed():
    x = leaf([2.0])
    y = x * x + x * 3.0 + x
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2 * 2.0 + 3 + 1])


def test_second_backward_without_retain_graph_fails_clearly():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()


def test_retain_graph_allows_second_backward():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


def test_backward_of_non_scalar_seeds_ones_as_paddle_does():
    x = leaf([1.0, 2.0])
    (x * 2.0).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])
    x.clear_grad()
    (x * 2.0).backward(paddle.to_tensor(np.array([1.0, 10.0])))
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 20.0])
    with pytest.raises(ValueError, match="grad_tensor has shape"):
        (x * 2.0).backward(paddle.to_tensor(np.array([1.0])))


def test_autograd_backward_of_several_non_scalars_as_in_paddles_example():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = paddle.to_tensor([[3.0, 2.0], [3.0, 4.0]])
    z1, z2 = paddle.matmul(x, y), paddle.matmul(x, y)
    paddle.autograd.backward([z1, z2], [paddle.to_tensor([[1.0, 2.0], [2.0, 3.0]]), None])
    np.testing.assert_allclose(x.grad.numpy(), [[12.0, 18.0], [17.0, 25.0]])


def test_long_chain_has_no_recursion_limit():
    x = leaf([1.0])
    y = x
    for _ in range(100_000):
        y = y + 1e-6
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0])
    del y


def test_grad_does_not_touch_dot_grad_and_handles_unused():
    x, z = leaf([3.0]), leaf([5.0])
    y = (x * x).sum()
    (gx,) = paddle.grad(y, [x])
    np.testing.assert_allclose(gx.numpy(), [6.0])
    assert x.grad is None
    with pytest.raises(RuntimeError, match="allow_unused"):
        paddle.grad((x * x).sum(), [x, z])
    gx, gz = paddle.grad((x * x).sum(), [x, z], allow_unused=True)
    assert gz is None


def test_grad_wrt_intermediate_tensor():
    x = leaf([2.0])
    h = x * 3.0
    y = (h * h).sum()
    (gh,) = paddle.grad(y, h)
    np.testing.assert_allclose(gh.numpy(), [2 * 6.0])


def test_double_backward_with_create_graph():
    x = leaf([1.5, -0.5])
    y = (x * x * x).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    assert not g.stop_gradient
    (gg,) = paddle.grad(g.sum(), x)
    np.testing.assert_allclose(gg.numpy(), 6 * x.numpy())


def test_tanh_double_backward_matches_formula():
    x = leaf([0.3, -1.2])
    (g,) = paddle.grad(paddle.tanh(x).sum(), x, create_graph=True)
    (gg,) = paddle.grad(g.sum(), x)
    t = np.tanh(x.numpy())
    np.testing.assert_allclose(gg.numpy(), -2 * t * (1 - t * t), rtol=1e-10)


def test_no_grad_context_and_decorator():
    x = leaf([1.0])
    with paddle.no_grad():
        y = x * 2.0
    assert y.stop_gradient

    @paddle.no_grad()
    def double(t):
        return t * 2.0
    assert double(x).stop_gradient
    assert not (x * 2.0).stop_gradient


def test_hooks_on_leaf_and_intermediate():
    x = leaf([1.0, 2.0])
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.numpy().copy()) or g * 2.0)
    h = x * 3.0
    h.register_hook(lambda g: g + 1.0)
    h.sum().backward()
    np.testing.assert_allclose(seen[0], [6.0, 6.0])
    np.testing.assert_allclose(x.grad.numpy(), [12.0, 12.0])
    handle.remove()
    x.clear_grad(set_to_zero=False)
    (x * 3.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


def test_detach_and_clone():
    x = leaf([1.0, 2.0])
    d = x.detach()
    assert d.stop_gradient and np.shares_memory(d._data, x._data)
    c = x.clone()
    (c * c).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])


def test_integer_outputs_do_not_require_grad():
    x = leaf([1.0, 2.0])
    assert (x > 1.0).stop_gradient


def test_grad_no_grad_vars_block_the_flow():
    x = leaf([2.0])
    h = x * 3.0
    y = (h * x).sum()
    (full,) = paddle.grad(y, x, retain_graph=True)
    (blocked,) = paddle.grad(y, x, no_grad_vars=[h])
    np.testing.assert_allclose(full.numpy(), [12.0])
    np.testing.assert_allclose(blocked.numpy(), [6.0])


def test_double_backward_through_an_op_without_one_names_the_op():
    x = leaf([0.3, 1.2])
    (g,) = paddle.grad(paddle.floor(x * 3.0).sum() + paddle.exp(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), np.exp(x.numpy()), rtol=1e-12)
    y = leaf([0.5])
    (g2,) = paddle.grad(paddle.nn.functional.softplus(y).sum(), y, create_graph=True)
    with pytest.raises(RuntimeError, match="double backward through op 'softplus'"):
        paddle.grad(g2.sum(), y)


def test_gradient_penalty_matches_central_differences():
    """A WGAN-GP-style penalty differentiates through matmul, tanh, sum, norm, pow, mean."""
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.normal(size=(3, 4)), stop_gradient=False)
    w = paddle.to_tensor(rng.normal(size=(4, 2)), stop_gradient=False)

    def penalty():
        (g,) = paddle.grad(paddle.tanh(paddle.matmul(x, w)).sum(), x, create_graph=True)
        return ((paddle.norm(g, p=2, axis=1) - 1.0) ** 2).mean()
    penalty().backward()
    numeric = np.zeros((4, 2))
    for i in range(4):
        for j in range(2):
            old = w.numpy()[i, j]
            values = []
            for delta in (1e-6, -1e-6):
                w._data[i, j] = old + delta
                values.append(float(penalty()))
            w._data[i, j] = old
            numeric[i, j] = (values[0] - values[1]) / 2e-6
    np.testing.assert_allclose(w.grad.numpy(), numeric, rtol=1e-5, atol=1e-8)


def test_grad_reference_sees_later_accumulation():
    """A reference to x.grad taken after one backward sees the gradients a second backward
    adds (Paddle accumulates into the same grad tensor)."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 3.0).sum().backward()
    held = x.grad
    (x * x).sum().backward()
    assert held is x.grad
    np.testing.assert_allclose(held.numpy(), [5.0, 7.0])


def test_create_graph_through_list_gradient_ops():
    """concat/stack backward ops have one Tensor[] output: under create_graph each input
    still gets its own gradient, and those gradients differentiate again."""
    b = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c = paddle.to_tensor([3.0], stop_gradient=False)
    gb, gc = paddle.grad((paddle.concat([b, c]) ** 2).sum(), [b, c], create_graph=True)
    np.testing.assert_allclose(gb.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(gc.numpy(), [6.0])
    (gb.sum() + gc.sum()).backward()
    np.testing.assert_allclose(b.grad.numpy(), [2.0, 2.0])
    np.testing.assert_allclose(c.grad.numpy(), [2.0])
    (gs,) = paddle.grad((paddle.stack([b, b]) ** 2).sum(), b, create_graph=True)
    np.testing.assert_allclose(gs.numpy(), [4.0, 8.0])


def test_gradients_handed_to_the_user_are_writeable_arrays():
    """A leaf's .grad and grad()'s results are writeable arrays of their own, and summed
    0-d gradients stay 0-d arrays."""
    x = paddle.to_tensor(2.0, stop_gradient=False)
    y = paddle.to_tensor(3.0, stop_gradient=False)
    (x + y).backward()
    x.backward()
    assert x.grad._data.flags.writeable and y.grad._data.flags.writeable
    np.testing.assert_allclose([x.grad.numpy(), y.grad.numpy()], [2.0, 1.0])
    (g,) = paddle.grad(y + 0.0, y)
    assert g._data.flags.writeable
    np.asarray(g)[...] = 5.0
    (again,) = paddle.grad(y + 0.0, y)
    assert again.item() == 1.0


def test_hooks_run_without_recording_unless_create_graph():
    x = leaf([1.0, 2.0])
    modes = []

    def hook(g):
        modes.append((paddle.is_grad_enabled(), (g * 2.0).stop_gradient))
    x.register_hook(hook)
    (x * x).sum().backward()
    paddle.grad((x * x).sum(), x, create_graph=True)
    assert modes == [(False, True), (True, False)]


def test_list_inputs_reached_from_several_nodes_get_every_gradient():
    # two list-input nodes (concat, stack) sharing items that are leaves and
    # intermediates: the list items are delivered like single edges
    x = leaf([1.0, 2.0])
    y = leaf([3.0, 4.0])
    h = x * y
    out = paddle.concat([h, x, h]).sum() + (paddle.stack([y, h]) * 2.0).sum()
    out.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * y.numpy() + 1 + 2 * y.numpy())
    np.testing.assert_allclose(y.grad.numpy(), 2 * x.numpy() + 2 + 2 * x.numpy())
    h = x * y
    (gx,) = paddle.grad(paddle.concat([h, h]).sum(), [x])
    np.testing.assert_allclose(gx.numpy(), 2 * y.numpy())


def test_backward_of_several_roots_with_their_seeds():
    x = leaf([1.0, 2.0])
    a, b = x * 2.0, x * x
    paddle.autograd.backward([a, b], [paddle.to_tensor([1.0, 1.0], dtype="float64"), None])
    np.testing.assert_allclose(x.grad.numpy(), 2.0 + 2 * x.numpy())


def test_a_freed_graph_raises_before_any_gradient_reaches_a_leaf_through_it():
    x = leaf([1.0])
    h = x * 2.0
    h.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        (h * 3.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0])

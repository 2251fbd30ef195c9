"""paddle.autograd.jacobian / hessian and paddle.incubate.autograd against analytic
derivatives and central finite differences of NumPy twins of the same functions."""
import numpy as np
import pytest

import sampan as paddle
from sampan.autograd import Hessian, Jacobian

RNG = np.random.default_rng(7)
W = RNG.normal(size=(3, 4))
A = RNG.normal(size=(4, 4))
H_STEP = 1e-5


def leaf(array):
    return paddle.to_tensor(np.asarray(array, dtype="float64"), stop_gradient=False)


def fd_jacobian(f, x):
    """[M, N] central differences of the NumPy function f: [N] -> [M] (or -> scalar)."""
    cols = []
    for j in range(x.size):
        e = np.zeros_like(x)
        e[j] = H_STEP
        cols.append((np.atleast_1d(f(x + e)) - np.atleast_1d(f(x - e))) / (2 * H_STEP))
    return np.stack(cols, axis=-1)


def fd_hessian(f, x):
    """[N, N] second central differences of the scalar NumPy function f."""
    n, h = x.size, 1e-4
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            ei, ej = np.eye(n)[i] * h, np.eye(n)[j] * h
            out[i, j] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej)
                         + f(x - ei - ej)) / (4 * h * h)
    return out


def np_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# (name, paddle function, NumPy twin) of vector functions [N] -> [M] (or [B, N] -> [B, M])
VECTOR_FUNCTIONS = [
    ("elementwise", lambda x: paddle.tanh(x) * x, lambda x: np.tanh(x) * x),
    ("matmul", lambda x: paddle.matmul(paddle.sin(x), paddle.to_tensor(W.T)),
     lambda x: np.sin(x) @ W.T),
    ("softmax", lambda x: paddle.nn.functional.softmax(x, axis=-1), np_softmax),
    ("cumsum", lambda x: paddle.cumsum(x * x, axis=-1), lambda x: np.cumsum(x * x, axis=-1)),
]

# (name, paddle function, NumPy twin) of scalar functions [N] -> [] (row-wise when batched)
SCALAR_FUNCTIONS = [
    ("cube_sum", lambda x: (x ** 3).sum(axis=-1), lambda x: (x ** 3).sum(axis=-1)),
    ("log_sum_exp", lambda x: paddle.log(paddle.exp(x).sum(axis=-1)),
     lambda x: np.log(np.exp(x).sum(axis=-1))),
    ("tanh_layer", lambda x: paddle.tanh(paddle.matmul(x, paddle.to_tensor(W.T))).sum(axis=-1),
     lambda x: np.tanh(x @ W.T).sum(axis=-1)),
]


def at(batch_axis, n=4):
    """A random point: [n], or a batch [3, n] with batch_axis=0."""
    return RNG.normal(size=(n,) if batch_axis is None else (3, n))


def reference(fd, np_fn, x0, batch_axis):
    """The finite-difference matrix at x0, one per sample with batch_axis=0."""
    return fd(np_fn, x0) if batch_axis is None else np.stack([fd(np_fn, r) for r in x0])


# kind -> (API, finite-difference reference, result class, rtol, atol)
KINDS = {"jacobian": (paddle.autograd.jacobian, fd_jacobian, Jacobian, 1e-6, 1e-8),
         "hessian": (paddle.autograd.hessian, fd_hessian, Hessian, 1e-5, 1e-6)}
CASES = ([("jacobian", *case) for case in VECTOR_FUNCTIONS]
         + [("hessian", *case) for case in SCALAR_FUNCTIONS])


@pytest.mark.parametrize("batch_axis", [None, 0])
@pytest.mark.parametrize("kind,name,fn,np_fn", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_matches_finite_differences(kind, name, fn, np_fn, batch_axis):
    api, fd, cls, rtol, atol = KINDS[kind]
    x0 = at(batch_axis)
    x = leaf(x0)
    result = api(fn(x), x, batch_axis=batch_axis)
    expected = reference(fd, np_fn, x0, batch_axis)
    assert isinstance(result, cls) and result.shape == list(expected.shape)
    np.testing.assert_allclose(result[:].numpy(), expected, rtol=rtol, atol=atol)


def test_scalar_output_jacobian_is_the_gradient():
    x0 = RNG.normal(size=4)
    x = leaf(x0)
    J = paddle.autograd.jacobian(paddle.logsumexp(x), x)
    assert J.shape == [4]
    np.testing.assert_allclose(J[:].numpy(), np_softmax(x0), rtol=1e-12)
    np.testing.assert_allclose(J[2].numpy(), np_softmax(x0)[2], rtol=1e-12)


def test_analytic_jacobians():
    x0 = np.array([0.5, -1.0, 2.0, 3.0])
    x = leaf(x0)
    np.testing.assert_allclose(paddle.autograd.jacobian(x * x, x)[:].numpy(), np.diag(2 * x0))
    linear = paddle.matmul(paddle.to_tensor(W), x)
    np.testing.assert_allclose(paddle.autograd.jacobian(linear, x)[:].numpy(), W)


def test_analytic_hessians():
    x0 = RNG.normal(size=4)
    x = leaf(x0)
    quad = (x * paddle.matmul(paddle.to_tensor(A), x)).sum()
    np.testing.assert_allclose(paddle.autograd.hessian(quad, x)[:].numpy(), A + A.T,
                               rtol=1e-12)
    cube = (x ** 3).sum()
    np.testing.assert_allclose(paddle.autograd.hessian(cube, x)[:].numpy(), np.diag(6 * x0))


def test_hessian_of_linear_function_is_zero():
    x = leaf([1.0, 2.0, 3.0])
    H = paddle.autograd.hessian((x * 2.0).sum(), x)
    np.testing.assert_array_equal(H[:].numpy(), np.zeros((3, 3)))


def test_tuple_outputs_and_inputs_nest_ys_then_xs():
    a0, b0 = RNG.normal(size=3), RNG.normal(size=2)
    a, b = leaf(a0), leaf(b0)
    y1 = a * a
    y2 = paddle.matmul(paddle.to_tensor(W[:, :3]), a) + (b ** 2).sum()
    J = paddle.autograd.jacobian((y1, y2), (a, b))
    assert isinstance(J, tuple) and len(J) == 2 and all(len(row) == 2 for row in J)
    assert [[j.shape for j in row] for row in J] == [[[3, 3], [3, 2]], [[3, 3], [3, 2]]]
    np.testing.assert_allclose(J[0][0][:].numpy(), np.diag(2 * a0))
    np.testing.assert_array_equal(J[0][1][:].numpy(), np.zeros((3, 2)))
    np.testing.assert_allclose(J[1][0][:].numpy(), W[:, :3])
    np.testing.assert_allclose(J[1][1][:].numpy(), np.broadcast_to(2 * b0, (3, 2)))


def test_jacobian_through_concat():
    b = leaf([1.0, 2.0])
    J = paddle.autograd.jacobian(paddle.concat([b, b[:1]]) ** 2, b)
    np.testing.assert_allclose(J[:].numpy(), [[2.0, 0.0], [0.0, 4.0], [2.0, 0.0]])


def test_one_tuple_side_gives_a_flat_tuple():
    a, b = leaf([1.0, 2.0]), leaf([3.0])
    over_xs = paddle.autograd.jacobian(a * b, (a, b))
    assert [j.shape for j in over_xs] == [[2, 2], [2, 1]]
    np.testing.assert_allclose(over_xs[1][:].numpy(), [[1.0], [2.0]])
    over_ys = paddle.autograd.jacobian((a * 2.0, a.sum()), a)
    assert [j.shape for j in over_ys] == [[2, 2], [2]]
    np.testing.assert_allclose(over_ys[1][:].numpy(), [1.0, 1.0])


def test_hessian_of_tuple_inputs_has_all_blocks():
    a0, b0 = RNG.normal(size=3), RNG.normal(size=2)
    a, b = leaf(a0), leaf(b0)
    y = (a ** 2).sum() * (b ** 3).sum()
    H = paddle.autograd.hessian(y, (a, b))
    assert [[h.shape for h in row] for row in H] == [[[3, 3], [3, 2]], [[2, 3], [2, 2]]]
    both = lambda v: (v[:3] ** 2).sum() * (v[3:] ** 3).sum()  # noqa: E731
    full = fd_hessian(both, np.concatenate([a0, b0]))
    np.testing.assert_allclose(H[0][0][:].numpy(), full[:3, :3], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(H[0][1][:].numpy(), full[:3, 3:], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(H[1][0][:].numpy(), full[3:, :3], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(H[1][1][:].numpy(), full[3:, 3:], rtol=1e-5, atol=1e-6)


def test_zero_dim_tensors_drop_their_axis():
    x = leaf(np.float64(1.5))
    v = leaf([1.0, 2.0, 3.0])
    J = paddle.autograd.jacobian(v * x, x)
    assert J.shape == [3]
    np.testing.assert_allclose(J[:].numpy(), [1.0, 2.0, 3.0])
    scalar = paddle.autograd.jacobian(x * x, x)
    assert scalar.shape == []
    np.testing.assert_allclose(scalar.numpy(), 3.0)
    with pytest.raises(IndexError, match="scalar"):
        scalar[0]
    assert paddle.autograd.hessian(x ** 3, x).shape == []
    batched = paddle.autograd.jacobian(v * v, v, batch_axis=0)
    assert batched.shape == [3]
    np.testing.assert_allclose(batched[:].numpy(), [2.0, 4.0, 6.0])


def test_indexing_slices_rows_and_columns():
    x0 = RNG.normal(size=4)
    x = leaf(x0)
    J = paddle.autograd.jacobian(paddle.matmul(paddle.to_tensor(W), paddle.sin(x)), x)
    full = W * np.cos(x0)
    np.testing.assert_allclose(J[1].numpy(), full[1])
    np.testing.assert_allclose(J[:, 2].numpy(), full[:, 2])
    np.testing.assert_allclose(J[0:3:2, 1:].numpy(), full[0:3:2, 1:])
    np.testing.assert_allclose(J[-1, -1].numpy(), full[-1, -1])
    np.testing.assert_allclose(J[::-1].numpy(), full[::-1])
    assert J[3:3].shape == [0, 4]
    np.testing.assert_allclose(np.asarray(J), full)
    np.testing.assert_allclose((J * 2.0).numpy(), 2 * full)


def test_rows_are_evaluated_lazily_and_cached():
    x = leaf(RNG.normal(size=5))
    J = paddle.autograd.jacobian(paddle.exp(x), x)
    assert not J._rows._rows
    first = J[1, :]
    assert set(J._rows._rows) == {1}
    J[0:3]
    assert set(J._rows._rows) == {0, 1, 2}
    assert J._rows.row(1) is J._rows.row(1)
    np.testing.assert_allclose(first.numpy(), J[:].numpy()[1])


def test_batched_indexing():
    x0 = RNG.normal(size=(5, 4))
    x = leaf(x0)
    J = paddle.autograd.jacobian(paddle.matmul(x, paddle.to_tensor(W.T)), x, batch_axis=0)
    assert J.shape == [5, 3, 4]
    np.testing.assert_allclose(J[2].numpy(), W)
    np.testing.assert_allclose(J[:, 1, :].numpy(), np.broadcast_to(W[1], (5, 4)))
    np.testing.assert_allclose(J[:, :, 3].numpy(), np.broadcast_to(W[:, 3], (5, 3)))


def test_results_are_differentiable():
    x0 = RNG.normal(size=3)
    x = leaf(x0)
    J = paddle.autograd.jacobian(x ** 3, x)
    diag = J[:]
    assert not diag.stop_gradient
    (g,) = paddle.grad(diag.sum(), x)
    np.testing.assert_allclose(g.numpy(), 6 * x0)


def test_bad_indices_are_reported():
    x = leaf([1.0, 2.0])
    J = paddle.autograd.jacobian(x * x, x)
    with pytest.raises(IndexError, match="Ellipsis"):
        J[..., 0]
    with pytest.raises(IndexError, match="out of range"):
        J[2]
    with pytest.raises(IndexError, match="too many"):
        J[0, 0, 0]
    with pytest.raises(TypeError, match="ints or slices"):
        J[[0, 1]]


@pytest.mark.parametrize("batch_axis", [1, -1, "0", 0.0, True])
def test_bad_batch_axis_is_refused(batch_axis):
    x = leaf([[1.0, 2.0]])
    with pytest.raises(ValueError, match="batch_axis must be None or 0"):
        paddle.autograd.jacobian(x * x, x, batch_axis=batch_axis)
    with pytest.raises(ValueError, match="batch_axis must be None or 0"):
        paddle.autograd.hessian((x * x).sum(axis=1), x, batch_axis=batch_axis)


def test_non_tensor_arguments_are_refused():
    x = leaf([1.0, 2.0])
    with pytest.raises(TypeError, match="ys must be a Tensor"):
        paddle.autograd.jacobian(np.ones(2), x)
    with pytest.raises(TypeError, match="xs must be a Tensor"):
        paddle.autograd.jacobian(x * x, [x, np.ones(2)])
    with pytest.raises(TypeError, match="xs must be a Tensor"):
        paddle.autograd.jacobian(x * x, ())
    with pytest.raises(TypeError, match="ys must be a single Tensor"):
        paddle.autograd.hessian([x.sum()], x)


def test_rank_and_shape_rules_are_checked():
    x = leaf(np.ones((2, 3)))
    with pytest.raises(ValueError, match="xs must be 0-D or 1-D with batch_axis=None"):
        paddle.autograd.jacobian(x.sum(), x)
    with pytest.raises(ValueError, match="ys must be 1-D or 2-D with batch_axis=0"):
        paddle.autograd.jacobian(x.sum(), x, batch_axis=0)
    with pytest.raises(ValueError, match="batch size"):
        paddle.autograd.jacobian(x[:1] * 2.0, x, batch_axis=0)
    v = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match="one element"):
        paddle.autograd.hessian(v * v, v)
    with pytest.raises(ValueError, match=r"\[B\] or \[B, 1\]"):
        paddle.autograd.hessian(x * x, x, batch_axis=0)
    frozen = paddle.to_tensor([1.0, 2.0])
    with pytest.raises(ValueError, match="stop_gradient=True"):
        paddle.autograd.jacobian(frozen * 2.0, frozen)


# ----------------------------------------------------------------------------- incubate


def test_incubate_vjp_and_jvp_match_paddle_examples():
    ia = paddle.incubate.autograd
    x = paddle.ones([2, 2], dtype="float32")
    v = paddle.to_tensor([[1.0, 0.0], [0.0, 0.0]])
    square = lambda m: paddle.matmul(m, m)  # noqa: E731
    for product in (ia.vjp, ia.jvp):
        out, r = product(square, x)
        np.testing.assert_allclose(out.numpy(), 2 * np.ones((2, 2)))
        np.testing.assert_allclose(r.numpy(), 4 * np.ones((2, 2)))
        _, r = product(square, x, v)
        np.testing.assert_allclose(r.numpy(), [[2.0, 1.0], [1.0, 0.0]])


def test_incubate_products_agree_with_the_jacobian():
    ia = paddle.incubate.autograd
    x0, u0, w0 = RNG.normal(size=4), RNG.normal(size=4), RNG.normal(size=3)
    f = lambda x: paddle.tanh(paddle.matmul(paddle.to_tensor(W), x))  # noqa: E731
    J = fd_jacobian(lambda x: np.tanh(W @ x), x0)
    _, jv = ia.jvp(f, leaf(x0), leaf(u0))
    _, vj = ia.vjp(f, leaf(x0), leaf(w0))
    np.testing.assert_allclose(jv.numpy(), J @ u0, rtol=1e-6)
    np.testing.assert_allclose(vj.numpy(), w0 @ J, rtol=1e-6)


def test_incubate_several_inputs_and_outputs():
    ia = paddle.incubate.autograd
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    outs, grads = ia.vjp(lambda p, q: (p * q, p.sum()), (a, b))
    assert isinstance(outs, tuple) and isinstance(grads, tuple)
    np.testing.assert_allclose(grads[0].numpy(), [3.0 + 1.0, 4.0 + 1.0])
    np.testing.assert_allclose(grads[1].numpy(), [1.0, 2.0])
    _, tangents = ia.jvp(lambda p, q: (p * q, p.sum()), (a, b), (leaf([1.0, 0.0]),
                                                                 leaf([0.0, 1.0])))
    np.testing.assert_allclose(tangents[0].numpy(), [3.0, 2.0])
    np.testing.assert_allclose(tangents[1].numpy(), 1.0)


def test_incubate_jacobian_flattens_and_joins():
    ia = paddle.incubate.autograd
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    J = ia.Jacobian(paddle.matmul, [x, x])
    expected = [[1, 3, 0, 0, 1, 0, 2, 0], [2, 4, 0, 0, 0, 1, 0, 2],
                [0, 0, 1, 3, 3, 0, 4, 0], [0, 0, 2, 4, 0, 3, 0, 4]]
    assert J.shape == [4, 8]
    np.testing.assert_allclose(J[:, :].numpy(), expected)
    np.testing.assert_allclose(J[0, :].numpy(), expected[0])
    np.testing.assert_allclose(J[:, 0].numpy(), [1, 2, 0, 0])
    batched = ia.Jacobian(lambda m: m * m, leaf(np.ones((3, 2))), is_batched=True)
    assert batched.shape == [3, 2, 2]
    np.testing.assert_allclose(batched[1].numpy(), 2 * np.eye(2))


def test_incubate_hessian():
    ia = paddle.incubate.autograd
    x0 = RNG.normal(size=(2, 2))
    H = ia.Hessian(lambda x: (x ** 3).sum(), paddle.to_tensor(x0))
    np.testing.assert_allclose(H[:].numpy(), np.diag(6 * x0.ravel()))
    batched = ia.Hessian(lambda x: (x ** 3).sum(axis=1, keepdim=True), leaf(x0),
                         is_batched=True)
    assert batched.shape == [2, 2, 2]
    np.testing.assert_allclose(batched[1].numpy(), np.diag(6 * x0[1]))
    with pytest.raises(RuntimeError, match="one element"):
        ia.Hessian(lambda x: x * x, leaf(x0))


def test_incubate_hessian_of_several_inputs_joins_them():
    ia = paddle.incubate.autograd
    a0, b0 = RNG.normal(size=2), RNG.normal(size=3)
    H = ia.Hessian(lambda a, b: (a ** 2).sum() * (b ** 3).sum(), [leaf(a0), leaf(b0)])
    both = lambda v: (v[:2] ** 2).sum() * (v[2:] ** 3).sum()  # noqa: E731
    assert H.shape == [5, 5]
    np.testing.assert_allclose(H[:].numpy(), fd_hessian(both, np.concatenate([a0, b0])),
                               rtol=1e-5, atol=1e-6)


def test_incubate_errors():
    ia = paddle.incubate.autograd
    x = leaf([1.0, 2.0])
    with pytest.raises(TypeError, match="callable"):
        ia.vjp(None, x)
    with pytest.raises(TypeError, match="xs must be a Tensor"):
        ia.jvp(lambda t: t, [1.0, 2.0])
    with pytest.raises(RuntimeError, match="shape"):
        ia.vjp(lambda t: t * 2.0, x, leaf([1.0, 2.0, 3.0]))
    with pytest.raises(RuntimeError, match="tensors"):
        ia.jvp(lambda t: t * 2.0, x, [x, x])

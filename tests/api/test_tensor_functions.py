"""New paddle.* functions against NumPy: values, gradients, static mode and errors."""
import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_grad, check_static, check_values, tensor

rng = np.random.default_rng(2)
X = rng.normal(size=(3, 4))
Y = rng.normal(size=(4,))
T = rng.normal(size=(2, 3, 4))
SQ = rng.normal(size=(3, 3))
B3 = rng.normal(size=(2, 3, 3))
NAN = np.where(rng.uniform(size=(3, 4)) < 0.3, np.nan, X)
TIES = np.array([[3., 1., 4., 1., 5., 9., 2., 6., 5., 3.], [2., 7., 1., 8., 2., 8., 1., 8., 2., 8.]])
IDX = np.array([2, 0, 2])


def _cum_ref(x, better):
    """NumPy running extreme along the last axis; ties take the latest index."""
    values, indices = np.empty_like(x), np.empty(x.shape, np.int64)
    for row in np.ndindex(x.shape[:-1]):
        best, at = None, 0
        for i, v in enumerate(x[row]):
            if best is None or better(v, best) or v == best:
                best, at = v, i
            values[row + (i,)], indices[row + (i,)] = best, at
    return values, indices


def _index_add_ref(x, index, axis, value):
    out = x.copy()
    np.add.at(out, (slice(None),) * axis + (index,), value)
    return out


# (function of tensors, NumPy reference, input arrays, differentiable)
CASES = {
    "inner": (paddle.inner, np.inner, [X, Y], True),
    "inner_nd": (paddle.inner, np.inner, [T, X], True),
    "inner_0d": (paddle.inner, np.inner, [np.array(2.5), X], True),
    "rot90": (lambda x: paddle.rot90(x, 1, [1, 2]), lambda x: np.rot90(x, 1, (1, 2)), [T], True),
    "rot90_neg": (lambda x: paddle.rot90(x, -1), lambda x: np.rot90(x, -1), [T], True),
    "rot90_2": (lambda x: paddle.rot90(x, 2, [0, 2]), lambda x: np.rot90(x, 2, (0, 2)), [T], True),
    "repeat_interleave": (lambda x: paddle.repeat_interleave(x, 2, 1),
                          lambda x: np.repeat(x, 2, 1), [X], True),
    "repeat_interleave_counts": (lambda x: paddle.repeat_interleave(x, tensor(np.array(
        [1, 0, 3])), 0), lambda x: np.repeat(x, [1, 0, 3], 0), [X], True),
    "repeat_interleave_flat": (lambda x: x.repeat_interleave(3), lambda x: np.repeat(x, 3),
                               [X], True),
    "addmm": (lambda i, x, y: paddle.addmm(i, x, y, 0.5, 2.0),
              lambda i, x, y: 0.5 * i + 2.0 * x @ y, [Y, X.T, X], True),
    "baddbmm": (lambda i, x, y: paddle.baddbmm(i, x, y, beta=2.0),
                lambda i, x, y: 2.0 * i + x @ y, [SQ, B3, B3], True),
    "tensordot_int": (lambda x, y: paddle.tensordot(x, y, 1), lambda x, y: np.tensordot(x, y, 1),
                      [T, X.T], True),
    "tensordot_lists": (lambda x, y: paddle.tensordot(x, y, [[1, 2], [1, 0]]),
                        lambda x, y: np.tensordot(x, y, [[1, 2], [1, 0]]),
                        [T, rng.normal(size=(4, 3, 2))], True),
    # Paddle's axes expansion: the shorter list continues with the longer one's entries
    "tensordot_expanded": (lambda x, y: paddle.tensordot(x, y, [[1, 2], [1]]),
                           lambda x, y: np.tensordot(x, y, [[1, 2], [1, 2]]),
                           [T, rng.normal(size=(2, 3, 4))], True),
    "tensordot_expanded_x": (lambda x, y: paddle.tensordot(x, y, [[], [1, 2]]),
                             lambda x, y: np.tensordot(x, y, [[1, 2], [1, 2]]),
                             [T, rng.normal(size=(2, 3, 4))], True),
    "tensordot_same": (lambda x, y: paddle.tensordot(x, y, [0]),
                       lambda x, y: np.tensordot(x, y, [[0], [0]]), [X, X], True),
    "swapaxes": (lambda x: paddle.swapaxes(x, 0, 2), lambda x: np.swapaxes(x, 0, 2), [T], True),
    "hypot": (paddle.hypot, np.hypot, [X, Y], True),
    "fmax": (paddle.fmax, np.fmax, [NAN, Y], False),
    "fmin": (paddle.fmin, np.fmin, [NAN, Y[::-1].copy()], False),
    "nansum": (lambda x: paddle.nansum(x, 1), lambda x: np.nansum(x, 1), [NAN], False),
    "nanmean": (lambda x: paddle.nanmean(x, 0, keepdim=True),
                lambda x: np.nanmean(x, 0, keepdims=True), [NAN], False),
    "nanmean_all": (paddle.nanmean, np.nanmean, [NAN], False),
    "index_add": (lambda x, v: paddle.index_add(x, tensor(IDX), 1, v),
                  lambda x, v: _index_add_ref(x, IDX, 1, v), [X, rng.normal(size=(3, 3))],
                  True),
    "index_fill": (lambda x: paddle.index_fill(x, tensor(IDX), 0, -2.0),
                   lambda x: np.where(np.isin(np.arange(3), IDX)[:, None], -2.0, x), [X], True),
    "cummax": (lambda x: paddle.cummax(x, 1)[0], lambda x: _cum_ref(x, np.greater)[0],
               [X], True),
    "cummax_ties": (lambda x: paddle.cummax(x, 1)[0], lambda x: _cum_ref(x, np.greater)[0],
                    [TIES], False),
    "cummax_idx": (lambda x: paddle.cummax(x, -1)[1], lambda x: _cum_ref(x, np.greater)[1],
                   [TIES], False),
    "cummin": (lambda x: paddle.cummin(x)[0], lambda x: _cum_ref(x.reshape(-1), np.less)[0],
               [X], True),
    "cummin_idx": (lambda x: paddle.cummin(x, 1)[1], lambda x: _cum_ref(x, np.less)[1],
                   [TIES], False),
    "logcumsumexp": (lambda x: paddle.logcumsumexp(x, 0),
                     lambda x: np.logaddexp.accumulate(x, 0), [X * 50], True),
    "logcumsumexp_flat": (paddle.logcumsumexp, lambda x: np.logaddexp.accumulate(x.ravel()),
                          [T], True),
    "kthvalue": (lambda x: paddle.kthvalue(x, 2)[0], lambda x: np.sort(x, -1)[..., 1], [T],
                 True),
    "kthvalue_idx": (lambda x: paddle.kthvalue(x, 3, 0, keepdim=True)[1],
                     lambda x: np.argsort(x, 0, kind="stable")[2:3], [X], False),
    "mode": (lambda x: paddle.mode(x)[0], lambda x: np.array([1.0, 8.0]), [TIES], False),
    "mode_idx": (lambda x: paddle.mode(x, 1, True)[1], lambda x: np.array([[3], [9]]), [TIES],
                 False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients(name):
    """Each function matches NumPy; differentiable ones match central differences."""
    fn, ref, arrays, differentiable = CASES[name]
    check_values(fn, ref, arrays)
    if differentiable:
        check_grad(fn, *arrays)


@pytest.mark.parametrize("name", ["rot90", "addmm", "tensordot_lists", "index_add", "cummax",
                                  "cummin_idx", "logcumsumexp", "kthvalue", "mode", "nanmean",
                                  "fmax", "repeat_interleave", "inner_nd"])
def test_static_matches_eager(name):
    """The same composition runs as a static Program."""
    fn, _, arrays, _ = CASES[name]
    check_static(fn, *arrays)


def test_tied_selections_route_the_gradient_to_the_chosen_index():
    """mode and cummax pass the gradient to exactly the element their index names."""
    x = tensor(TIES, grad=True)
    values, indices = paddle.mode(x)
    values.sum().backward()
    want = np.zeros_like(TIES)
    want[[0, 1], indices.numpy()] = 1
    np.testing.assert_array_equal(x.grad.numpy(), want)
    y = tensor(TIES, grad=True)
    values, indices = paddle.cummax(y, 1)
    values.sum().backward()
    want = np.zeros_like(TIES)
    for row in range(2):
        np.add.at(want[row], indices.numpy()[row], 1)
    np.testing.assert_array_equal(y.grad.numpy(), want)


def test_splits_and_atleast():
    """tensor_split / vsplit / hsplit / dsplit like NumPy's array_split; atleast_nd shapes."""
    for k, (fn, np_fn) in enumerate([(paddle.vsplit, np.vsplit), (paddle.hsplit, np.hsplit),
                                     (paddle.dsplit, np.dsplit)]):
        x = rng.normal(size=(4, 6, 2))
        for arg in (2, [1, 3], [-1]):
            got = [p.numpy() for p in fn(tensor(x), arg)]
            want = np_fn(x, arg)
            assert len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)
    parts = paddle.tensor_split(tensor(np.arange(7)), 3)
    assert [p.numpy().tolist() for p in parts] == [[0, 1, 2], [3, 4], [5, 6]]
    assert paddle.atleast_1d(tensor(np.array(3.0))).shape == [1]
    assert [t.shape for t in paddle.atleast_2d(tensor(Y), tensor(X), 1.0)] == [
        [1, 4], [3, 4], [1, 1]]
    assert [t.shape for t in paddle.atleast_3d(tensor(Y), tensor(X), tensor(T))] == [
        [1, 4, 1], [3, 4, 1], [2, 3, 4]]


def test_methods_and_index_ops_keep_dtype():
    """The new functions are Tensor methods; index_fill keeps x's dtype."""
    x = tensor(X)
    assert x.rot90().shape == [4, 3] and x.cummax(0)[1].dtype == paddle.int64
    assert x.cummin(0, dtype="int32")[1].dtype == paddle.int32
    filled = paddle.index_fill(tensor(np.arange(6).reshape(2, 3)), tensor(np.array([1])), 1, 9)
    assert filled.dtype == paddle.int64 and filled.numpy().tolist() == [[0, 9, 2], [3, 9, 5]]
    assert paddle.swapaxes(tensor(T), [2, 0, 1]).shape == [4, 2, 3]


def test_bad_inputs_raise():
    """Clear errors for arguments Paddle refuses."""
    with pytest.raises(ValueError, match="k must be in"):
        paddle.kthvalue(tensor(X), 5)
    with pytest.raises(ValueError, match="axes"):
        paddle.rot90(tensor(X), 1, [0, 0])
    with pytest.raises(ValueError, match="2-D"):
        paddle.addmm(tensor(X), tensor(T), tensor(X))
    with pytest.raises(ValueError, match="3-D"):
        paddle.baddbmm(tensor(SQ), tensor(SQ), tensor(SQ))
    with pytest.raises(ValueError, match="contracted dims"):
        paddle.tensordot(tensor(X), tensor(X), 1)
    with pytest.raises(ValueError, match="last dims"):
        paddle.inner(tensor(X), tensor(SQ))
    with pytest.raises(ValueError, match="at least 3 dims"):
        paddle.dsplit(tensor(X), 2)
    with pytest.raises(ValueError, match="dtype must be int32 or int64"):
        paddle.cummax(tensor(X), dtype="float32")
    with pytest.raises(ValueError, match=">= 0"):
        paddle.repeat_interleave(tensor(Y), [1, -1, 1, 1])
    with pytest.raises(TypeError, match="float"):
        paddle.logcumsumexp(tensor(np.arange(3)))


def test_where_single_argument_and_scalar_operands():
    """paddle.where(cond) gives the true coordinates; x / y may be Python numbers."""
    cond = np.array([[True, False], [False, True]])
    rows, cols = paddle.where(tensor(cond))
    np.testing.assert_array_equal(rows.numpy(), [0, 1])
    np.testing.assert_array_equal(cols.numpy(), [0, 1])
    x = np.array([[1.5, 2.5], [3.5, 4.5]], "float32")
    got = paddle.where(tensor(cond), tensor(x), 0.0)
    assert got.dtype == paddle.float32
    np.testing.assert_array_equal(got.numpy(), np.where(cond, x, 0.0))
    assert paddle.where(tensor(cond), 1, 0).dtype == paddle.int64
    check_grad(lambda a: paddle.where(tensor(cond), a, 2.0), x.astype("float64"))
    check_static(lambda c, a: paddle.where(c, a, -1.0), cond, x)
    with pytest.raises(ValueError, match="both x and y"):
        paddle.where(tensor(cond), tensor(x))

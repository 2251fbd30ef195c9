"""Tensor functions as Paddle users call them (docstring examples and common idioms):
median's modes, round to decimals, put/take along an axis with every reduction and
broadcast=False, meshgrid's call forms, bit shifts and the in-place `_` variants."""
import math

import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_grad, check_static, tensor

GRID = np.arange(12).reshape(3, 4)
WITH_NAN = np.array([[1, np.nan, 3, np.nan], [1, 2, 3, 4], [np.nan, 1, 2, 3]])


# ---------------------------------------------------------------- median


def test_median_avg_of_ints_is_float32():
    x = tensor(GRID)
    assert paddle.median(x).dtype == paddle.float32
    assert paddle.median(x).item() == 5.5
    np.testing.assert_array_equal(paddle.median(x, axis=1).numpy(), [1.5, 5.5, 9.5])
    assert paddle.median(x, axis=0, keepdim=True).shape == [1, 4]
    assert paddle.median(x, keepdim=True).shape == [1, 1]


def test_median_min_returns_value_and_index_for_an_axis():
    x = tensor(GRID)
    whole = paddle.median(x, mode="min")
    assert whole.dtype == paddle.int64 and whole.item() == 5
    values, index = paddle.median(x, axis=1, mode="min")
    np.testing.assert_array_equal(values.numpy(), [1, 5, 9])
    np.testing.assert_array_equal(index.numpy(), [1, 1, 1])
    assert index.dtype == paddle.int64


def test_median_propagates_nan_and_points_at_the_first_nan():
    x = tensor(WITH_NAN)
    avg = paddle.median(x, axis=-1, keepdim=True).numpy()
    np.testing.assert_array_equal(np.isnan(avg[:, 0]), [True, False, True])
    assert avg[1, 0] == 2.5
    values, index = paddle.median(x, axis=1, keepdim=True, mode="min")
    assert values.numpy()[1, 0] == 2.0
    np.testing.assert_array_equal(index.numpy()[:, 0], [1, 1, 0])


def test_median_matches_numpy_with_gradient_and_static():
    data = np.random.default_rng(0).normal(size=(4, 6))
    np.testing.assert_allclose(paddle.median(tensor(data), axis=0).numpy(),
                               np.median(data, axis=0))
    check_grad(lambda x: paddle.median(x, axis=1), data)
    check_static(lambda x: paddle.median(x, axis=1), data)


def test_median_rejects_bad_mode_and_axis():
    with pytest.raises(ValueError, match="mode"):
        paddle.median(tensor(GRID), mode="max")
    with pytest.raises(ValueError, match="axis"):
        paddle.median(tensor(GRID), axis=[0, 1])


# ---------------------------------------------------------------- round


def test_round_to_decimals_halves_to_even():
    x = tensor(np.array([1.2345, -2.5551, 0.125], dtype=np.float32))
    np.testing.assert_allclose(paddle.round(x, decimals=2).numpy(), [1.23, -2.56, 0.12],
                               rtol=1e-6)
    np.testing.assert_array_equal(paddle.round(tensor(np.array([1250.0])), -2).numpy(),
                                  [1200.0])
    np.testing.assert_array_equal(tensor(np.array([0.5, 1.5, 2.5])).round().numpy(),
                                  [0.0, 2.0, 2.0])


# ---------------------------------------------------------------- put / take along an axis

ARR = np.array([[10, 30, 20], [60, 40, 50]])
INDEX = np.zeros((2, 2), dtype=np.int32)
VALUES = np.array([[1, 2], [3, 4]])


@pytest.mark.parametrize("reduce, include_self, first_row", [
    ("add", True, [14, 36, 20]), ("mul", True, [30, 240, 20]), ("mean", True, [4, 12, 20]),
    ("amin", True, [1, 2, 20]), ("amax", True, [10, 30, 20]), ("add", False, [4, 6, 20]),
    ("multiply", False, [3, 8, 20]), ("mean", False, [2, 3, 20]), ("amax", False, [3, 4, 20]),
    ("assign", True, [3, 4, 20])])
def test_put_along_axis_reductions_without_broadcast(reduce, include_self, first_row):
    out = paddle.put_along_axis(tensor(ARR), tensor(INDEX), tensor(VALUES), 0, reduce,
                                include_self, False)
    np.testing.assert_array_equal(out.numpy(), [first_row, [60, 40, 50]])
    assert out.dtype == paddle.int64


def test_put_along_axis_broadcasts_a_scalar_by_default():
    out = paddle.put_along_axis(tensor(ARR), tensor(np.array([[0]])), 99, 0)
    np.testing.assert_array_equal(out.numpy(), [[99, 99, 99], [60, 40, 50]])


def test_put_along_axis_exclusive_add_has_gradients():
    data = np.arange(6.0).reshape(2, 3)
    index = tensor(np.array([[0, 0]]))
    check_grad(lambda x, v: paddle.put_along_axis(x, index, v, 0, "add", False, False),
               data, np.array([[5.0, 7.0]]))


def test_put_along_axis_rejects_an_unknown_reduce():
    with pytest.raises(ValueError, match="reduce"):
        paddle.put_along_axis(tensor(ARR), tensor(INDEX), 1, 0, "max")


def test_take_along_axis_without_broadcast_uses_the_index_as_given():
    out = paddle.take_along_axis(tensor(ARR), tensor(np.array([[1, 0]])), 0, broadcast=False)
    np.testing.assert_array_equal(out.numpy(), [[60, 30]])


# ---------------------------------------------------------------- meshgrid


def test_meshgrid_takes_arguments_or_one_list():
    a, b = tensor(np.arange(2)), tensor(np.arange(3))
    for grids in (paddle.meshgrid(a, b), paddle.meshgrid([a, b]), paddle.meshgrid((a, b))):
        want = np.meshgrid(np.arange(2), np.arange(3), indexing="ij")
        for got, ref in zip(grids, want):
            np.testing.assert_array_equal(got.numpy(), ref)


# ---------------------------------------------------------------- bit shifts, multigammaln


def test_shift_operators_and_functions():
    x = tensor(np.array([1, 2, -3]))
    np.testing.assert_array_equal((x << 2).numpy(), [4, 8, -12])
    np.testing.assert_array_equal((tensor(np.array([8, -8, 7])) >> tensor(np.array([1, 1, 2])))
                                  .numpy(), [4, -4, 1])
    small = tensor(np.array([-128, 64], dtype=np.int8))
    logical = paddle.bitwise_right_shift(small, tensor(np.array([1, 0], dtype=np.int8)),
                                         is_arithmetic=False)
    np.testing.assert_array_equal(logical.numpy(), [64, 64])
    with pytest.raises(TypeError, match="'x'"):
        paddle.bitwise_left_shift(tensor(np.array([1.0])), 1)


def test_multigammaln_matches_its_definition():
    x = np.array([2.5, 3.0, 7.25])
    want = [math.log(math.pi) / 2 + math.lgamma(v) + math.lgamma(v - 0.5) for v in x]
    np.testing.assert_allclose(paddle.multigammaln(tensor(x), 2).numpy(), want, rtol=1e-12)
    with pytest.raises(ValueError, match="'p'"):
        paddle.multigammaln(tensor(x), 0)


# ---------------------------------------------------------------- in-place variants


@pytest.mark.parametrize("name, args, ref", [
    ("abs_", (), np.abs), ("round_", (), np.round), ("trunc_", (), np.trunc),
    ("sin_", (), np.sin), ("square_", (), np.square), ("neg_", (), np.negative),
    ("log1p_", (), lambda a: np.log1p(np.abs(a))),
    ("lerp_", (np.zeros(3), 0.25), lambda a: a * 0.75),
    ("remainder_", (np.full(3, 2.0),), lambda a: np.mod(a, 2.0)),
    ("tril_", (), None), ("index_fill_", (np.array([1]), 0, 7.0), None)])
def test_inplace_variants_update_the_tensor_itself(name, args, ref):
    data = np.array([-1.5, 0.25, 2.5]) if ref is not None else np.arange(9.0).reshape(3, 3)
    if name == "log1p_":
        data = np.abs(data)
    x = tensor(data)
    wrapped = [tensor(a) if isinstance(a, np.ndarray) else a for a in args]
    out = getattr(x, name)(*wrapped)
    assert out is x
    want = ref(data) if ref is not None else getattr(paddle, name[:-1])(
        tensor(data), *wrapped).numpy()
    np.testing.assert_allclose(x.numpy(), want)
    assert callable(getattr(paddle, name))


def test_inplace_variants_that_change_dtype_or_shape():
    x = tensor(np.array([1.7, -2.2]))
    assert x.cast_("int32") is x and x.dtype == paddle.int32
    m = tensor(np.arange(6.0).reshape(2, 3))
    m.t_()
    assert m.shape == [3, 2]
    c = tensor(np.array([1.0, 2.0]))
    c.equal_(tensor(np.array([1.0, 3.0])))
    np.testing.assert_array_equal(c.numpy(), [True, False])


def test_where_inplace_writes_into_x():
    x = tensor(np.ones(3))
    out = paddle.where_(tensor(np.array([True, False, True])), x, tensor(np.zeros(3)))
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [1.0, 0.0, 1.0])


def test_inplace_variant_on_a_leaf_needing_grad_is_refused():
    p = tensor(np.array([1.0, -2.0]), grad=True)
    with pytest.raises(ValueError, match="abs_"):
        p.abs_()
    with paddle.no_grad():
        p.abs_()
    np.testing.assert_array_equal(p.numpy(), [1.0, 2.0])


# ---------------------------------------------------------------- variadic sizes (Paddle 3)


def test_sizes_may_be_passed_one_by_one():
    x = tensor(np.arange(6.0).reshape(2, 3))
    assert x.reshape(3, 2).shape == [3, 2] and paddle.reshape(x, 6).shape == [6]
    assert x.view(-1).shape == [6] and x.view(dtype="int64").dtype == paddle.int64
    np.testing.assert_array_equal(tensor(np.array([1, 2])).tile(2, 1).numpy(), [[1, 2], [1, 2]])
    assert tensor(np.ones((1, 3))).expand(2, -1).shape == [2, 3]
    assert paddle.zeros(2, 3).shape == [2, 3] and paddle.ones(2, 3, dtype="int32").dtype \
        == paddle.int32
    assert paddle.rand(2, 3).shape == [2, 3] and paddle.randn(4).shape == [4]
    assert paddle.empty(size=[2]).shape == [2] and paddle.zeros(3, "int32").dtype == paddle.int32
    check_static(lambda v: v.reshape(3, 2), np.arange(6.0).reshape(2, 3))


# ---------------------------------------------------------------- quantile, prod, normal

QDATA = np.random.default_rng(5).normal(size=(3, 5, 4))


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 1, [0, 2]])
def test_quantile_interpolations_match_numpy(interpolation, axis):
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    for q, keepdim in ((0.3, False), ([0.1, 0.9], True)):
        got = paddle.quantile(tensor(QDATA), q, axis=axis, keepdim=keepdim,
                              interpolation=interpolation).numpy()
        want = np.quantile(QDATA, q, axis=np_axis, method=interpolation, keepdims=keepdim)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_nanquantile_skips_nans_and_quantile_propagates_them():
    data = QDATA.copy()
    data[0, 1, 2] = np.nan
    data[1, :, 3] = np.nan
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanquantile(data, 0.4, axis=1)
    np.testing.assert_allclose(paddle.nanquantile(tensor(data), 0.4, axis=1).numpy(), want)
    np.testing.assert_allclose(paddle.quantile(tensor(data), 0.4, axis=1).numpy(),
                               np.quantile(data, 0.4, axis=1))
    assert paddle.quantile(tensor(QDATA), [0.5], axis=1).shape == [3, 4]
    with pytest.raises(ValueError, match="'interpolation'"):
        paddle.quantile(tensor(QDATA), 0.5, interpolation="cubic")
    with pytest.raises(ValueError, match="'q'"):
        paddle.quantile(tensor(QDATA), 1.5)
    check_grad(lambda v: paddle.quantile(v, 0.3, axis=1), QDATA[:, :, 0])


def test_prod_dtype_and_broadcast_shape():
    out = paddle.prod(tensor(np.array([[1, 2], [3, 4]])), dtype="float32")
    assert out.dtype == paddle.float32 and out.item() == 24.0
    assert paddle.prod(tensor(np.ones((2, 3))), 1, keepdim=True).shape == [2, 1]
    assert paddle.broadcast_shape([2, 1, 3], [1, 4, 1]) == [2, 4, 3]
    with pytest.raises(ValueError, match="broadcast"):
        paddle.broadcast_shape([2], [3])


def test_normal_with_tensor_mean_and_std():
    paddle.seed(11)
    mean = tensor(np.full((2000,), 3.0, dtype=np.float32))
    out = paddle.normal(mean, tensor(np.full((2000,), 0.5, dtype=np.float32)))
    assert out.shape == [2000] and out.dtype == paddle.float32
    assert abs(float(out.mean()) - 3.0) < 0.05 and abs(float(out.std()) - 0.5) < 0.05
    assert paddle.normal(std=tensor(np.ones((2, 2)))).shape == [2, 2]
    with pytest.raises(ValueError, match="'mean' and 'std'"):
        paddle.normal(tensor(np.zeros(2)), tensor(np.ones(3)))

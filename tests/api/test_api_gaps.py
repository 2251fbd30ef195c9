"""Paddle API gaps filled in one go: linalg.eig / eigvals / lu / lu_unpack / cov / corrcoef,
Tensor.mT, index_put, SyncBatchNorm, CTC loss, hierarchical sigmoid loss, temporal_shift,
DLPack, the CUDA random-state calls and clip_grad_norm_ without gradients; values against
NumPy references (brute force where the algorithm is a recursion), gradients against
central differences, and errors for bad input."""
import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_grad, run_static, tensor

rng = np.random.default_rng(2027)


def _real_spectrum(n, *batch):
    """Non-symmetric matrices with well separated real eigenvalues 1, 3, 5, ..."""
    basis = rng.uniform(-1, 1, size=batch + (n, n)) + 2 * np.eye(n)
    return basis @ np.diag(np.arange(n) * 2.0 + 1.0) @ np.linalg.inv(basis)


# ---- paddle.linalg.eig / eigvals ---------------------------------------------------------
def test_eig_matches_paddle_example_and_rebuilds():
    x = paddle.to_tensor([[1.6707249, 7.2249975, 6.5045543], [9.956216, 8.749598, 6.066444],
                          [4.4251957, 1.7983172, 0.370647]])
    w, v = paddle.linalg.eig(x)
    assert w.dtype == paddle.complex64 and v.dtype == paddle.complex64
    np.testing.assert_allclose(w.numpy(), [16.50471283, -5.50348206, -0.21026088], rtol=1e-5)
    a = x.numpy().astype(np.float64)
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * w.numpy(), atol=1e-4)
    np.testing.assert_array_equal(paddle.linalg.eigvals(x).numpy(), w.numpy())
    np.testing.assert_array_equal(x.eigvals().numpy(), w.numpy())


def test_eig_complex_pairs_and_complex_input():
    rot = tensor(np.array([[0.0, -2.0], [2.0, 0.0]]))
    assert paddle.linalg.eig(rot)[0].dtype == paddle.complex128
    np.testing.assert_allclose(np.sort_complex(paddle.linalg.eigvals(rot).numpy()), [-2j, 2j])
    z = rng.normal(size=(2, 3, 3)) + 1j * rng.normal(size=(2, 3, 3))
    w, v = paddle.linalg.eig(tensor(z))
    np.testing.assert_allclose(z @ v.numpy(), v.numpy() * w.numpy()[..., None, :], atol=1e-10)


def test_eig_gradient_of_phase_free_loss():
    weights = rng.normal(size=(3, 3))

    def loss(x):
        w, v = paddle.linalg.eig(x)
        return paddle.real(w) * paddle.to_tensor([1.0, -2.0, 0.5]) + (
            paddle.abs(v) * paddle.to_tensor(weights)).sum(axis=0)
    check_grad(loss, _real_spectrum(3), rtol=1e-6, atol=1e-8)


def test_eig_rejects_non_square():
    with pytest.raises(ValueError, match="square"):
        paddle.linalg.eig(paddle.rand([2, 3]))
    with pytest.raises(ValueError, match="2 dims"):
        paddle.linalg.eigvals(paddle.rand([3]))


# ---- paddle.linalg.lu / lu_unpack --------------------------------------------------------
def test_lu_matches_paddle_example():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).astype("float64")
    lu, p, info = paddle.linalg.lu(x, get_infos=True)
    np.testing.assert_allclose(lu.numpy(), [[5.0, 6.0], [0.2, 0.8], [0.6, 0.5]], atol=1e-12)
    assert p.dtype == paddle.int32 and p.numpy().tolist() == [3, 3]
    assert info.shape == [] and int(info) == 0
    perm, low, up = paddle.linalg.lu_unpack(lu, p)
    np.testing.assert_array_equal(perm.numpy(), [[0, 1, 0], [0, 0, 1], [1, 0, 0]])
    np.testing.assert_allclose(low.numpy(), [[1.0, 0.0], [0.2, 1.0], [0.6, 0.5]], atol=1e-12)
    np.testing.assert_allclose(up.numpy(), [[5.0, 6.0], [0.0, 0.8]], atol=1e-12)


@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 2, 4)])
def test_lu_unpack_rebuilds_batches(shape):
    x = rng.normal(size=shape)
    lu, p = paddle.linalg.lu(tensor(x))
    assert list(lu.shape) == list(shape) and list(p.shape) == list(shape[:-2]) + [min(shape[-2:])]
    perm, low, up = lu.lu_unpack(p)
    np.testing.assert_allclose(perm.numpy() @ low.numpy() @ up.numpy(), x, atol=1e-12)
    assert paddle.linalg.lu_unpack(lu, p, unpack_ludata=False)[1:] == (None, None)
    assert paddle.linalg.lu_unpack(lu, p, unpack_pivots=False)[0] is None


def test_lu_without_pivoting_and_singular_infos():
    x = rng.normal(size=(3, 3)) + 5 * np.eye(3)
    lu, p = paddle.linalg.lu(tensor(x), pivot=False)
    assert p.numpy().tolist() == [1, 2, 3]
    low = np.tril(lu.numpy(), -1) + np.eye(3)
    np.testing.assert_allclose(low @ np.triu(lu.numpy()), x, atol=1e-12)
    singular = np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]])
    infos = paddle.linalg.lu(tensor(singular), get_infos=True)[2]
    assert infos.numpy().tolist() == [2, 0]


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)])
def test_lu_gradients(shape):
    x = rng.normal(size=shape)
    check_grad(lambda a: paddle.linalg.lu(a)[0], x, rtol=1e-6, atol=1e-8)
    unpack = paddle.linalg.lu_unpack
    check_grad(lambda a: unpack(*paddle.linalg.lu(a))[1].sum() + unpack(
        *paddle.linalg.lu(a))[2].sum() * 2, x, rtol=1e-6, atol=1e-8)


def test_lu_unpack_in_static_mode():
    x = rng.normal(size=(3, 3))

    def build(a):
        return list(paddle.linalg.lu_unpack(*paddle.linalg.lu(a)))
    perm, low, up = run_static(build, x)
    np.testing.assert_allclose(perm @ low @ up, x, atol=1e-12)


def test_lu_errors():
    with pytest.raises(ValueError, match="2 dims"):
        paddle.linalg.lu(paddle.rand([3]))
    with pytest.raises(ValueError, match="pivots"):
        paddle.linalg.lu_unpack(paddle.rand([3, 3]), paddle.to_tensor([4, 1], "int32"))
    with pytest.raises(ValueError, match="x must be"):
        paddle.linalg.lu_unpack(paddle.rand([3]), paddle.to_tensor([1], "int32"))


# ---- paddle.linalg.cov / corrcoef --------------------------------------------------------
@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("ddof", [True, False])
def test_cov_matches_numpy(rowvar, ddof):
    x = rng.normal(size=(3, 5))
    fw = np.array([1, 2, 0, 3, 1] if rowvar else [1, 2, 4])
    aw = rng.uniform(0.1, 1.0, size=fw.shape)
    got = paddle.linalg.cov(tensor(x), rowvar, ddof).numpy()
    np.testing.assert_allclose(got, np.cov(x, rowvar=rowvar, ddof=int(ddof)), rtol=1e-12)
    for f, a in ((fw, None), (None, aw), (fw, aw)):
        got = paddle.linalg.cov(tensor(x), rowvar, ddof, None if f is None else tensor(f),
                                None if a is None else tensor(a)).numpy()
        want = np.cov(x, rowvar=rowvar, ddof=int(ddof), fweights=f, aweights=a)
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_cov_of_vectors_and_dtype():
    v = rng.normal(size=6).astype("float32")
    got = paddle.linalg.cov(tensor(v))
    assert got.shape == [] and got.dtype == paddle.float32
    np.testing.assert_allclose(float(got), np.cov(v), rtol=1e-5)
    np.testing.assert_allclose(tensor(v).cov(rowvar=False).numpy(), np.cov(v), rtol=1e-5)


def test_cov_and_corrcoef_gradients():
    x = rng.normal(size=(3, 4))
    w = np.array([1.0, 2.0, 1.0, 3.0])
    check_grad(lambda a: paddle.linalg.cov(a), x)
    check_grad(lambda a, aw: paddle.linalg.cov(a, aweights=aw), x, w)
    check_grad(lambda a: paddle.linalg.corrcoef(a, rowvar=False), x)


def test_corrcoef_matches_numpy():
    x = rng.normal(size=(4, 6))
    np.testing.assert_allclose(paddle.linalg.corrcoef(tensor(x)).numpy(), np.corrcoef(x),
                               rtol=1e-12)
    np.testing.assert_allclose(tensor(x).corrcoef(rowvar=False).numpy(),
                               np.corrcoef(x, rowvar=False), rtol=1e-12)
    assert float(paddle.linalg.corrcoef(tensor(x[0]))) == 1.0


def test_cov_in_static_mode():
    x = rng.normal(size=(3, 5))
    np.testing.assert_allclose(run_static(paddle.linalg.cov, x), np.cov(x), rtol=1e-12)


def test_cov_errors():
    x = tensor(rng.normal(size=(2, 3)))
    with pytest.raises(ValueError, match="1-D or 2-D"):
        paddle.linalg.cov(paddle.rand([2, 2, 2]))
    with pytest.raises(ValueError, match="1-D or 2-D"):
        paddle.linalg.corrcoef(paddle.rand([2, 2, 2]))
    with pytest.raises(ValueError, match="one weight per observation"):
        paddle.linalg.cov(x, fweights=paddle.to_tensor([1, 2]))
    with pytest.raises(ValueError, match="negative"):
        paddle.linalg.cov(x, aweights=paddle.to_tensor([1.0, -1.0, 2.0]))
    with pytest.raises(ValueError, match="integers"):
        paddle.linalg.cov(x, fweights=paddle.to_tensor([1.0, 1.5, 2.0]))
    with pytest.raises(ValueError, match="sum to zero"):
        paddle.linalg.cov(x, fweights=paddle.to_tensor([0, 0, 0]))


# ---- Tensor.mT, paddle.index_put / index_put_ --------------------------------------------
def test_mT_swaps_the_last_two_dims_with_gradient():
    x = rng.normal(size=(2, 3, 4))
    np.testing.assert_array_equal(tensor(x).mT.numpy(), np.swapaxes(x, -1, -2))
    weights = tensor(rng.normal(size=(2, 4, 3)))
    check_grad(lambda a: a.mT * weights, x)
    with pytest.raises(ValueError, match="at least 2"):
        paddle.rand([3]).mT


def _np_index_put(x, indices, value, accumulate):
    out = x.copy()
    if accumulate:
        np.add.at(out, indices, value)
    else:
        out[indices] = value
    return out


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_matches_numpy(accumulate):
    x = rng.normal(size=(4, 3, 2))
    cases = [((np.array([0, 1, 3]), np.array([2, 0, 2])), rng.normal(size=(3, 2))),
             ((np.array([0, 0, -1]),), rng.normal(size=(3, 2))),
             ((np.array([[1], [2]]), np.array([0, 1, 1])), np.array(5.0)),
             ((rng.random((4, 3)) < 0.5,), np.array([1.0, -1.0]))]
    for indices, value in cases:
        got = paddle.index_put(tensor(x), tuple(tensor(i) for i in indices), tensor(value),
                               accumulate)
        np.testing.assert_allclose(got.numpy(), _np_index_put(x, indices, value, accumulate))


def test_index_put_gradients():
    idx = (tensor(np.array([0, 2, 0])), tensor(np.array([1, 1, 1])))
    x, v = rng.normal(size=(3, 2)), rng.normal(size=3)
    check_grad(lambda a, b: paddle.index_put(a, idx, b, True), x, v)
    unique = (tensor(np.array([0, 2])), tensor(np.array([1, 0])))
    check_grad(lambda a, b: paddle.index_put(a, unique, b), x, v[:2])


def test_index_put_in_place_and_as_method():
    x = paddle.zeros([3, 3])
    same = x.index_put_((paddle.to_tensor([0, 1, 2]), paddle.to_tensor([1, 2, 1])),
                        paddle.ones([3]))
    assert same is x
    np.testing.assert_array_equal(x.numpy(), [[0, 1, 0], [0, 0, 1], [0, 1, 0]])
    out = x.index_put((paddle.to_tensor([0]),), paddle.to_tensor(7.0))
    assert out.numpy()[0].tolist() == [7, 7, 7] and x.numpy()[0].tolist() == [0, 1, 0]
    leaf = paddle.zeros([2])
    leaf.stop_gradient = False
    with pytest.raises(ValueError, match="inplace"):
        paddle.index_put_(leaf, (paddle.to_tensor([0]),), paddle.to_tensor(1.0))


def test_index_put_in_static_mode():
    x = rng.normal(size=(3, 2))
    got = run_static(lambda a: paddle.index_put(
        a, (paddle.to_tensor([0, 0]), paddle.to_tensor([1, 1])), paddle.to_tensor([1.0, 2.0]),
        True), x)
    np.testing.assert_allclose(got, _np_index_put(x, ([0, 0], [1, 1]), [1.0, 2.0], True))


def test_index_put_errors():
    x = paddle.zeros([2, 2])
    with pytest.raises(TypeError, match="int32, int64 or bool"):
        paddle.index_put(x, (paddle.to_tensor([0.5]),), paddle.to_tensor(1.0))
    with pytest.raises(IndexError, match="address 3 dims"):
        paddle.index_put(x, (paddle.to_tensor([0]),) * 3, paddle.to_tensor(1.0))
    with pytest.raises(TypeError, match="non-empty tuple"):
        paddle.index_put(x, (), paddle.to_tensor(1.0))


# ---- nn.SyncBatchNorm --------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (4, 3, 5, 5), (2, 3, 2, 2, 2)])
def test_sync_batch_norm_is_batch_norm_on_one_process(shape):
    x = tensor(rng.normal(size=shape).astype("float32"))
    sync, plain = paddle.nn.SyncBatchNorm(3, momentum=0.8), paddle.nn.BatchNorm1D(3, 0.8)
    np.testing.assert_allclose(sync(x).numpy(), plain(x).numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(sync._mean.numpy(), plain._mean.numpy(), rtol=1e-6)
    np.testing.assert_allclose(sync._variance.numpy(), plain._variance.numpy(), rtol=1e-6)
    sync.eval(), plain.eval()
    np.testing.assert_allclose(sync(x).numpy(), plain(x).numpy(), rtol=1e-6, atol=1e-6)
    assert sorted(sync.state_dict()) == ["_mean", "_variance", "bias", "weight"]


def test_sync_batch_norm_channel_last_and_gradient():
    x = rng.normal(size=(3, 2, 2, 4))
    layer = paddle.nn.SyncBatchNorm(4, data_format="NHWC")
    mean, var = x.mean((0, 1, 2)), x.var((0, 1, 2))
    np.testing.assert_allclose(layer(tensor(x).astype("float32")).numpy(),
                               (x - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)
    weights = tensor(rng.normal(size=(3, 2, 2, 4)))
    paddle.set_default_dtype("float64")
    try:
        wide = paddle.nn.SyncBatchNorm(4, data_format="NHWC")
    finally:
        paddle.set_default_dtype("float32")
    check_grad(lambda a: wide(a) * weights, x, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="data_format"):
        paddle.nn.SyncBatchNorm(4, data_format="CHWN")


def test_convert_sync_batchnorm_shares_parameters():
    nn = paddle.nn
    model = nn.Sequential(nn.Conv2D(3, 4, 3), nn.BatchNorm2D(4),
                          nn.Sequential(nn.BatchNorm1D(4, weight_attr=False)))
    weight, mean = model[1].weight, model[1]._mean
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert converted is model and isinstance(model[1], nn.SyncBatchNorm)
    assert model[1].weight is weight and model[1]._mean is mean
    assert isinstance(model[2][0], nn.SyncBatchNorm) and model[2][0].weight is None
    assert isinstance(nn.SyncBatchNorm.convert_sync_batchnorm(nn.BatchNorm3D(2)),
                      nn.SyncBatchNorm)
    conv = nn.Conv2D(1, 1, 1)
    assert nn.SyncBatchNorm.convert_sync_batchnorm(conv) is conv

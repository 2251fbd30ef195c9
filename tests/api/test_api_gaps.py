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
    plain_class = {2: paddle.nn.BatchNorm1D, 3: paddle.nn.BatchNorm1D, 4: paddle.nn.BatchNorm2D,
                   5: paddle.nn.BatchNorm3D}[len(shape)]
    sync, plain = paddle.nn.SyncBatchNorm(3, momentum=0.8), plain_class(3, 0.8)
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


# ---- nn.functional.ctc_loss / nn.CTCLoss -------------------------------------------------
_PADDLE_CTC_LOGITS = np.array([
    [[4.17021990e-01, 7.20324516e-01, 1.14374816e-04], [3.02332580e-01, 1.46755889e-01,
                                                        9.23385918e-02]],
    [[1.86260208e-01, 3.45560730e-01, 3.96767467e-01], [5.38816750e-01, 4.19194520e-01,
                                                        6.85219526e-01]],
    [[2.04452246e-01, 8.78117442e-01, 2.73875929e-02], [6.70467496e-01, 4.17304814e-01,
                                                        5.58689833e-01]],
    [[1.40386939e-01, 1.98101491e-01, 8.00744593e-01], [9.68261600e-01, 3.13424170e-01,
                                                        6.92322612e-01]],
    [[8.76389146e-01, 8.94606650e-01, 8.50442126e-02], [3.90547849e-02, 1.69830427e-01,
                                                        8.78142476e-01]]], dtype="float32")


def _ctc_args(labels, steps, label_lengths):
    return (paddle.to_tensor(np.array(labels, "int32")), paddle.to_tensor(steps, "int64"),
            paddle.to_tensor(label_lengths, "int64"))


def test_ctc_loss_matches_paddle_example():
    """Paddle's documented example: the logits are unnormalised (softmax applied inside)."""
    args = _ctc_args([[1, 2, 2], [1, 2, 2]], [5, 5], [3, 3])
    logits = paddle.to_tensor(_PADDLE_CTC_LOGITS)
    none = paddle.nn.functional.ctc_loss(logits, *args, blank=0, reduction="none")
    assert none.dtype == paddle.float32 and none.shape == [2]
    np.testing.assert_allclose(none.numpy(), [3.91798496, 2.90765190], rtol=1e-6)
    mean = paddle.nn.CTCLoss(blank=0, reduction="mean")(logits, *args)
    assert mean.shape == []
    np.testing.assert_allclose(float(mean), 1.13760614, rtol=1e-6)
    total = paddle.nn.CTCLoss(reduction="sum")(logits, *args)
    np.testing.assert_allclose(float(total), 3.91798496 + 2.90765190, rtol=1e-6)


def _brute_ctc(logits, label, blank):
    """-log sum over all alignments (every path of the frames) that collapse to label."""
    import itertools
    probs = np.exp(logits - np.log(np.exp(logits).sum(-1, keepdims=True)))
    total = 0.0
    for path in itertools.product(range(logits.shape[-1]), repeat=logits.shape[0]):
        merged = [c for k, c in enumerate(path) if k == 0 or c != path[k - 1]]
        if [c for c in merged if c != blank] == list(label):
            total += np.prod(probs[np.arange(len(path)), path])
    return -np.log(total)


def test_ctc_loss_against_brute_force_and_finite_differences():
    logits = rng.normal(size=(5, 3, 4))
    labels, steps, lengths = [[3, 3, 1], [2, 1, 0], [1, 0, 0]], [5, 4, 2], [3, 2, 0]
    args = _ctc_args(labels, steps, lengths)
    got = paddle.nn.functional.ctc_loss(tensor(logits), *args, blank=0, reduction="none")
    want = [_brute_ctc(logits[:steps[b], b], labels[b][:lengths[b]], 0) for b in range(3)]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    check_grad(lambda z: paddle.nn.functional.ctc_loss(z, *args, reduction="none"), logits)
    other = _ctc_args([[3, 3, 1], [0, 1, 0], [1, 0, 0]], steps, [3, 2, 1])
    check_grad(lambda z: paddle.nn.functional.ctc_loss(z, *other, blank=2), logits)


def test_ctc_norm_by_times_scales_only_the_gradient():
    logits = rng.normal(size=(4, 2, 3))
    args = _ctc_args([[1, 2], [2, 0]], [4, 3], [2, 1])
    grads = []
    for norm in (False, True):
        z = tensor(logits, grad=True)
        loss = paddle.nn.functional.ctc_loss(z, *args, reduction="sum", norm_by_times=norm)
        loss.backward()
        grads.append((float(loss), z.grad.numpy()))
    assert grads[0][0] == grads[1][0]
    np.testing.assert_allclose(grads[1][1], grads[0][1] / np.array([4.0, 3.0])[None, :, None])


def test_ctc_impossible_alignment_and_errors():
    logits = tensor(rng.normal(size=(2, 1, 3)), grad=True)
    loss = paddle.nn.functional.ctc_loss(logits, *_ctc_args([[1, 1]], [2], [2]),
                                         reduction="sum")
    assert np.isinf(float(loss))
    loss.backward()
    assert not logits.grad.numpy().any()
    with pytest.raises(ValueError, match="lengths"):
        paddle.nn.functional.ctc_loss(logits, *_ctc_args([[1, 1]], [3], [2]))
    with pytest.raises(ValueError, match="reduction"):
        paddle.nn.functional.ctc_loss(logits, *_ctc_args([[1]], [2], [1]), reduction="avg")
    with pytest.raises(ValueError, match="3-D"):
        paddle.nn.functional.ctc_loss(paddle.rand([2, 3]), *_ctc_args([[1]], [2], [1]))


# ---- nn.functional.hsigmoid_loss / nn.HSigmoidLoss ---------------------------------------
def _np_hsigmoid(x, label, num_classes, weight, bias, table=None, code=None):
    """Paddle's loss spelled out: default-tree paths from the bits of label + num_classes,
    node scores clipped to [-40, 40], and log 2 for every unused slot of the path matrix."""
    if table is None:
        width = (num_classes - 1).bit_length()
        table = np.full((len(label), width), -1)
        code = np.zeros((len(label), width), int)
        for i, c in enumerate(np.asarray(label).ravel() + num_classes):
            for j in range(int(c).bit_length() - 1):
                table[i, j], code[i, j] = (c >> (j + 1)) - 1, (c >> j) & 1
    out = np.zeros((len(x), 1))
    for i in range(len(x)):
        for j in range(table.shape[1]):
            node = table[i, j]
            z = 0.0 if node < 0 else np.clip(x[i] @ weight[node] + (
                0 if bias is None else bias[node, 0]), -40, 40)
            out[i, 0] += np.log1p(np.exp(z)) - (code[i, j] * z if node >= 0 else 0)
    return out


def test_hsigmoid_loss_default_tree_matches_numpy():
    x, w, b = rng.normal(size=(5, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 1))
    label = np.array([[0], [1], [4], [6], [3]])
    got = paddle.nn.functional.hsigmoid_loss(tensor(x), tensor(label), 7, tensor(w), tensor(b))
    assert got.shape == [5, 1]
    np.testing.assert_allclose(got.numpy(), _np_hsigmoid(x, label, 7, w, b), rtol=1e-12)
    no_bias = paddle.nn.functional.hsigmoid_loss(tensor(x), tensor(label[:, 0]), 7, tensor(w))
    np.testing.assert_allclose(no_bias.numpy(), _np_hsigmoid(x, label, 7, w, None), rtol=1e-12)


def test_hsigmoid_loss_refuses_labels_outside_the_default_tree():
    # Paddle 3.3.1 returns a loss read past the weight's rows for label == num_classes
    x, w = rng.normal(size=(2, 3)), rng.normal(size=(4, 3))
    with pytest.raises(ValueError, match=r"\[0, num_classes = 5\) with the default tree, "
                                         r"got \[5\]"):
        paddle.nn.functional.hsigmoid_loss(tensor(x), tensor(np.array([4, 5])), 5, tensor(w))
    with pytest.raises(ValueError, match=r"got \[-1\]"):
        paddle.nn.HSigmoidLoss(3, 5)(tensor(x), tensor(np.array([[-1], [0]])))


def test_hsigmoid_loss_custom_tree_and_gradients():
    x, w, b = rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rng.normal(size=(3, 1))
    table = np.array([[0, 1, -1], [0, 2, -1], [0, -1, -1]])
    code = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0]])
    label = np.array([[0], [1], [2]])
    got = paddle.nn.functional.hsigmoid_loss(tensor(x), tensor(label), 3, tensor(w), tensor(b),
                                             tensor(table), tensor(code))
    np.testing.assert_allclose(got.numpy(), _np_hsigmoid(x, label, 3, w, b, table, code),
                               rtol=1e-12)
    check_grad(lambda a, ww, bb: paddle.nn.functional.hsigmoid_loss(
        a, tensor(label), 3, ww, bb, tensor(table), tensor(code)), x, w, b)
    check_grad(lambda a, ww: paddle.nn.functional.hsigmoid_loss(
        a, tensor(label), 5, ww), x, rng.normal(size=(4, 4)))


def test_hsigmoid_loss_layer_and_errors():
    layer = paddle.nn.HSigmoidLoss(3, 6)
    assert layer.weight.shape == [5, 3] and layer.bias.shape == [5, 1]
    x, label = rng.normal(size=(4, 3)).astype("float32"), np.array([[0], [1], [4], [5]])
    want = _np_hsigmoid(x, label, 6, layer.weight.numpy(), layer.bias.numpy())
    np.testing.assert_allclose(layer(tensor(x), tensor(label)).numpy(), want, rtol=1e-5)
    custom = paddle.nn.HSigmoidLoss(3, 2, is_custom=True, bias_attr=False)
    assert custom.weight.shape == [2, 3] and custom.bias is None
    with pytest.raises(ValueError, match="custom tree"):
        custom(tensor(x), tensor(label))
    with pytest.raises(ValueError, match="at least 2"):
        paddle.nn.HSigmoidLoss(3, 1)
    with pytest.raises(ValueError, match="both path_table and path_code"):
        paddle.nn.functional.hsigmoid_loss(tensor(x), tensor(label), 6, layer.weight,
                                           path_table=tensor(np.zeros((4, 2), "int64")))


# ---- nn.functional.temporal_shift --------------------------------------------------------
def _np_temporal_shift(x, seg_num, ratio, data_format="NCHW"):
    if data_format == "NHWC":
        x = x.transpose(0, 3, 1, 2)
    clips = x.reshape((-1, seg_num) + x.shape[1:])
    out = np.zeros_like(clips)
    c1, c2 = int(x.shape[1] * ratio), int(x.shape[1] * 2 * ratio)
    out[:, 1:, :c1] = clips[:, :-1, :c1]
    out[:, :-1, c1:c2] = clips[:, 1:, c1:c2]
    out[:, :, c2:] = clips[:, :, c2:]
    out = out.reshape(x.shape)
    return out.transpose(0, 2, 3, 1) if data_format == "NHWC" else out


@pytest.mark.parametrize("seg_num, ratio", [(2, 0.2), (3, 0.25), (6, 0.5), (2, 0.0)])
def test_temporal_shift_matches_numpy(seg_num, ratio):
    shift = paddle.nn.functional.temporal_shift
    x = rng.normal(size=(6, 8, 2, 3))
    np.testing.assert_array_equal(shift(tensor(x), seg_num, ratio).numpy(),
                                  _np_temporal_shift(x, seg_num, ratio))
    xt = x.transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(shift(tensor(xt), seg_num, ratio, data_format="NHWC").numpy(),
                                  _np_temporal_shift(xt, seg_num, ratio, "NHWC"))


def test_temporal_shift_gradient_and_static():
    shift = paddle.nn.functional.temporal_shift
    weights = tensor(rng.normal(size=(4, 4, 2, 2)))
    check_grad(lambda a: shift(a, 2, 0.25) * weights, rng.normal(size=(4, 4, 2, 2)))
    x = rng.normal(size=(4, 4, 1, 2))
    np.testing.assert_array_equal(run_static(lambda a: shift(a, 2), x),
                                  _np_temporal_shift(x, 2, 0.25))


def test_temporal_shift_errors():
    shift = paddle.nn.functional.temporal_shift
    with pytest.raises(ValueError, match="multiple of seg_num"):
        shift(paddle.rand([5, 4, 2, 2]), 2)
    with pytest.raises(ValueError, match="4-D"):
        shift(paddle.rand([4, 4, 2]), 2)
    with pytest.raises(ValueError, match="data_format"):
        shift(paddle.rand([4, 4, 2, 2]), 2, data_format="NCDHW")
    with pytest.raises(ValueError, match="shift_ratio"):
        shift(paddle.rand([4, 4, 2, 2]), 2, 0.7)
    with pytest.raises(ValueError, match="seg_num"):
        shift(paddle.rand([4, 4, 2, 2]), 0)


# ---- DLPack ------------------------------------------------------------------------------
def test_dlpack_round_trip_shares_memory():
    x = paddle.to_tensor([[0.2, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]])
    capsule = paddle.utils.dlpack.to_dlpack(x)
    assert "dltensor" in repr(capsule)
    y = paddle.utils.dlpack.from_dlpack(capsule)
    assert "used_dltensor" in repr(capsule)
    assert y.dtype == paddle.float32 and y.shape == [2, 4]
    assert np.shares_memory(x._data, y._data)
    with pytest.raises(Exception):
        paddle.from_dlpack(capsule)  # a capsule is decoded once


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64",
                                   "float16", "float32", "float64", "complex64", "complex128"])
def test_dlpack_dtypes_and_numpy_producers(dtype):
    a = (rng.normal(size=(3, 2)) * 3).astype(dtype)
    back = paddle.from_dlpack(paddle.to_dlpack(paddle.to_tensor(a)))
    assert back.numpy().dtype == a.dtype
    np.testing.assert_array_equal(back.numpy(), a)
    np.testing.assert_array_equal(np.from_dlpack(_Exported(paddle.to_dlpack(tensor(a)))), a)
    from_numpy = paddle.from_dlpack(a)
    assert np.shares_memory(from_numpy._data, a)


class _Exported:
    """A capsule behind the __dlpack__ protocol, as another framework's tensor would be."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def test_dlpack_copy_device_and_errors():
    a = np.arange(4.0)
    assert not np.shares_memory(paddle.from_dlpack(a, copy=True)._data, a)
    assert paddle.from_dlpack(a, device="cpu").numpy().tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="CPU"):
        paddle.from_dlpack(a, device="gpu:0")
    with pytest.raises(TypeError, match="DLPack capsule"):
        paddle.from_dlpack([1, 2])
    with pytest.raises(TypeError, match="Tensor"):
        paddle.to_dlpack(np.arange(2))


# ---- random states -----------------------------------------------------------------------
def test_cuda_rng_state_on_the_cpu_build():
    assert paddle.get_cuda_rng_state() == []
    assert paddle.set_cuda_rng_state(paddle.get_cuda_rng_state()) is None


def test_rng_state_round_trip_repeats_every_random_op():
    paddle.seed(5)
    state = paddle.get_rng_state()
    draws = [paddle.rand([3]).numpy(), paddle.randn([4]).numpy(),
             paddle.randint(0, 9, [5]).numpy(),
             paddle.nn.functional.dropout(paddle.ones([8]), 0.5).numpy()]
    paddle.rand([50])
    paddle.set_rng_state(state, device="cpu")
    again = [paddle.rand([3]).numpy(), paddle.randn([4]).numpy(),
             paddle.randint(0, 9, [5]).numpy(),
             paddle.nn.functional.dropout(paddle.ones([8]), 0.5).numpy()]
    for a, b in zip(draws, again):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="one-element"):
        paddle.set_rng_state(state * 2)
    with pytest.raises(ValueError, match="CPU generator"):
        paddle.get_rng_state("gpu")


# ---- nn.utils.clip_grad_norm_ ------------------------------------------------------------
def test_clip_grad_norm_without_gradients_returns_zero():
    layer = paddle.nn.Linear(3, 2)
    total = paddle.nn.utils.clip_grad_norm_(layer.parameters(), 1.0)
    assert total.shape == [] and float(total) == 0.0
    assert layer.weight.grad is None
    assert float(paddle.nn.utils.clip_grad_norm_([], 1.0)) == 0.0


@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf"), 0])
def test_clip_grad_norm_matches_paddle_formula(norm_type):
    layer = paddle.nn.Linear(3, 2)
    (layer(tensor(rng.normal(size=(4, 3)).astype("float32"))) * 10).sum().backward()
    grads = [p.grad.numpy().astype(np.float64) for p in layer.parameters()]
    flat = np.concatenate([g.ravel() for g in grads])
    # the 0-"norm" is Paddle's: the count of tensors whose nonzero count is nonzero
    want = {2.0: np.linalg.norm(flat), 1.0: np.abs(flat).sum(), float("inf"): np.abs(flat).max(),
            0: float(np.count_nonzero([np.count_nonzero(g) for g in grads]))}
    total = paddle.nn.utils.clip_grad_norm_(layer.parameters(), 0.5, norm_type)
    np.testing.assert_allclose(float(total), want[norm_type], rtol=1e-5)
    coef = min(1.0, 0.5 / (want[norm_type] + 1e-6))
    for p, g in zip(layer.parameters(), grads):
        np.testing.assert_allclose(p.grad.numpy(), g * coef, rtol=1e-5)


def test_clip_grad_norm_skips_missing_grads_and_checks_arguments():
    a, b = paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 2)
    a(paddle.ones([1, 2])).sum().backward()
    total = paddle.nn.utils.clip_grad_norm_(iter(list(a.parameters()) + list(b.parameters())),
                                            100.0)
    assert float(total) > 0 and b.weight.grad is None
    with pytest.raises(ValueError, match="norm_type"):
        paddle.nn.utils.clip_grad_norm_(a.parameters(), 1.0, norm_type=3)
    a.weight.grad = paddle.full([2, 2], float("nan"))
    with pytest.raises(RuntimeError, match="non-finite"):
        paddle.nn.utils.clip_grad_norm_(a.parameters(), 1.0, error_if_nonfinite=True)


# ---- where Paddle puts the new names -----------------------------------------------------
@pytest.mark.parametrize("where, names", [
    (paddle.linalg, "eig eigvals lu lu_unpack cov corrcoef"),
    (paddle, "index_put index_put_ to_dlpack from_dlpack get_cuda_rng_state set_cuda_rng_state "
             "get_rng_state set_rng_state"),
    (paddle.nn, "SyncBatchNorm CTCLoss HSigmoidLoss"),
    (paddle.nn.functional, "ctc_loss hsigmoid_loss temporal_shift"),
    (paddle.utils.dlpack, "to_dlpack from_dlpack"),
    (paddle.Tensor, "mT index_put index_put_ cov corrcoef eig eigvals lu lu_unpack"),
])
def test_new_names_are_where_paddle_has_them(where, names):
    missing = [n for n in names.split() if not hasattr(where, n)]
    assert not missing


def test_tensors_speak_the_dlpack_protocol():
    """np.from_dlpack (and torch.from_dlpack) read a Tensor directly, sharing its memory;
    a read-only broadcast view is exported as a copy."""
    x = paddle.to_tensor([[1.0, 2.0]])
    shared = np.from_dlpack(x)
    np.testing.assert_array_equal(shared, [[1.0, 2.0]])
    assert np.shares_memory(shared, x._data)
    assert x.__dlpack_device__()[0] == 1  # kDLCPU
    view = paddle.ones([1, 3]).expand([2, 3])
    np.testing.assert_array_equal(np.from_dlpack(view), np.ones((2, 3)))

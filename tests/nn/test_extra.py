"""The composite extras: tensor/extra.py, linalg.py, nn.functional/layer extra and amp."""
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F
from tests.nn._ref import t

rng = np.random.default_rng(5)


def _numeric_grad(fn, x, eps=1e-6):
    """Central differences of sum(fn(x)) (fn maps an array to an array)."""
    grad = np.zeros_like(x)
    for i in range(x.size):
        old = x.flat[i]
        x.flat[i] = old + eps
        hi = np.sum(fn(x))
        x.flat[i] = old - eps
        lo = np.sum(fn(x))
        x.flat[i] = old
        grad.flat[i] = (hi - lo) / (2 * eps)
    return grad


def _check_grad(fn, x):
    """Autograd of sum(fn(tensor)) equals central differences."""
    xt = t(x, grad=True)
    fn(xt).sum().backward()
    want = _numeric_grad(lambda a: fn(t(a)).numpy(), x.copy())
    np.testing.assert_allclose(xt.grad.numpy(), want, rtol=1e-4, atol=1e-6)


X = rng.uniform(-1, 1, (3, 4))
SPD = X[:, :3].T @ X[:, :3] + 3 * np.eye(3)

VALUES = [
    (lambda x: paddle.logit(x, 1e-3), lambda x: np.log(x / (1 - x)), np.abs(X) * 0.8 + 0.1),
    (lambda x: paddle.lerp(x, x * 3, 0.25), lambda x: x + 0.25 * 2 * x, X),
    (paddle.frac, lambda x: x - np.trunc(x), X * 3),
    (paddle.rad2deg, np.rad2deg, X),
    (paddle.deg2rad, np.deg2rad, X),
    (paddle.stanh, lambda x: 1.7159 * np.tanh(0.67 * x), X),
    (lambda x: paddle.diff(x, n=2, axis=1), lambda x: np.diff(x, 2, 1), X),
    (lambda x: paddle.kron(x, x[:2, :2]), lambda x: np.kron(x, x[:2, :2]), X),
    (lambda x: paddle.outer(x[0], x[1]), lambda x: np.outer(x[0], x[1]), X),
    (lambda x: paddle.cross(x[:, :3], x[:, 1:], 1), lambda x: np.cross(x[:, :3], x[:, 1:]), X),
    (lambda x: paddle.dist(x, x * 0.5, 3), lambda x: np.sum(np.abs(x * 0.5) ** 3) ** (1 / 3),
     X),
    (lambda x: paddle.cdist(x, x[:2]),
     lambda x: np.linalg.norm(x[:, None] - x[None, :2], axis=-1), X),
    (lambda x: paddle.trace(x, 1), lambda x: np.trace(x, 1), X),
    (lambda x: paddle.median(x, 1), lambda x: np.median(x, 1), X),
    (lambda x: paddle.quantile(x, [0.3, 0.9], 0, True),
     lambda x: np.quantile(x, [0.3, 0.9], 0, keepdims=True), X),
    (lambda x: paddle.moveaxis(x.reshape([3, 2, 2]), 0, -1),
     lambda x: np.moveaxis(x.reshape(3, 2, 2), 0, -1), X),
    (lambda x: paddle.crop(x, [2, -1], [1, 1]), lambda x: x[1:3, 1:], X),
    (paddle.clone, lambda x: x, X),
    (lambda x: paddle.index_sample(x, t(np.array([[0, 3], [1, 1], [2, 0]]))),
     lambda x: np.take_along_axis(x, np.array([[0, 3], [1, 1], [2, 0]]), 1), X),
    (lambda x: paddle.norm(x), lambda x: np.linalg.norm(x), X),
    (lambda x: paddle.norm(x, p=1, axis=0), lambda x: np.abs(x).sum(0), X),
    (lambda x: paddle.linalg.vector_norm(x, 3, [0, 1]),
     lambda x: np.sum(np.abs(x) ** 3) ** (1 / 3), X),
    (lambda x: paddle.linalg.matrix_norm(x, 1), lambda x: np.linalg.norm(x, 1), X),
    (lambda x: paddle.linalg.matrix_norm(x, math.inf, keepdim=True),
     lambda x: np.linalg.norm(x, np.inf, keepdims=True), X),
    (lambda x: paddle.linalg.matrix_power(x, 3), lambda x: np.linalg.matrix_power(x, 3), SPD),
    (lambda x: paddle.linalg.matrix_power(x, -2), lambda x: np.linalg.matrix_power(x, -2),
     SPD),
    (lambda x: paddle.linalg.multi_dot([x, x.T, x]), lambda x: x @ x.T @ x, X),
    (lambda x: paddle.linalg.eigvalsh(x), np.linalg.eigvalsh, SPD),
    (lambda x: F.hardshrink(x, 0.3), lambda x: np.where(np.abs(x) > 0.3, x, 0), X),
    (lambda x: F.softshrink(x, 0.3), lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.3, 0), X),
    (lambda x: F.glu(x), lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:])), X),
    (lambda x: F.label_smooth(x, epsilon=0.2), lambda x: 0.8 * x + 0.05, X),
    (lambda x: F.square_error_cost(x, x * 0), np.square, X),
    (lambda x: F.soft_margin_loss(x, t(np.sign(X)), "none"),
     lambda x: np.log1p(np.exp(-np.sign(X) * x)), X),
    (lambda x: F.margin_ranking_loss(x, x * 0, t(np.sign(X)), 0.1, "sum"),
     lambda x: np.maximum(0, -np.sign(X) * x + 0.1).sum(), X),
]


@pytest.mark.parametrize("k", range(len(VALUES)))
def test_values_and_gradients(k):
    """Each composite matches NumPy and its autograd matches central differences."""
    fn, ref, x = VALUES[k]
    np.testing.assert_allclose(fn(t(x)).numpy(), ref(x.copy()), rtol=1e-7, atol=1e-9)
    _check_grad(fn, x.copy())


def test_integer_and_misc_helpers():
    """count_nonzero, bucketize, unique, nonzero, rank, is_tensor, unstack, put_along_axis."""
    x = t(np.array([[0, 2, 3], [4, 0, 0]]))
    assert paddle.count_nonzero(x, axis=1).numpy().tolist() == [2, 1]
    seq = t(np.array([1.0, 3.0, 5.0]))
    assert paddle.bucketize(t(np.array([0.5, 3.0, 6.0])), seq).numpy().tolist() == [0, 1, 3]
    out, inverse, counts = paddle.unique(x, return_inverse=True, return_counts=True)
    assert out.numpy().tolist() == [0, 2, 3, 4] and counts.numpy().tolist() == [3, 1, 1, 1]
    assert inverse.numpy().tolist() == [0, 1, 2, 3, 0, 0]
    assert x.unique(return_counts=True)[1].numpy().tolist() == [3, 1, 1, 1]
    rows, cols = x.nonzero(as_tuple=True)
    assert rows.numpy().tolist() == [0, 0, 1] and cols.numpy().tolist() == [1, 2, 0]
    assert paddle.rank(x).numpy() == 2 and paddle.is_tensor(x) and not paddle.is_tensor(1)
    assert [p.shape for p in paddle.unstack(x, 1)] == [[2]] * 3
    put = paddle.put_along_axis(t(np.zeros((2, 3))), t(np.array([[1], [2]])), 5.0, 1)
    assert put.numpy().tolist() == [[0, 5, 0], [0, 0, 5]]
    nan = paddle.nan_to_num(t(np.array([np.nan, np.inf, -np.inf])), posinf=9.0)
    assert nan.numpy().tolist() == [0.0, 9.0, np.finfo(np.float64).min]
    assert paddle.heaviside(t(np.array([-1.0, 0.0, 2.0])), t(np.array(0.5))).numpy().tolist() \
        == [0.0, 0.5, 1.0]


def test_linalg_wrappers():
    """qr, svd, lstsq, pinv, cond and slogdet through paddle.linalg."""
    a = t(X)
    q, r = paddle.linalg.qr(a)
    np.testing.assert_allclose((q @ r).numpy(), X, atol=1e-12)
    u, s, vh = paddle.linalg.svd(a)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(X)[1])
    sol = paddle.linalg.lstsq(a.T, t(X[:1].T))[0]
    np.testing.assert_allclose(sol.numpy(), np.linalg.lstsq(X.T, X[:1].T, rcond=None)[0])
    np.testing.assert_allclose(paddle.linalg.pinv(a).numpy(), np.linalg.pinv(X))
    np.testing.assert_allclose(paddle.linalg.cond(t(SPD)).numpy(), np.linalg.cond(SPD))
    np.testing.assert_allclose(paddle.linalg.cond(t(SPD), "fro").numpy(),
                               np.linalg.cond(SPD, "fro"))
    np.testing.assert_allclose(paddle.linalg.slogdet(t(SPD)).numpy()[1],
                               np.linalg.slogdet(SPD)[1])


def test_unfold_fold_and_pixel_shuffle():
    """fold(unfold(x)) multiplies each pixel by its window count; shuffles invert."""
    x = rng.uniform(size=(1, 2, 4, 4))
    cols = F.unfold(t(x), 2, strides=2)
    assert cols.shape == [1, 8, 4]
    np.testing.assert_allclose(nn.Fold([4, 4], 2, strides=2)(cols).numpy(), x)
    shuffled = nn.PixelShuffle(2)(t(rng.uniform(size=(1, 8, 2, 3))))
    assert shuffled.shape == [1, 2, 4, 6]
    assert nn.PixelUnshuffle(2)(shuffled).shape == [1, 8, 2, 3]
    nhwc = F.pixel_shuffle(t(rng.uniform(size=(1, 2, 3, 8))), 2, "NHWC")
    assert nhwc.shape == [1, 4, 6, 2]


def test_conv1d_transpose_matches_conv2d_transpose():
    """conv1d_transpose equals the height-1 2-D transposed convolution."""
    x, w = rng.uniform(size=(2, 3, 5)), rng.uniform(size=(3, 2, 3))
    got = F.conv1d_transpose(t(x), t(w), stride=2, padding=1).numpy()
    want = F.conv2d_transpose(t(x[:, :, None]), t(w[:, :, None]), stride=(1, 2),
                              padding=(0, 1)).numpy()[:, :, 0]
    np.testing.assert_allclose(got, want)
    assert F.adaptive_max_pool1d(t(x), 2).numpy().tolist() == \
        [[[max(r[:3]), max(r[2:])] for r in b] for b in x.tolist()]


def test_losses():
    """sigmoid_focal_loss, log_loss and hinge_embedding_loss against NumPy formulas."""
    logit, label = rng.uniform(-2, 2, (4, 3)), (rng.uniform(size=(4, 3)) > 0.5) * 1.0
    p = 1 / (1 + np.exp(-logit))
    ce = -(label * np.log(p) + (1 - label) * np.log(1 - p))
    p_t = p * label + (1 - p) * (1 - label)
    a_t = 0.25 * label + 0.75 * (1 - label)
    np.testing.assert_allclose(F.sigmoid_focal_loss(t(logit), t(label)).numpy(),
                               np.sum(a_t * (1 - p_t) ** 2 * ce))
    np.testing.assert_allclose(F.log_loss(t(p), t(label)).numpy(),
                               -label * np.log(p + 1e-4) - (1 - label) * np.log(1 - p + 1e-4))
    sign = np.where(label > 0, 1.0, -1.0)
    np.testing.assert_allclose(F.hinge_embedding_loss(t(logit), t(sign), 1.0, "none").numpy(),
                               np.where(sign > 0, logit, np.maximum(0, 1 - logit)))


def test_gumbel_softmax_is_a_distribution():
    """Soft samples sum to one; hard samples are one-hot with the soft gradient."""
    x = t(rng.uniform(size=(3, 4)), grad=True)
    assert np.allclose(F.gumbel_softmax(x, 0.5).numpy().sum(-1), 1.0)
    hard = F.gumbel_softmax(x, hard=True)
    assert sorted(set(hard.numpy().ravel().tolist())) == [0.0, 1.0]
    (hard * t(rng.uniform(size=(3, 4)))).sum().backward()
    assert x.grad is not None and np.any(x.grad.numpy())


def test_rnn_wrappers_match_builtin_layers():
    """nn.RNN(cell) and nn.BiRNN equal the stacked GRU layer with the same weights."""
    paddle.seed(1)
    x = t(rng.uniform(size=(2, 5, 3)).astype("float32"))
    gru = nn.GRU(3, 4, direction="bidirect")
    fw, bw = nn.GRUCell(3, 4), nn.GRUCell(3, 4)
    for cell, suffix in ((fw, "_l0"), (bw, "_l0_reverse")):
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(cell, name).set_value(getattr(gru, name + suffix).numpy())
    want, h = gru(x)
    got, (h_fw, h_bw) = nn.BiRNN(fw, bw)(x)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h_bw.numpy(), h.numpy()[1], rtol=1e-5, atol=1e-6)
    out, final = nn.RNN(fw)(x)
    np.testing.assert_allclose(out.numpy(), want.numpy()[..., :4], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(final.numpy(), h_fw.numpy())
    rev, _ = nn.RNN(bw, is_reverse=True, time_major=True)(x.transpose([1, 0, 2]))
    np.testing.assert_allclose(rev.numpy().transpose(1, 0, 2), want.numpy()[..., 4:],
                               rtol=1e-5, atol=1e-6)


def test_create_parameter_eager_and_static():
    """Eager: a trainable Parameter; static: a Parameter variable of the main program."""
    p = paddle.create_parameter([2, 3], "float32", is_bias=True)
    assert p.shape == [2, 3] and not p.stop_gradient and not np.any(p.numpy())
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            v = paddle.create_parameter([4], "float32", name="my_param")
        assert main.global_block().var("my_param") is v
    finally:
        paddle.disable_static()


def _train_step(scaler, model, opt, scale_input):
    """One scaled step on a tiny regression; returns whether the weights moved."""
    before = model.weight.numpy().copy()
    with paddle.amp.auto_cast():
        loss = (model(t(np.ones((2, 2), "float32") * scale_input)) ** 2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()
    return not np.array_equal(before, model.weight.numpy())


def test_grad_scaler_dynamic_loss_scaling():
    """Finite steps update and grow the scale; a non-finite step is skipped and shrinks it."""
    model = nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    model, opt = paddle.amp.decorate(model, opt, level="O2")
    scaler = paddle.amp.GradScaler(init_loss_scaling=8.0, incr_every_n_steps=2,
                                   decr_every_n_nan_or_inf=1)
    assert _train_step(scaler, model, opt, 1.0) and _train_step(scaler, model, opt, 1.0)
    assert float(scaler.get_loss_scaling()) == 16.0
    assert not _train_step(scaler, model, opt, np.inf)
    assert float(scaler.get_loss_scaling()) == 8.0
    state = scaler.state_dict()
    other = paddle.amp.GradScaler()
    other.load_state_dict(state)
    assert float(other.get_loss_scaling()) == 8.0 and other.incr_count == 0


def test_grad_scaler_unscales_gradients():
    """After unscale_, gradients equal the unscaled loss's gradients."""
    w = paddle.create_parameter([3], "float64")
    opt = paddle.optimizer.SGD(0.0, parameters=[w])
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    scaler.scale((w * w).sum()).backward()
    scaler.unscale_(opt)
    np.testing.assert_allclose(w.grad.numpy(), 2 * w.numpy())
    assert scaler.is_enable() and not paddle.amp.GradScaler(enable=False).is_enable()


def test_grad_scaler_getters_and_setters():
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    assert scaler.get_init_loss_scaling() == 1024.0 and scaler.get_incr_ratio() == 2.0
    scaler.set_init_loss_scaling(64.0)
    assert scaler.get_init_loss_scaling() == 64.0 and float(scaler.get_loss_scaling()) == 64.0
    scaler.set_incr_ratio(3.0)
    scaler.set_decr_ratio(0.25)
    scaler.set_incr_every_n_steps(5)
    scaler.set_decr_every_n_nan_or_inf(4)
    assert (scaler.get_incr_ratio(), scaler.get_decr_ratio()) == (3.0, 0.25)
    assert (scaler.get_incr_every_n_steps(), scaler.get_decr_every_n_nan_or_inf()) == (5, 4)
    with pytest.raises(ValueError, match="incr_ratio"):
        scaler.set_incr_ratio(0.5)
    with pytest.raises(ValueError, match="decr_ratio"):
        scaler.set_decr_ratio(1.5)


def test_auto_cast_is_a_context_manager_and_decorator():
    """auto_cast keeps float32 compute and validates its level."""
    @paddle.amp.auto_cast(level="O1")
    def double(x):
        return x * 2
    assert double(paddle.ones([2])).dtype == paddle.float32
    with pytest.raises(ValueError):
        with paddle.amp.auto_cast(level="O9"):
            pass


@pytest.mark.parametrize("mode, np_mode", [("reflect", "reflect"), ("replicate", "edge"),
                                           ("circular", "wrap")])
def test_conv_padding_modes_pad_the_input_first(mode, np_mode):
    conv = paddle.nn.Conv2D(2, 3, 3, padding=1, padding_mode=mode)
    plain = paddle.nn.Conv2D(2, 3, 3, padding=0)
    plain.set_state_dict(conv.state_dict())
    x = np.random.default_rng(0).normal(size=(2, 2, 5, 6)).astype("float32")
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode=np_mode)
    np.testing.assert_allclose(conv(paddle.to_tensor(x)).numpy(),
                               plain(paddle.to_tensor(padded)).numpy(), rtol=1e-5, atol=1e-5)
    conv1d = paddle.nn.Conv1D(2, 3, 3, padding=2, padding_mode=mode)
    assert conv1d(paddle.to_tensor(x[:, :, 0])).shape == [2, 3, 8]

"""nn.AdaptiveLogSoftmaxWithLoss and F.adaptive_log_softmax_with_loss against a row-by-row
NumPy reference of the definition (and values recorded from Paddle 3.3.1): output, loss,
log_prob, predict, central-difference gradients, static mode, training of the cluster
weights, and errors."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn.functional as F
from tests.api._check import check_grad, check_static, tensor

rng = np.random.default_rng(8)
CUTOFFS = [3, 6, 10]  # shortlist of 3, clusters [3, 6) and [6, 10)


def _log_softmax(z):
    z = z - z.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def _reference(x, labels, head_w, tails, cutoffs, head_b=None):
    """Each row's log-probability: its head entry, plus the in-cluster term for tail labels."""
    head = _log_softmax(x @ head_w + (0 if head_b is None else head_b))
    out = []
    for row, label in enumerate(labels):
        if label < cutoffs[0]:
            out.append(head[row, label])
            continue
        k = next(i for i in range(len(cutoffs) - 1) if label < cutoffs[i + 1])
        project, proj_out = tails[k]
        local = _log_softmax(x[row] @ project @ proj_out)
        out.append(head[row, cutoffs[0] + k] + local[label - cutoffs[k]])
    return np.array(out)


def _weights(in_features=8, div=2.0):
    head = rng.normal(size=(in_features, CUTOFFS[0] + 2))
    tails = []
    for k in range(2):
        hidden = int(in_features // div ** (k + 1))
        tails.append((rng.normal(size=(in_features, hidden)),
                      rng.normal(size=(hidden, CUTOFFS[k + 1] - CUTOFFS[k]))))
    return head, tails


def test_output_and_loss_match_the_row_wise_definition():
    x, labels = rng.normal(size=(7, 8)), np.array([0, 4, 9, 2, 7, 5, 6])
    head, tails = _weights()
    bias = rng.normal(size=CUTOFFS[0] + 2)
    out, loss = F.adaptive_log_softmax_with_loss(
        tensor(x), paddle.to_tensor(labels), tensor(head),
        [[tensor(a), tensor(b)] for a, b in tails], CUTOFFS, tensor(bias))
    want = _reference(x, labels, head, tails, CUTOFFS, bias)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(float(loss), -want.mean(), rtol=1e-12)


def test_gradients_of_input_and_every_weight():
    x, labels = rng.normal(size=(5, 8)), paddle.to_tensor([1, 3, 8, 5, 6])
    head, ((a0, b0), (a1, b1)) = _weights()

    def loss_of(x, head, a0, b0, a1, b1):
        return F.adaptive_log_softmax_with_loss(x, labels, head, [[a0, b0], [a1, b1]],
                                                CUTOFFS)[0]
    check_grad(loss_of, x, head, a0, b0, a1, b1, rtol=1e-5, atol=1e-8)
    check_static(loss_of, x, head, a0, b0, a1, b1)


def test_the_layer_matches_paddle_and_trains_its_cluster_weights():
    paddle.seed(0)
    layer = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=True)
    names = [name for name, _ in layer.named_parameters()]
    assert names == ["head_weight", "head_bias", "tail_weights.0.0", "tail_weights.0.1",
                     "tail_weights.1.0", "tail_weights.1.1"]
    x = paddle.to_tensor(rng.normal(size=(16, 8)).astype("float32"))
    labels = paddle.to_tensor(rng.integers(0, 10, 16))
    log_probs = layer.log_prob(x)
    np.testing.assert_allclose(np.exp(log_probs.numpy()).sum(1), 1.0, rtol=1e-5)
    out, _ = layer(x, labels)
    np.testing.assert_allclose(out.numpy(), np.take_along_axis(
        log_probs.numpy(), labels.numpy()[:, None], 1)[:, 0], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(layer.predict(x).numpy(), log_probs.numpy().argmax(1))
    assert layer.predict(x).dtype == paddle.float32
    opt = paddle.optimizer.Adam(0.05, parameters=layer.parameters())
    before = layer.tail_weights[1][1].numpy().copy()
    losses = []
    for _ in range(30):
        loss = layer(x, labels)[1]
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    assert not np.array_equal(layer.tail_weights[1][1].numpy(), before)


def test_values_recorded_from_paddle():
    """Paddle 3.3.1's output and loss for AdaptiveLogSoftmaxWithLoss(2, 5, [2],
    div_value=2.0) with these weights."""
    layer = paddle.nn.AdaptiveLogSoftmaxWithLoss(2, 5, [2], div_value=2.0)
    layer.head_weight.set_value(np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.6]], "float32"))
    layer.tail_weights[0][0].set_value(np.array([[1.0], [-1.0]], "float32"))
    layer.tail_weights[0][1].set_value(np.array([[0.2, -0.4, 0.9]], "float32"))
    x = paddle.to_tensor(np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7]], "float32"))
    out, loss = layer(x, paddle.to_tensor([1, 4, 2]))
    np.testing.assert_allclose(out.numpy(), [-0.600430428981781, -3.949761390686035,
                                             -1.9349732398986816], rtol=1e-6)
    np.testing.assert_allclose(float(loss), 2.161721706390381, rtol=1e-6)


def test_bad_labels_and_cutoffs_raise():
    layer = paddle.nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2, 4])
    x = paddle.to_tensor(np.ones((2, 4), "float32"))
    with pytest.raises(ValueError, match=r"label values must be in \[0, 5\]"):
        layer(x, paddle.to_tensor([0, 6]))
    for cutoffs in ([4, 2], [0, 3], [2, 6], [2, 2]):
        with pytest.raises(ValueError, match="cutoffs"):
            paddle.nn.AdaptiveLogSoftmaxWithLoss(4, 6, cutoffs)

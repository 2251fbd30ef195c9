"""F.cross_entropy's reductions as Paddle 3 computes them: the mean's denominator with
ignored labels, soft labels and label smoothing under a class weight; argument checks."""
import numpy as np
import pytest

import sampan.nn as nn
import sampan.nn.functional as F

from ._ref import t

RNG = np.random.default_rng(7)
LOGITS = RNG.standard_normal((5, 4))
LOGP = LOGITS - np.log(np.exp(LOGITS).sum(1, keepdims=True))
W = np.array([1.0, 2.0, 0.5, 3.0])


def test_negative_ignore_index_means_over_every_sample():
    labels = np.array([0, -100, 1, 2, -100])
    picked = np.where(labels >= 0, -LOGP[np.arange(5), np.maximum(labels, 0)], 0.0)
    loss = F.cross_entropy(t(LOGITS), t(labels))
    np.testing.assert_allclose(loss.numpy(), picked.sum() / 5)
    np.testing.assert_allclose(nn.CrossEntropyLoss()(t(LOGITS), t(labels)).numpy(),
                               picked.sum() / 5)


def test_non_negative_ignore_index_means_over_kept_samples_and_all_ignored_is_zero():
    labels = np.array([0, 3, 1, 3, 2])
    kept = labels != 3
    loss = F.cross_entropy(t(LOGITS), t(labels), ignore_index=3)
    np.testing.assert_allclose(loss.numpy(), -LOGP[np.arange(5), labels][kept].mean())
    assert F.cross_entropy(t(LOGITS), t(np.full(5, 3)), ignore_index=3).numpy() == 0.0
    weighted = F.cross_entropy(t(LOGITS), t(np.full(5, 3)), weight=t(W), ignore_index=3)
    assert weighted.numpy() == 0.0


def test_soft_label_with_weight_divides_by_the_label_weights():
    soft = np.abs(RNG.standard_normal((5, 4)))
    soft /= soft.sum(1, keepdims=True)
    per_sample = -(soft * LOGP).sum(1) * (soft @ W)
    loss = F.cross_entropy(t(LOGITS), t(soft), weight=t(W), soft_label=True)
    np.testing.assert_allclose(loss.numpy(), per_sample.sum() / (soft @ W).sum())
    summed = F.cross_entropy(t(LOGITS), t(soft), weight=t(W), soft_label=True, reduction="sum")
    np.testing.assert_allclose(summed.numpy(), per_sample.sum())


def test_label_smoothing_weights_each_sample_by_its_smoothed_label():
    labels, eps = np.array([0, 3, 1, 2, 3]), 0.2
    smooth = np.eye(4)[labels] * (1 - eps) + eps / 4
    per_sample = -(smooth * LOGP).sum(1)
    loss = F.cross_entropy(t(LOGITS), t(labels), label_smoothing=eps)
    np.testing.assert_allclose(loss.numpy(), per_sample.mean())
    loss = F.cross_entropy(t(LOGITS), t(labels), weight=t(W), label_smoothing=eps)
    np.testing.assert_allclose(loss.numpy(), (per_sample * (smooth @ W)).sum() / (smooth @ W).sum())


@pytest.mark.parametrize("kwargs,label,match", [
    ({"weight": t(np.ones(3))}, np.array([0, 1, 2, 3, 0]), "'weight' has 3 entries"),
    ({}, np.zeros((5, 4, 1), np.int64), "label must have the input's rank"),
    ({}, np.zeros((5, 2), np.int64), "need size 1 on axis -1"),
    ({"reduction": "avg"}, np.zeros(5, np.int64), "reduction must be"),
])
def test_bad_arguments_raise_value_errors(kwargs, label, match):
    with pytest.raises(ValueError, match=match):
        F.cross_entropy(t(LOGITS), t(label), **kwargs)


def _smoothing_inputs():
    """Logits, integer labels, their one-hot rows and soft labels (values of the Paddle
    3.3.1 recording below)."""
    rng = np.random.RandomState(0)
    logits = rng.rand(4, 3)
    labels = np.array([0, 1, 2, 0])
    return logits, labels, np.eye(3)[labels], rng.dirichlet([1, 1, 1], 4)


# (keywords, expected for one-hot and integer labels, expected for soft labels), recorded
# with Paddle 3.3.1 on _smoothing_inputs()
SMOOTHING_CASES = [
    ({"label_smoothing": 0.1}, 1.149231, 1.073013),
    ({"soft_label": True, "label_smoothing": 0.1}, 1.149231, 1.073013),
    ({"soft_label": True, "label_smoothing": 0.3, "weight": [1.0, 2.0, 0.5]}, 1.159071,
     1.082594),
    ({"label_smoothing": 0.2, "weight": [1.0, 2.0, 0.5]}, 1.169518, 1.078953),
    ({"label_smoothing": 0.2, "reduction": "sum", "use_softmax": False}, 2.373644, 1.833623),
]


@pytest.mark.parametrize("kwargs,hard,soft", SMOOTHING_CASES)
def test_label_smoothing_of_one_hot_soft_and_integer_labels_as_paddle(kwargs, hard, soft):
    logits, labels, one_hot, soft_labels = _smoothing_inputs()
    kwargs = {k: t(v) if k == "weight" else v for k, v in kwargs.items()}
    for label, want in [(one_hot, hard), (labels, hard), (soft_labels, soft)]:
        got = F.cross_entropy(t(logits), t(label), **kwargs).numpy()
        np.testing.assert_allclose(got, want, atol=2e-6)


def test_smoothed_unreduced_loss_keeps_the_class_axis_as_paddle():
    logits, labels, one_hot, soft_labels = _smoothing_inputs()
    want = [[1.159788], [1.194313], [0.964739], [1.260765]]  # Paddle 3.3.1
    for label in (labels, one_hot):
        got = F.cross_entropy(t(logits), t(label), label_smoothing=0.2, reduction="none")
        np.testing.assert_allclose(got.numpy(), want, atol=2e-6)
    got = F.cross_entropy(t(logits), t(soft_labels), label_smoothing=0.2, reduction="none")
    np.testing.assert_allclose(got.numpy(), [[1.060394], [1.022313], [1.066354], [1.159547]],
                               atol=2e-6)

"""The function-style learning-rate decays give Paddle 3.3.1's schedules (values recorded
from Paddle: seven step() calls each)."""
import numpy as np
import pytest

import sampan as paddle

L = paddle.optimizer.lr

CASES = [
    (lambda: L.noam_decay(64, 3, 2.0), "NoamDecay",
     [0.0, 0.0481125, 0.096225, 0.1443376, 0.125, 0.1118034, 0.1020621]),
    (lambda: L.piecewise_decay([2, 4], [1.0, 0.5, 0.1]), "PiecewiseDecay",
     [1.0, 1.0, 0.5, 0.5, 0.1, 0.1, 0.1]),
    (lambda: L.exponential_decay(0.1, 10, 0.9), "ExponentialDecay",
     [0.1, 0.09, 0.081, 0.0729, 0.06561, 0.059049, 0.0531441]),
    (lambda: L.natural_exp_decay(0.1, 10, 0.5, True), "NaturalExpDecay",
     [0.1, 0.0606531, 0.0367879, 0.022313, 0.0135335, 0.0082085, 0.0049787]),
    (lambda: L.inverse_time_decay(0.1, 5, 0.5), "InverseTimeDecay",
     [0.1, 0.0666667, 0.05, 0.04, 0.0333333, 0.0285714, 0.025]),
    (lambda: L.polynomial_decay(0.1, 4, 0.01, 2.0, True), "PolynomialDecay",
     [0.1, 0.060625, 0.0325, 0.015625, 0.01, 0.0226563, 0.015625]),
    (lambda: L.cosine_decay(0.1, 10, 5), "CosineAnnealingDecay",
     [0.1, 0.0904508, 0.0654508, 0.0345492, 0.0095492, 0.0, 0.0095492]),
    (lambda: L.linear_lr_warmup(0.1, 3, 0.0, 0.1), "LinearWarmup",
     [0.0, 0.0333333, 0.0666667, 0.1, 0.1, 0.1, 0.1]),
    (lambda: L.linear_lr_warmup(L.exponential_decay(0.1, 10, 0.9), 2, 0.01, 0.1), "LinearWarmup",
     [0.01, 0.055, 0.1, 0.09, 0.081, 0.0729, 0.06561]),
]


@pytest.mark.parametrize("make, kind, expected", CASES)
def test_legacy_decay_matches_paddle(make, kind, expected):
    sched = make()
    assert type(sched).__name__ == kind
    values = []
    for _ in expected:
        values.append(sched())
        sched.step()
    np.testing.assert_allclose(values, expected, atol=1e-7)


def test_legacy_decay_drives_an_optimizer():
    w = paddle.create_parameter([1], "float32")
    opt = paddle.optimizer.SGD(L.piecewise_decay([1], [0.5, 0.25]), parameters=[w])
    assert opt.get_lr() == 0.5


def test_piecewise_decay_checks_its_lengths():
    with pytest.raises(ValueError, match="values needs one more entry than boundaries"):
        L.piecewise_decay([1, 2], [0.1, 0.2])

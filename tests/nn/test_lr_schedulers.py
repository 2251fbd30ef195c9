"""The newer paddle.optimizer.lr schedulers: 20-step sequences against NumPy/closed-form
references written from Paddle's formulas, state_dict round trips, jumps with step(epoch),
and a scheduler driving a static minimize."""
import math

import numpy as np
import pytest

import sampan as paddle
from sampan.optimizer import lr

STEPS = 20


def _sequence(sched, n=STEPS):
    """The learning rate before each of n step() calls."""
    out = []
    for _ in range(n):
        out.append(sched())
        sched.step()
    return out


def _noam(d_model, warmup, base):
    return [base * d_model ** -0.5 * min(1 if e == 0 else e ** -0.5, warmup ** -1.5 * e)
            for e in range(STEPS)]


def _one_cycle(peak, total, divide=25.0, end=1e-4, pct=0.3, linear=False, three=False):
    initial = peak / divide
    up = pct * total
    if three:
        phases = [(0, up - 1, initial, peak), (up - 1, 2 * up - 2, peak, initial),
                  (2 * up - 2, total - 1, initial, end)]
    else:
        phases = [(0, up - 1, initial, peak), (up - 1, total - 1, peak, end)]
    out = []
    for step in range(STEPS):
        first, last, a, b = next((ph for ph in phases if step <= ph[1]), phases[-1])
        frac = (step - first) / (last - first)
        out.append(a + (b - a) * frac if linear else b + (a - b) * (1 + np.cos(np.pi * frac)) / 2)
    return out


def _cyclic(base, peak, up, down, scale):
    out = []
    for it in range(STEPS):
        cycle = 1 + it // (up + down)
        pos = 1 + it / (up + down) - cycle
        frac = up / (up + down)
        height = pos / frac if pos <= frac else (1 - pos) / (1 - frac)
        out.append(base + (peak - base) * height * scale(cycle, it))
    return out


def _linear(base, total, start, end):
    return [base * (start + (end - start) * min(e, total) / total) for e in range(STEPS)]


def _warm_restarts(base, t0, mult, eta_min):
    out, t_cur, t_i = [], 0, t0
    for _ in range(STEPS):
        out.append(eta_min + (base - eta_min) * (1 + np.cos(np.pi * t_cur / t_i)) / 2)
        t_cur += 1
        if t_cur >= t_i:
            t_cur, t_i = t_cur - t_i, t_i * mult
    return out


CASES = {
    "noam": (lambda: lr.NoamDecay(64, 5, learning_rate=2.0), _noam(64, 5, 2.0)),
    "one_cycle_cos": (lambda: lr.OneCycleLR(1.0, 20), _one_cycle(1.0, 20)),
    "one_cycle_linear_three_phase": (
        lambda: lr.OneCycleLR(0.5, 20, divide_factor=10, end_learning_rate=0.001,
                              phase_pct=0.25, anneal_strategy="linear", three_phase=True),
        _one_cycle(0.5, 20, 10, 0.001, 0.25, linear=True, three=True)),
    "cyclic_triangular": (lambda: lr.CyclicLR(0.1, 1.0, 3, 2),
                          _cyclic(0.1, 1.0, 3, 2, lambda c, i: 1.0)),
    "cyclic_triangular2": (lambda: lr.CyclicLR(0.1, 1.0, 4, mode="triangular2"),
                           _cyclic(0.1, 1.0, 4, 4, lambda c, i: 0.5 ** (c - 1))),
    "cyclic_exp_range": (lambda: lr.CyclicLR(0.1, 1.0, 3, mode="exp_range", exp_gamma=0.9),
                         _cyclic(0.1, 1.0, 3, 3, lambda c, i: 0.9 ** i)),
    "cyclic_scale_fn_iterations": (
        lambda: lr.CyclicLR(0.1, 1.0, 2, 5, scale_fn=lambda x: 1 / (1 + x),
                            scale_mode="iterations"),
        _cyclic(0.1, 1.0, 2, 5, lambda c, i: 1 / (1 + i))),
    "linear_up": (lambda: lr.LinearLR(0.5, 8), _linear(0.5, 8, 1 / 3, 1.0)),
    "linear_down": (lambda: lr.LinearLR(0.5, 6, start_factor=1.0, end_factor=0.2),
                    _linear(0.5, 6, 1.0, 0.2)),
    "warm_restarts": (lambda: lr.CosineAnnealingWarmRestarts(0.5, 3, eta_min=0.01),
                      _warm_restarts(0.5, 3, 1, 0.01)),
    "warm_restarts_mult": (lambda: lr.CosineAnnealingWarmRestarts(0.5, 2, T_mult=2),
                           _warm_restarts(0.5, 2, 2, 0.0)),
    "cosine_annealing": (lambda: lr.CosineAnnealingDecay(1.0, 5, eta_min=0.1),
                         [0.1 + 0.9 * (1 + np.cos(np.pi * e / 5)) / 2 for e in range(STEPS)]),
    "multiplicative": (lambda: lr.MultiplicativeDecay(1.0, lambda e: 0.9 + 0.01 * e),
                       [math.prod(0.9 + 0.01 * k for k in range(1, e + 1)) for e in range(STEPS)]),
    "polynomial_cycle": (lambda: lr.PolynomialDecay(1.0, 4, 0.0, power=2.0, cycle=True),
                         [(1 - e / (4 * max(math.ceil(e / 4), 1))) ** 2 for e in range(STEPS)]),
    "inverse_time": (lambda: lr.InverseTimeDecay(1.0, 0.5),
                     [1 / (1 + 0.5 * e) for e in range(STEPS)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_sequence_matches_reference(name):
    make, expected = CASES[name]
    np.testing.assert_allclose(_sequence(make()), expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_state_dict_round_trip_resumes(name):
    make, _ = CASES[name]
    sched = make()
    _sequence(sched, 7)
    state = sched.state_dict()
    restored = make()
    restored.set_state_dict(state)
    assert restored.last_epoch == sched.last_epoch and restored() == sched()
    np.testing.assert_allclose(_sequence(restored, 10), _sequence(sched, 10), rtol=1e-12)


def test_state_dict_survives_save_and_load(tmp_path):
    layer = paddle.nn.Linear(2, 2)
    sched = lr.CosineAnnealingWarmRestarts(0.5, 3, T_mult=2)
    opt = paddle.optimizer.SGD(sched, parameters=layer.parameters())
    _sequence(sched, 5)
    paddle.save(opt.state_dict(), str(tmp_path / "opt.pdopt"))
    fresh = lr.CosineAnnealingWarmRestarts(0.5, 3, T_mult=2)
    paddle.optimizer.SGD(fresh, parameters=layer.parameters()).set_state_dict(
        paddle.load(str(tmp_path / "opt.pdopt")))
    np.testing.assert_allclose(_sequence(fresh, 8), _sequence(sched, 8), rtol=1e-12)


def test_jumps_use_closed_forms():
    cos = lr.CosineAnnealingDecay(1.0, 10)
    cos.step(7)
    assert cos() == pytest.approx((1 + np.cos(np.pi * 0.7)) / 2)
    linear = lr.LinearLR(1.0, 4, start_factor=0.5)
    linear.step(3)
    assert linear() == pytest.approx(0.875)
    restarts = lr.CosineAnnealingWarmRestarts(1.0, 2, T_mult=2)
    restarts.step(5)  # periods 2, 4: epoch 5 is 3 into the second
    assert (restarts.T_cur, restarts.T_i) == (3, 4)
    assert restarts() == pytest.approx((1 + np.cos(np.pi * 3 / 4)) / 2)


def test_argument_checks():
    with pytest.raises(ValueError):
        lr.OneCycleLR(1.0, 10, phase_pct=0.6, three_phase=True)
    with pytest.raises(ValueError):
        lr.OneCycleLR(1.0, 10, anneal_strategy="exp")
    with pytest.raises(ValueError):
        lr.OneCycleLR(1.0, 5).step(7)
    with pytest.raises(TypeError):
        lr.CyclicLR(0.1, 1.0, 3, exp_gamma=1)
    with pytest.raises(ValueError):
        lr.CyclicLR(0.1, 1.0, 3, mode="sawtooth")
    with pytest.raises(ValueError):
        lr.LinearLR(0.1, 5, start_factor=0.0)
    with pytest.raises(ValueError):
        lr.CosineAnnealingWarmRestarts(0.1, 0)
    with pytest.raises(ValueError):
        lr.NoamDecay(0, 10)


def test_scheduler_drives_static_minimize():
    """A OneCycleLR scheduler feeds the static program's learning-rate variable: three runs
    of plain SGD move a parameter by exactly lr_t * grad each time."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    sched = lr.OneCycleLR(1.0, 10)
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [1], "float32")
            w = paddle.static.create_parameter([1], "float32", name="w_sched",
                                               default_initializer=lambda s, d: np.zeros(1))
            loss = (w * x).sum()
            paddle.optimizer.SGD(sched).minimize(loss)
    finally:
        paddle.disable_static()
    exe, scope = paddle.static.Executor(), paddle.static.Scope()
    exe.run(startup, scope=scope)
    expected, rates = 0.0, []
    for _ in range(3):
        rates.append(sched())
        exe.run(main, {"x": np.array([2.0], "float32")}, [loss], scope=scope)
        expected -= 2.0 * rates[-1]
        sched.step()
    assert rates[0] != rates[1] != rates[2]
    np.testing.assert_allclose(np.array(scope.find_var("w_sched").get_tensor()), [expected],
                               rtol=1e-6)

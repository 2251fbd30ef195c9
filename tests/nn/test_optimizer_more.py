"""ASGD, Rprop and LBFGS: update rules against NumPy references written from Paddle's
documented algorithms, state_dict round trips that resume identically, static minimize,
L-BFGS convergence (Rosenbrock, least squares against numpy.linalg.lstsq) and argument
checks."""
import numpy as np
import pytest

import sampan as paddle
from sampan import optimizer as opt
from sampan.eager.tensor import Parameter
from sampan.optimizer.lbfgs import _cubic_minimum, _Point, _StrongWolfe

from ..static.test_minimize import build_static
from ..static.test_minimize import test_static_minimize_matches_eager as static_matches_eager
from ._ref import optimizer_history

RNG = np.random.default_rng(11)
P0 = np.array([0.5, -1.0, 2.0, 0.25])
GRADS = [RNG.normal(size=4) for _ in range(9)]
GRADS[4] = GRADS[3].copy()    # same signs twice: Rprop grows its step sizes
GRADS[5][1] = 0.0              # a zero gradient: Rprop leaves that element alone


def _regularized(grads, wd=0.0, clip=None):
    """(gradient transform) applied before the update, in Paddle's order: the global norm
    is clipped to `clip`, then L2 decay adds wd·p."""
    def transform(g, p):
        g = g * min(1.0, clip / np.linalg.norm(g)) if clip else g
        return g + wd * p
    return transform


def _asgd(steps, lr=0.1, n=1, wd=0.0, clip=None, dtype=np.float64):
    """d ← d − y[m mod n] + g; y[m mod n] ← g; p ← p − lr·d / min(m + 1, n)."""
    p, d, y = P0.astype(dtype), np.zeros(4, dtype), np.zeros((n, 4), dtype)
    transform = _regularized(GRADS, wd, clip)
    for m, g in enumerate(GRADS[:steps]):
        g = transform(g.astype(dtype), p)
        d = d - y[m % n] + g
        y[m % n] = g
        p = p - lr / min(m + 1, n) * d
        yield p


def _rprop(steps, lr=0.1, low=1e-5, high=50.0, etas=(0.5, 1.2), clip=None, dtype=np.float64):
    """Step sizes grow by etas[1] while the sign holds and shrink by etas[0] when it flips
    (that gradient then counts as 0); p ← p − sign(g)·η."""
    p, prev, eta = P0.astype(dtype), np.zeros(4, dtype), np.full(4, lr, dtype)
    transform = _regularized(GRADS, clip=clip)
    for g in GRADS[:steps]:
        g = transform(g.astype(dtype), p)
        product = g * prev
        factor = np.where(product > 0, etas[1], np.where(product < 0, etas[0], 1.0))
        eta = np.clip(eta * factor, low, high).astype(dtype)
        g = np.where(product < 0, 0.0, g)
        p = p - np.sign(g) * eta
        prev = g
        yield p


CLIP = 0.5
CASES = {
    "asgd": (lambda ps: opt.ASGD(0.1, parameters=ps), lambda n: _asgd(n)),
    "asgd_batches": (lambda ps: opt.ASGD(0.1, batch_num=3, parameters=ps),
                     lambda n: _asgd(n, n=3)),
    "asgd_decay_clip": (lambda ps: opt.ASGD(0.05, batch_num=4, parameters=ps, weight_decay=0.1,
                                            grad_clip=paddle.nn.ClipGradByGlobalNorm(CLIP)),
                        lambda n: _asgd(n, lr=0.05, n=4, wd=0.1, clip=CLIP)),
    "rprop": (lambda ps: opt.Rprop(0.1, parameters=ps), lambda n: _rprop(n)),
    "rprop_bounds": (lambda ps: opt.Rprop(0.1, learning_rate_range=(0.06, 0.13), etas=(0.3, 1.5),
                                          parameters=ps),
                     lambda n: _rprop(n, low=0.06, high=0.13, etas=(0.3, 1.5))),
    "rprop_clip": (lambda ps: opt.Rprop(0.01, parameters=ps,
                                        grad_clip=paddle.nn.ClipGradByGlobalNorm(CLIP)),
                   lambda n: _rprop(n, lr=0.01, clip=CLIP)),
}
STEPS = len(GRADS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_updates_match_numpy_reference(name):
    make, reference = CASES[name]
    got, _, _ = optimizer_history(make, P0, GRADS)
    np.testing.assert_allclose(got, list(reference(STEPS)), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["asgd_batches", "rprop_bounds"])
def test_float32_parameters_match_to_float32_tolerance(name):
    make, _ = CASES[name]
    p = Parameter(P0.astype("float32"), name="p_0")
    o = make([p])
    for g in GRADS:
        p.grad = paddle.to_tensor(g.astype("float32"))
        o.step()
        assert p.numpy().dtype == np.float32
    reference = {"asgd_batches": lambda: _asgd(STEPS, n=3, dtype=np.float32),
                 "rprop_bounds": lambda: _rprop(STEPS, low=0.06, high=0.13, etas=(0.3, 1.5),
                                                dtype=np.float32)}[name]
    np.testing.assert_allclose(p.numpy(), list(reference())[-1], rtol=1e-5, atol=1e-6)


def test_asgd_follows_a_learning_rate_scheduler():
    sched = opt.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    p = Parameter(P0.copy(), name="p_0")
    o = opt.ASGD(sched, batch_num=2, parameters=[p])
    d, y, expected = np.zeros(4), np.zeros((2, 4)), P0.copy()
    for m, g in enumerate(GRADS[:4]):
        p.grad = paddle.to_tensor(g)
        o.step()
        d, y[m % 2] = d - y[m % 2] + g, g
        expected = expected - 0.1 * 0.5 ** m / min(m + 1, 2) * d
        sched.step()
    np.testing.assert_allclose(p.numpy(), expected, rtol=1e-12)


def test_rprop_scheduler_only_sets_the_initial_step_sizes():
    sched = opt.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    got, _, _ = optimizer_history(lambda ps: opt.Rprop(sched, parameters=ps), P0, GRADS[:3])
    np.testing.assert_allclose(got, list(_rprop(3)), rtol=1e-12)


STATE_KEYS = {"asgd_batches": {"d": [4], "m": [1], "y": [3, 4]},
              "rprop": {"learning_rates": [4], "prevs": [4]}}


@pytest.mark.parametrize("name", sorted(STATE_KEYS))
def test_state_dict_keys_shapes_and_dtypes_are_paddles(name):
    _, o, _ = optimizer_history(CASES[name][0], P0, GRADS[:2])
    state = o.state_dict()
    assert {key: list(value.shape) for key, value in state.items()} == {
        f"p_0_{acc}_0": shape for acc, shape in STATE_KEYS[name].items()}
    if name == "asgd_batches":
        assert state["p_0_m_0"].numpy().dtype == np.int64
        assert state["p_0_m_0"].numpy().tolist() == [2]


def _assert_resumes(o, make, resume, path):
    """o's state, saved to `path` and loaded into make(), resumes exactly as o does (a
    fresh make() does not): resume(optimizer) returns the parameter after more steps."""
    paddle.save(o.state_dict(), path)
    expected = resume(o)
    restored = make()
    restored.set_state_dict(paddle.load(path))
    np.testing.assert_array_equal(resume(restored), expected)
    assert not np.allclose(resume(make()), expected)


@pytest.mark.parametrize("name", sorted(STATE_KEYS))
def test_save_load_round_trip_resumes_identically(name, tmp_path):
    make = CASES[name][0]
    _, o, p = optimizer_history(make, P0, GRADS[:2])
    start = p.numpy().copy()
    _assert_resumes(o, lambda: make([p]), lambda o: _continue(o, p, start),
                    str(tmp_path / "opt.pdopt"))


def _continue(o, p, start):
    """p after four more steps of `o` from `start`."""
    p.set_value(start)
    for g in GRADS[2:6]:
        p.grad = paddle.to_tensor(g)
        o.step()
    return p.numpy().copy()


def test_rprop_static_minimize_matches_eager():
    static_matches_eager(
        lambda params: opt.Rprop(0.01, learning_rate_range=(1e-4, 0.05), parameters=params))


def test_asgd_static_minimize_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="ASGD"):
        build_static(lambda params: opt.ASGD(0.1, parameters=params))


# ---------------------------------------------------------------- L-BFGS

def _rosenbrock(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


def _rosenbrock_gradient(x):
    return np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2),
                     200 * (x[1] - x[0] ** 2)])


def _closure(o, loss_fn):
    def closure():
        o.clear_grad()
        loss = loss_fn()
        loss.backward()
        return loss
    return closure


def _rosenbrock_lbfgs(**options):
    """(x, LBFGS over x) starting from (-1.5, 2)."""
    x = Parameter(np.array([-1.5, 2.0]), name="x")
    return x, opt.LBFGS(parameters=[x], **options)


def _steps(o, x, steps):
    """x after `steps` more L-BFGS steps on the Rosenbrock function."""
    for _ in range(steps):
        o.step(_closure(o, lambda: _rosenbrock(x)))
    return x.numpy().copy()


def _minimize_rosenbrock(line_search_fn, lr, steps, **options):
    x, o = _rosenbrock_lbfgs(learning_rate=lr, line_search_fn=line_search_fn, **options)
    return _steps(o, x, steps), o


def test_lbfgs_strong_wolfe_solves_rosenbrock():
    x, o = _minimize_rosenbrock("strong_wolfe", 1.0, 5, tolerance_grad=1e-12,
                                tolerance_change=1e-14)
    np.testing.assert_allclose(x, [1.0, 1.0], atol=1e-9)
    assert o.state["func_evals"] < 100


def test_lbfgs_fixed_steps_solve_rosenbrock():
    x, _ = _minimize_rosenbrock(None, 0.1, 20, history_size=10, tolerance_grad=1e-12,
                                tolerance_change=1e-14)
    np.testing.assert_allclose(x, [1.0, 1.0], atol=1e-5)


def _lbfgs_reference(grad_fn, x, lr, iters, history):
    """Fixed-step L-BFGS written out: the first step is scaled by min(1, 1/‖g‖₁); memory
    pairs (s, y) with s·y > 1e-10; H₀ = (s·y)/(y·y); the two-loop recursion."""
    g, pairs, h0, path = grad_fn(x), [], 1.0, []
    for k in range(iters):
        if k:
            y, s = g - g_prev, d * t
            if y @ s > 1e-10:
                pairs = (pairs + [(s, y, 1.0 / (y @ s))])[-history:]
                h0 = (y @ s) / (y @ y)
        q, coefficients = -g, []
        for s, y, rho in reversed(pairs):
            coefficients.append(rho * (s @ q))
            q = q - coefficients[-1] * y
        d = q * h0
        for (s, y, rho), a in zip(pairs, reversed(coefficients)):
            d = d + s * (a - rho * (y @ d))
        t = lr * (min(1.0, 1.0 / np.abs(g).sum()) if k == 0 else 1.0)
        x, g_prev = x + t * d, g
        g = grad_fn(x)
        path.append(x)
    return path


def test_lbfgs_fixed_steps_match_numpy_reference():
    x, o = _rosenbrock_lbfgs(learning_rate=0.05, max_iter=1, history_size=3,
                             tolerance_change=0.0)
    got = [_steps(o, x, 1) for _ in range(12)]
    expected = _lbfgs_reference(_rosenbrock_gradient, np.array([-1.5, 2.0]), 0.05, 12, 3)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def _line(phi, slope):
    """evaluate(t) of a line search on phi along d = 1 (the gradient is phi')."""
    return lambda t: _Point(t, float(phi(t)), np.array([slope(t)]), float(slope(t)))


LINES = {
    "rosenbrock_short": ((-1.5, 2.0), 1e-3),
    "rosenbrock_unit": ((-1.5, 2.0), 1.0),
    "rosenbrock_long": ((0.3, -0.4), 10.0),
    # many local minima: the zoom moves both ends and steps away from stalled ends
    "wiggle": (_line(lambda t: -t + 0.95 / 8 * np.sin(8 * t) + 0.05 * t * t,
                     lambda t: -1 + 0.95 * np.cos(8 * t) + 0.1 * t), 40.0),
}


def _rosenbrock_line(start):
    """evaluate(t) along −∇f from `start` on the Rosenbrock function."""
    x0 = np.array(start)
    d = -_rosenbrock_gradient(x0)

    def evaluate(t):
        g = _rosenbrock_gradient(x0 + t * d)
        return _Point(t, float(_rosenbrock(x0 + t * d)), g, float(g @ d))
    return evaluate, float(np.abs(d).max())


@pytest.mark.parametrize("name", sorted(LINES))
def test_strong_wolfe_line_search_meets_both_conditions(name):
    line, first_step = LINES[name]
    evaluate, d_norm = _rosenbrock_line(line) if isinstance(line, tuple) else (line, 1.0)
    origin = evaluate(0.0)
    best, evals = _StrongWolfe(evaluate, origin, d_norm).search(first_step)
    assert best.f <= origin.f + 1e-4 * best.t * origin.gtd
    assert abs(best.gtd) <= -0.9 * origin.gtd
    again = evaluate(best.t)
    assert (best.f, best.gtd) == (again.f, again.gtd) and 1 <= evals <= 25
    np.testing.assert_array_equal(best.g, again.g)


def test_strong_wolfe_gives_up_on_an_unbounded_line():
    evaluate = _line(lambda t: -t, lambda t: -1.0)
    best, evals = _StrongWolfe(evaluate, evaluate(0.0), 1.0, max_ls=6).search(1.0)
    assert evals == 7 and best.t > 1.0 and best.f == -best.t


def test_cubic_interpolation():
    a, b = _Point(0.0, 0.0, None, -1.0), _Point(2.0, 0.0, None, 1.0)
    assert _cubic_minimum(a, b) == pytest.approx(1.0)      # the parabola t² − 2t
    assert _cubic_minimum(a, b, (1.5, 3.0)) == 1.5          # clamped to the bounds
    flat = _Point(2.0, -2.0, None, -1.0)                     # a line: no minimiser
    assert _cubic_minimum(a, flat, (2.0, 4.0)) == 3.0
    assert _cubic_minimum(a, a) == 0.0                       # coincident points


LSQ_X = RNG.normal(size=(40, 5))
LSQ_Y = LSQ_X @ RNG.normal(size=(5, 1)) + 0.3 + 0.1 * RNG.normal(size=(40, 1))


def _least_squares(dtype, weight_decay=None):
    """(w, b) after L-BFGS on mean((X·w + b − y)²) with parameters of `dtype`."""
    w = Parameter(np.zeros((5, 1), dtype), name="w")
    b = Parameter(np.zeros((1,), dtype), name="b")
    o = opt.LBFGS(line_search_fn="strong_wolfe", parameters=[w, b], max_iter=50,
                  weight_decay=weight_decay, tolerance_grad=1e-12, tolerance_change=1e-20)
    x, y = paddle.to_tensor(LSQ_X.astype(dtype)), paddle.to_tensor(LSQ_Y.astype(dtype))
    for _ in range(3):
        o.step(_closure(o, lambda: ((paddle.matmul(x, w) + b - y) ** 2).mean()))
    return w.numpy(), b.numpy()


def _lstsq():
    solution = np.linalg.lstsq(np.hstack([LSQ_X, np.ones((40, 1))]), LSQ_Y, rcond=None)[0]
    return solution[:5], solution[5]


def test_lbfgs_least_squares_matches_lstsq():
    w, b = _least_squares("float64")
    w_ref, b_ref = _lstsq()
    np.testing.assert_allclose(w, w_ref, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(b, b_ref, rtol=1e-8, atol=1e-10)


def test_lbfgs_least_squares_in_float32_and_a_layer():
    w_ref, b_ref = _lstsq()
    w, b = _least_squares("float32")
    np.testing.assert_allclose(w, w_ref, rtol=1e-4, atol=1e-4)
    linear = paddle.nn.Linear(5, 1)
    o = opt.LBFGS(line_search_fn="strong_wolfe", parameters=linear.parameters())
    x, y = paddle.to_tensor(LSQ_X.astype("float32")), paddle.to_tensor(LSQ_Y.astype("float32"))
    for _ in range(3):
        o.step(_closure(o, lambda: paddle.nn.functional.mse_loss(linear(x), y)))
    np.testing.assert_allclose(linear.weight.numpy(), w_ref, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(linear.bias.numpy(), b_ref, rtol=1e-4, atol=1e-4)


def test_lbfgs_weight_decay_minimises_the_penalised_loss():
    coeff = 0.5
    w, b = _least_squares("float64", weight_decay=coeff)
    a = np.hstack([LSQ_X, np.ones((40, 1))])
    # gradient of mean(r²) + ½c‖θ‖²: (2/N)·Aᵀ(Aθ − y) + cθ = 0
    theta = np.linalg.solve(2 / 40 * a.T @ a + coeff * np.eye(6), 2 / 40 * a.T @ LSQ_Y)
    np.testing.assert_allclose(np.vstack([w, b[:, None]]), theta, rtol=1e-7, atol=1e-9)


def test_lbfgs_l1_decay_minimises_the_penalised_loss():
    w = Parameter(np.array([0.0]), name="w")
    o = opt.LBFGS(line_search_fn="strong_wolfe", parameters=[w],
                  weight_decay=paddle.regularizer.L1Decay(1.0))
    o.step(_closure(o, lambda: ((w - 3.0) ** 2).sum()))
    np.testing.assert_allclose(w.numpy(), [2.5])     # 2(w − 3) + 1 = 0


def test_lbfgs_state_dict_round_trip_resumes_identically(tmp_path):
    options = {"line_search_fn": "strong_wolfe", "max_iter": 4, "history_size": 3}
    x, o = _minimize_rosenbrock(steps=1, lr=1.0, **options)
    assert {"func_evals", "n_iter", "d", "alpha", "old_yk", "old_sk", "ro", "H_diag",
            "prev_flat_grad", "prev_loss"} <= set(o.state_dict()["state"])
    _assert_resumes(o, lambda: _rosenbrock_lbfgs(**options)[1], lambda o: _resume(o, x),
                    str(tmp_path / "lbfgs.pdopt"))


def _resume(o, start):
    """The parameter after two more steps of `o` from `start`."""
    p = o._parameter_list[0]
    p.set_value(start)
    return _steps(o, p, 2)


def test_lbfgs_returns_the_first_loss_and_stops_at_an_optimum():
    x = Parameter(np.array([1.0, 1.0]), name="x")
    o = opt.LBFGS(parameters=[x])
    loss = o.step(_closure(o, lambda: _rosenbrock(x)))
    assert float(loss) == 0.0 and o.state == {"func_evals": 1, "n_iter": 0}
    np.testing.assert_array_equal(x.numpy(), [1.0, 1.0])


# ---------------------------------------------------------------- arguments

@pytest.mark.parametrize("make, error, match", [
    (lambda ps: opt.ASGD(None, parameters=ps), ValueError, "learning_rate"),
    (lambda ps: opt.ASGD(batch_num=0, parameters=ps), ValueError, "batch_num"),
    (lambda ps: opt.ASGD(batch_num=2.5, parameters=ps), ValueError, "batch_num"),
    (lambda ps: opt.ASGD(batch_num=None, parameters=ps), ValueError, "batch_num"),
    (lambda ps: opt.Rprop(None, parameters=ps), ValueError, "learning_rate"),
    (lambda ps: opt.Rprop(100.0, parameters=ps), ValueError, "learning_rate_range"),
    (lambda ps: opt.Rprop(0.1, learning_rate_range=(0.0, 1.0), parameters=ps), ValueError,
     "learning_rate_range"),
    (lambda ps: opt.Rprop(0.1, etas=(1.2, 0.5), parameters=ps), ValueError, "etas"),
    (lambda ps: opt.Rprop(0.1, etas=(0.5, 1.0), parameters=ps), ValueError, "etas"),
    (lambda ps: opt.LBFGS(line_search_fn="armijo", parameters=ps), ValueError, "line_search"),
    (lambda ps: opt.LBFGS(max_iter=0, parameters=ps), ValueError, "max_iter"),
    (lambda ps: opt.LBFGS(history_size=0, parameters=ps), ValueError, "history_size"),
    (lambda ps: opt.LBFGS(max_eval=-1, parameters=ps), ValueError, "max_eval"),
    (lambda ps: opt.LBFGS(), TypeError, "parameters"),
    (lambda ps: opt.LBFGS(parameters=ps[0]), TypeError, "parameters"),
    (lambda ps: opt.LBFGS(parameters=[]), ValueError, "empty"),
])
def test_bad_arguments_raise_clear_errors(make, error, match):
    with pytest.raises(error, match=match):
        make([Parameter(P0.copy(), name="p")])


def test_lbfgs_needs_a_closure_and_refuses_minimize():
    p = Parameter(P0.copy(), name="p")
    o = opt.LBFGS(parameters=[p])
    with pytest.raises(TypeError, match="closure"):
        o.step()
    with pytest.raises(NotImplementedError, match="step\\(closure\\)"):
        o.minimize(paddle.sum(p))
    with pytest.raises(ValueError, match="state"):
        o.set_state_dict({"p_moment1_0": p})
    with pytest.warns(UserWarning, match="grad_clip"):
        opt.LBFGS(parameters=[p], grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))

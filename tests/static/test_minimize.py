"""Static Optimizer.minimize appends update ops whose results equal eager step()."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.eager.tensor import Parameter

RNG = np.random.default_rng(0)
W1, W2 = RNG.normal(0, 0.5, (4, 5)).astype("float32"), RNG.normal(0, 0.5, (5, 1)).astype(
    "float32")
X, Y = RNG.normal(size=(8, 4)).astype("float32"), RNG.normal(size=(8, 1)).astype("float32")


def loss_of(x, y, w1, w2):
    return ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1)), w2) - y) ** 2).mean()


OPTIMIZERS = [
    lambda params: paddle.optimizer.SGD(0.1, parameters=params),
    lambda params: paddle.optimizer.SGD(0.1, parameters=params, weight_decay=0.01),
    lambda params: paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=params),
    lambda params: paddle.optimizer.Adam(0.05, parameters=params),
    lambda params: paddle.optimizer.AdamW(0.05, parameters=params, weight_decay=0.1),
    lambda params: paddle.optimizer.RMSProp(0.05, parameters=params),
    lambda params: paddle.optimizer.Adagrad(0.1, parameters=params),
    lambda params: paddle.optimizer.Adam(0.05, parameters=params, amsgrad=True),
    lambda params: paddle.optimizer.AdamW(0.05, parameters=params, amsgrad=True),
    lambda params: paddle.optimizer.Adamax(0.05, parameters=params, weight_decay=0.01),
    lambda params: paddle.optimizer.Adadelta(1.0, parameters=params),
    lambda params: paddle.optimizer.NAdam(0.05, parameters=params),
    lambda params: paddle.optimizer.RAdam(0.05, beta2=0.9, parameters=params),
    lambda params: paddle.optimizer.Lamb(0.05, parameters=params,
                                         grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5)),
]


def eager_run(make_opt, steps):
    w1, w2 = Parameter(W1.copy(), name="w1"), Parameter(W2.copy(), name="w2")
    opt = make_opt([w1, w2])
    losses = []
    for _ in range(steps):
        loss = loss_of(paddle.to_tensor(X), paddle.to_tensor(Y), w1, w2)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, [w1.numpy(), w2.numpy()]


def build_static(make_opt):
    """(main, startup, loss, optimizer, minimize result) of the model in static mode."""
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 4], "float32")
            y = static.data("y", [None, 1], "float32")
            w1 = static.create_parameter([4, 5], "float32", name="w1",
                                         default_initializer=lambda s, d: W1)
            w2 = static.create_parameter([5, 1], "float32", name="w2",
                                         default_initializer=lambda s, d: W2)
            loss = loss_of(x, y, w1, w2)
            opt = make_opt([w1, w2])
            result = opt.minimize(loss)
    finally:
        paddle.disable_static()
    exe, scope = static.Executor(), static.Scope()
    exe.run(startup, scope=scope)
    return main, loss, opt, result, exe, scope


def static_run(make_opt, steps):
    main, loss, _, (ops, params_grads), exe, scope = build_static(make_opt)
    assert ops and [p.name for p, _ in params_grads] == ["w1", "w2"]
    losses = [float(exe.run(main, {"x": X, "y": Y}, [loss], scope=scope)[0])
              for _ in range(steps)]
    return losses, [np.array(scope.find_var(n).get_tensor()) for n in ("w1", "w2")]


@pytest.mark.parametrize("make_opt", OPTIMIZERS, ids=[
    "sgd", "sgd_wd", "momentum", "adam", "adamw", "rmsprop", "adagrad", "adam_amsgrad",
    "adamw_amsgrad", "adamax", "adadelta", "nadam", "radam", "lamb_clip"])
def test_static_minimize_matches_eager(make_opt):
    eager_losses, eager_params = eager_run(make_opt, 8)
    static_losses, static_params = static_run(make_opt, 8)
    np.testing.assert_allclose(static_losses, eager_losses, rtol=1e-5)
    for a, b in zip(static_params, eager_params):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_static_lr_scheduler_is_refreshed_each_run():
    def make(params):
        return paddle.optimizer.SGD(paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5),
                                    parameters=params)
    sched_losses = []
    main, loss, opt, _, exe, scope = build_static(make)
    for _ in range(3):
        sched_losses.append(float(exe.run(main, {"x": X, "y": Y}, [loss], scope=scope)[0]))
        opt._learning_rate.step()
    w1e, w2e = Parameter(W1.copy()), Parameter(W2.copy())
    eager_opt = make([w1e, w2e])
    for expected in sched_losses:
        loss_e = loss_of(paddle.to_tensor(X), paddle.to_tensor(Y), w1e, w2e)
        np.testing.assert_allclose(float(loss_e), expected, rtol=1e-5)
        loss_e.backward()
        eager_opt.step()
        eager_opt.clear_grad()
        eager_opt._learning_rate.step()


def test_static_fc_layer_trains():
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 2, 2], "float32")
            y = static.data("y", [None, 1], "float32")
            pred = static.nn.fc(static.nn.fc(x, 8, activation="tanh"), 1)
            loss = ((pred - y) ** 2).mean()
            paddle.optimizer.Adam(0.05).minimize(loss)
    finally:
        paddle.disable_static()
    assert pred.shape == [-1, 1]
    exe, scope = static.Executor(), static.Scope()
    exe.run(startup, scope=scope)
    feed = {"x": X.reshape(8, 2, 2), "y": Y}
    losses = [float(exe.run(main, feed, [loss], scope=scope)[0]) for _ in range(30)]
    assert losses[-1] < 0.5 * losses[0]

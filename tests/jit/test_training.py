"""to_static Layers: same training as eager through run_program, program cache, rollback."""
import copy
import gc
import weakref

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
from sampan.jit import to_static
from sampan.static import InputSpec


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        h = paddle.tanh(self.fc1(x))
        if h.mean() > 0:
            h = h * 2
        else:
            h = h * 0.5
        for _ in range(2):
            h = h + 0.1
        return self.fc2(h)


class DecoratedMLP(MLP):
    @to_static
    def forward(self, x):
        return super(DecoratedMLP, self).forward(x)


def data(seed, rows=6):
    rng = np.random.RandomState(seed)
    return (paddle.to_tensor(rng.randn(rows, 4).astype("float32")),
            paddle.to_tensor(rng.randn(rows, 1).astype("float32")))


def train(model, steps=5, lr=0.1):
    x, y = data(0)
    losses = []
    for _ in range(steps):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        for p in model.parameters():
            p.set_value(p - lr * p.grad)
            p.clear_grad()
        losses.append(float(loss))
    return losses, [p.numpy() for p in model.parameters()]


def test_to_static_layer_trains_like_eager():
    eager = MLP()
    static_model = to_static(copy.deepcopy(eager))
    eager_losses, eager_params = train(eager)
    static_losses, static_params = train(static_model)
    np.testing.assert_allclose(static_losses, eager_losses, rtol=1e-5)
    for a, b in zip(static_params, eager_params):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert len(static_model.forward.program_cache) == 1


def test_decorated_forward_binds_per_instance():
    first, second = DecoratedMLP(), DecoratedMLP()
    x, _ = data(1)
    assert first.forward is first.forward and first.forward is not second.forward
    np.testing.assert_allclose(first(x).numpy(), first.forward.dygraph_function(x).numpy(),
                               rtol=1e-6)
    names = {v.name for v in first.forward.concrete_program.main_program.list_vars()}
    assert {p.name for p in first.parameters()} <= names


def test_input_gradient_matches_eager():
    model = MLP()
    sf = to_static(copy.deepcopy(model))
    grads = []
    for m in (model, sf):
        x, _ = data(2)
        x.stop_gradient = False
        m(x).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)


def test_cache_retraces_only_on_new_signature():
    model = to_static(MLP())
    fwd = model.forward
    model(data(0)[0])
    model(data(1)[0])
    assert len(fwd.program_cache) == 1
    model(data(0, rows=3)[0])
    assert len(fwd.program_cache) == 2
    model.eval()
    model(data(0)[0])
    assert len(fwd.program_cache) == 3


def test_cache_follows_a_sublayer_mode_change():
    """eval() of one sublayer builds a new program; train() again reuses the first."""
    model = to_static(MLP())
    fwd = model.forward
    first, _ = fwd.get_concrete_program(data(0)[0])
    model.fc2.eval()
    assert fwd.get_concrete_program(data(0)[0])[0] is not first
    model.fc2.train()
    assert fwd.get_concrete_program(data(0)[0])[0] is first
    assert len(fwd.program_cache) == 2


def test_input_spec_accepts_any_batch():
    model = MLP()
    fwd = to_static(model.forward, input_spec=[InputSpec([None, 4], "float32")])
    assert fwd.concrete_program.inputs[0].shape == [-1, 4]
    for rows in (2, 7):
        x, _ = data(3, rows)
        np.testing.assert_allclose(fwd(x).numpy(), model(x).numpy(), rtol=1e-6)
    assert len(fwd.program_cache) == 1


def test_rollback_restores_eager_forward():
    model = to_static(MLP())
    assert "_jst.IfElse" in model.forward.code
    original = model.forward.rollback()
    assert not hasattr(model.forward, "rollback")
    assert original.__func__ is MLP.forward


def test_no_grad_call_records_nothing():
    model = to_static(MLP())
    with paddle.no_grad():
        out = model(data(0)[0])
    assert out.stop_gradient


def test_layer_tensor_while_reports_user_line():
    class Looping(nn.Layer):
        def forward(self, x):
            tag = None
            while x.sum() < 3:
                x = x + 1
                tag = "grown"
            return x, tag
    with pytest.raises(NotImplementedError, match="(?s)'tag'.*test_training.py"):
        to_static(Looping(), full_graph=True)(data(0)[0])
    x = data(0)[0]
    out, tag = to_static(Looping())(x)  # full_graph=False: the loop runs as Python
    eager_out, eager_tag = Looping()(x)
    np.testing.assert_array_equal(out.numpy(), eager_out.numpy())
    assert tag == eager_tag


def test_decorated_layer_is_garbage_collected():
    model = DecoratedMLP()
    model(data(0)[0])
    ref = weakref.ref(model)
    del model
    gc.collect()
    assert ref() is None


def test_optimizer_steps_in_place_through_run_program_and_jit_save(tmp_path):
    """run_program reads the parameters' own arrays and a step after backward updates them
    in place (the same arrays every step); the trained values are what jit.save writes."""
    model = to_static(MLP())
    opt = paddle.optimizer.Momentum(0.05, parameters=model.parameters())
    x, y = data(0)
    arrays = []
    for _ in range(4):
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()
        arrays.append([id(p._data) for p in model.parameters()])
    assert arrays[-1] == arrays[-2]
    expected = model(x).numpy().copy()
    path = str(tmp_path / "mlp")
    paddle.jit.save(model, path, input_spec=[InputSpec([None, 4], "float32")])
    np.testing.assert_array_equal(paddle.jit.load(path)(x).numpy(), expected)

"""jit.save / jit.load round trips: layers, functions, methods, buffers, batch sizes, tuning."""
import json
import os

import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.jit import to_static
from sampan.jit.save_load import load, save
from sampan.jit.translated_layer import TranslatedLayer
from sampan.static import InputSpec


class Net(nn.Layer):
    """Linear + BatchNorm + Dropout + an unused sublayer + an extra to_static method."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 8)
        self.bn = nn.BatchNorm1D(8)
        self.drop = nn.Dropout(0.5)
        self.head = nn.Linear(8, 3)
        self.unused = nn.Linear(3, 3)

    def forward(self, x):
        return self.head(self.drop(nn.functional.relu(self.bn(self.fc(x)))))

    @paddle.jit.to_static(input_spec=[InputSpec([None, 4], "float32", "z")])
    def embed(self, z):
        return {"h": self.fc(z), "scale": 3}


def trained_net():
    """A Net whose BatchNorm running statistics moved away from their defaults."""
    paddle.seed(1)
    net = Net()
    for _ in range(3):
        net(paddle.to_tensor(np.random.default_rng(0).normal(2, 3, (16, 4)).astype("float32")))
    return net


def batch(n, seed=1):
    return paddle.to_tensor(np.random.default_rng(seed).normal(size=(n, 4)).astype("float32"))


SPEC = [InputSpec([None, 4], "float32", "x")]


def test_layer_round_trip_keeps_values_modes_and_prunes(tmp_path):
    net = trained_net()
    net.train()
    save(net, tmp_path / "m", input_spec=SPEC)
    assert net.training and net.bn.training and net.drop.training
    net.eval()
    loaded = load(tmp_path / "m")
    assert isinstance(loaded, TranslatedLayer)
    for n in (1, 5, 64):
        x = batch(n)
        np.testing.assert_array_equal(loaded(x).numpy(), net(x).numpy())
    names = set(loaded.state_dict())
    assert not any(n.startswith(net.unused.weight.name.split(".")[0]) for n in names)
    assert net.bn._mean.name in names and net.bn._variance.name in names
    np.testing.assert_array_equal(loaded.state_dict()[net.bn._mean.name].numpy(),
                                  net.bn._mean.numpy())
    ops = [op.type for op in loaded.program().global_block().ops]
    assert ops == ["matmul", "add", "batch_norm", "relu", "dropout", "matmul", "add"]
    doc = json.loads((tmp_path / "m.pdmodel").read_text())
    assert doc["inputs"] == [{"name": "x", "shape": [-1, 4], "dtype": "float32"}]
    assert doc["format"] == "sampan.inference_model" and doc["version"] == 1


def test_extra_method_saved_beside_forward_and_sharing_params(tmp_path):
    net = trained_net()
    net.eval()
    save(net, tmp_path / "m", input_spec=SPEC)
    assert sorted(os.listdir(tmp_path)) == ["m.embed.pdmodel", "m.json", "m.pdiparams",
                                            "m.pdmodel"]
    loaded = load(tmp_path / "m")
    out = loaded.embed(batch(2).numpy())
    assert out["scale"] == 3
    np.testing.assert_array_equal(out["h"].numpy(), net.fc(batch(2)).numpy())
    assert loaded.method_names == ["forward", "embed"]
    assert loaded.program("embed").global_block().ops[0].type == "matmul"


def test_function_and_last_call_spec(tmp_path):
    @paddle.jit.to_static
    def affine(x, y):
        return x * 2.0 + y, (x - y,)

    x, y = batch(3), batch(3, seed=2)
    expected = affine(x, y)
    save(affine, tmp_path / "f")
    loaded = load(tmp_path / "f")
    got = loaded(x, y)
    assert isinstance(got, tuple) and isinstance(got[1], tuple)
    np.testing.assert_array_equal(got[0].numpy(), expected[0].numpy())
    np.testing.assert_array_equal(got[1][0].numpy(), expected[1][0].numpy())
    # saved for batch 3: batch 4 runs as the program's shape rules allow (Paddle re-infers)
    np.testing.assert_array_equal(loaded(batch(4), batch(4))[0].numpy(),
                                  affine(batch(4), batch(4))[0].numpy())
    with pytest.raises(ValueError, match="dimension 0.*op (add|multiply|subtract|scale)"):
        loaded(batch(4), batch(2))


def test_plain_layer_and_output_spec(tmp_path):
    class Two(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            y = self.fc(x)
            return y, nn.functional.relu(y)

    layer = Two()
    save(layer, tmp_path / "p", input_spec=[InputSpec([None, 4], "float32")], output_spec=[1])
    loaded = load(tmp_path / "p")
    x = batch(6)
    only = loaded(x)  # one kept output comes back bare, as from Paddle's TranslatedLayer
    np.testing.assert_array_equal(only.numpy(), layer(x)[1].numpy())
    assert [op.type for op in loaded.program().global_block().ops] == ["matmul", "add", "relu"]
    assert loaded.program().global_block().ops[0].input("x") == ["x"]


def test_output_spec_takes_output_tensors_of_a_training_call(tmp_path):
    """Paddle's documented use: output_spec lists output Tensors of a call; save traces an
    eval-mode program whose Variables have other names, so outputs are found by position."""
    class Two(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            y = self.fc(x)
            return paddle.mean(y), nn.functional.relu(y)

    layer = to_static(Two(), input_spec=[InputSpec([None, 4], "float32")])
    x = batch(3)
    _, activated = layer(x)
    assert activated.name == layer.forward.concrete_program.outputs[1].name
    save(layer, tmp_path / "p", output_spec=[activated], skip_prune_program=True,
         combine_params=True)
    got = load(tmp_path / "p")(x)
    np.testing.assert_allclose(got.numpy(), activated.numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="not an output"):
        save(layer, tmp_path / "q", output_spec=[paddle.ones([1])])


def test_fine_tuning_a_loaded_layer_lowers_its_loss(tmp_path):
    net = trained_net()
    net.eval()
    save(net, tmp_path / "m", input_spec=SPEC)
    loaded = load(tmp_path / "m")
    loaded.train()
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=loaded.parameters())
    x, target = batch(32), paddle.to_tensor(np.ones((32, 3), "float32"))
    losses = []
    for _ in range(20):
        loss = ((loaded(x) - target) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()))
    assert losses[-1] < 0.5 * losses[0]
    fc_weight = loaded.state_dict()[net.fc.weight.name].numpy()
    assert not np.array_equal(fc_weight, net.fc.weight.numpy())
    save(loaded, tmp_path / "tuned")
    again = load(tmp_path / "tuned")
    loaded.eval()
    with paddle.no_grad():
        np.testing.assert_array_equal(again(x).numpy(), loaded(x).numpy())
        np.testing.assert_array_equal(again.embed(x)["h"].numpy(), loaded.embed(x)["h"].numpy())


def test_resave_of_loaded_layer_and_unknown_configs(tmp_path):
    net = trained_net()
    net.eval()
    save(net, tmp_path / "m", input_spec=SPEC)
    with pytest.raises(TypeError, match="unsupported config"):
        save(net, tmp_path / "m", input_spec=SPEC, bogus=1)
    with pytest.raises(TypeError, match="unsupported config"):
        load(tmp_path / "m", bogus=1)
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing")


def test_control_flow_inside_the_saved_program(tmp_path):
    cond = getattr(paddle.static.nn, "cond", None)
    if cond is None:
        pytest.skip("static.nn.cond is not available")

    @paddle.jit.to_static(input_spec=[InputSpec([None, 2], "float32", "x")])
    def branchy(x):
        return cond(x.sum() > 0, lambda: x * 2.0, lambda: x - 1.0)

    save(branchy, tmp_path / "c")
    loaded = load(tmp_path / "c")
    assert loaded.program().num_blocks > 1
    for sign in (1.0, -1.0):
        x = paddle.to_tensor(np.full((3, 2), sign, "float32"))
        np.testing.assert_array_equal(loaded(x).numpy(), branchy(x).numpy())


def test_registered_buffer_round_trips_as_a_buffer(tmp_path):
    class Shift(nn.Layer):
        def __init__(self):
            super().__init__()
            self.register_buffer("offset", paddle.to_tensor(np.arange(4, dtype="float32")))

        def forward(self, x):
            return x + self.offset

    layer = Shift()
    save(layer, tmp_path / "b", input_spec=[InputSpec([None, 4], "float32", "x")])
    loaded = load(tmp_path / "b")
    assert not loaded.parameters() and len(loaded.buffers()) == 1
    np.testing.assert_array_equal(loaded(batch(2)).numpy(), layer(batch(2)).numpy())


def test_loaded_layer_inside_a_converted_layer_trains_and_saves(tmp_path):
    """A loaded backbone under a new head: to_static inlines its saved ops (calling it
    while the Program was built failed on Variable inputs), gradients reach its parameters,
    and the whole model saves and loads again."""
    paddle.seed(1)
    backbone = nn.Sequential(nn.Linear(4, 3), nn.Tanh())
    save(backbone, tmp_path / "backbone", input_spec=[InputSpec([None, 4], "float32")])

    class Head(nn.Layer):
        def __init__(self, body):
            super().__init__()
            self.body, self.fc = body, nn.Linear(3, 1)

        def forward(self, x):
            return self.fc(self.body(x))

    x = batch(5)
    results = []
    for converted in (False, True):
        paddle.seed(2)
        model = Head(load(tmp_path / "backbone"))
        if converted:
            model = to_static(model)
        out = model(x)
        out.sum().backward()
        results.append((out.numpy(), [p.grad.numpy() for p in model.parameters()]))
    (eager, eager_grads), (static_out, static_grads) = results
    np.testing.assert_allclose(static_out, eager, rtol=1e-6)
    for a, b in zip(eager_grads, static_grads, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-7)
    save(model, tmp_path / "whole", input_spec=[InputSpec([None, 4], "float32")])
    np.testing.assert_allclose(load(tmp_path / "whole")(x).numpy(), eager, rtol=1e-6)


def test_loaded_layer_in_train_mode_behaves_as_in_training(tmp_path):
    """As Paddle's TranslatedLayer: train() runs the saved program with training behaviour
    (batch statistics, running statistics updated, dropout active); eval() as saved."""
    paddle.seed(3)
    net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1D(3))
    save(net, tmp_path / "bn", input_spec=[InputSpec([None, 4], "float32")])
    loaded = load(tmp_path / "bn")
    x = batch(6)
    net.eval()
    np.testing.assert_allclose(loaded(x).numpy(), net(x).numpy(), rtol=1e-5, atol=1e-6)
    net.train()
    loaded.train()
    np.testing.assert_allclose(loaded(x).numpy(), net(x).numpy(), rtol=1e-5, atol=1e-6)
    eager_state = [t.numpy() for t in net.state_dict().values()]
    loaded_state = [t.numpy() for t in loaded.state_dict().values()]
    for a, b in zip(sorted(eager_state, key=np.sum), sorted(loaded_state, key=np.sum)):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)

    dropped = nn.Sequential(nn.Linear(4, 64), nn.Dropout(0.5))
    save(dropped, tmp_path / "drop", input_spec=[InputSpec([None, 4], "float32")])
    loaded = load(tmp_path / "drop")
    first = loaded(x).numpy()
    np.testing.assert_array_equal(loaded(x).numpy(), first)
    loaded.train()
    assert (loaded(x).numpy() == 0).sum() > (first == 0).sum()

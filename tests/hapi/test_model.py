"""sampan.Model: training on real data, evaluate/predict, callbacks, save/load, summary."""
import os

import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.hapi.callbacks import Callback, EarlyStopping, ModelCheckpoint
from sampan.io import TensorDataset

pytest.importorskip("sklearn")
from examples.digits_cnn import DigitsCNN, load_digits_split, train  # noqa: E402


def test_digits_cnn_learns_at_a_small_budget():
    _, acc = train(epochs=4, batch_size=64, verbose=0)
    assert acc >= 0.9


def _tiny_model(seed=0):
    paddle.seed(seed)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    model = paddle.Model(net)
    model.prepare(paddle.optimizer.SGD(0.1, parameters=net.parameters()),
                  nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    return model


def _tiny_data(n=40):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 4)).astype("float32")
    y = (x[:, 0] > 0).astype("int64") + (x[:, 1] > 1).astype("int64")
    return TensorDataset([paddle.to_tensor(x), paddle.to_tensor(y)])


def test_evaluate_and_predict_shapes():
    model = _tiny_model()
    data = _tiny_data()
    model.fit(data, epochs=2, batch_size=8, verbose=0)
    result = model.evaluate(data, batch_size=16, verbose=0)
    assert set(result) == {"loss", "acc"} and 0 <= result["acc"] <= 1
    outs = model.predict(data, batch_size=16, stack_outputs=True, verbose=0)
    assert outs[0].shape == (40, 3)
    batches = model.predict(data, batch_size=16, verbose=0)
    assert [b.shape[0] for b in batches[0]] == [16, 16, 8]


def test_callback_order_and_early_stopping():
    seen = []

    class Recorder(Callback):
        def on_train_begin(self, logs=None):
            seen.append("train_begin")

        def on_epoch_end(self, epoch, logs=None):
            seen.append(f"epoch{epoch}")

        def on_eval_end(self, logs=None):
            seen.append("eval")

    model = _tiny_model()
    data = _tiny_data()
    # Paddle stops once `patience` evaluations in a row missed min_delta: the first one
    # improves on +inf, the second cannot improve by 10
    stopper = EarlyStopping(monitor="loss", patience=1, min_delta=10.0, verbose=0,
                            save_best_model=False)
    model.fit(data, eval_data=data, epochs=5, batch_size=8, verbose=0,
              callbacks=[Recorder(), stopper])
    assert seen[:3] == ["train_begin", "epoch0", "eval"]
    assert seen.count("eval") == 2


def test_save_load_round_trip_and_checkpoints(tmp_path):
    model = _tiny_model()
    data = _tiny_data()
    model.fit(data, epochs=2, batch_size=8, verbose=0,
              callbacks=[ModelCheckpoint(save_freq=1, save_dir=str(tmp_path / "ckpt"))])
    assert os.path.exists(tmp_path / "ckpt" / "0.pdparams")
    assert os.path.exists(tmp_path / "ckpt" / "final.pdparams")
    assert not os.path.exists(tmp_path / "ckpt" / "final.pdopt")  # SGD keeps no state
    path = str(tmp_path / "model")
    model.save(path)
    other = _tiny_model(seed=1)
    other.load(path)
    for a, b in zip(model.parameters(), other.parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    x = paddle.to_tensor(np.ones((2, 4), "float32"))
    np.testing.assert_array_equal(model.predict_batch([x])[0], other.predict_batch([x])[0])


def test_summary_and_flops_counts(capsys):
    net = nn.Sequential(nn.Conv2D(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2),
                        nn.Flatten(), nn.Linear(96, 10))
    info = paddle.summary(net, (None, 1, 8, 8))
    assert info == {"total_params": 6 * 9 + 6 + 960 + 10, "trainable_params": 1030}
    # Paddle names a row by the layer's unique-name number + 1 (conv2d_4 -> Conv2D-5)
    assert f"Conv2D-{int(net[0]._full_name.split('_')[-1]) + 1}" in capsys.readouterr().out
    assert paddle.flops(net, [1, 1, 8, 8]) == 384 * 10 + 960  # MaxPool2D counts 0, as Paddle
    assert paddle.Model(DigitsCNN()).summary((1, 1, 8, 8))["total_params"] > 0


def test_summary_of_a_to_static_network_runs_it_eagerly(capsys):
    """summary/flops of a converted network see real tensors on every call (a cached
    Program would skip the hooks, and building one would show Variables' shapes)."""
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    paddle.jit.to_static(net)
    net(paddle.to_tensor(np.ones((2, 4), "float32")))
    paddle.summary(net, (1, 4))
    out = capsys.readouterr().out
    assert "[1, 8]" in out and "[1, 3]" in out
    assert paddle.flops(net, [1, 4]) == paddle.flops(
        nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)), [1, 4])

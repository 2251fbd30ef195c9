"""paddle.Model after paddle.enable_static(): fit / evaluate / predict build Programs and run
them with the Executor, with the same progress bar, logs and metrics as in dynamic mode,
and the same numbers (same initial weights, SGD, unshuffled data)."""
import numpy as np
import pytest

import sampan as paddle
from sampan.static import InputSpec

RNG = np.random.default_rng(0)
X = RNG.standard_normal((48, 4)).astype("float32")
Y = (X.sum(1, keepdims=True) > 0).astype("int64")
W1, W2 = RNG.standard_normal((4, 8)).astype("float32"), RNG.standard_normal((8, 2)).astype(
    "float32") * 0.5


class Data(paddle.io.Dataset):
    def __len__(self):
        return len(X)

    def __getitem__(self, i):
        return X[i], Y[i]


def _net():
    init = paddle.nn.initializer.Assign
    return paddle.nn.Sequential(
        paddle.nn.Linear(4, 8, weight_attr=paddle.ParamAttr(initializer=init(W1))),
        paddle.nn.Tanh(),
        paddle.nn.Linear(8, 2, weight_attr=paddle.ParamAttr(initializer=init(W2))))


def _train_and_measure(capsys):
    net = _net()
    model = paddle.Model(net, inputs=[InputSpec([None, 4], "float32", "x")],
                         labels=[InputSpec([None, 1], "int64", "label")])
    model.prepare(paddle.optimizer.SGD(1.0, parameters=net.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    model.fit(Data(), epochs=4, batch_size=16, shuffle=False, verbose=1)
    log = capsys.readouterr().out
    result = model.evaluate(Data(), batch_size=16, verbose=0)
    predicted = model.predict(Data(), batch_size=16, stack_outputs=True, verbose=0)[0]
    return log, result, predicted


def test_static_mode_fit_evaluate_predict_match_dynamic_mode(capsys):
    dynamic_log, dynamic, dynamic_predicted = _train_and_measure(capsys)
    paddle.enable_static()
    try:
        static_log, static_result, static_predicted = _train_and_measure(capsys)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(static_result["loss"], dynamic["loss"], rtol=1e-5)
    assert static_result["acc"] == dynamic["acc"] and static_result["acc"] > 0.8
    np.testing.assert_allclose(static_predicted, dynamic_predicted, rtol=1e-5, atol=1e-6)
    for log in (static_log, dynamic_log):
        assert "Epoch 4/4" in log and "step 3/3" in log and "- acc:" in log
    strip = [line.split(" - ")[:3] for line in static_log.splitlines()]
    assert strip == [line.split(" - ")[:3] for line in dynamic_log.splitlines()]


def test_static_mode_needs_input_specs():
    paddle.enable_static()
    try:
        net = _net()
        model = paddle.Model(net)
        model.prepare(paddle.optimizer.SGD(0.1, parameters=net.parameters()),
                      paddle.nn.CrossEntropyLoss())
        with pytest.raises(ValueError, match="needs `inputs`"):
            model.train_batch([X[:4]], [Y[:4]])
    finally:
        paddle.disable_static()

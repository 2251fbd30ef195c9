"""paddle.metric.Auc and paddle.callbacks.ReduceLROnPlateau as Paddle users call them."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.io import TensorDataset


def _pairwise_auc(scores, labels):
    """AUC as the fraction of (positive, negative) pairs ordered right (ties count half)."""
    pos, neg = scores[labels == 1], scores[labels == 0]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return wins / (len(pos) * len(neg))


def test_auc_matches_the_pairwise_definition_across_batches():
    rng = np.random.default_rng(3)
    scores = rng.uniform(size=40)
    labels = (rng.uniform(size=40) < scores).astype(np.int64)
    metric = paddle.metric.Auc()
    for part in np.array_split(np.arange(40), 3):
        preds = np.stack([1 - scores[part], scores[part]], axis=1)
        metric.update(preds=preds, labels=labels[part].reshape(-1, 1))
    buckets = np.floor(scores * 4095)  # Paddle's resolution: ties within a bucket
    assert metric.accumulate() == pytest.approx(_pairwise_auc(buckets, labels), rel=1e-12)
    assert metric.name() == "auc"
    metric.reset()
    assert metric.accumulate() == 0.0


def test_auc_takes_tensors_and_checks_its_input():
    metric = paddle.metric.Auc(num_thresholds=10)
    metric.update(paddle.to_tensor([[0.9, 0.1], [0.2, 0.8]]), paddle.to_tensor([[0], [1]]))
    assert metric.accumulate() == 1.0
    with pytest.raises(ValueError, match="'preds'"):
        metric.update(np.array([0.1, 0.9]), np.array([0, 1]))
    with pytest.raises(ValueError, match="'curve'"):
        paddle.metric.Auc(curve="PR")


def _fit_with(callback, lr, epochs=4):
    """Train a tiny classifier with SGD(lr), evaluating every epoch; returns the optimizer."""
    paddle.seed(0)
    data = TensorDataset([paddle.randn([16, 4]), paddle.randint(0, 2, [16, 1])])
    net = paddle.nn.Linear(4, 2)
    model = paddle.Model(net)
    optimizer = paddle.optimizer.SGD(learning_rate=lr, parameters=net.parameters())
    model.prepare(optimizer, paddle.nn.CrossEntropyLoss())
    model.fit(data, data, epochs=epochs, batch_size=8, verbose=0, callbacks=[callback])
    return optimizer


def test_reduce_lr_on_plateau_lowers_a_stalled_learning_rate(capsys):
    callback = paddle.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    optimizer = _fit_with(callback, 1e-9)
    assert optimizer.get_lr() == pytest.approx(1e-9 * 0.5 ** 3)
    assert "Epoch 2: ReduceLROnPlateau reducing learning rate" in capsys.readouterr().out


def test_reduce_lr_on_plateau_respects_cooldown_and_min_lr():
    callback = paddle.callbacks.ReduceLROnPlateau(factor=0.5, patience=1, cooldown=1,
                                                  min_lr=4e-10, verbose=0)
    assert _fit_with(callback, 1e-9, epochs=6).get_lr() == pytest.approx(4e-10)
    with pytest.raises(ValueError, match="'factor'"):
        paddle.callbacks.ReduceLROnPlateau(factor=1.0)


def test_reduce_lr_on_plateau_keeps_an_improving_learning_rate():
    callback = paddle.callbacks.ReduceLROnPlateau(patience=1, verbose=0)
    assert _fit_with(callback, 0.5).get_lr() == 0.5


class _LeNet(paddle.nn.Layer):
    """The network of Paddle's flops docstring."""

    def __init__(self):
        super().__init__()
        nn = paddle.nn
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))

    def forward(self, inputs):
        return self.fc(paddle.flatten(self.features(inputs), 1))


def test_flops_of_paddles_lenet_example(capsys):
    def count_leaky_relu(m, x, y):
        m.total_ops += int(x[0].numel())

    net = _LeNet()
    total = paddle.flops(net, [1, 1, 28, 28], custom_ops={paddle.nn.LeakyReLU: count_leaky_relu},
                         print_detail=True)
    assert total == 347560
    assert "Total Flops: 347560     Total Params: 61610" in capsys.readouterr().out
    assert not hasattr(net.fc[0], "total_ops")


def test_flops_rules_for_transposed_conv_pools_and_custom_layers():
    nn = paddle.nn
    net = nn.Sequential(nn.Conv2DTranspose(4, 2, 3), nn.BatchNorm2D(2), nn.AdaptiveAvgPool2D(2),
                        nn.LeakyReLU(), nn.AvgPool2D(2))
    # transpose conv [1,2,6,6]: 72 × (4 × 9 + 1); BN 2 × 72; adaptive [1,2,2,2]: 8 × (9 + 1);
    # LeakyReLU 8 inputs; AvgPool 2 outputs
    assert paddle.flops(net, [1, 4, 4, 4]) == 72 * 37 + 144 + 80 + 8 + 2

    def fixed(m, x, y):
        m.total_ops += 5

    assert paddle.flops(nn.Sequential(nn.GELU()), [1, 3], custom_ops={nn.GELU: fixed}) == 5


def test_summary_prints_input_shapes_and_paddles_size_estimate(capsys):
    info = paddle.summary(_LeNet(), (1, 1, 28, 28))
    assert info == {"total_params": 61610, "trainable_params": 61610}
    out = capsys.readouterr().out
    assert "Input Shape" in out and "[[1, 16, 10, 10]]" in out
    for line in ("Input size (MB): 0.00", "Forward/backward pass size (MB): 0.11",
                 "Params size (MB): 0.24", "Estimated Total Size (MB): 0.35"):
        assert line in out


class _ListInput(nn.Layer):
    """A network taking one list argument (Paddle's summary docstring example 3)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2D(1, 2, 3), nn.ReLU())
        self.fc = nn.Linear(4, 3)

    def forward(self, inputs):
        return self.fc(paddle.flatten(self.body(inputs[0]), 1) + inputs[1])


def _name(layer):
    return f"{type(layer).__name__}-{int(layer._full_name.split('_')[-1]) + 1}"


def test_summary_table_is_laid_out_as_paddles(capsys):
    """The layout of Paddle 3.3.1's table: columns of at least 15/20/20/15 characters,
    centred and one space apart, rules of at least 75; a list or dict `input` is passed
    as the network's one argument; Sequential containers get no row."""
    net = _ListInput()
    info = paddle.summary(net, input=[paddle.ones([1, 1, 4, 3]), paddle.ones([1, 4])])
    assert info == {"total_params": 35, "trainable_params": 35}
    conv, relu = net.body[0], net.body[1]
    want = [
        "-" * 75,
        " Layer (type)       Input Shape          Output Shape         Param #    ",
        "=" * 75,
        f"{_name(conv):^15} {'[[1, 1, 4, 3]]':^20} {'[1, 2, 2, 1]':^20} {'20':^15}",
        f"{_name(relu):^15} {'[[1, 2, 2, 1]]':^20} {'[1, 2, 2, 1]':^20} {'0':^15}",
        f"{_name(net.fc):^15} {'[[1, 4]]':^20} {'[1, 3]':^20} {'15':^15}",
        "=" * 75,
        "Total params: 35", "Trainable params: 35", "Non-trainable params: 0", "-" * 75]
    out = capsys.readouterr().out
    assert out.splitlines()[:len(want)] == want
    assert out.endswith("-" * 75 + "\n\n")


def test_summary_of_a_dict_input_network():
    class DictInput(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def forward(self, inputs):
            return self.fc(inputs["x"]) * inputs["scale"]
    info = paddle.summary(DictInput(), input={"x": paddle.ones([2, 4]),
                                              "scale": paddle.ones([2, 2])})
    assert info == {"total_params": 10, "trainable_params": 10}


def test_summary_rows_include_custom_blocks_as_paddle():
    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x)

    import io
    import contextlib
    net = nn.Sequential(Block(), nn.ReLU())
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        paddle.summary(net, (1, 4))
    names = [line.split()[0] for line in buffer.getvalue().splitlines()[3:6]]
    assert names == [_name(net[0].fc), _name(net[0]), _name(net[1])]

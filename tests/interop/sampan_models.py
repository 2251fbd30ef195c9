"""Models sampan trains and exports for Paddle (tests/interop/test_paddle_export.py and
fixtures/paddle_reads_sampan.py use the same definitions and seeds)."""
import numpy as np

import sampan as paddle
from sampan import nn
from sampan.static import InputSpec


class Cnn(nn.Layer):
    """Conv + BatchNorm + pooling + Linear + Dropout + LayerNorm, a constant and a mean."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2D(4)
        self.pool = nn.MaxPool2D(2)
        self.fc = nn.Linear(4 * 4 * 4, 5)
        self.drop = nn.Dropout(0.3)
        self.norm = nn.LayerNorm(5)

    def forward(self, x):
        y = self.pool(nn.functional.relu(self.bn(self.conv(x))))
        y = self.norm(self.drop(self.fc(paddle.flatten(y, 1))))
        return nn.functional.softmax(y.reshape([-1, 5]) * 2.0 + y.mean(axis=1, keepdim=True))


class TextMlp(nn.Layer):
    """Embedding, GELU and tanh layers, a transpose and an average pool over tokens."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, ids):
        h = nn.functional.gelu(self.fc1(self.emb(ids)))
        h = paddle.transpose(h, [0, 2, 1]).mean(axis=2)
        return paddle.tanh(self.fc2(h))


class ControlFlow(nn.Layer):
    """A tensor `if` and a tensor `while` (exported as pd_op.if and pd_op.while)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 0:
            y = nn.functional.sigmoid(h) * 2.0
        else:
            y = h - 1.0
        while y.abs().max() < 10.0:
            y = y * 1.5 + 0.5
        return y


class Recurrent(nn.Layer):
    """A two-layer bidirectional LSTM, a GRU, split/concat and indexing (sampan unrolls
    the recurrences into plain ops, with a zero state sized at run time)."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 6)
        self.lstm = nn.LSTM(6, 5, num_layers=2, direction="bidirect")
        self.gru = nn.GRU(10, 4)
        self.fc = nn.Linear(4, 2)

    def forward(self, ids):
        out, _ = self.lstm(self.emb(ids))
        out, h = self.gru(out)
        first, second = paddle.split(out, 2, axis=-1)
        return self.fc(paddle.concat([second, first], axis=-1)[:, -1]) + h.sum()


def models():
    """{name: (trained layer in eval mode, [InputSpec], input array)} with fixed seeds and
    fresh parameter names (whatever layers the process made before)."""
    with paddle.utils.unique_name.guard():
        return _models()


def _models():
    paddle.seed(7)
    cnn = Cnn()
    ids = np.random.RandomState(4).randint(0, 20, (3, 5)).astype("int64")
    x = np.random.RandomState(5).rand(2, 3, 8, 8).astype("float32")
    out = {"cnn": (cnn, [InputSpec([None, 3, 8, 8], "float32", "x")], x),
           "text_mlp": (TextMlp(), [InputSpec([None, 5], "int64", "ids")], ids),
           "control_flow": (ControlFlow(), [InputSpec([None, 3], "float32", "x")],
                            np.array([[0.5, -0.2, 0.1], [1.0, 2.0, -3.0]], "float32")),
           "recurrent": (Recurrent(), [InputSpec([None, 4], "int64", "ids")],
                         np.random.RandomState(6).randint(0, 30, (2, 4)).astype("int64"))}
    _train(cnn, x)
    for layer, _, _ in out.values():
        layer.eval()
    return out


def _train(layer, x):
    """A few SGD steps, so the exported weights and BatchNorm statistics are trained."""
    opt = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
    for _ in range(3):
        loss = layer(paddle.to_tensor(x)).square().sum()
        loss.backward()
        opt.step()
        opt.clear_grad()

"""Eager training steps: MLP (784-256-256-10, batch 64, SGD) vs hand-written NumPy, and
LeNet-5 (batch 64, Adam) vs PyTorch eager when torch is installed.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_training.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_executor import BATCH, LR, SIZES, _weights, numpy_step  # noqa: E402
from timing import interleaved, sgd_step  # noqa: E402

import sampan as paddle  # noqa: E402
from sampan import nn  # noqa: E402
import sampan.nn.functional as F  # noqa: E402


def sampan_mlp():
    ws, bs = _weights()
    layers = []
    for w, b in zip(ws, bs):
        lin = nn.Linear(*w.shape)
        lin.weight.set_value(w)
        lin.bias.set_value(b)
        layers.append(lin)
    net = nn.Sequential(layers[0], nn.ReLU(), layers[1], nn.ReLU(), layers[2])
    opt = paddle.optimizer.SGD(LR, parameters=net.parameters())
    return net, opt


def mlp_rows():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, SIZES[0])).astype("float32")
    labels = rng.integers(0, SIZES[-1], BATCH)
    onehot = np.eye(SIZES[-1], dtype="float32")[labels]
    ws, bs = _weights()
    net, opt = sampan_mlp()
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(labels.astype("int64"))
    step = sgd_step(lambda: F.cross_entropy(net(xt), yt), opt)
    best = interleaved({"numpy": lambda: numpy_step(ws, bs, x, onehot), "eager": step},
                        rounds=15, number=10)
    numpy_ms, eager_ms = best["numpy"] * 1e3, best["eager"] * 1e3
    return [("MLP step, hand-written NumPy", numpy_ms, 1.0),
            ("MLP step, sampan eager", eager_ms, eager_ms / numpy_ms)]


class LeNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2D(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2D(2),
                                      nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                                nn.Linear(84, 10))

    def forward(self, x):
        return self.fc(paddle.flatten(self.features(x), 1))


def lenet_rows():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((64, 1, 28, 28)).astype("float32")
    y = rng.integers(0, 10, 64).astype("int64")
    net = LeNet()
    opt = paddle.optimizer.Adam(1e-3, parameters=net.parameters())
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)
    step = sgd_step(lambda: F.cross_entropy(net(xt), yt), opt)

    try:
        import torch
    except ImportError:
        ms = interleaved({"sampan": step}, rounds=8, number=5)["sampan"] * 1e3
        return [("LeNet step, sampan eager", ms, None)]
    torch.set_num_threads(1)
    tnet = torch.nn.Sequential(
        torch.nn.Conv2d(1, 6, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
        torch.nn.Linear(400, 120), torch.nn.ReLU(), torch.nn.Linear(120, 84), torch.nn.ReLU(),
        torch.nn.Linear(84, 10))
    topt = torch.optim.Adam(tnet.parameters(), 1e-3)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)

    def torch_step():
        loss = torch.nn.functional.cross_entropy(tnet(tx), ty)
        loss.backward()
        topt.step()
        topt.zero_grad()

    best = interleaved({"sampan": step, "torch": torch_step}, rounds=10, number=5)
    sampan_ms, torch_ms = best["sampan"] * 1e3, best["torch"] * 1e3
    return [("LeNet step, sampan eager", sampan_ms, sampan_ms / torch_ms),
            ("LeNet step, PyTorch eager", torch_ms, None)]


def main():
    for name, ms, ratio in mlp_rows() + lenet_rows():
        extra = f"  ({ratio:.2f}x)" if ratio else ""
        print(f"{name:32s} {ms:8.3f} ms{extra}")


if __name__ == "__main__":
    main()

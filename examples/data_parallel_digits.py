"""Data-parallel training on scikit-learn's 8x8 digits: every rank trains the same CNN on
its share of each batch (DistributedBatchSampler) and DataParallel averages the gradients,
so all ranks hold the same weights after every step.

Run with two ranks:
    .venv/bin/python -m sampan.distributed.launch --nproc_per_node 2 examples/data_parallel_digits.py
(`mpiexec -n 2 .venv/bin/python examples/data_parallel_digits.py` works the same.)
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sampan as paddle  # noqa: E402
import sampan.distributed as dist  # noqa: E402
from sampan import nn  # noqa: E402
from sampan.io import DataLoader, DistributedBatchSampler  # noqa: E402

from digits_cnn import load_digits_split  # noqa: E402


class DigitsCNN(nn.Layer):
    """conv(16) -> relu -> pool -> conv(32) -> relu -> pool -> linear(10) (no batch norm:
    its running statistics would be each rank's own)."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2),
            nn.Conv2D(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2))
        self.classifier = nn.Linear(32 * 2 * 2, 10)

    def forward(self, x):
        return self.classifier(paddle.flatten(self.features(x), 1))


def accuracy(net, dataset):
    images, labels = (np.stack([dataset[i][k].numpy() for i in range(len(dataset))])
                      for k in (0, 1))
    with paddle.no_grad():
        predicted = net(paddle.to_tensor(images)).numpy().argmax(axis=1)
    return float((predicted == labels).mean())


def main(epochs=8, batch_size=32):
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(rank)  # different initial weights: DataParallel takes rank 0's
    train_set, test_set = load_digits_split(seed=0)
    net = DigitsCNN()
    model = paddle.DataParallel(net)
    opt = paddle.optimizer.Adam(learning_rate=3e-3, parameters=model.parameters())
    sampler = DistributedBatchSampler(train_set, batch_size=batch_size, shuffle=True)
    loader = DataLoader(train_set, batch_sampler=sampler)
    start = time.perf_counter()
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for images, labels in loader:
            loss = nn.functional.cross_entropy(model(images), labels)
            loss.backward()
            opt.step()
            opt.clear_grad()
    seconds = time.perf_counter() - start
    checksums = []
    dist.all_gather_object(checksums, [float(p.numpy().sum()) for p in net.parameters()])
    assert all(c == checksums[0] for c in checksums), "ranks ended with different weights"
    acc = accuracy(net, test_set)
    if rank == 0:
        print(f"{world} ranks, {len(train_set) // world} samples each per epoch: test "
              f"accuracy {acc:.4f} after {epochs} epochs in {seconds:.1f} s; weights "
              f"identical on every rank")
    assert acc >= 0.93, f"expected at least 93% test accuracy, got {acc:.4f}"


if __name__ == "__main__":
    main()

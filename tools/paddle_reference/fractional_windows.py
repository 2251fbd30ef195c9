"""Record where Paddle's fractional_max_pool2d places its windows along one axis, as
tests/nn/paddle_fractional_windows.json: for each (input size, output size, kernel size
(0: disjoint), random_u) the [start, end) of every window.

Run with real Paddle: `/path/to/paddle/python tools/paddle_reference/fractional_windows.py OUT`.
A window's end is read as 1 + the argmax of an increasing row, its start as the argmax of a
decreasing one.
"""
import json
import sys

import numpy as np
import paddle

F = paddle.nn.functional


def windows(n, o, k, u):
    """[[start, end), ...] of the o windows along an axis of size n."""
    def pooled(row):
        x = paddle.to_tensor(row.reshape(1, 1, 1, n).astype("float32"))
        kernel = [1, k] if k else None
        return F.fractional_max_pool2d(x, [1, o], kernel_size=kernel, random_u=u,
                                       return_mask=True)[1].numpy().ravel()
    starts = pooled(-np.arange(n))
    ends = pooled(np.arange(n)) + 1
    return [[int(s), int(e)] for s, e in zip(starts, ends)]


def configs():
    """Hand-picked cases (the docstring's, wrap-around offsets) and random ones."""
    fixed = [(7, 5, 0, 0.3), (10, 3, 0, 0.9), (11, 4, 0, 0.85), (10, 4, 3, 0.5),
             (32, 3, 2, 0.7), (9, 9, 0, 0.4), (10, 1, 3, 0.5), (10, 1, 0, 0.5)]
    rng = np.random.RandomState(7)
    for _ in range(60):
        n = int(rng.randint(2, 40))
        o = int(rng.randint(1, n + 1))
        k = 0 if rng.rand() < 0.5 else int(rng.randint(1, n - o + 2))
        fixed.append((n, o, k, float(np.float32(rng.uniform(0.001, 0.999)))))
    return fixed


def main(out):
    table = [[n, o, k, u, windows(n, o, k, u)] for n, o, k, u in configs()]
    with open(out, "w") as f:
        json.dump(table, f)


if __name__ == "__main__":
    main(sys.argv[1])

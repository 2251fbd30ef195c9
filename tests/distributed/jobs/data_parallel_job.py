"""DataParallel on each rank's share of the batch ends with the parameters one process
gets on the whole batch, identical on every rank: eager, to_static, small buckets,
no_sync accumulation, parameters some or all ranks do not use."""
import copy

import numpy as np

import sampan as paddle
import sampan.distributed as dist
import sampan.nn as nn
import sampan.nn.functional as F

STEPS = 3


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 3, 3, padding=1)
        self.fc1 = nn.Linear(3 * 4 * 4, 16)
        self.fc2 = nn.Linear(16, 3)
        self.extra = nn.Linear(16, 3)     # used only when asked
        self.never = nn.Linear(4, 4)      # used by no rank

    def forward(self, x, use_extra=False):
        h = F.relu(self.conv(x)).reshape([x.shape[0], -1])
        h = paddle.tanh(self.fc1(h))
        out = self.fc2(h)
        return out + self.extra(h) if use_extra else out


def batches(step):
    rng = np.random.RandomState(100 + step)
    x = rng.randn(8, 1, 4, 4).astype("float32")
    y = rng.randint(0, 3, size=(8,)).astype("int64")
    return x, y


def loss_of(model, x, y, use_extra=False):
    return F.cross_entropy(model(paddle.to_tensor(x), use_extra), paddle.to_tensor(y))


def reference(init_state, extra_rank=None, micro=1):
    """One process on the whole batch (per-rank halves' losses averaged when the ranks
    compute different things)."""
    net = Net()
    net.set_state_dict(init_state)
    opt = paddle.optimizer.Adam(0.01, parameters=net.parameters())
    for step in range(STEPS):
        for m in range(micro):
            x, y = batches(step * micro + m)
            halves = [loss_of(net, x[4 * r:4 * r + 4], y[4 * r:4 * r + 4], extra_rank == r)
                      for r in range(2)]
            ((halves[0] + halves[1]) / 2).backward()
        opt.step()
        opt.clear_grad()
    return net


def distributed(model, make_opt, extra_rank=None, micro=1):
    rank = dist.get_rank()
    opt = make_opt(model.parameters())
    for step in range(STEPS):
        for m in range(micro):
            x, y = batches(step * micro + m)
            part = slice(4 * rank, 4 * rank + 4)
            sync = m == micro - 1
            with (model.no_sync() if not sync else _nothing()):
                loss_of(model, x[part], y[part], extra_rank == rank).backward()
        opt.step()
        opt.clear_grad()
    return model


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def same_on_every_rank(net):
    for name, p in net.state_dict().items():
        rows = []
        dist.all_gather(rows, p)
        for r in rows[1:]:
            np.testing.assert_array_equal(r.numpy(), rows[0].numpy(), err_msg=name)


def check(label, got, want, untouched=()):
    for (name, a), (_, b) in zip(got.state_dict().items(), want.state_dict().items()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=2e-5, atol=2e-6, err_msg=name)
    same_on_every_rank(got)
    print(f"rank {dist.get_rank()}: {label} ok", flush=True)


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(7 + rank)  # different initial values: DataParallel must take rank 0's
    make_adam = lambda params: paddle.optimizer.Adam(0.01, parameters=params)

    net = Net()
    model = paddle.DataParallel(net)
    init = copy.deepcopy(net.state_dict())
    same_on_every_rank(net)
    check("eager", distributed(model, make_adam), reference(init))
    assert net.never.weight.grad is None and net.extra.weight.grad is None

    net = Net()
    model = paddle.DataParallel(net, comm_buffer_size=0.0001, last_comm_buffer_size=0.00002)
    assert len(model._reducer.buckets) > 3
    init = copy.deepcopy(net.state_dict())
    check("small buckets", distributed(model, make_adam), reference(init))

    net = Net()
    model = paddle.DataParallel(net, find_unused_parameters=True)
    init = copy.deepcopy(net.state_dict())
    check("unused parameters", distributed(model, make_adam, extra_rank=1),
          reference(init, extra_rank=1))

    net = Net()
    model = paddle.DataParallel(net)
    init = copy.deepcopy(net.state_dict())
    check("no_sync", distributed(model, make_adam, micro=2), reference(init, micro=2))

    net = Net()
    init = copy.deepcopy(net.state_dict())
    model = paddle.DataParallel(paddle.jit.to_static(net))
    init = copy.deepcopy(net.state_dict())
    check("to_static", distributed(model, make_adam), reference(init))
    check_model_fit()
    check_launch_order()


class Digits(paddle.io.Dataset):
    def __init__(self):
        rng = np.random.RandomState(3)
        self.x = rng.randn(32, 1, 4, 4).astype("float32")
        self.y = rng.randint(0, 3, size=(32, 1)).astype("int64")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return 32


def check_model_fit():
    """Model.fit under the launcher trains through DataParallel on this rank's share of
    each batch (DistributedBatchSampler): a plain loop over whole batches agrees."""
    paddle.seed(11)
    init = copy.deepcopy(Net().state_dict())
    net = Net()
    net.set_state_dict(init)
    spec = paddle.static.InputSpec
    model = paddle.Model(net, inputs=[spec([None, 1, 4, 4], "float32")],
                         labels=[spec([None, 1], "int64")])
    model.prepare(paddle.optimizer.Adam(0.01, parameters=net.parameters()),
                  nn.CrossEntropyLoss())
    assert isinstance(model._trainer, paddle.DataParallel)
    model.fit(Digits(), batch_size=4, epochs=2, shuffle=False, verbose=0)
    want = Net()
    want.set_state_dict(init)
    opt = paddle.optimizer.Adam(0.01, parameters=want.parameters())
    data = Digits()
    for _ in range(2):
        for start in range(0, 32, 8):
            x, y = paddle.to_tensor(data.x[start:start + 8]), paddle.to_tensor(data.y[start:start + 8])
            nn.CrossEntropyLoss()(want(x), y).backward()
            opt.step()
            opt.clear_grad()
    check("Model.fit", net, want)


def check_launch_order():
    """Buckets are launched during the backward walk, before its end."""
    net = Net()
    model = paddle.DataParallel(net, comm_buffer_size=0.0001, last_comm_buffer_size=0.00002)
    reducer = model._reducer
    seen = []
    original = reducer.finished
    reducer.finished = lambda: (seen.append(len(reducer._launched)), original())
    x, y = batches(0)
    loss_of(model, x[:4], y[:4]).backward()
    assert 0 < seen[0] < len(reducer.buckets), (seen, len(reducer.buckets))
    print(f"rank {dist.get_rank()}: early launch ok", flush=True)


if __name__ == "__main__":
    main()

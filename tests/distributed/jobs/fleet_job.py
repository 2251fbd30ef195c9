"""fleet in collective mode: worker queries, eager distributed_model/optimizer and a
static Program's distributed minimize, each equal to one process on the whole batch."""
import numpy as np

import sampan as paddle
import sampan.distributed as dist
import sampan.nn as nn
from sampan import static
from sampan.distributed import fleet


def batch(step):
    rng = np.random.RandomState(step)
    return rng.randn(8, 5).astype("float32"), rng.randn(8, 1).astype("float32")


def check_workers():
    rank, n = fleet.worker_index(), fleet.worker_num()
    assert n == 2 and fleet.is_first_worker() == (rank == 0) and fleet.is_worker()
    fleet.barrier_worker()
    print(f"rank {rank}: workers ok", flush=True)


def check_eager():
    rank = fleet.worker_index()
    paddle.seed(3 + rank)
    net = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
    model = fleet.distributed_model(net)  # takes rank 0's values
    ref = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
    ref.set_state_dict(net.state_dict())
    opt = fleet.distributed_optimizer(paddle.optimizer.Adam(0.01, parameters=net.parameters()))
    ref_opt = paddle.optimizer.Adam(0.01, parameters=ref.parameters())
    for step in range(3):
        x, y = batch(step)
        mine = slice(4 * rank, 4 * rank + 4)
        nn.MSELoss()(model(paddle.to_tensor(x[mine])), paddle.to_tensor(y[mine])).backward()
        opt.step()
        opt.clear_grad()
        nn.MSELoss()(ref(paddle.to_tensor(x)), paddle.to_tensor(y)).backward()
        ref_opt.step()
        ref_opt.clear_grad()
    for a, b in zip(net.parameters(), ref.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    print(f"rank {rank}: eager ok", flush=True)


def build(distributed, seed):
    main, startup = static.Program(), static.Program()
    main.random_seed = startup.random_seed = seed
    with static.program_guard(main, startup):
        x = static.data("x", [None, 5], "float32")
        y = static.data("y", [None, 1], "float32")
        hidden = static.nn.fc(x, 8, activation="tanh")
        loss = paddle.mean((static.nn.fc(hidden, 1) - y) ** 2)
        opt = paddle.optimizer.SGD(0.1)
        if distributed:
            opt = fleet.distributed_optimizer(opt, fleet.DistributedStrategy())
        opt.minimize(loss)
    return main, startup, loss


def check_static():
    rank = fleet.worker_index()
    paddle.enable_static()
    main, startup, loss = build(True, seed=10 + rank)
    assert "c_allreduce_avg" in str(main) and "c_broadcast" in str(startup)
    ref_main, ref_startup, ref_loss = build(False, seed=10)
    exe = static.Executor()
    scope, ref_scope = static.Scope(), static.Scope()
    with static.scope_guard(scope):
        exe.run(startup)
    with static.scope_guard(ref_scope):
        exe.run(ref_startup)
    names = [p.name for p in main.all_parameters()]
    ref_names = [p.name for p in ref_main.all_parameters()]
    initial = [np.array(scope.find_var(name).get_tensor()) for name in names]
    everyone = []
    dist.all_gather_object(everyone, initial)  # the startup broadcast rank 0's values
    for a, b in zip(everyone[0], everyone[1]):
        np.testing.assert_array_equal(a, b)
    for ref_name, value in zip(ref_names, initial):  # the reference starts from them too
        ref_scope.find_var(ref_name).get_tensor().set(value, paddle.CPUPlace())
    for step in range(3):
        x, y = batch(10 + step)
        mine = slice(4 * rank, 4 * rank + 4)
        with static.scope_guard(scope):
            exe.run(main, feed={"x": x[mine], "y": y[mine]}, fetch_list=[loss])
        with static.scope_guard(ref_scope):
            exe.run(ref_main, feed={"x": x, "y": y}, fetch_list=[ref_loss])
    for name, ref_name in zip(names, ref_names):
        got = np.array(scope.find_var(name).get_tensor())
        want = np.array(ref_scope.find_var(ref_name).get_tensor())
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)
    paddle.disable_static()
    print(f"rank {rank}: static ok", flush=True)


if __name__ == "__main__":
    strategy = fleet.DistributedStrategy()
    strategy.fuse_grad_size_in_MB = 1
    fleet.init(is_collective=True, strategy=strategy)
    check_workers()
    check_eager()
    check_static()

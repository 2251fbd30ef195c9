"""Collective ops in static Programs (values and gradients through c_allreduce_sum /
c_allgather / c_identity) and paddle.distributed calls inside a to_static function."""
import numpy as np

import sampan as paddle
import sampan.distributed as dist
from sampan import static
from sampan.ops._generated import api


def check_program():
    rank, n = dist.get_rank(), dist.get_world_size()
    paddle.enable_static()
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        total = api.c_allreduce_sum(x * x)          # sum_r x_r^2 on every rank
        gathered = api.c_allgather(x, nranks=n)     # [2n, 3]
        copied = api.c_identity(x)
        loss = (total * 2.0).sum() + (gathered * gathered).sum() + copied.sum()
        grads = static.gradients([loss], [x])
    paddle.disable_static()
    printed = str(main)
    assert "c_allreduce_sum" in printed and "c_allreduce_sum_grad" in printed, printed
    xs = [np.arange(6, dtype=np.float32).reshape(2, 3) + r for r in range(n)]
    exe = static.Executor()
    got_total, got_gathered, got_grad = exe.run(
        main, feed={"x": xs[rank]}, fetch_list=[total, gathered, grads[0]])
    np.testing.assert_allclose(got_total, sum(v * v for v in xs), rtol=1e-6)
    np.testing.assert_allclose(got_gathered, np.concatenate(xs), rtol=1e-6)
    # d loss_total / d x_rank where loss_total = sum over ranks of each rank's loss:
    # 2 * (2 x) from each rank's allreduce term (n ranks), 2 x from each rank's gather
    # term, and 1 from every rank's c_identity term
    want = n * 4 * xs[rank] + n * 2 * xs[rank] + n
    np.testing.assert_allclose(got_grad, want, rtol=1e-5)
    print(f"rank {rank}: static program ok", flush=True)


def check_to_static():
    rank, n = dist.get_rank(), dist.get_world_size()

    @paddle.jit.to_static
    def averaged_square(x):
        y = x * x
        dist.all_reduce(y, op=dist.ReduceOp.AVG)
        parts = []
        dist.all_gather(parts, x)
        return y, parts[0] + parts[-1]

    x = paddle.to_tensor(np.full([3], rank + 1.0, np.float32))
    y, ends = averaged_square(x)
    want = np.mean([(r + 1.0) ** 2 for r in range(n)])
    np.testing.assert_allclose(y.numpy(), np.full([3], want), rtol=1e-6)
    np.testing.assert_allclose(ends.numpy(), np.full([3], 1.0 + n), rtol=1e-6)
    print(f"rank {rank}: to_static ok", flush=True)


if __name__ == "__main__":
    dist.init_parallel_env()
    check_program()
    check_to_static()

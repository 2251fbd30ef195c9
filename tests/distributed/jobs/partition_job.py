"""A two-stage model built under device_guard("cpu:0") / ("cpu:1"), trained with two
micro-batches per step (gradients summed over them, one update after the last): each
rank runs its part of the partitioned Program; losses, gradients and parameters equal the
unpartitioned Program run in one process, and each part shows its send_v2 / recv_v2."""
import re

import numpy as np

import sampan as paddle
import sampan.distributed as dist
from sampan import static
from sampan.distributed.partition import partition_program

MICRO = 2


def build():
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        w0 = static.create_parameter([5, 8], "float32", name="stage0.w")
        b0 = static.create_parameter([8], "float32", name="stage0.b", is_bias=True)
        w1 = static.create_parameter([8, 1], "float32", name="stage1.w")
        losses = []
        for m in range(MICRO):  # the same parameters on each micro-batch
            x = static.data(f"x{m}", [None, 5], "float32")
            y = static.data(f"y{m}", [None, 1], "float32")
            with static.device_guard("cpu:0"):
                hidden = paddle.tanh(paddle.matmul(x, w0) + b0)
            with static.device_guard("cpu:1"):
                out = paddle.matmul(hidden, w1)
                losses.append(paddle.mean((out - y) ** 2))
        with static.device_guard("cpu:1"):
            loss = paddle.add_n(losses) / MICRO
        paddle.optimizer.Adam(0.05).minimize(loss)
    return main, startup, loss


def feeds(step):
    rng = np.random.RandomState(step)
    out = {}
    for m in range(MICRO):
        out[f"x{m}"] = rng.randn(4, 5).astype("float32")
        out[f"y{m}"] = rng.randn(4, 1).astype("float32")
    return out


def tags(text, op):
    return sorted(int(t) for t in re.findall(op + r"\(.*?tag = (\d+)", text))


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.enable_static()
    main_prog, startup, loss = build()
    parts = partition_program(main_prog)
    assert len(parts) == 2
    mine = parts[rank]
    text = str(mine)
    sends, recvs = text.count("send_v2("), text.count("recv_v2(")
    everyone = []
    dist.all_gather_object(everyone, (tags(text, "send_v2"), tags(text, "recv_v2")))
    assert everyone[0][0] == everyone[1][1] and everyone[0][1] == everyone[1][0], everyone
    assert sends and recvs and "c_sync_comm_stream" in text
    # rank 0 sends each micro-batch's activation, receives its gradient; rank 1 the reverse
    assert (sends, recvs) == (MICRO, MICRO), text
    ops_here = {op.type for op in mine.global_block().ops}
    assert ("tanh" in ops_here) == (rank == 0) and ("mean" in ops_here) == (rank == 1)
    print(f"rank {rank}: inserted pairs ok", flush=True)

    exe = static.Executor()
    scope, ref_scope = static.Scope(), static.Scope()
    paddle.seed(21)
    with static.scope_guard(scope):
        exe.run(startup)
    params = [p.name for p in main_prog.all_parameters()]
    with static.scope_guard(ref_scope):
        exe.run(startup)
        for name in params:  # the reference starts from this rank's initial values
            ref_scope.find_var(name).get_tensor().set(
                np.array(scope.find_var(name).get_tensor()), paddle.CPUPlace())
    mine_params = [n for n in params if n.startswith(f"stage{rank}")]
    assert mine_params and len(params) == 3, params
    before = {n: np.array(scope.find_var(n).get_tensor()) for n in mine_params}
    grads = [f"{n}@GRAD" for n in mine_params]
    for step in range(3):
        data = feeds(step)
        used = {n: v for n, v in data.items() if n in {a for op in mine.global_block().ops
                                                         for a in op.input_arg_names}}
        with static.scope_guard(scope):
            fetched = exe.run(mine, feed=used, fetch_list=([loss] if rank == 1 else []) + grads)
        with static.scope_guard(ref_scope):
            want = exe.run(main_prog, feed=data, fetch_list=([loss] if rank == 1 else []) + grads)
        for got, ref in zip(fetched, want):
            np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    for name in mine_params:
        assert not np.allclose(before[name], np.array(scope.find_var(name).get_tensor()))
        np.testing.assert_allclose(np.array(scope.find_var(name).get_tensor()),
                                   np.array(ref_scope.find_var(name).get_tensor()),
                                   rtol=1e-5, atol=1e-6, err_msg=name)
    paddle.disable_static()
    print(f"rank {rank}: pipeline training ok", flush=True)


if __name__ == "__main__":
    main()

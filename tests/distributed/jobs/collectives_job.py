"""Every collective and point-to-point call against a NumPy reference, for every dtype,
0-d / empty / 2-D tensors, the world and a sub-group, sync and async."""
import numpy as np

import sampan as paddle
import sampan.distributed as dist

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
          "float64", "complex64", "complex128"]
SHAPES = [(), (0,), (5,), (2, 3)]
OPS = {"SUM": dist.ReduceOp.SUM, "MAX": dist.ReduceOp.MAX, "MIN": dist.ReduceOp.MIN,
       "PROD": dist.ReduceOp.PROD, "AVG": dist.ReduceOp.AVG}


def data(rank, dtype, shape, salt=0):
    """Rank `rank`'s values: small, distinct per rank and position."""
    base = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    values = (base * 3 + rank * 5 + salt) % 7 + 1
    if dtype == "bool":
        return (values % 2 == 0)
    if dtype.startswith("complex"):
        return (values + 1j * (values % 3)).astype(dtype)
    return values.astype(dtype)


def reference(stack, op):
    if op == "SUM":
        out = stack.sum(axis=0)
    elif op == "MAX":
        out = stack.max(axis=0)
    elif op == "MIN":
        out = stack.min(axis=0)
    elif op == "PROD":
        out = stack.prod(axis=0)
    else:
        out = stack.sum(axis=0) / stack.shape[0]
        if stack.dtype.kind not in "fc":
            out = np.trunc(out)
    return np.asarray(out).astype(stack.dtype)


def close(got, want, dtype):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                 want.dtype, want.shape)
    tol = {"float16": 1e-2, "float32": 1e-6, "complex64": 1e-6}.get(dtype, 1e-12)
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


def check_collectives(group, members):
    me = members.index(dist.get_rank())
    n = len(members)
    for dtype in DTYPES:
        for shape in SHAPES:
            stack = np.stack([data(r, dtype, shape) for r in range(n)])
            for name, op in OPS.items():
                if (name in ("MAX", "MIN") and dtype.startswith("complex")) or (
                        name == "AVG" and dtype == "bool"):
                    continue
                for sync in (True, False):
                    t = paddle.to_tensor(data(me, dtype, shape))
                    task = dist.all_reduce(t, op=op, group=group, sync_op=sync)
                    if not sync:
                        task.wait()
                    close(t.numpy(), reference(stack, name), dtype)
                t = paddle.to_tensor(data(me, dtype, shape))
                dist.reduce(t, dst=members[-1], op=op, group=group)
                close(t.numpy(), reference(stack, name) if me == n - 1 else stack[me], dtype)
                parts = [paddle.to_tensor(data(me, dtype, shape, salt=k)) for k in range(n)]
                rs_stack = np.stack([data(r, dtype, shape, salt=me) for r in range(n)])
                out = paddle.to_tensor(np.zeros(shape, dtype))
                dist.reduce_scatter(out, parts, op=op, group=group)
                close(out.numpy(), reference(rs_stack, name), dtype)
            t = paddle.to_tensor(data(me, dtype, shape))
            task = dist.broadcast(t, src=members[-1], group=group, sync_op=False)
            task.wait()
            close(t.numpy(), stack[-1], dtype)
            gathered = []
            dist.all_gather(gathered, paddle.to_tensor(data(me, dtype, shape)), group=group)
            assert len(gathered) == n
            for r in range(n):
                close(gathered[r].numpy(), stack[r], dtype)
            out = paddle.to_tensor(np.zeros(shape, dtype))
            pieces = [paddle.to_tensor(data(0, dtype, shape, salt=k)) for k in range(n)]
            dist.scatter(out, pieces if me == 0 else None, src=members[0], group=group)
            close(out.numpy(), data(0, dtype, shape, salt=me), dtype)
            gathered = []
            dist.gather(paddle.to_tensor(data(me, dtype, shape)), gathered if me == 0 else None,
                        dst=members[0], group=group)
            assert len(gathered) == (n if me == 0 else 0)
            for r, row in enumerate(gathered):
                close(row.numpy(), stack[r], dtype)
            if shape:  # alltoall_single splits axis 0: rank r sends r + k + 1 rows to rank k
                rows = np.concatenate([data(me, dtype, (me + k + 1,) + shape[1:], salt=k)
                                       for k in range(n)])
                out = paddle.to_tensor(np.zeros((sum(r + me + 1 for r in range(n)),)
                                                + shape[1:], dtype))
                dist.alltoall_single(out, paddle.to_tensor(rows),
                                     [me + k + 1 for k in range(n)],
                                     [r + me + 1 for r in range(n)], group=group)
                want = np.concatenate([data(r, dtype, (r + me + 1,) + shape[1:], salt=me)
                                       for r in range(n)])
                close(out.numpy(), want, dtype)
            received = []
            sent = [paddle.to_tensor(data(me, dtype, shape, salt=k)) for k in range(n)]
            dist.alltoall(received, sent, group=group)
            for r in range(n):
                close(received[r].numpy(), data(r, dtype, shape, salt=me), dtype)


def check_point_to_point():
    rank, n = dist.get_rank(), dist.get_world_size()
    for dtype in DTYPES:
        for shape in SHAPES:
            out = paddle.to_tensor(np.zeros(shape, dtype))
            send_task = dist.isend(paddle.to_tensor(data(rank, dtype, shape)), (rank + 1) % n)
            recv_task = dist.irecv(out, src=(rank - 1) % n)
            recv_task.wait()
            send_task.wait()
            close(out.numpy(), data((rank - 1) % n, dtype, shape), dtype)
    if rank == 0:
        dist.send(paddle.to_tensor([1.5, 2.5]), dst=1)
    elif rank == 1:
        t = paddle.zeros([2])
        dist.recv(t, src=0)
        close(t.numpy(), np.array([1.5, 2.5], np.float32), "float32")


def check_in_place_and_objects():
    rank, n = dist.get_rank(), dist.get_world_size()
    t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    same = t
    dist.all_reduce(t)
    assert same is t and not t.stop_gradient
    close(t.numpy(), np.array([n, 2.0 * n], np.float32), "float32")
    objects = []
    dist.all_gather_object(objects, {"rank": rank, "name": f"r{rank}"})
    assert objects == [{"rank": r, "name": f"r{r}"} for r in range(n)], objects
    items = [rank, "x"] if rank == 0 else [None, None]
    dist.broadcast_object_list(items, src=0)
    assert items == [0, "x"], items
    mine = []
    dist.scatter_object_list(mine, [f"for {r}" for r in range(n)] if rank == 0 else None, src=0)
    assert mine == [f"for {rank}"], mine


def main():
    env = dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    assert dist.is_initialized() and env.nranks == n and dist.ParallelEnv().rank == rank
    check_collectives(None, list(range(n)))
    print(f"rank {rank}: world collectives ok", flush=True)
    members = [1, n - 1] if n > 2 else [0, 1]
    group = dist.new_group(members)
    assert group.nranks == len(set(members))
    if rank in members:
        assert group.rank == members.index(rank) and group.is_member()
        check_collectives(group, sorted(set(members)))
    else:
        assert group.rank == -1 and not group.is_member()
        t = paddle.ones([2])
        dist.all_reduce(t, group=group)  # not a member: returns at once, untouched
        close(t.numpy(), np.ones(2, np.float32), "float32")
    dist.barrier()
    print(f"rank {rank}: group collectives ok", flush=True)
    check_point_to_point()
    check_in_place_and_objects()
    dist.barrier()
    print(f"rank {rank}: p2p and objects ok", flush=True)


if __name__ == "__main__":
    main()

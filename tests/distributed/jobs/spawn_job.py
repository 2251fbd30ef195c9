"""paddle.distributed.spawn of a function of this script: results and a failing rank."""
import numpy as np

import sampan as paddle
import sampan.distributed as dist


def train(scale, fail):
    dist.init_parallel_env()
    t = paddle.to_tensor([float(dist.get_rank() + 1)]) * scale
    dist.all_reduce(t)
    np.testing.assert_allclose(t.numpy(), [3.0 * scale])
    if fail and dist.get_rank() == 1:
        raise RuntimeError("spawned rank 1 fails")


if __name__ == "__main__":
    dist.spawn(train, args=(10.0, False), nprocs=2)
    print("spawn ok")
    try:
        dist.spawn(train, args=(1.0, True), nprocs=2)
    except RuntimeError as exc:
        assert "failed" in str(exc)
        print("spawn failure ok")

"""A job that fails in the way argv[1] names, while the other ranks wait in a collective."""
import os
import signal
import sys
import time

import sampan as paddle
import sampan.distributed as dist


def main(mode):
    dist.init_parallel_env()
    rank = dist.get_rank()
    if mode == "ok":
        t = paddle.to_tensor([float(rank)])
        dist.all_reduce(t)
        print(f"rank {rank}: sum {float(t)}", flush=True)
        return
    if mode == "shapes":
        dist.all_reduce(paddle.ones([2, rank + 1]))
    elif mode == "p2p_shapes":
        if rank == 0:
            dist.send(paddle.ones([3]), dst=1)
        elif rank == 1:
            dist.recv(paddle.ones([4]), src=0)
    elif rank == 1:
        time.sleep(0.3)
        if mode == "raise":
            raise ValueError("rank 1 fails on purpose")
        if mode == "sigkill":
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "exit":
            sys.exit(3)
        if mode == "stuck":  # reports a failure as a failing rank does, then never aborts
            with open(os.path.join(os.environ["SAMPAN_FAILURE_DIR"], "failed.1"), "w") as f:
                f.write("7")
            time.sleep(120)
        if mode == "hook_replaced":  # the script's own excepthook cannot keep the job alive
            sys.excepthook = lambda *exc: None
            raise ValueError("rank 1 fails under its own excepthook")
    dist.all_reduce(paddle.ones([2]))  # the others wait here for the failed rank
    time.sleep(60)


if __name__ == "__main__":
    main(sys.argv[1])

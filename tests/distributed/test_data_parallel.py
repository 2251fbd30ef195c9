"""DataParallel on two ranks equals one process on the whole batch (eager, to_static,
small buckets launched during backward, no_sync, unused parameters, Model.fit)."""
import numpy as np

import sampan as paddle

from .jobrunner import assert_ok, needs_mpi, run_job


@needs_mpi
def test_two_ranks_on_half_batches_equal_one_process_on_the_whole_batch():
    code, out = run_job("data_parallel_job.py", 2, timeout=240)
    assert_ok(code, out, [f"rank {r}: {what}" for r in range(2)
                          for what in ("eager", "small buckets", "unused parameters",
                                       "no_sync", "to_static", "Model.fit", "early launch")])


def test_one_rank_data_parallel_is_the_layer_itself():
    net = paddle.nn.Linear(3, 2)
    dp = paddle.DataParallel(net)
    x = paddle.ones([4, 3])
    np.testing.assert_array_equal(dp(x).numpy(), net(x).numpy())
    loss = dp.scale_loss(dp(x).mean())
    loss.backward()
    dp.apply_collective_grads()
    assert net.weight.grad is not None and dp._reducer is None
    with dp.no_sync():
        dp(x).mean().backward()
    assert set(dp.state_dict()) == set(net.state_dict())
    assert len(dp.parameters()) == 2


@needs_mpi
def test_collective_ops_in_programs_and_to_static():
    code, out = run_job("static_collectives_job.py", 2, timeout=180)
    assert_ok(code, out, [f"rank {r}: {what}" for r in range(2)
                          for what in ("static program", "to_static")])

"""Program partition: the pass itself (stages, inserted pairs, refusals) in one process,
and pipeline training of the partitioned parts on two ranks."""
import re

import pytest

import sampan as paddle
from sampan import static
from sampan.distributed.partition import op_stages, partition_program

from .jobrunner import assert_ok, needs_mpi, run_job


@needs_mpi
def test_two_stage_pipeline_with_micro_batches_equals_one_process():
    code, out = run_job("partition_job.py", 2, timeout=180)
    assert_ok(code, out, [f"rank {r}: {what}" for r in range(2)
                          for what in ("inserted pairs", "pipeline training")])


def _program(shared=False):
    main = static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, static.Program()):
            x = static.data("x", [3, 4], "float32")
            w = static.create_parameter([4, 4], "float32", name="w")
            with static.device_guard("cpu:0"):
                h = paddle.tanh(paddle.matmul(x, w))
            with static.device_guard("cpu:1"):
                loss = paddle.mean(paddle.matmul(h, w) if shared else h * h)
            paddle.optimizer.SGD(0.1).minimize(loss)
    finally:
        paddle.disable_static()
    return main


def test_stages_follow_device_guard_and_gradients_follow_their_forward_op():
    ops = _program().global_block().ops
    stages = dict(zip([op.type for op in ops], op_stages(ops)))
    assert stages["tanh"] == 0 and stages["tanh_grad"] == 0
    assert stages["mean"] == 1 and stages["mean_grad"] == 1
    assert stages["sgd"] == 0  # the update runs where w's gradient is made


def test_partition_inserts_tagged_pairs_in_program_order():
    parts = partition_program(_program())
    first, second = (str(p) for p in parts)
    assert re.search(r"send_v2\(inputs=\{x=\['tanh_\d+.tmp_0'\]\}", first), first
    assert "peer = 1" in first
    assert "recv_v2(inputs={}" in second and "out_shape = [3, 4]" in second
    assert first.count("tag = 0") == second.count("tag = 0") == 1
    assert first.count("tag = 1") == second.count("tag = 1") == 1  # the gradient back
    assert "tanh(" not in second and "mean(" not in first


def test_parameters_shared_between_stages_are_refused():
    with pytest.raises(NotImplementedError, match="shared between stages"):
        partition_program(_program(shared=True))

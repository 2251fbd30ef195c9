"""paddle.distributed in a process started alone: rank 0 of a world of one, no MPI."""
import subprocess
import sys

import numpy as np
import pytest

import sampan as paddle
import sampan.distributed as dist
from sampan.io import DistributedBatchSampler

from .jobrunner import REPO_ROOT


def test_single_process_world_and_collectives():
    env = dist.init_parallel_env()
    assert dist.is_initialized() and env.rank == 0 and env.nranks == 1
    assert dist.get_rank() == 0 and dist.get_world_size() == 1
    pe = dist.ParallelEnv()
    assert (pe.rank, pe.world_size, pe.local_rank, pe.device_id) == (0, 1, 0, 0)
    t = paddle.to_tensor([1.0, 2.0])
    task = dist.all_reduce(t, op=dist.ReduceOp.AVG, sync_op=False)
    assert task.wait() and task.is_completed()
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])
    gathered = []
    dist.all_gather(gathered, t)
    assert len(gathered) == 1 and gathered[0] is not t
    np.testing.assert_array_equal(gathered[0].numpy(), t.numpy())
    out = paddle.zeros([2])
    dist.scatter(out, [paddle.to_tensor([3.0, 4.0])], src=0)
    np.testing.assert_array_equal(out.numpy(), [3.0, 4.0])
    received = []
    dist.alltoall(received, [t])
    np.testing.assert_array_equal(received[0].numpy(), t.numpy())
    gathered = []
    dist.gather(t, gathered, dst=0)
    np.testing.assert_array_equal(gathered[0].numpy(), t.numpy())
    out = paddle.zeros([2])
    dist.alltoall_single(out, t)
    np.testing.assert_array_equal(out.numpy(), t.numpy())
    mine = []
    dist.scatter_object_list(mine, ["only"], src=0)
    assert mine == ["only"]
    objects = []
    dist.all_gather_object(objects, {"a": 1})
    assert objects == [{"a": 1}]
    group = dist.new_group([0])
    assert group.rank == 0 and group.nranks == 1 and dist.get_group(group.id) is group


def test_bad_arguments_are_clear_errors():
    t = paddle.to_tensor([1 + 2j])
    with pytest.raises(TypeError, match="MAX is not defined for complex64"):
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
    with pytest.raises(ValueError, match="src=3 is not a rank of group 0"):
        dist.broadcast(paddle.ones([1]), src=3)
    with pytest.raises(ValueError, match="expected a list of 1 tensors"):
        dist.reduce_scatter(paddle.ones([1]), [paddle.ones([1]), paddle.ones([1])])
    with pytest.raises(RuntimeError, match="no peer"):
        dist.send(paddle.ones([1]), dst=0)
    with pytest.raises(ValueError, match="ranks"):
        dist.new_group([0, 5])
    with pytest.raises(ValueError, match="in_split_sizes \\[1\\] must hold 1 sizes adding up"):
        dist.alltoall_single(paddle.zeros([2]), paddle.ones([2]), in_split_sizes=[1])


def test_paddle_launch_variables_without_mpiexec_are_refused():
    code = ("import os; os.environ['PADDLE_TRAINERS_NUM'] = '2'\n"
            "import sampan.distributed as d\n"
            "try:\n    d.init_parallel_env()\nexcept RuntimeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": REPO_ROOT}, check=True).stdout
    assert "not started by mpiexec" in out and "sampan.distributed.launch" in out


def test_distributed_batch_sampler_reads_rank_and_replicas_from_the_launcher(monkeypatch):
    monkeypatch.setenv("PMI_RANK", "1")
    monkeypatch.setenv("PMI_SIZE", "2")
    sampler = DistributedBatchSampler(list(range(8)), batch_size=2)
    assert (sampler.local_rank, sampler.nranks) == (1, 2)
    assert list(sampler) == [[2, 3], [6, 7]]


def test_import_sampan_does_not_import_mpi4py():
    code = "import sys, sampan, sampan.distributed as d; d.get_rank(); print('mpi4py' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": REPO_ROOT}, check=True).stdout
    assert out.strip() == "False"

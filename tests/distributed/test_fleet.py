"""fleet's collective mode: a two-rank job, and the strategy's refusals in one process."""
import pytest

from sampan.distributed import fleet

from .jobrunner import assert_ok, needs_mpi, run_job


@needs_mpi
def test_fleet_eager_and_static_data_parallel_equal_one_process():
    code, out = run_job("fleet_job.py", 2, timeout=180)
    assert_ok(code, out, [f"rank {r}: {what}" for r in range(2)
                          for what in ("workers", "eager", "static")])


def test_strategy_refuses_unknown_fields_and_unsupported_features():
    strategy = fleet.DistributedStrategy()
    strategy.fuse_grad_size_in_MB = 8
    strategy.hybrid_configs = {"dp_degree": 1}
    assert strategy.fuse_grad_size_in_MB == 8 and strategy.hybrid_configs["mp_degree"] == 1
    with pytest.raises(TypeError, match="fuse_grad_size is not a field"):
        strategy.fuse_grad_size = 8
    strategy.recompute = True
    with pytest.raises(NotImplementedError, match="recompute is not supported"):
        fleet.init(is_collective=True, strategy=strategy)
    strategy.recompute = False
    strategy.hybrid_configs = {"mp_degree": 2}
    with pytest.raises(NotImplementedError, match="only data parallelism"):
        fleet.init(is_collective=True, strategy=strategy)
    with pytest.raises(NotImplementedError, match="parameter-server"):
        fleet.init()

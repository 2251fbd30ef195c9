"""Launching jobs (mpiexec, the launcher, spawn) and how they end when a rank fails:
every rank ends within seconds, the failing rank's traceback is shown, the status is
non-zero; a shape mismatch in a collective is an error naming the shapes, not a hang."""
import os
import sys
import time

from .jobrunner import JOBS, assert_ok, needs_mpi, run, run_job

pytestmark = needs_mpi
LAUNCH = [sys.executable, "-m", "sampan.distributed.launch"]


def _timed_job(mode, nprocs=2):
    start = time.monotonic()
    code, out = run_job("failure_job.py", nprocs, [mode], timeout=60)
    return code, out, time.monotonic() - start


def test_a_rank_that_raises_ends_the_job_with_its_traceback():
    code, out, seconds = _timed_job("raise")
    assert code != 0 and seconds < 30
    assert "ValueError: rank 1 fails on purpose" in out and "failure_job.py" in out


def test_a_rank_killed_by_sigkill_ends_the_job():
    code, out, seconds = _timed_job("sigkill")
    assert code != 0 and seconds < 30


def test_mismatched_shapes_name_both_shapes():
    code, out, seconds = _timed_job("shapes")
    assert code != 0 and seconds < 30
    assert "float32[2, 1]" in out and "float32[2, 2]" in out and "all_reduce" in out


def test_mismatched_point_to_point_shapes_name_both_shapes():
    code, out, seconds = _timed_job("p2p_shapes")
    assert code != 0 and seconds < 30
    assert "float32[3]" in out and "float32[4]" in out


def test_launcher_runs_ranks_and_writes_logs(tmp_path):
    code, out = run([*LAUNCH, "--nproc_per_node=2", "--log_dir", str(tmp_path),
                     os.path.join(JOBS, "failure_job.py"), "ok"], timeout=60)
    assert code == 0, out
    logs = [(tmp_path / f"workerlog.{r}").read_text() for r in range(2)]
    assert "rank 0: sum 1.0" in logs[0] and "rank 1: sum 1.0" in logs[1]


def test_launcher_exit_status_and_traceback_of_a_failing_rank(tmp_path):
    start = time.monotonic()
    code, out = run([*LAUNCH, "--nproc_per_node", "2", "--log_dir", str(tmp_path),
                     os.path.join(JOBS, "failure_job.py"), "raise"], timeout=60)
    assert code != 0 and time.monotonic() - start < 30
    assert "rank 1 failed" in out and "ValueError: rank 1 fails on purpose" in out
    code, out = run([*LAUNCH, "--nproc_per_node", "2", os.path.join(JOBS, "failure_job.py"),
                     "exit"], timeout=60)
    assert code == 3 and "exited with status 3" in out


def test_launcher_watchdog_ends_a_job_whose_abort_did_not(tmp_path):
    start = time.monotonic()
    code, out = run([*LAUNCH, "--nproc_per_node", "2", os.path.join(JOBS, "failure_job.py"),
                     "stuck"], timeout=90)
    assert code == 7 and time.monotonic() - start < 40, out
    assert "failed.1 reported a failure" in out


def test_a_script_replacing_excepthook_still_ends_the_job():
    start = time.monotonic()
    code, out = run([*LAUNCH, "--nproc_per_node", "2", os.path.join(JOBS, "failure_job.py"),
                     "hook_replaced"], timeout=60)
    assert code != 0 and time.monotonic() - start < 30
    assert "rank 1 fails under its own excepthook" in out


def test_spawn_runs_a_function_in_every_rank_and_reports_failures():
    code, out = run([sys.executable, os.path.join(JOBS, "spawn_job.py")], timeout=90)
    assert_ok(code, out, ["spawn", "spawn failure"])


def test_every_collective_matches_numpy_on_two_ranks():
    code, out = run_job("collectives_job.py", 2, timeout=180)
    assert_ok(code, out, [f"rank {r}: {what}" for r in range(2)
                          for what in ("world collectives", "group collectives",
                                       "p2p and objects")])


def test_every_collective_matches_numpy_on_four_oversubscribed_ranks():
    code, out = run_job("collectives_job.py", 4, timeout=300)
    assert_ok(code, out, [f"rank {r}: {what}" for r in range(4)
                          for what in ("world collectives", "group collectives",
                                       "p2p and objects")])


def test_data_parallel_digits_example_trains_on_two_ranks():
    code, out = run([*LAUNCH, "--nproc_per_node", "2",
                     os.path.join(os.path.dirname(JOBS), "..", "..", "examples",
                                  "data_parallel_digits.py")], timeout=300)
    assert code == 0, out
    assert "weights identical on every rank" in out

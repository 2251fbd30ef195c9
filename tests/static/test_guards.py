"""paddle.static.cpu_places, name_scope and device_guard."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static


def test_cpu_places(monkeypatch):
    assert static.cpu_places(3) == [paddle.CPUPlace()] * 3
    monkeypatch.delenv("CPU_NUM", raising=False)
    assert static.cpu_places() == [paddle.CPUPlace()]
    monkeypatch.setenv("CPU_NUM", "2")
    assert len(static.cpu_places()) == 2


def test_guards_build_and_run_a_program():
    paddle.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [2], "float32")
            with static.name_scope("block"), static.device_guard("cpu"):
                y = x * 2.0
            with static.device_guard():
                z = y + 1.0
        out, = static.Executor().run(main, feed={"x": np.ones(2, "float32")}, fetch_list=[z])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, [3.0, 3.0])


@pytest.mark.parametrize("device", ["gpu", "gpu:0", "GPU:1", "cpu:1"])
def test_device_guard_accepts_gpu_and_runs_on_the_cpu(device):
    """As a CPU build of Paddle does: the guarded ops still run."""
    main = static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main), static.device_guard(device):
            x = static.data("x", [2], "float32")
            y = x * 2.0
    finally:
        paddle.disable_static()
    (out,) = static.Executor().run(main, feed={"x": np.ones(2, "float32")}, fetch_list=[y])
    np.testing.assert_allclose(out, [2.0, 2.0])


@pytest.mark.parametrize("device", ["tpu", "gpu:x", "cpu:-1"])
def test_device_guard_rejects_unknown_devices(device):
    with pytest.raises(ValueError, match="device must be"):
        with static.device_guard(device):
            pass


def test_name_scope_rejects_non_string():
    with pytest.raises(TypeError):
        with static.name_scope(3):
            pass


def test_device_guard_records_the_stage_on_ops_and_their_gradients():
    """Each op built under device_guard('cpu:K') carries op_device 'cpu:K' (the pipeline
    stage program partitioning reads; Paddle refuses an index on 'cpu', sampan takes it
    as it takes 'gpu:K'); gradient ops inherit their forward op's device."""
    main = static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, static.Program()):
            x = static.data("x", [2], "float32")
            x.stop_gradient = False
            with static.device_guard("cpu:0"):
                y = paddle.tanh(x)
            with static.device_guard("cpu:1"):
                loss = (y * y).sum()
            static.append_backward(loss)
    finally:
        paddle.disable_static()
    devices = [(op.type, op.attrs.get("op_device")) for op in main.global_block().ops]
    assert devices[:2] == [("tanh", "cpu:0"), ("multiply", "cpu:1")]
    grads = dict(devices[3:])
    assert grads["tanh_grad"] == "cpu:0" and grads["multiply_grad"] == "cpu:1"
    assert grads["full_like"] == "cpu:1"  # the seed of loss@GRAD, where loss is made

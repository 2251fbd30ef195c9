"""paddle.static.amp on the CPU: scripts using fp16_guard, the op lists and decorate run, and
train exactly as their float32 form (sampan computes in float32); the op lists check their
input. Also paddle.static.nn.control_flow as a module."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.static import amp

RNG = np.random.default_rng(0)
XS = RNG.standard_normal((16, 4)).astype("float32")
YS = XS.sum(1, keepdims=True)


def _train(use_amp, steps=3):
    paddle.seed(1)
    main, start = static.Program(), static.Program()
    with static.program_guard(main, start):
        x = static.data("x", [None, 4], "float32")
        y = static.data("y", [None, 1], "float32")
        with amp.fp16_guard():
            h = static.nn.fc(x, 8, activation="relu")
        loss = paddle.mean((static.nn.fc(h, 1) - y) ** 2)
        opt = paddle.optimizer.SGD(0.1)
        if use_amp:
            lists = amp.CustomOpLists(custom_black_list=["reduce_mean"])
            opt = amp.decorate(opt, lists, init_loss_scaling=128.0)
        opt.minimize(loss)
    exe = static.Executor(paddle.CPUPlace())
    exe.run(start)
    if use_amp:
        opt.amp_init(paddle.CPUPlace())
        assert opt.get_loss_scaling() == 128.0 and opt.get_scaled_loss() is loss
    return [exe.run(main, feed={"x": XS, "y": YS}, fetch_list=[loss])[0] for _ in range(steps)]


def test_decorated_static_training_equals_float32_training():
    paddle.enable_static()
    try:
        plain, mixed = _train(False), _train(True)
    finally:
        paddle.disable_static()
    assert plain[-1] < plain[0]
    np.testing.assert_array_equal(plain, mixed)
    assert all(v.dtype == np.float32 for v in mixed)


def test_op_lists_move_custom_ops_and_reject_contradictions():
    lists = amp.AutoMixedPrecisionLists(custom_white_list=["mean"], custom_black_list=["matmul"])
    assert "mean" in lists.white_list and "mean" not in lists.black_list
    assert "matmul" in lists.black_list and "matmul" not in lists.white_list
    with pytest.raises(ValueError, match=r"\['relu'\] in both the custom white and black"):
        amp.CustomOpLists(custom_white_list=["relu"], custom_black_list=["relu"])
    assert amp.bf16.AutoMixedPrecisionListsBF16().amp_dtype == "bfloat16"


def test_control_flow_module_holds_the_control_flow_functions():
    from sampan.static.nn.control_flow import cond, switch_case, while_loop
    assert cond is static.nn.cond and while_loop is static.nn.while_loop
    assert switch_case is static.nn.switch_case
    assert static.nn.control_flow.Assert is not None

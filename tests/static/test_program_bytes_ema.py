"""Program and persistable serialization to bytes, ExponentialMovingAverage, the device
place helpers of a CPU-only build, the IPU stubs and WeightNormParamAttr."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.serialization import CorruptFileError


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _model():
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 4], "float32")
        w = static.create_parameter([4, 3], "float32", name="w")
        y = paddle.tanh(paddle.matmul(x, w))
        loss = y.mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    return main, startup, x, y


def test_program_and_persistables_round_trip(static_mode, tmp_path):
    main, startup, x, y = _model()
    exe = static.Executor()
    exe.run(startup)
    feed = {"x": np.arange(8, dtype="float32").reshape(2, 4) / 8}
    want, = exe.run(main, feed=feed, fetch_list=[y])
    program_bytes = static.serialize_program([x], [y], program=main)
    state_bytes = static.serialize_persistables([x], [y], exe, program=main)
    assert isinstance(program_bytes, bytes) and isinstance(state_bytes, bytes)
    static.save_to_file(str(tmp_path / "m.pdmodel"), program_bytes)
    static.save_to_file(str(tmp_path / "m.pdiparams"), state_bytes)
    expected = np.asarray(static.global_scope().find_var("w").get_tensor())
    with static.scope_guard(static.Scope()):
        program = static.deserialize_program(static.load_from_file(str(tmp_path / "m.pdmodel")))
        assert [op.type for op in program.global_block().ops] == ["matmul", "tanh"]
        static.deserialize_persistables(program, static.load_from_file(
            str(tmp_path / "m.pdiparams")), exe)
        np.testing.assert_array_equal(
            np.asarray(static.global_scope().find_var("w").get_tensor()), expected)
        got, = exe.run(program, feed=feed, fetch_list=[y.name])
    np.testing.assert_allclose(got, np.tanh(feed["x"] @ expected), rtol=1e-6)
    assert want.shape == got.shape


def test_normalize_program_prunes_training_ops(static_mode):
    main, _, x, y = _model()
    normalized = static.normalize_program(main, [x], [y])
    assert [op.type for op in normalized.global_block().ops] == ["matmul", "tanh"]
    assert len(main.global_block().ops) > 2


def test_deserialize_persistables_checks_shapes_and_names(static_mode):
    main, startup, x, y = _model()
    program = static.normalize_program(main, [x], [y])
    bad_shape = paddle.serialization.dumps_tree({"w": np.zeros((3, 4), "float32")})
    with pytest.raises(ValueError, match="'w'"):
        static.deserialize_persistables(program, bad_shape, None)
    with pytest.raises(KeyError, match="w"):
        static.deserialize_persistables(program, paddle.serialization.dumps_tree({}), None)
    with pytest.raises(CorruptFileError):
        static.deserialize_persistables(program, b"not a state file", None)


def test_bytes_api_bad_arguments(static_mode, tmp_path):
    main, _, x, y = _model()
    with pytest.raises(TypeError, match="'content'"):
        static.save_to_file(str(tmp_path / "f"), "text")
    with pytest.raises(TypeError, match="'data'"):
        static.deserialize_program("text")
    with pytest.raises(TypeError, match="'feed_vars'"):
        static.normalize_program(main, ["x"], [y])
    with pytest.raises(TypeError, match="'fetch_vars'"):
        static.serialize_program([x], [], program=main)
    with pytest.raises(TypeError, match="Program"):
        static.normalize_program("main", [x], [y])
    with pytest.raises(static.serialize.ProgramFormatError):
        static.deserialize_program(b"\xff\xfe")


def test_exponential_moving_average_matches_numpy(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 2], "float32")
        w = static.create_parameter([2, 1], "float32", name="w_ema_test")
        loss = paddle.matmul(x, w).mean()
        paddle.optimizer.SGD(0.5).minimize(loss)
        ema = static.ExponentialMovingAverage(0.9)
        ema.update()
    exe = static.Executor()
    scope = static.Scope()
    with static.scope_guard(scope):
        exe.run(startup)
        feed = {"x": np.array([[1.0, 2.0]], "float32")}
        shadow = np.zeros((2, 1))
        for _ in range(3):
            exe.run(main, feed=feed)
            current = np.asarray(scope.find_var("w_ema_test").get_tensor()).copy()
            shadow = 0.9 * shadow + 0.1 * current
        with ema.apply(exe):
            applied = np.asarray(scope.find_var("w_ema_test").get_tensor()).copy()
        restored = np.asarray(scope.find_var("w_ema_test").get_tensor())
        np.testing.assert_allclose(applied, shadow / (1 - 0.9 ** 3), rtol=1e-5)
        np.testing.assert_array_equal(restored, current)
        with ema.apply(exe, need_restore=False):
            pass
        np.testing.assert_allclose(np.asarray(scope.find_var("w_ema_test").get_tensor()),
                                   shadow / (1 - 0.9 ** 3), rtol=1e-5)
        ema.restore(exe)
        np.testing.assert_array_equal(np.asarray(scope.find_var("w_ema_test").get_tensor()),
                                      current)


def test_exponential_moving_average_thres_steps_lowers_decay(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        static.create_parameter([1], "float32", name="p_thres",
                                default_initializer=lambda s, d: np.full(s, 2.0))
        step = static.create_global_var([1], 0.0, "float32", persistable=True, name="t")
        ema = static.ExponentialMovingAverage(0.999, thres_steps=step)
        ema.update()
    exe = static.Executor()
    with static.scope_guard(static.Scope()):
        exe.run(startup)
        exe.run(main)
        decay = np.asarray(static.global_scope().find_var(ema._decay_var.name).get_tensor())
    np.testing.assert_allclose(decay, [0.1], rtol=1e-6)


def test_exponential_moving_average_errors():
    with pytest.raises(RuntimeError, match="dygraph"):
        static.ExponentialMovingAverage()
    paddle.enable_static()
    try:
        with pytest.raises(ValueError, match="'decay'"):
            static.ExponentialMovingAverage(1.5)
        with pytest.raises(TypeError, match="'thres_steps'"):
            static.ExponentialMovingAverage(0.9, thres_steps=3)
    finally:
        paddle.disable_static()


def test_cuda_and_xpu_places_fail_as_in_a_cpu_build():
    with pytest.raises(AssertionError, match="Not compiled with CUDA"):
        static.cuda_places()
    with pytest.raises(AssertionError, match="Not compiled with XPU"):
        static.xpu_places([0])


def test_ipu_entry_points_fail_as_without_ipu():
    with pytest.raises(ValueError, match="not compiled with IPU"):
        with static.ipu_shard_guard(index=0, stage=0):
            pass
    wrapped = static.set_ipu_shard(lambda v: v, index=1)
    with pytest.raises(ValueError, match="not compiled with IPU"):
        wrapped(1)
    with pytest.raises(TypeError):
        static.set_ipu_shard(3)
    with pytest.raises(RuntimeError, match="WITH_IPU=ON"):
        static.IpuStrategy()
    with pytest.raises(ValueError, match="not compiled with IPU"):
        static.IpuCompiledProgram(static.Program())


def test_weight_norm_param_attr_fields():
    attr = static.WeightNormParamAttr(dim=0, name="w", learning_rate=0.5)
    assert (attr.dim, attr.name, attr.learning_rate, attr.trainable, attr.do_model_average,
            attr.need_clip) == (0, "w", 0.5, True, False, True)
    with pytest.raises(TypeError, match="'dim'"):
        static.WeightNormParamAttr(dim="0")

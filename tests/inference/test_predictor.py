"""create_predictor / Config and static save_inference_model / load_inference_model."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn, static
from sampan.inference import Config, create_predictor
from sampan.jit.save_load import save
from sampan.static import InputSpec
from sampan.static.io import load_inference_model, save_inference_model


def mlp():
    paddle.seed(3)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 2))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("pred") / "mlp"
    model = mlp()
    save(model, prefix, input_spec=[InputSpec([None, 6], "float32", "features")])
    model.eval()
    return str(prefix), model


def rows(n):
    return np.random.default_rng(n).normal(size=(n, 6)).astype("float32")


@pytest.mark.parametrize("ir_optim", [True, False])
def test_predictor_matches_the_layer_for_any_batch(saved, ir_optim):
    prefix, model = saved
    config = Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_gpu()
    config.switch_ir_optim(ir_optim)
    config.enable_memory_optim()
    config.set_cpu_math_library_num_threads(1)
    predictor = create_predictor(config)
    assert predictor.get_input_names() == ["features"]
    (out_name,) = predictor.get_output_names()
    handle = predictor.get_input_handle("features")
    for n in (1, 7, 64):
        handle.reshape([n, 6])
        handle.copy_from_cpu(rows(n))
        assert handle.shape() == [n, 6]
        predictor.run()
        got = predictor.get_output_handle(out_name).copy_to_cpu()
        np.testing.assert_allclose(got, model(paddle.to_tensor(rows(n))).numpy(),
                                   rtol=1e-6, atol=1e-6)


def test_prefix_config_list_run_clone_and_input_errors(saved):
    prefix, model = saved
    predictor = create_predictor(Config(prefix))
    (out,) = predictor.run([rows(3)])
    np.testing.assert_allclose(out, model(paddle.to_tensor(rows(3))).numpy(), rtol=1e-6,
                               atol=1e-6)
    other = predictor.clone()
    other.run([rows(2)])
    assert predictor.get_output_handle(predictor.get_output_names()[0]).shape() == [3, 2]
    handle = predictor.get_input_handle("features")
    with pytest.raises(TypeError, match="dtype"):
        handle.copy_from_cpu(rows(2).astype("float64"))
    with pytest.raises(ValueError, match="rank"):
        handle.copy_from_cpu(np.zeros((2, 5, 1), "float32"))
    handle.copy_from_cpu(np.zeros((2, 5), "float32"))
    with pytest.raises(ValueError, match=r"dimension 1\): op matmul cannot take it"):
        predictor.run()
    with pytest.raises(FileNotFoundError):
        create_predictor(Config(prefix + "_missing"))


def test_static_save_and_load_inference_model(tmp_path):
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 3], "float32")
            weight = static.create_parameter([3, 4], "float32")
            hidden = nn.functional.relu(paddle.matmul(x, weight))
            loss_only = paddle.mean(hidden)
            out = hidden * 2.0
    finally:
        paddle.disable_static()
    exe = static.Executor()
    scope = static.Scope()
    feed = {"x": rows(5)[:, :3].copy()}
    with static.scope_guard(scope):
        exe.run(startup)
        (expected,) = exe.run(main, feed=feed, fetch_list=[out])
        save_inference_model(str(tmp_path / "inf"), [x], [out], exe, program=main)
    with static.scope_guard(static.Scope()):
        program, feeds, fetches = load_inference_model(str(tmp_path / "inf"), exe)
        assert feeds == ["x"] and [f.name for f in fetches] == [out.name]
        assert loss_only.name not in program.global_block().vars
        (got,) = exe.run(program, feed=feed, fetch_list=fetches)
    np.testing.assert_array_equal(got, expected)
    predictor = create_predictor(Config(str(tmp_path / "inf")))
    np.testing.assert_array_equal(predictor.run([feed["x"]])[0], expected)


def test_save_inference_model_finds_the_fetch_variables_program(tmp_path):
    """Without `program=`, the program the fetch variables were built in is saved, not the
    (empty) default main program."""
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 3], "float32")
            out = paddle.tanh(x) * 3.0
    finally:
        paddle.disable_static()
    exe = static.Executor()
    save_inference_model(str(tmp_path / "m"), [x], [out], exe)
    program, feeds, fetches = load_inference_model(str(tmp_path / "m"), exe)
    feed = rows(4)[:, :3].copy()
    (got,) = exe.run(program, feed={feeds[0]: feed}, fetch_list=fetches)
    np.testing.assert_allclose(got, np.tanh(feed) * 3.0, rtol=1e-6)

"""`jit.save(..., format="paddle")` and `save(..., format="paddle")`: files real Paddle
reads. fixtures/sampan_export holds sampan's files and what Paddle 3.3.1 computed from them
(made by fixtures/paddle_reads_sampan.py); sampan must agree with Paddle on them, and
still write the same programs today."""
import json
import pathlib
import sys

import numpy as np
import pytest

import sampan as paddle
from sampan.inference import Config, create_predictor
from sampan.static import InputSpec

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from sampan_models import models  # noqa: E402

EXPORTS = pathlib.Path(__file__).parent / "fixtures" / "sampan_export"
MODELS = models()


@pytest.mark.parametrize("name", sorted(MODELS))
def test_paddle_inference_agrees_with_sampan_on_sampan_files(name):
    prefix = EXPORTS / name
    x = np.load(f"{prefix}.input.npy")
    paddle_out = np.load(f"{prefix}.paddle.npz")["output"]
    ours = paddle.jit.load(str(prefix))(paddle.to_tensor(x)).numpy()
    np.testing.assert_allclose(ours, paddle_out, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_paddle_load_reads_sampan_checkpoints(name):
    recorded = np.load(EXPORTS / f"{name}.paddle.npz")
    state = paddle.load(EXPORTS / f"{name}.pdparams", return_numpy=True)
    paddle_state = {k.split(":", 1)[1]: recorded[k] for k in recorded.files
                    if k.startswith("state:")}
    assert sorted(state) == sorted(paddle_state)
    for key, value in state.items():
        np.testing.assert_array_equal(value, paddle_state[key])


@pytest.mark.parametrize("name", sorted(MODELS))
def test_sampan_still_writes_the_checked_programs(tmp_path, name):
    layer, specs, _ = MODELS[name]
    paddle.jit.save(layer, tmp_path / name, input_spec=specs, format="paddle")
    written = json.loads((tmp_path / f"{name}.json").read_text())
    checked = json.loads((EXPORTS / f"{name}.json").read_text())
    assert written == checked


@pytest.mark.parametrize("name", sorted(MODELS))
def test_round_trip_through_paddle_format(tmp_path, name):
    layer, specs, x = MODELS[name]
    prefix = tmp_path / name
    paddle.jit.save(layer, prefix, input_spec=specs, format="paddle")
    assert not (tmp_path / f"{name}.pdmodel").exists()
    want = layer(paddle.to_tensor(x)).numpy()
    np.testing.assert_allclose(paddle.jit.load(str(prefix))(paddle.to_tensor(x)).numpy(),
                               want, rtol=1e-5, atol=1e-7)
    predictor = create_predictor(Config(f"{prefix}.json", f"{prefix}.pdiparams"))
    np.testing.assert_allclose(predictor.run([x])[0], want, rtol=1e-5, atol=1e-7)
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(str(prefix), exe)
        got = exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)[0]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


class Unexportable(paddle.nn.Layer):
    def forward(self, x):
        if x.mean() > 0:
            y = paddle.cumprod(x, 0)     # inside a branch: sub-blocks are checked too
        else:
            y = x * 2.0
        return paddle.kthvalue(y, 1)[0]


def test_ops_without_a_paddle_form_are_all_named(tmp_path):
    with pytest.raises(ValueError, match="cannot be written for Paddle") as info:
        paddle.jit.save(Unexportable(), tmp_path / "m",
                        input_spec=[InputSpec([2, 3], "float32", "x")], format="paddle")
    assert "cumprod" in str(info.value) and "cond" not in str(info.value)
    assert not list(tmp_path.iterdir())


def test_unknown_jit_save_format_is_refused(tmp_path):
    with pytest.raises(ValueError, match="format"):
        paddle.jit.save(paddle.nn.Linear(2, 2), tmp_path / "m",
                        input_spec=[InputSpec([1, 2], "float32", "x")], format="onnx")

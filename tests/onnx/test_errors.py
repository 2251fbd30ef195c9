"""What cannot export is reported clearly and all at once; opsets; the coverage table."""
import importlib.util
import pathlib

import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.interop import UnsupportedOnnxOp
from sampan.static import InputSpec

from .harness import assert_same, export, node_types

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Unmappable(nn.Layer):
    """Two ops with no ONNX mapping (inv, cumprod) and one adaptive pool ONNX cannot
    express (its input size is unknown)."""

    def forward(self, x):
        pooled = nn.functional.adaptive_avg_pool2d(x, 3)
        inverse = paddle.linalg.inv(x[:, 0, :4, :4])
        return pooled.sum() + inverse.sum() + paddle.cumprod(x.flatten(), 0).sum()


def test_every_unmapped_op_and_problem_is_listed_at_once(tmp_path):
    spec = [InputSpec([None, 2, None, 5], "float32", "x")]
    with pytest.raises(UnsupportedOnnxOp) as info:
        paddle.onnx.export(Unmappable(), str(tmp_path / "m"), spec)
    err = info.value
    assert err.ops == ["cumprod", "inv"]
    assert len(err.problems) == 1 and "adaptive pooling" in err.problems[0]
    assert "test_errors.py" in err.problems[0]          # the user's source line
    assert "cumprod, inv" in str(err)
    assert not (tmp_path / "m.onnx").exists()


class LastAxisOnly(nn.Layer):
    def forward(self, x):
        return nn.functional.softmax(x, axis=1)


def test_opset_is_raised_to_what_the_ops_need(tmp_path):
    spec = [InputSpec([None, 3, 4], "float32", "x")]
    model, session = export(LastAxisOnly(), spec, tmp_path, opset=9)
    assert model.opset_import[0].version == 13
    assert_same(LastAxisOnly(), session, [np.random.rand(2, 3, 4).astype("float32")])


def test_too_low_opset_without_upgrade_names_the_op(tmp_path):
    spec = [InputSpec([None, 3, 4], "float32", "x")]
    with pytest.raises(ValueError, match=r"opset_version 11 is too low: softmax needs "
                                         r"opset 13 \(softmax over an axis other"):
        paddle.onnx.export(LastAxisOnly(), str(tmp_path / "m"), spec, opset_version=11,
                           auto_upgrade_opset=False)


@pytest.mark.parametrize("opset", [6, 22, "13"])
def test_opset_out_of_range(tmp_path, opset):
    with pytest.raises(ValueError, match="opset_version must be an int from 7 to 21"):
        paddle.onnx.export(nn.Linear(2, 2), str(tmp_path / "m"),
                           [InputSpec([None, 2], "float32")], opset_version=opset)


def test_bad_path_and_configs(tmp_path):
    spec = [InputSpec([None, 2], "float32")]
    with pytest.raises(ValueError, match="empty file prefix"):
        paddle.onnx.export(nn.Linear(2, 2), str(tmp_path) + "/", spec)
    with pytest.raises(TypeError, match=r"unsupported config\(s\) \['colour'\]"):
        paddle.onnx.export(nn.Linear(2, 2), str(tmp_path / "m"), spec, colour=1)


def test_paddle_signature():
    import inspect
    sig = inspect.signature(paddle.onnx.export)
    assert list(sig.parameters) == ["layer", "path", "input_spec", "opset_version", "configs"]
    assert sig.parameters["opset_version"].default == 9


def test_output_spec_keeps_chosen_outputs(tmp_path):
    class TwoOut(nn.Layer):
        def forward(self, x):
            return x * 2.0, x + 1.0
    spec = [InputSpec([None, 2], "float32", "x")]
    model, session = export(TwoOut(), spec, tmp_path, output_spec=[1])
    x = np.ones([3, 2], "float32")
    (out,) = session.run(None, {"x": x})
    np.testing.assert_allclose(out, x + 1.0)
    assert "Mul" not in node_types(model.graph)


def test_loaded_layer_exports(tmp_path):
    layer = nn.Sequential(nn.Linear(3, 4), nn.GELU())
    spec = [InputSpec([None, 3], "float32", "x")]
    paddle.jit.save(layer, str(tmp_path / "saved"), spec)
    loaded = paddle.jit.load(str(tmp_path / "saved"))
    _, session = export(loaded, None, tmp_path)
    assert_same(layer, session, [np.random.rand(2, 3).astype("float32")])


def test_import_sampan_does_not_import_onnx():
    import subprocess
    import sys
    code = "import sys, sampan; sampan.onnx; print('onnx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)}).stdout
    assert out.strip() == "False"


def test_coverage_table_in_docs_is_current():
    spec = importlib.util.spec_from_file_location("gen", ROOT / "tools" / "gen_interop_docs.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = (ROOT / "docs" / "interop.md").read_text()
    assert gen.render(text) == text, "run python tools/gen_interop_docs.py"

"""Models real Paddle 3.3.1 exported (tests/interop/fixtures: PIR and legacy formats),
loaded by sampan and exported to ONNX, compute in onnxruntime what Paddle Inference computed; their tensor
`if` / `while` (the legacy `conditional_block` pairs and `while`) become If / Loop."""
import numpy as np
import pytest

import sampan as paddle

from ..interop.test_paddle_models import FIXTURES, LEGACY, PIR, all_cases
from .harness import export, node_types

CONTROL_FLOW = {"mlp_if": {"If"}, "while_loop": {"Loop"}, "static_control_flow": {"If", "Loop"},
                "list_loop": {"Loop", "SequenceInsert", "ConcatFromSequence"},
                "static_tensor_array": {"Loop", "SequenceAt", "SequenceLength"},
                "static_switch_case": {"If"}}


@pytest.mark.parametrize("folder,name", [(folder, n) for folder, names in (("pir", PIR),
                                                                         ("legacy", LEGACY))
                                         for n in names])
def test_paddle_written_model_exports_to_onnx(tmp_path, folder, name):
    prefix = str(FIXTURES / folder / name)
    loaded = paddle.jit.load(prefix)
    model, session = export(loaded, None, tmp_path)
    assert CONTROL_FLOW.get(name, set()) <= set(node_types(model.graph))
    for inputs, expected in all_cases(prefix):   # each branch, several trip counts
        feeds = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
        outputs = session.run(None, feeds)
        assert len(outputs) == len(expected)
        for got, want in zip(outputs, expected):
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

"""Export to ONNX, run in onnxruntime, compare with sampan (shared by the ONNX tests)."""
import numpy as np
import pytest

import sampan as paddle

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


def export(layer, specs, tmp_path, opset=9, **configs):
    """Export to tmp_path/model.onnx; the loaded, checked ModelProto and an ORT session."""
    prefix = str(tmp_path / "model")
    paddle.onnx.export(layer, prefix, specs, opset_version=opset, **configs)
    model = onnx.load(prefix + ".onnx")
    onnx.checker.check_model(model, full_check=True)
    return model, ort.InferenceSession(prefix + ".onnx", providers=["CPUExecutionProvider"])


def run_both(layer, session, arrays):
    """(onnxruntime's outputs, sampan's outputs) on the same input arrays."""
    feeds = {i.name: a for i, a in zip(session.get_inputs(), arrays)}
    got = session.run(None, feeds)
    want = layer(*[paddle.to_tensor(a) for a in arrays])
    want = list(want) if isinstance(want, (list, tuple)) else [want]
    # a Python int (dynamic array_length, as in Paddle) is the exported [1] int64 tensor
    return got, [w.numpy() if hasattr(w, "numpy") else np.array([w]) for w in want]


def assert_same(layer, session, arrays, rtol=1e-4, atol=1e-5):
    got, want = run_both(layer, session, arrays)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def node_types(graph):
    """Every node type in a graph and its sub-graphs."""
    types = set()
    for node in graph.node:
        types.add(node.op_type)
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                types |= node_types(attr.g)
    return types

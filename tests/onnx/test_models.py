"""Models exported to ONNX compute in onnxruntime what they compute in sampan (rtol 1e-4),
at two batch sizes from one file (the batch dim is symbolic)."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.static import InputSpec
from sampan.vision import models

from ..interop import sampan_models
from ..interop.text_models import text_models
from .harness import assert_same, export, node_types


TextRNN, Encoder = text_models(nn)


class ArrayLoop(nn.Layer):
    """A while_loop carrying a tensor array it writes each step, read after the loop."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        steps = paddle.full([1], 3, "int64")
        items = paddle.tensor.create_array("float32")

        def body(i, h, items):
            h = paddle.tanh(self.fc(h))
            return i + 1, h, paddle.tensor.array_write(h, i, items)
        _, h, items = paddle.static.nn.while_loop(
            lambda i, h, items: i < steps, body, [paddle.zeros([1], "int64"), x, items])
        first = paddle.tensor.array_read(items, paddle.zeros([1], "int64"))
        return first + h, paddle.tensor.array_length(items)


def _images(channels, size):
    rng = np.random.RandomState(0)
    return [rng.rand(n, channels, size, size).astype("float32") for n in (1, 3)]


def _ids():
    rng = np.random.RandomState(1)
    return [rng.randint(0, 50, (n, 6)).astype("int64") for n in (2, 5)]


def _cases():
    paddle.seed(3)
    image32 = [InputSpec([None, 3, 32, 32], "float32", "image")]
    ids = [InputSpec([None, 6], "int64", "ids")]
    mlp = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8), nn.Tanh(),
                        nn.Linear(8, 3), nn.Softmax())
    rng = np.random.RandomState(2)
    return {
        "mlp": (mlp, [InputSpec([None, 4], "float32", "x")],
                [rng.randn(n, 4).astype("float32") for n in (2, 7)]),
        "lenet": (models.LeNet(), [InputSpec([None, 1, 28, 28], "float32", "image")],
                  _images(1, 28)),
        "resnet18": (models.resnet18(num_classes=10), image32, _images(3, 32)),
        "mobilenet_v3_small": (models.mobilenet_v3_small(scale=0.5, num_classes=10), image32,
                               _images(3, 32)),
        "lstm_text": (TextRNN(nn.LSTM), ids, _ids()),
        "gru_text": (TextRNN(nn.GRU), ids, _ids()),
        "transformer_encoder": (Encoder(), ids, _ids()),
        "tensor_array_loop": (ArrayLoop(), [InputSpec([None, 3], "float32", "x")],
                              [np.ones([1, 3], "float32"), np.eye(3, dtype="float32")]),
    }


def _shared_cases():
    """The models tests/interop exports for Paddle: a CNN with BatchNorm, dropout and
    LayerNorm, a text MLP, a tensor `if` and `while`, and LSTM + GRU layers."""
    cases = {}
    for name, (layer, specs, x) in sampan_models.models().items():
        cases[name] = (layer, specs, [x, np.concatenate([x, x[::-1]])[:3]])
    return cases


CASES = {**_cases(), **_shared_cases()}


def _trained_statistics(layer):
    """Non-trivial BatchNorm running statistics, so inference normalisation is tested."""
    rng = np.random.RandomState(5)
    for sub in layer.sublayers():
        if isinstance(sub, nn.layer.norm._BatchNormBase):
            sub._mean.set_value(rng.randn(*sub._mean.shape).astype("float32") * 0.1)
            sub._variance.set_value(rng.rand(*sub._variance.shape).astype("float32") + 0.5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_agrees_with_sampan_at_two_batch_sizes(tmp_path, name):
    layer, specs, batches = CASES[name]
    _trained_statistics(layer)
    layer.eval()
    model, session = export(layer, specs, tmp_path)
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    for arrays in batches:
        assert_same(layer, session, [arrays])


def test_tensor_if_and_while_become_onnx_if_and_loop(tmp_path):
    layer, specs, _ = CASES["control_flow"]
    model, session = export(layer, specs, tmp_path)
    assert {"If", "Loop"} <= node_types(model.graph)
    small = np.full([1, 3], 0.01, "float32")
    assert_same(layer, session, [small])       # many trips
    assert_same(layer, session, [small * 1000])  # none


def test_tensor_arrays_become_sequences(tmp_path):
    layer, specs, _ = CASES["tensor_array_loop"]
    model, _ = export(layer, specs, tmp_path)
    assert model.opset_import[0].version == 14
    assert {"Loop", "SequenceInsert", "SequenceAt"} <= node_types(model.graph)


@pytest.mark.parametrize("cell", [nn.GRU, nn.LSTM])
def test_recurrent_layer_over_unknown_length_becomes_a_loop_over_sequences(tmp_path, cell):
    """With the time length unknown the recurrence is a `while` writing a tensor array;
    one file serves every batch size and length."""
    paddle.seed(4)
    layer = TextRNN(cell)
    layer.eval()
    model, session = export(layer, [InputSpec([None, None], "int64", "ids")], tmp_path)
    assert {"Loop", "SequenceInsert", "ConcatFromSequence"} <= node_types(model.graph)
    rng = np.random.RandomState(3)
    for shape in ((2, 5), (3, 9)):
        assert_same(layer, session, [rng.randint(0, 50, shape).astype("int64")])


def test_encoder_over_unknown_length(tmp_path):
    layer = CASES["transformer_encoder"][0]
    layer.eval()
    _, session = export(layer, [InputSpec([None, None], "int64", "ids")], tmp_path)
    rng = np.random.RandomState(4)
    for shape in ((2, 5), (3, 9)):
        assert_same(layer, session, [rng.randint(0, 50, shape).astype("int64")])

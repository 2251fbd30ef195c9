"""`paddle.save` checkpoints written by real Paddle 3.3.1 (tests/interop/fixtures) read
with the restricted unpickler, and checkpoints sampan writes for Paddle read back."""
import pathlib

import numpy as np
import pytest

import sampan as paddle
from sampan.serialization import CorruptFileError

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "checkpoints"
EXPECTED = np.load(FIXTURES / "expected.npz", allow_pickle=False)


def expected(prefix):
    return {k.split(":", 1)[1]: EXPECTED[k] for k in EXPECTED.files if k.startswith(prefix)}


class MlpIf(paddle.nn.Layer):
    """The fixture model's layers (fc, bn) with Paddle's parameter names."""

    def __init__(self):
        super().__init__()
        attr = paddle.ParamAttr
        self.fc = paddle.nn.Linear(4, 3, attr(name="linear_22.w_0"), attr(name="linear_22.b_0"))
        self.bn = paddle.nn.BatchNorm1D(3, weight_attr=attr(name="batch_norm1d_1.w_0"),
                                        bias_attr=attr(name="batch_norm1d_1.b_0"))


def test_state_dict_loads_as_named_tensors_and_sets_a_layer():
    state = paddle.load(FIXTURES / "mlp_if.pdparams")
    want = expected("param:")
    assert list(state) == list(want)           # the name table is dropped, order kept
    for key, value in state.items():
        assert isinstance(value, paddle.Tensor)
        np.testing.assert_array_equal(value.numpy(), want[key])
    assert state["fc.weight"].name == "linear_22.w_0"
    layer = MlpIf()
    missing, unexpected = layer.set_state_dict(state)
    assert missing == [] and unexpected == []
    for key, value in layer.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), want[key])


def test_return_numpy_and_keep_name_table():
    state = paddle.load(FIXTURES / "mlp_if.pdparams", return_numpy=True)
    assert all(isinstance(v, np.ndarray) for v in state.values())
    table = paddle.load(FIXTURES / "mlp_if.pdparams", keep_name_table=True)
    assert table["StructuredToParameterName@@"]["bn._mean"] == "batch_norm1d_1.w_1"


def test_optimizer_state_sets_adam_and_its_scheduler():
    state = paddle.load(FIXTURES / "mlp_if.pdopt")
    assert state["LR_Scheduler"] == {"last_epoch": 3, "last_lr": 0.001}
    layer = MlpIf()
    opt = paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(0.01, step_size=2),
                                parameters=layer.parameters())
    opt.set_state_dict(state)
    assert opt.get_lr() == pytest.approx(0.001)
    restored = opt.state_dict()
    for key, value in expected("opt:").items():
        np.testing.assert_array_equal(np.asarray(restored[key].numpy()), value)


def test_nested_structure_keeps_types():
    value = paddle.load(FIXTURES / "nested.pdparams")
    assert (value["epoch"], value["loss"], value["name"], value["none"]) == (3, 0.25, "run-1",
                                                                          None)
    assert value["flags"] == [True, False] and value["pair"] == (1, 2.5)
    w0, w1 = value["weights"]
    assert isinstance(w0, paddle.Tensor) and w0.numpy().tolist() == [[1.0, 2.0]]
    assert w1.numpy().dtype == np.int64 and w1.numpy().tolist() == [7]
    assert isinstance(value["table"]["ids"], np.ndarray)       # plain arrays stay arrays
    assert value["table"]["half"].dtype == np.float16
    assert value["scalar"] == 1.5 and isinstance(value["scalar"], np.float64)
    tensor = paddle.load(FIXTURES / "tensor.pdtensor")
    assert isinstance(tensor, paddle.Tensor) and tensor.numpy().tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_paddle_format_round_trips(tmp_path, protocol):
    layer = MlpIf()
    path = tmp_path / "m.pdparams"
    paddle.save(layer.state_dict(), path, protocol=protocol, format="paddle")
    assert path.read_bytes()[:1] == b"\x80"
    back = paddle.load(path)
    for key, value in layer.state_dict().items():
        np.testing.assert_array_equal(back[key].numpy(), value.numpy())
        assert back[key].name == value.name
    nested = {"a": [paddle.to_tensor([1.5, 2.5]), 3, ("x", None)], "b": np.arange(3),
              "c": np.float32(2.0)}
    paddle.save(nested, path, protocol=protocol, format="paddle")
    back = paddle.load(path)
    assert back["a"][0].numpy().tolist() == [1.5, 2.5] and back["a"][1:] == [3, ("x", None)]
    assert back["b"].tolist() == [0, 1, 2] and back["c"] == np.float32(2.0)


def test_unknown_format_is_refused(tmp_path):
    with pytest.raises(ValueError, match="format"):
        paddle.save({}, tmp_path / "x", format="torch")

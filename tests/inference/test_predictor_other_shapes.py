"""A predictor of a model saved with fixed input sizes runs other sizes its program's shape
rules accept (as Paddle's predictor re-infers), and names the input, the dimension and the
op when they do not."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.inference import Config, create_predictor
from sampan.static import InputSpec
from sampan.static.reinfer import ShapeReinferError


class ConvNet(nn.Layer):
    """Convolution, pooling to a fixed size, then a classifier: any batch and image size."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2D(2)
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        return self.fc(paddle.flatten(self.pool(nn.functional.relu(self.conv(x))), 1))


class FixedReshape(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return paddle.reshape(self.fc(x), [8])


def _predictor(tmp_path, layer, shape, ir_optim=True):
    layer.eval()
    paddle.jit.save(layer, str(tmp_path / "m"), input_spec=[InputSpec(shape, "float32", "x")])
    config = Config(str(tmp_path / "m.pdmodel"), str(tmp_path / "m.pdiparams"))
    config.switch_ir_optim(ir_optim)
    return create_predictor(config)


def _run(predictor, x):
    handle = predictor.get_input_handle("x")
    handle.reshape(x.shape)
    handle.copy_from_cpu(x)
    predictor.run()
    return predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()


@pytest.mark.parametrize("ir_optim", [True, False])
def test_other_batch_and_image_sizes_run_and_match_the_layer(tmp_path, ir_optim):
    paddle.seed(0)
    net = ConvNet()
    predictor = _predictor(tmp_path, net, [4, 3, 8, 8], ir_optim)
    rng = np.random.default_rng(0)
    for shape in [(4, 3, 8, 8), (1, 3, 8, 8), (6, 3, 10, 7), (1, 3, 8, 8)]:
        x = rng.standard_normal(shape).astype("float32")
        np.testing.assert_allclose(_run(predictor, x), net(paddle.to_tensor(x)).numpy(),
                                   rtol=1e-5, atol=1e-6)


def test_list_run_with_another_batch(tmp_path):
    paddle.seed(1)
    net = nn.Linear(3, 2)
    predictor = _predictor(tmp_path, net, [4, 3])
    x = np.ones((2, 3), "float32")
    (out,) = predictor.run([x])
    np.testing.assert_allclose(out, net(paddle.to_tensor(x)).numpy(), rtol=1e-6)


def test_a_size_the_program_cannot_take_names_input_dimension_and_op(tmp_path):
    predictor = _predictor(tmp_path, FixedReshape(), [4, 3])
    assert _run(predictor, np.ones((4, 3), "float32")).shape == (8,)
    with pytest.raises(ShapeReinferError,
                       match=r"input 'x' of the inference model was saved with shape \[4, 3\] "
                             r"and is \[3, 3\] here \(dimension 0\): op reshape cannot take"):
        _run(predictor, np.ones((3, 3), "float32"))
    with pytest.raises(ShapeReinferError, match=r"\(dimension 1\): op matmul cannot take it"):
        _run(predictor, np.ones((4, 5), "float32"))


def test_rank_and_dtype_are_checked_when_the_input_is_set(tmp_path):
    handle = _predictor(tmp_path, nn.Linear(3, 2), [4, 3]).get_input_handle("x")
    with pytest.raises(ValueError, match=r"rank of the model's"):
        handle.copy_from_cpu(np.ones((4, 3, 1), "float32"))
    with pytest.raises(ValueError, match=r"rank of the model's"):
        handle.reshape([12])
    with pytest.raises(TypeError, match="dtype"):
        handle.copy_from_cpu(np.ones((4, 3), "float64"))

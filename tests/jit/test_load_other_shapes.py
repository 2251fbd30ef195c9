"""A jit.load-ed model saved with a fixed input shape runs other sizes its program's shape
rules accept (as Paddle re-infers), and names the input, the dimension and the op when they
do not."""
import numpy as np
import pytest

import sampan as paddle
from sampan.static import InputSpec
from sampan.static.reinfer import ShapeReinferError


class Reshaping(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 2)

    def forward(self, x):
        return paddle.reshape(self.fc(x), [4, 2])


def _saved(tmp_path, layer, spec):
    paddle.jit.save(layer, str(tmp_path / "m"), input_spec=[InputSpec(spec, "float32")])
    return paddle.jit.load(str(tmp_path / "m"))


def test_other_batch_size_runs_when_the_program_allows(tmp_path):
    paddle.seed(0)
    net = paddle.nn.Linear(3, 2)
    loaded = _saved(tmp_path, net, [4, 3])
    x = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
    np.testing.assert_allclose(loaded(paddle.to_tensor(x)).numpy(),
                               net(paddle.to_tensor(x)).numpy(), rtol=1e-6)


def test_a_size_the_program_cannot_take_names_input_dimension_and_op(tmp_path):
    loaded = _saved(tmp_path, paddle.nn.Linear(3, 2), [4, 3])
    with pytest.raises(ShapeReinferError, match=r"input 'x' of forward was saved with shape "
                                                r"\[4, 3\] and is \[2, 5\] here \(dimension "
                                                r"0, 1\): op matmul cannot take it"):
        loaded(paddle.ones([2, 5]))


def test_a_fixed_reshape_refuses_another_batch(tmp_path):
    loaded = _saved(tmp_path, Reshaping(), [4, 3])
    assert loaded(paddle.ones([4, 3])).shape == [4, 2]
    with pytest.raises(ValueError, match=r"dimension 0\): op reshape cannot take it"):
        loaded(paddle.ones([3, 3]))


def test_rank_and_dtype_are_still_checked(tmp_path):
    loaded = _saved(tmp_path, paddle.nn.Linear(3, 2), [4, 3])
    with pytest.raises(ValueError, match=r"expected shape \[4, 3\]"):
        loaded(paddle.ones([4, 3, 1]))
    with pytest.raises(TypeError, match="expected dtype float32"):
        loaded(paddle.ones([4, 3], "float64"))

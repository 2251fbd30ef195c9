"""Inputs that used to give a silent wrong result now raise, as in Paddle 3.3.1:
a layer_norm normalized_shape that is not x's trailing shape, a float size or axis."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn.functional as F
from sampan import static
from sampan.core.dispatch import mode_guard
from sampan.static.mode import STATIC


@pytest.mark.parametrize("normalized_shape", [[4], 4, [1, 3], [2, 3, 4]])
def test_layer_norm_refuses_a_normalized_shape_other_than_the_trailing_dims(normalized_shape):
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match=r"normalized_shape .* x has shape \[2, 3\]"):
        F.layer_norm(x, normalized_shape)


def test_layer_norm_over_matching_trailing_dims_still_normalises():
    x = np.arange(12, dtype="float32").reshape(2, 2, 3)
    out = F.layer_norm(paddle.to_tensor(x), [2, 3]).numpy()
    flat = x.reshape(2, 6)
    ref = (flat - flat.mean(1, keepdims=True)) / np.sqrt(flat.var(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out, ref.reshape(2, 2, 3), rtol=1e-5, atol=1e-6)


def test_layer_norm_of_a_static_variable_with_an_unknown_batch_checks_the_known_dims():
    program = static.Program()
    with static.program_guard(program, static.Program()), mode_guard(STATIC):
        x = static.data("x", [-1, 3], "float32")
        assert list(F.layer_norm(x, [3]).shape) == [-1, 3]
        with pytest.raises(ValueError, match="normalized_shape"):
            F.layer_norm(x, [4])


@pytest.mark.parametrize("shape", [[3.5, 2], [3.0, 2], [np.float32(3), 2]])
def test_reshape_refuses_float_sizes_instead_of_truncating(shape):
    with pytest.raises(TypeError, match="expected integers, got float"):
        paddle.reshape(paddle.ones([6]), shape)


def test_reshape_takes_integer_sizes_of_any_integer_kind():
    x = paddle.ones([6])
    assert paddle.reshape(x, [np.int64(3), 2]).shape == [3, 2]
    assert paddle.reshape(x, [paddle.to_tensor(3), 2]).shape == [3, 2]


def test_float_axes_are_refused_too():
    with pytest.raises(TypeError, match="expected integers"):
        paddle.flip(paddle.ones([2, 2]), [0.5])

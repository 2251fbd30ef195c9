"""F.rms_norm (against NumPy, with gradients and static mode; Paddle 3.3.1 has no CPU
kernel for it) and F.embedding_renorm_ (against values recorded from Paddle 3.3.1)."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn.functional as F
from tests.api._check import check_grad, check_static, tensor

rng = np.random.default_rng(4)


def _reference(x, dims, weight, eps):
    axes = tuple(range(x.ndim - dims, x.ndim))
    inverse = 1.0 / np.sqrt((x ** 2).mean(axes, keepdims=True) + eps)
    out = x * inverse * (1.0 if weight is None else weight)
    return out, inverse.reshape(-1)


@pytest.mark.parametrize("shape, normalized, weighted", [((2, 3, 4), [4], True),
                                                          ((2, 3, 4), [3, 4], False),
                                                          ((5, 6), 6, True)])
def test_rms_norm_matches_numpy_with_gradients(shape, normalized, weighted):
    x = rng.normal(size=shape)
    dims = 1 if isinstance(normalized, int) else len(normalized)
    w = rng.normal(size=shape[-dims:]) if weighted else None
    out, inverse = F.rms_norm(tensor(x), normalized, None if w is None else tensor(w), 1e-6)
    want_out, want_inverse = _reference(x, dims, w, 1e-6)
    np.testing.assert_allclose(out.numpy(), want_out, rtol=1e-12)
    np.testing.assert_allclose(inverse.numpy(), want_inverse, rtol=1e-12)
    if w is None:
        check_grad(lambda x: F.rms_norm(x, normalized)[0], x, rtol=1e-5, atol=1e-8)
    else:
        check_grad(lambda x, w: F.rms_norm(x, normalized, w)[0], x, w, rtol=1e-5, atol=1e-8)
        check_static(lambda x, w: F.rms_norm(x, normalized, w)[0], x, w)


def test_rms_norm_checks_the_normalized_shape():
    with pytest.raises(ValueError, match="rms_norm: normalized_shape"):
        F.rms_norm(paddle.ones([2, 3]), [4])


def test_embedding_renorm_rescales_looked_up_rows_in_place_as_paddle():
    weight = paddle.to_tensor(np.array([[3.0, 4.0], [0.1, 0.2], [1.0, 1.0]], "float32"))
    out = F.embedding_renorm_(paddle.to_tensor([0, 2, 2]), weight, max_norm=1.0)
    assert out is weight
    # Paddle 3.3.1's result for the same call
    np.testing.assert_allclose(weight.numpy(), [[0.6, 0.8], [0.1, 0.2],
                                                [0.7071067, 0.7071067]], rtol=1e-6)

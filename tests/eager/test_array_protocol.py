"""`np.array(t)` copies a tensor's data and `np.asarray(t)` may share it, as NumPy 2's
`__array__(dtype, copy)` protocol asks (writing into np.array(t) changed t)."""
import numpy as np
import pytest

import sampan as paddle
from sampan.autograd.functional import Jacobian
from sampan.executor.scope import Scope


def _holders():
    t = paddle.to_tensor([1.0, 2.0, 3.0])
    scope = Scope()
    scope.var("w").get_tensor().set(np.array([1.0, 2.0, 3.0], "float32"), None)
    return {"tensor": (t, t.numpy), "scope": (scope.find_var("w").get_tensor(),
                                                 scope.find_var("w").get_tensor().numpy)}


@pytest.mark.parametrize("kind", ["tensor", "scope"])
def test_np_array_is_a_copy(kind):
    holder, read = _holders()[kind]
    copied = np.array(holder)
    copied[0] = 100.0
    np.testing.assert_array_equal(read(), [1.0, 2.0, 3.0])
    converted = np.array(holder, dtype="float64")
    assert converted.dtype == np.float64
    converted[1] = -1.0
    np.testing.assert_array_equal(read(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("kind", ["tensor", "scope"])
def test_asarray_shares_and_copy_false_refuses_a_conversion(kind):
    holder, _ = _holders()[kind]
    assert np.shares_memory(np.asarray(holder), np.asarray(holder))
    assert np.asarray(holder, dtype="float64").dtype == np.float64
    with pytest.raises(ValueError, match="copy=False"):
        np.array(holder, dtype="float64", copy=False)


def test_jacobian_converts_to_a_fresh_array():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    jac = Jacobian(x * x, x, is_batched=False)
    first = np.array(jac)
    first[:] = 0.0
    np.testing.assert_allclose(np.array(jac), np.diag([2.0, 4.0]))

"""A 0-d tensor next to a tensor of rank >= 1 of the same family (integer, float) takes the
other operand's dtype in elementwise arithmetic, as in Paddle (values checked against NumPy
in the expected dtype, eagerly and under to_static, with gradients)."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static

CASES = [  # (dtype of the rank-1 operand, dtype of the 0-d operand, result dtype)
    ("int32", "int64", "int32"),
    ("uint8", "int64", "uint8"),
    ("int64", "int32", "int64"),
    ("float32", "float64", "float32"),
    ("int32", "float32", "float32"),   # across families: usual promotion
    ("bool", "int64", "int64"),
    ("float32", "int64", "float32"),
]
OPS = [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply)]


@pytest.mark.parametrize("op,ref", OPS)
@pytest.mark.parametrize("vector,scalar,want", CASES)
def test_zero_d_operand_takes_the_other_family_member_dtype(vector, scalar, want, op, ref):
    v = np.array([1, 0, 3]).astype(vector)
    s = np.array(2).astype(scalar)
    if op == "subtract" and "bool" in (vector, scalar):
        pytest.skip("subtract refuses bool")
    fn = getattr(paddle, op)
    for x, y in ((v, s), (s, v)):
        got = fn(paddle.to_tensor(x), paddle.to_tensor(y))
        static = to_static(fn, full_graph=True)(paddle.to_tensor(x), paddle.to_tensor(y))
        expected = ref(x.astype(want), y.astype(want))
        for out in (got, static):
            assert out.dtype == want and out.shape == [3]
            np.testing.assert_array_equal(out.numpy(), expected)


def test_two_zero_d_or_two_ranked_operands_promote_as_before():
    assert (paddle.to_tensor(1, dtype="int32") + paddle.to_tensor(1, dtype="int64")).dtype \
        == "int64"
    assert (paddle.to_tensor([1], dtype="int32") + paddle.to_tensor([1], dtype="int64")).dtype \
        == "int64"


def test_float64_zero_d_gradient_keeps_its_dtype():
    x = paddle.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    s = paddle.to_tensor(3.0, dtype="float64", stop_gradient=False)
    out = x * s
    assert out.dtype == "float32"
    out.sum().backward()
    assert s.grad.dtype == "float64" and x.grad.dtype == "float32"
    np.testing.assert_allclose(s.grad.numpy(), 3.0)
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


@pytest.mark.parametrize("values", [[1, 2, 3, 4, 5], [3, 0, 2], [0]])
def test_loop_counter_keeps_int32_when_adding_int64_items(values):
    def accumulate(items):
        x = paddle.full([1], 0, "int32")
        items = paddle.to_tensor(items)
        for _, num in enumerate(items):
            for _ in range(num):
                x = x + num
        return x
    eager = accumulate(np.array(values))
    static = to_static(accumulate, full_graph=True)(np.array(values))
    want = sum(v * v for v in values)
    for out in (eager, static):
        assert out.dtype == "int32"
        np.testing.assert_array_equal(out.numpy(), [want])

"""Tensor semantics that Paddle users rely on (FEATURES.md §5) and clear errors."""
import numpy as np
import pytest

import sampan as paddle
from sampan.core.errors import OpShapeError, OpTypeError


def test_to_tensor_default_dtypes():
    assert paddle.to_tensor(1.5).dtype == paddle.float32
    assert paddle.to_tensor(2).dtype == paddle.int64
    assert paddle.to_tensor([1.0, 2.0]).dtype == paddle.float32
    assert paddle.to_tensor(np.zeros(2)).dtype == paddle.float64
    assert paddle.to_tensor(True).dtype == paddle.bool
    assert paddle.to_tensor([1, 2], dtype="float64").dtype == "float64"


def test_integer_division_and_floor_rules():
    a, b = paddle.to_tensor([7, -7]), paddle.to_tensor([2, 2])
    assert (a / b).dtype == paddle.float32
    np.testing.assert_array_equal((a // b).numpy(), [3, -4])
    np.testing.assert_array_equal((paddle.to_tensor([7, -7]) % 3).numpy(), [1, 2])
    np.testing.assert_array_equal((paddle.to_tensor([7, -7]) % -3).numpy(), [-2, -1])


def test_round_half_to_even_and_reductions():
    np.testing.assert_array_equal(paddle.round(paddle.to_tensor([0.5, 1.5, 2.5])).numpy(),
                                  [0.0, 2.0, 2.0])
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 6.0]])
    np.testing.assert_allclose(float(paddle.std(x)), np.std(x.numpy(), ddof=1), rtol=1e-6)
    np.testing.assert_allclose(float(paddle.var(x)), np.var(x.numpy(), ddof=1), rtol=1e-6)
    assert int(paddle.argmax(x)) == 3
    assert x.shape == [2, 2] and isinstance(x.shape, list)


def test_scalar_operands_keep_tensor_dtype():
    x = paddle.to_tensor([1, 2], dtype="int32")
    assert (x + 1).dtype == paddle.int32
    assert (x * 1.5).dtype == paddle.float32
    y = paddle.to_tensor([1.0], dtype="float64")
    assert (y + 1.0).dtype == paddle.float64
    assert (2.0 - y).numpy()[0] == 1.0


def test_repeated_scalar_operands_give_the_same_results_as_fresh_ones():
    # scalar operands are cached per (value, type, dtype): types that compare equal
    # (1 == 1.0 == True), the sign of zero and each tensor dtype stay distinct
    x = paddle.to_tensor([1.5, -2.0])
    for _ in range(2):
        np.testing.assert_array_equal((x * 2.0).numpy(), [3.0, -4.0])
        assert np.signbit((x * -0.0).numpy()).tolist() == [True, False]
        assert np.signbit((x * 0.0).numpy()).tolist() == [False, True]
    i = paddle.to_tensor([3, 4], dtype="int32")
    assert (i + 1).dtype == paddle.int32 and (i + 1.0).dtype == paddle.float32
    assert (i + True).dtype == paddle.int32
    h = paddle.to_tensor([1.0], dtype="float16")
    assert (h + 1.0).dtype == paddle.float16 and (x + 1.0).dtype == paddle.float32
    g = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (g * 3.0).sum().backward()
    (g * 3.0).sum().backward()
    np.testing.assert_array_equal(g.grad.numpy(), [6.0, 6.0])


def test_indexing_matches_numpy():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = paddle.to_tensor(a)
    for index in [(0,), (-1, 1), (slice(None), 1), (Ellipsis, -1), (None, 0),
                  (slice(None, None, -1),), (0, slice(1, None), slice(None, None, 2)),
                  ([1, 0],), (paddle.to_tensor([1, 0]),)]:
        np.testing.assert_array_equal(x[index].numpy(), a[index if not isinstance(
            index[0], paddle.Tensor) else (index[0].numpy(),)])
    mask = x > 10.0
    np.testing.assert_array_equal(x[mask].numpy(), a[a > 10])


def test_setitem_and_gradients_through_slices():
    w = paddle.to_tensor(np.ones((2, 3)), stop_gradient=False)
    x = w * 2.0
    v = paddle.to_tensor(np.array([5.0, 6.0, 7.0]), stop_gradient=False)
    x[1] = v * 3.0
    x[:, 0].sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), [[2.0, 0, 0], [0, 0, 0]])
    np.testing.assert_allclose(v.grad.numpy(), [3.0, 0, 0])


def test_setitem_of_a_one_element_tensor_into_one_element():
    """As Paddle: a value with leading size-1 dims beyond the target's rank fits
    (pad[3] = h // 2 with h of shape [1]); its gradient keeps the value's shape."""
    pad = paddle.zeros([4], dtype="int32")
    pad[3] = paddle.full([1], 6, "int32") // 2
    np.testing.assert_array_equal(pad.numpy(), [0, 0, 0, 3])
    x = paddle.zeros([2, 3])
    v = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    y = x * 1
    y[1] = v
    (y * 2).sum().backward()
    np.testing.assert_allclose(y.numpy(), [[0, 0, 0], [1, 2, 3]])
    np.testing.assert_allclose(v.grad.numpy(), [[2.0, 2.0, 2.0]])


def test_setitem_on_leaf_requiring_grad_is_refused():
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(RuntimeError, match="in place"):
        w[0] = 3.0


def test_python_protocols():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert len(x) == 2
    assert [row.shape for row in x] == [[2], [2]]
    assert bool(paddle.to_tensor([1.0]))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    assert float(x[1, 1]) == 4.0 and int(x[0, 1]) == 2
    np.testing.assert_array_equal(np.asarray(x), x.numpy())
    assert "Tensor(shape=[2, 2], dtype=float32" in repr(x)


def test_shape_errors_name_the_op_and_shapes():
    with pytest.raises(OpShapeError) as err:
        paddle.to_tensor(np.ones((2, 3))) + paddle.to_tensor(np.ones((4, 3)))
    text = str(err.value)
    assert "add()" in text and "[2, 3]" in text and "[4, 3]" in text
    with pytest.raises(OpShapeError, match="matmul"):
        paddle.matmul(paddle.ones([2, 3]), paddle.ones([2, 3]))


def test_dtype_errors_are_type_errors():
    with pytest.raises(OpTypeError):
        paddle.bitwise_and(paddle.ones([2]), paddle.ones([2]))


def test_seed_repeats_random_ops():
    paddle.seed(3)
    a = paddle.rand([3]).numpy()
    paddle.seed(3)
    np.testing.assert_array_equal(a, paddle.rand([3]).numpy())


def test_retain_grads_and_equal_all():
    x = paddle.to_tensor(np.array([1.0, -2.0]), stop_gradient=False)
    y = x * 3.0
    y.retain_grads()
    (y * y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), 2 * y.numpy())
    assert bool(paddle.equal_all(x, x)) and not bool(paddle.equal_all(x, x + 1.0))
    assert not bool(paddle.equal_all(x, paddle.ones([3])))


def test_comparison_with_none_is_python_false():
    x = paddle.ones([2])
    assert (x == None) is False and (x != None) is True  # noqa: E711


def test_set_printoptions_device_and_framework_namespaces():
    from sampan.core.printing import PRINT_OPTIONS
    saved = dict(PRINT_OPTIONS)
    try:
        paddle.set_printoptions(precision=2)
        assert "1.23" in repr(paddle.to_tensor([1.23456])) and "1.2346" not in repr(
            paddle.to_tensor([1.23456]))
    finally:
        PRINT_OPTIONS.update(saved)
    assert paddle.device.get_device() == "cpu" and paddle.device.cuda.device_count() == 0
    assert not paddle.device.is_compiled_with_cuda()
    assert paddle.framework.ParamAttr is paddle.ParamAttr
    assert paddle.framework.in_dynamic_mode()


def test_numpy_returns_a_copy_as_paddle_does():
    """Writing into x.numpy() leaves x unchanged, and a held result keeps its values."""
    x = paddle.to_tensor([1.0, 2.0])
    array = x.numpy()
    array[0] = 100.0
    assert x.numpy()[0] == 1.0
    x[1] = 5.0
    assert array[1] == 2.0


def test_out_of_range_index_is_an_index_error_naming_the_axis():
    """Like a Python sequence (and a ValueError too, as every op shape error)."""
    x = paddle.ones([2, 3])
    with pytest.raises(IndexError, match="index 5 is out of range for axis 0 of size 2"):
        x[5]
    with pytest.raises(ValueError, match="axis 1"):
        x[:, -4]


def test_to_tensor_of_python_complex_takes_complex64():
    """Python complexes follow the default float (complex64 beside float32); NumPy data
    keeps its dtype."""
    assert paddle.to_tensor(1 + 2j).dtype == paddle.complex64
    assert paddle.to_tensor([1j, 2]).dtype == paddle.complex64
    assert paddle.to_tensor(np.array([1j])).dtype == paddle.complex128


def test_to_tensor_of_ragged_lists_names_the_problem():
    with pytest.raises(ValueError, match="to_tensor: list data must be rectangular"):
        paddle.to_tensor([[1, 2], [3]])


def test_list_arguments_are_checked_against_the_op_signature():
    x = paddle.ones([2])
    with pytest.raises(TypeError, match=r"add\(\): argument 'x' must be a Tensor, got list"):
        paddle.add([x], x)
    with pytest.raises(TypeError, match=r"concat\(\): argument 'x' must be a list of Tensors, "
                                        r"got items of type Tensor, list"):
        paddle.concat([x, [1.0, 2.0]])
    with pytest.raises(TypeError, match="wrap it in a list"):
        paddle.concat(x)
    np.testing.assert_array_equal(paddle.concat([x, np.zeros(1, np.float32)]).numpy(),
                                  [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(x[1:].numpy(), [1.0])


def test_int_scalar_operands_wrap_into_narrow_int_dtypes():
    x = paddle.to_tensor([1, 2], dtype="int8")
    np.testing.assert_array_equal((x + 300).numpy(), np.array([301, 302]).astype(np.int8))
    np.testing.assert_array_equal((x * 200).numpy(), np.array([200, 400]).astype(np.int8))
    u = paddle.to_tensor([1], dtype="uint8")
    np.testing.assert_array_equal((u - 2).numpy(), [255])
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        x + 2 ** 70

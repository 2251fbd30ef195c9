"""Values read into Python inside converted code stay symbolic (as Paddle's AST mode keeps
them under full_graph=True): x.numpy(), x.item(), int/float/bool(x), to_tensor/assign of a
Variable."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static


def same(fn, *args):
    """Eager and converted runs of `fn` agree."""
    want = fn(*args)
    got = to_static(fn, full_graph=True)(*args)
    np.testing.assert_allclose(np.asarray(got.numpy()), np.asarray(want), rtol=1e-6)
    return got


def numpy_then_ops(x):
    y = x.numpy()
    return paddle.to_tensor(y) * 2 + 1


def item_in_condition(x):
    if x.sum().item() > 0:
        return x + 1
    return x - 1


def item_with_index(x):
    return paddle.to_tensor(x.item(2)) + x.item(1, 0)


def to_tensor_keeps_gradient_off(x):
    y = paddle.to_tensor(x, stop_gradient=True)
    return x * 3 + y


def to_tensor_of_list(x):
    s = x.sum()
    return paddle.to_tensor([s, s * 2, 1.5])


@pytest.mark.parametrize("batch", [1, 3])
def test_numpy_is_the_variable(batch):
    x = paddle.rand([batch, 4])
    got = same(numpy_then_ops, x)
    assert got.shape == [batch, 4]


@pytest.mark.parametrize("values", [[1.0, 2.0], [-3.0, 1.0]])
def test_item_builds_a_cond(values):
    fn = to_static(item_in_condition, full_graph=True)
    x = paddle.to_tensor(values)
    np.testing.assert_allclose(fn(x).numpy(), item_in_condition(x).numpy())
    ops = [op.type for op in fn.concrete_program.main_program.global_block().ops]
    assert "cond" in ops


def test_item_with_flat_and_nd_index():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    got = to_static(item_with_index, full_graph=True)(x)
    np.testing.assert_allclose(got.numpy(), 3.0 + 3.0)


def test_item_of_many_elements_is_value_error_with_user_line():
    def bad(x):
        return x.item()
    with pytest.raises(ValueError, match="only one element") as info:
        to_static(bad, full_graph=True)(paddle.ones([2, 2]))
    assert "return x.item()" in str(info.value)


def test_item_index_out_of_range():
    def bad(x):
        return x.item(7)
    with pytest.raises(ValueError, match="out of bounds"):
        to_static(bad, full_graph=True)(paddle.ones([2, 2]))


def test_tolist_is_assertion_error_as_in_paddle():
    def bad(x):
        return x.tolist()
    with pytest.raises(AssertionError, match="tolist") as info:
        to_static(bad, full_graph=True)(paddle.ones([2]))
    assert "return x.tolist()" in str(info.value)


def test_to_tensor_of_variable_is_a_copy_that_stops_gradient():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    fn = to_static(to_tensor_keeps_gradient_off, full_graph=True)
    out = fn(x)
    np.testing.assert_allclose(out.numpy(), [4.0, 8.0])
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])  # the copy adds no gradient
    ops = [op.type for op in fn.concrete_program.main_program.global_block().ops]
    assert "assign" in ops


def test_to_tensor_of_a_list_holding_variables_stacks_them():
    x = paddle.to_tensor([1.0, 2.0])
    got = to_static(to_tensor_of_list, full_graph=True)(x)
    np.testing.assert_allclose(got.numpy(), [3.0, 6.0, 1.5])


def test_assign_of_variable():
    def copy(x):
        y = paddle.assign(x)
        return y * 2
    same(copy, paddle.to_tensor([1.0, -2.0]))


def test_value_reads_of_eager_tensors_stay_values():
    """A closure tensor (eager) still reads its value inside converted code."""
    scale = paddle.to_tensor(3.0)

    def scaled(x):
        return x * scale.item()
    same(scaled, paddle.to_tensor([1.0, 2.0]))


@pytest.mark.parametrize("index, error, match", [
    ((), ValueError, "only one element tensors can be converted"),
    ((100,), ValueError, "index 100 is out of bounds for size 8"),
    ((1, 0), ValueError, "incorrect number of indices"),
    ((1.5,), TypeError, r"argument \(position 0\) must be long"),
])
def test_item_errors_are_paddles_eagerly_and_converted(index, error, match):
    x = paddle.ones([2, 2, 2])

    def read(x):
        return x.item(*index)
    with pytest.raises(error, match=match):
        read(x)
    with pytest.raises(error, match=match):
        to_static(read)(x)

"""Constructs around converted control flow: zero-argument super() inside a Tensor if,
`or`/`and` chains mixing Tensors and Python values, range over int32 Tensors, user layers
inside nn.Sequential, branch values of different ranks, slices of tensor arrays. Each is
checked against eager for both directions of the Tensor conditions."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static


def t(values, dtype="float32"):
    return paddle.to_tensor(np.asarray(values, dtype))


class Base(paddle.nn.Layer):
    def shift(self, x):
        return x + 1


class Child(Base):
    def forward(self, x):
        if x.sum() > 0:
            return super().shift(x) * 2
        return x - 1


def test_zero_argument_super_inside_a_tensor_if():
    net = Child()
    static = to_static(Child())
    for x in (t([1.0, 2.0]), t([-1.0, -2.0])):
        np.testing.assert_allclose(static(x).numpy(), net(x).numpy())


def or_chain(x):
    limit = None
    if x > 1 or limit is None or limit > 1:  # `limit > 1` must never run
        x = x - 1
    else:
        x = x + 1
    return x


def and_chain(x):
    limit = None
    if x > 1 and limit is not None and limit > 1:
        x = x - 1
    else:
        x = x + 1
    return x


@pytest.mark.parametrize("fn", [or_chain, and_chain])
def test_python_operands_after_a_tensor_short_circuit(fn):
    static = to_static(fn)
    for v in (3.0, 0.0):
        np.testing.assert_allclose(static(t(v)).numpy(), fn(t(v)).numpy())


def sum_of_counter(n):
    z = paddle.full([1], 0, "int32")
    for i in range(n):
        z = z + i
    return z


def test_range_over_an_int32_tensor_counts_in_int32():
    static = to_static(sum_of_counter)
    for n in (0, 1, 5):
        out = static(t([n], "int32")[0])
        assert out.dtype == paddle.int32
        np.testing.assert_array_equal(out.numpy(), [sum(range(n))])


class Centered(paddle.nn.Layer):
    def forward(self, x):
        mean = paddle.mean(x)
        if mean < 0.0:
            x = x * 0.5
        return x - mean


def test_user_layers_inside_sequential_are_converted():
    paddle.seed(2)
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.Sequential(Centered()))
    static = to_static(net)
    for x in (t([[1.0, 3.0]]), t([[-3.0, -1.0]]), t([[1.0, -3.0]])):
        np.testing.assert_allclose(static(x).numpy(), net(x).numpy(), rtol=1e-6)


def replaced_item(x):
    items = []
    if x.mean() > 0:
        items.append(x)
    else:
        items.append(paddle.full([1, 2], 9.0))
    out = items[0] * 2
    items[0] = x + 1
    return out, items[0]


def test_branches_may_leave_values_of_different_ranks():
    static = to_static(replaced_item)
    for x in (t([1.0, 2.0, 3.0]), t([-1.0, -2.0, -3.0])):
        for got, want in zip(static(x), replaced_item(x)):
            np.testing.assert_allclose(got.numpy(), want.numpy())


def array_slice(n):
    items = []
    for i in range(n):
        items.append(paddle.full([2], 1.0) * i)
    return items[1:3], items[-1]


def test_a_slice_of_a_tensor_array_is_the_stacked_items():
    middle, last = to_static(array_slice)(paddle.to_tensor(4))
    np.testing.assert_allclose(middle.numpy(), [[1.0, 1.0], [2.0, 2.0]])
    np.testing.assert_allclose(last.numpy(), [3.0, 3.0])


def rebound_in_one_branch(x):
    y = x * 1
    if x.mean() > 0:
        y = y + 1
    else:
        paddle.assign(y)  # y passed to a call: tracked, left as it was
    return y


def test_name_rebound_in_one_branch_and_passed_to_a_call_in_the_other():
    static = to_static(rebound_in_one_branch)
    for x in (t([1.0, 2.0]), t([-1.0, -2.0])):
        np.testing.assert_allclose(static(x).numpy(), rebound_in_one_branch(x).numpy())


def array_length(x):
    arr = paddle.tensor.array_write(x, i=paddle.full([1], 0, "int64"))
    paddle.tensor.array_write(x * 2, i=paddle.full([1], 1, "int64"), array=arr)
    return len(arr)


def test_len_of_a_tensor_array_is_its_length():
    assert array_length(t([[1.0, 2.0]])) == 2
    assert int(to_static(array_length)(t([[1.0, 2.0]]))) == 2

"""Lists that a Tensor loop turns into tensor arrays: pop (also under a Tensor if) and item
assignment, eager against to_static, values and gradients."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static


def pop_odd_steps(x, n):
    """Appends every step and pops again on odd steps (the pop inside a Tensor if)."""
    n = paddle.full([1], n, "int32")
    a, b = [], [x]
    i = 0
    while i < n:
        a.append(x + i)
        b.append(x * i)
        i += 1
        if i % 2 == 1:
            a.pop()
    return paddle.stack(a), b.pop(1), paddle.stack(b)


def overwrite_items(x, n):
    """Fills a list in one Tensor loop, overwrites its items in a second one."""
    n = paddle.full([1], n, "int32")
    a = []
    i = 0
    while i < n:
        a.append(x)
        i += 1
    i = 0
    while i < n:
        a[i] = x * (i + 1.0)
        i += 1
    a[-1] = a[-1] * 10.0
    return paddle.stack(a), a[1]


def static_matches_eager(fn, x, n):
    """fn under to_static gives eager's outputs and input gradient (fresh inputs each);
    returns the static outputs."""
    results = []
    for f in (fn, to_static(fn, full_graph=True)):
        t = paddle.to_tensor(x, stop_gradient=False)
        outs = f(t, n)
        sum((o * o).sum() for o in outs).backward()
        results.append(([o.numpy() for o in outs], t.grad.numpy()))
    (eager, eager_grad), (static, static_grad) = results
    for e, s in zip(eager, static):
        np.testing.assert_allclose(s, e, rtol=1e-6)
    np.testing.assert_allclose(static_grad, eager_grad, rtol=1e-5)
    return static


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_pop_under_tensor_if_in_tensor_loop_matches_eager(n):
    x = np.random.RandomState(n).rand(3).astype("float32")
    assert static_matches_eager(pop_odd_steps, x, n)[0].shape[0] == n // 2


@pytest.mark.parametrize("n", [2, 3, 5])
def test_item_assignment_into_tensor_array_matches_eager(n):
    static_matches_eager(overwrite_items, np.random.RandomState(n).rand(2).astype("float32"), n)


def _two_item_array(x):
    """A list of two items appended in a Tensor loop (a tensor array)."""
    a = []
    i = paddle.zeros([1], "int64")
    while i < 2:
        a.append(x)
        i += 1
    return a


def test_pop_from_an_emptied_tensor_array_raises_index_error():
    def pop_too_often(x):
        a = _two_item_array(x)
        a.pop()
        a.pop()
        return a.pop()
    wanted = r"(?s)array_read\(\): index -1 .*array length 0.*return a.pop\(\)"
    with pytest.raises(IndexError, match=wanted):
        to_static(pop_too_often, full_graph=True)(paddle.ones([2]))


def test_assigning_a_number_to_a_tensor_array_item_is_refused():
    def assign_number(x):
        a = _two_item_array(x)
        a[0] = 1.0
        return paddle.stack(a)
    with pytest.raises(TypeError, match="assigning float 1.0 to an item needs a Tensor"):
        to_static(assign_number, full_graph=True)(paddle.ones([2]))

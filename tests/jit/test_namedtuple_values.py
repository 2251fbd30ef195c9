"""Namedtuples (topk's (values, indices), users' own) as results and arguments of converted
functions keep their type and fields, in both to_static modes."""
import collections

import numpy as np
import pytest

import sampan as paddle

Pair = collections.namedtuple("Pair", ["left", "right"])
X = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], "float32")


def top_two(x):
    return paddle.topk(x * 2, 2)


def swap(pair):
    return Pair(pair.right + 1, pair.left * 3)


@pytest.mark.parametrize("full_graph", [True, False])
def test_topk_result_returned_as_is(full_graph):
    eager = top_two(paddle.to_tensor(X))
    static = paddle.jit.to_static(top_two, full_graph=full_graph)(paddle.to_tensor(X))
    assert type(static) is type(eager) and static._fields == ("values", "indices")
    np.testing.assert_array_equal(static.values.numpy(), eager.values.numpy())
    np.testing.assert_array_equal(static.indices.numpy(), eager.indices.numpy())


@pytest.mark.parametrize("full_graph", [True, False])
@pytest.mark.parametrize("as_array", [False, True])  # NumPy fields become Tensor inputs
def test_a_namedtuple_argument_and_result(full_graph, as_array):
    converted = paddle.jit.to_static(swap, full_graph=full_graph)
    for scale in (1.0, 2.0):
        left, right = X * scale, X.T.copy() @ X * scale
        args = Pair(left, right) if as_array else Pair(paddle.to_tensor(left),
                                                       paddle.to_tensor(right))
        out = converted(args)
        assert type(out) is Pair
        np.testing.assert_allclose(out.left.numpy(), right + 1)
        np.testing.assert_allclose(out.right.numpy(), left * 3)

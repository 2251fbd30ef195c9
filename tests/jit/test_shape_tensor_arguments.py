"""A whole shape given as a tensor (`paddle.reshape(x, paddle.shape(y))`) is read when the
Program runs, not while it is built; `x.size` of a Variable is an int when every size is
known while building and a numel Variable otherwise. Both match eager at several run-time
shapes through one compiled Program, with gradients."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.jit import to_static
from sampan.static import InputSpec


def reshape_to_own_shape(x):
    y = paddle.reshape(x * 2, paddle.shape(x))
    return y, y.size


def reshape_to_rows(x):
    rows = paddle.to_tensor([-1, 2], dtype="int32")
    return paddle.reshape(x, rows) * paddle.arange(2, dtype="float32")


def reshape_keeping_first_dim(x):
    keep = paddle.concat([paddle.zeros([1], "int64"), paddle.full([1], -1, "int64")])
    return paddle.reshape(x, keep).sum(axis=1)


CASES = {"own_shape": reshape_to_own_shape, "rows": reshape_to_rows,
         "keep_first": reshape_keeping_first_dim}


def _flat(result):
    return list(result) if isinstance(result, tuple) else [result]


@pytest.mark.parametrize("name", CASES)
def test_shape_tensor_reshape_matches_eager_at_two_shapes(name):
    fn = CASES[name]
    converted = to_static(fn, input_spec=[InputSpec([None, 4], "float32")], full_graph=True)
    for rows in (2, 3):
        data = np.arange(rows * 4, dtype="float32").reshape(rows, 4)
        x_eager, x_static = (paddle.to_tensor(data, stop_gradient=False) for _ in range(2))
        want, got = _flat(fn(x_eager)), _flat(converted(x_static))
        for a, b in zip(got, want):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        want[0].sum().backward()
        got[0].sum().backward()
        np.testing.assert_array_equal(x_static.grad.numpy(), x_eager.grad.numpy())
    assert len(converted.program_cache) == 1  # one Program served both shapes


def test_size_of_a_variable():
    paddle.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            known = static.data("known", [2, 3], "float32")
            unknown = static.data("unknown", [-1, 3], "float32")
            assert known.size == 6 and isinstance(known.size, int)
            size = unknown.size
            assert size.dtype == paddle.int64 and size.shape == []
        got, = static.Executor().run(main, feed={"unknown": np.ones((5, 3), "float32")},
                                     fetch_list=[size])
    finally:
        paddle.disable_static()
    assert got == 15

"""Lists built in Tensor loops (tensor arrays) leave converted code as eager code holds
them: returned as a list of Tensors, and, under full_graph=False, handed from the segment
before a graph break to the one after. Arrays whose items need gradients cannot pass a
run_program op: full_graph=True names the problem, full_graph=False runs the signature
eagerly with eager's gradients."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static


def _t(values, grad=False):
    return paddle.to_tensor(np.asarray(values, "float32"), stop_gradient=not grad)


def _numpy(value):
    """The arrays of a nested result, flattened in order."""
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in _numpy(v)]
    return [value.numpy()]


def _same(got, want):
    got, want = _numpy(got), _numpy(want)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b)


def collects(x, n):
    outs = []
    for i in range(n):
        outs.append(x * (i + 1))
    return outs


def collects_then_reads(x, n):
    outs = []
    for i in range(n):
        outs.append(x * i)
    v = float((x > 0).all())  # a break after the loop: the array passes it
    return paddle.stack(outs) * v, outs


def writes_around_a_read(x):
    arr = paddle.tensor.create_array("float32")
    i = paddle.zeros([1], "int64")
    paddle.tensor.array_write(x, i, arr)
    s = int(x.sum() > 0)
    paddle.tensor.array_write(x * (s + 1), i + 1, arr)
    return paddle.tensor.array_read(arr, i + 1), arr


@pytest.mark.parametrize("full_graph", [True, False])
def test_a_list_built_in_a_tensor_loop_is_returned_as_a_list_of_tensors(full_graph):
    static = to_static(collects, full_graph=full_graph)
    for n in (1, 3):
        got = static(_t([1.0, 2.0]), paddle.to_tensor(n))
        assert isinstance(got, list) and all(isinstance(t, paddle.Tensor) for t in got)
        _same(got, collects(_t([1.0, 2.0]), n))


@pytest.mark.parametrize("fn,args", [
    (collects_then_reads, lambda v: (_t(v), paddle.to_tensor(3))),
    (writes_around_a_read, lambda v: (_t(v),))])
def test_a_tensor_array_passes_a_graph_break(fn, args):
    static = to_static(fn, full_graph=False)
    for values in ([1.0, 2.0], [-1.0, 2.0], [1.0, 3.0], [1.0, 2.0]):
        eager_args = [int(a) if a.ndim == 0 and a.dtype == paddle.int64 else a
                      for a in args(values)]
        _same(static(*args(values)), fn(*eager_args))
        assert static.last_call.eager is None
    assert not static.last_call.traced and static.last_call.segments == 2


def test_returned_array_items_needing_gradients_name_the_problem_under_full_graph():
    with pytest.raises(NotImplementedError, match="paddle.stack"):
        to_static(collects, full_graph=True)(_t([1.0, 2.0], grad=True), paddle.to_tensor(2))


@pytest.mark.parametrize("fn", [collects, collects_then_reads])
def test_array_items_needing_gradients_run_the_signature_eagerly(fn):
    static = to_static(fn, full_graph=False)
    grads = []
    for run in (static, fn):
        x = _t([1.0, 2.0], grad=True)
        out = run(x, paddle.to_tensor(3) if run is static else 3)
        outs = out[1] if isinstance(out, tuple) else out
        sum(t.sum() for t in outs).backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1])
    assert static.last_call.eager and "gradients" in static.last_call.eager

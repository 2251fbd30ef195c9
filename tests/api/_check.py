"""Helpers for the API-breadth tests: NumPy oracles, gradient checks, eager vs static."""
import numpy as np

import sampan as paddle
from sampan import static


def tensor(array, grad=False):
    """A tensor from an array (dtype kept), requiring a gradient when `grad`."""
    out = paddle.to_tensor(np.asarray(array))
    out.stop_gradient = not grad
    return out


def numeric_grad(fn, arrays, k, eps=1e-6):
    """Central differences of sum(fn(*arrays)) with respect to arrays[k] (float64)."""
    x = arrays[k]
    grad = np.zeros_like(x)
    for i in range(x.size):
        old = x.flat[i]
        x.flat[i] = old + eps
        hi = np.sum(fn(*arrays))
        x.flat[i] = old - eps
        lo = np.sum(fn(*arrays))
        x.flat[i] = old
        grad.flat[i] = (hi - lo) / (2 * eps)
    return grad


def check_grad(fn, *arrays, wrt=None, rtol=1e-5, atol=1e-7):
    """Autograd of sum(fn(*tensors)) equals central differences for each input in `wrt`."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]
    wrt = range(len(arrays)) if wrt is None else wrt
    tensors = [tensor(a, grad=k in wrt) for k, a in enumerate(arrays)]
    fn(*tensors).sum().backward()
    plain = lambda *xs: fn(*[tensor(x) for x in xs]).numpy()  # noqa: E731
    for k in wrt:
        np.testing.assert_allclose(tensors[k].grad.numpy(), numeric_grad(plain, arrays, k),
                                   rtol=rtol, atol=atol)


def check_values(fn, ref, arrays):
    """fn on tensors of `arrays` equals the NumPy reference `ref` (shape and values)."""
    got = fn(*[tensor(a) for a in arrays]).numpy()
    want = ref(*[a.copy() for a in arrays])
    assert list(got.shape) == list(np.shape(want))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def run_static(fn, *arrays):
    """fn applied to static data Variables fed with `arrays`, run by the Executor."""
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            feeds = [static.data(f"in{k}", list(a.shape), str(a.dtype))
                     for k, a in enumerate(arrays)]
            out = fn(*feeds)
        exe = static.Executor(paddle.CPUPlace())
        exe.run(startup)
        outs = out if isinstance(out, (list, tuple)) else [out]
        results = exe.run(main, feed={f"in{k}": a for k, a in enumerate(arrays)},
                          fetch_list=list(outs))
    finally:
        paddle.disable_static()
    return results if isinstance(out, (list, tuple)) else results[0]


def check_static(fn, *arrays, rtol=1e-6, atol=1e-8):
    """fn gives the same values in static mode (Executor) as eagerly."""
    eager = fn(*[tensor(a) for a in arrays])
    got = run_static(fn, *arrays)
    if isinstance(eager, (list, tuple)):
        for e, g in zip(eager, got):
            np.testing.assert_allclose(g, e.numpy(), rtol=rtol, atol=atol)
    else:
        np.testing.assert_allclose(got, eager.numpy(), rtol=rtol, atol=atol)

"""Static control flow: cond, while_loop, case, switch_case forward, eager parity, grads."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def build(fn, feeds):
    """Program from fn(*data vars) -> (outputs, grads of sum(outputs[0]) w.r.t. data)."""
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        xs = []
        for name, value in feeds.items():
            x = static.data(name, list(value.shape), value.dtype.name)
            x.stop_gradient = value.dtype.kind != "f"
            xs.append(x)
        outs = fn(*xs)
        floats = [x for x in xs if not x.stop_gradient]
        grads = static.gradients([outs[0].sum()], floats) if floats else []
    return main, outs, grads


def run(main, feeds, fetch):
    return static.Executor().run(main, feed=feeds, fetch_list=fetch, scope=static.Scope())


def numeric_grad(main, feeds, out, name, eps=1e-6):
    """Central differences of sum(out) w.r.t. feed `name` (float64)."""
    base = feeds[name]
    grad = np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        vals = []
        for sign in (1, -1):
            x = base.copy()
            x[idx] += sign * eps
            vals.append(run(main, {**feeds, name: x}, [out])[0].sum())
        grad[idx] = (vals[0] - vals[1]) / (2 * eps)
    return grad


def check(fn, feeds, rtol=1e-5):
    """Static forward equals eager, static gradients equal central differences."""
    main, outs, grads = build(fn, feeds)
    main.verify()
    got = run(main, feeds, list(outs) + grads)
    paddle.disable_static()
    try:
        want = fn(*[paddle.to_tensor(v) for v in feeds.values()])
    finally:
        paddle.enable_static()
    for g, w in zip(got, want):
        # eager results may be Python numbers (array_length is an int there, as in Paddle)
        w = w.numpy() if hasattr(w, "numpy") else np.reshape(w, np.shape(g))
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-9)
    floats = [n for n, v in feeds.items() if v.dtype.kind == "f"]
    for name, g in zip(floats, got[len(outs):]):
        np.testing.assert_allclose(g, numeric_grad(main, feeds, outs[0], name), rtol=rtol,
                                   atol=1e-7)
    return got


def f64(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("flag", [True, False])
def test_cond_both_branches(static_mode, flag):
    def fn(x, p):
        return [static.nn.cond(p, lambda: paddle.tanh(x) * x, lambda: paddle.exp(x) - x)]
    check(fn, {"x": f64(3), "p": np.array([flag])})


def test_cond_nested_outputs_and_python_values(static_mode):
    def fn(x, w, p):
        out = static.nn.cond(p, lambda: {"a": x * w, "b": (x, 3)},
                             lambda: {"a": x + w, "b": (x * 2.0, 3)})
        assert out["b"][1] == 3
        return [out["a"] + out["b"][0]]
    for flag in (True, False):
        check(fn, {"x": f64(2, 3), "w": f64(2, 3, seed=1), "p": np.array([flag])})


def test_cond_on_tensor_predicate(static_mode):
    def fn(x):
        return [static.nn.cond(x.sum() > 0, lambda: x * x, lambda: -x)]
    check(fn, {"x": f64(4)})
    check(fn, {"x": -np.abs(f64(4))})


def test_cond_shape_mismatch_relaxes_dim(static_mode):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [2, 3], "float32")
        p = static.data("p", [1], "bool")
        out = static.nn.cond(p, lambda: x, lambda: paddle.concat([x, x]))
    assert out.shape == [-1, 3]
    for flag, rows in ((True, 2), (False, 4)):
        got = run(main, {"x": np.ones((2, 3), "float32"), "p": np.array([flag])}, [out])[0]
        assert got.shape == (rows, 3)


def test_cond_spec_mismatch_errors(static_mode):
    with static.program_guard(static.Program(), static.Program()):
        x = static.data("x", [2, 3], "float32")
        p = static.data("p", [1], "bool")
        with pytest.raises(ValueError, match=r"output 0: .*float32.*int64"):
            static.nn.cond(p, lambda: x, lambda: x.astype("int64"))
        with pytest.raises(ValueError, match=r"output 1: rank differs .*\[2, 3\].*\[6\]"):
            static.nn.cond(p, lambda: (x, x), lambda: (x, x.reshape([6])))
        with pytest.raises(ValueError, match="different structures"):
            static.nn.cond(p, lambda: (x, x), lambda: x)
        with pytest.raises(ValueError, match="Python values differ"):
            static.nn.cond(p, lambda: (x, 1), lambda: (x, 2))


def test_cond_eager_is_python(static_mode):
    paddle.disable_static()
    try:
        x = paddle.to_tensor([1.0, 2.0])
        assert static.nn.cond(x.sum() > 0, lambda: "yes", lambda: "no") == "yes"
    finally:
        paddle.enable_static()


def counted_power(x, n):
    """x**(n+1) through a while loop counting i up to n (a tensor)."""
    i = paddle.zeros([1], "int64")
    _, y = static.nn.while_loop(lambda i, y: i < n, lambda i, y: [i + 1, y * x], [i, x])
    return y


@pytest.mark.parametrize("steps", [0, 1, 4])
def test_while_iterations_and_grad(static_mode, steps):
    def fn(x, n):
        return [counted_power(x, n)]
    got = check(fn, {"x": f64(3) * 0.5 + 1, "n": np.array([steps], "int64")})
    np.testing.assert_allclose(got[1], (steps + 1) * (f64(3) * 0.5 + 1) ** steps, rtol=1e-6)


def test_while_tensor_dependent_condition_grad(static_mode):
    def fn(x, w):
        def body(h, k):
            return [paddle.tanh(h * w + x), k + 1.0]
        h, _ = static.nn.while_loop(lambda h, k: (h.sum() < 5.0) & (k < 6.0), body,
                                    [x, paddle.zeros([1], "float64")])
        return [h]
    check(fn, {"x": np.array([0.3, 0.8, 0.1]), "w": np.array([1.5, 2.0, 0.7])})


def test_while_shape_change_relaxes_and_errors(static_mode):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [1, 2], "float32")
        i = paddle.zeros([1], "int64")
        _, y = static.nn.while_loop(lambda i, y: i < 3,
                                    lambda i, y: [i + 1, paddle.concat([y, y])], [i, x])
        assert y.shape == [-1, 2]
        with pytest.raises(TypeError, match=r"loop variable 1: enters as dense float32 "
                                             r"\[1, 2\], the body returns dense int64 \[1, 2\]"):
            static.nn.while_loop(lambda i, y: i < 3, lambda i, y: [i + 1, y.astype("int64")],
                                 [i, x])
    got = run(main, {"x": np.ones((1, 2), "float32")}, [y])[0]
    assert got.shape == (8, 2)


def test_while_eager(static_mode):
    paddle.disable_static()
    try:
        i, s = static.nn.while_loop(lambda i, s: i < 4, lambda i, s: [i + 1, s + i],
                                    [paddle.to_tensor(0), paddle.to_tensor(0)])
        assert int(i) == 4 and int(s) == 6
    finally:
        paddle.enable_static()


def test_nested_while_in_cond_in_while(static_mode):
    def fn(x, w):
        def inner(y):
            return static.nn.while_loop(lambda j, y: j < 2,
                                        lambda j, y: [j + 1, paddle.sin(y * w)],
                                        [paddle.zeros([1], "int64"), y])[1]

        def outer_body(i, y):
            y = static.nn.cond(i % 2 == 0, lambda: inner(y), lambda: y * x + 0.1)
            return [i + 1, y]
        return [static.nn.while_loop(lambda i, y: i < 3, outer_body,
                                     [paddle.zeros([1], "int64"), x])[1]]
    check(fn, {"x": f64(3) * 0.5, "w": f64(3, seed=2)})


@pytest.mark.parametrize("index", [0, 1, 2, 7])
def test_switch_case_and_case(static_mode, index):
    def fn(x, k):
        a = static.nn.switch_case(k, {0: lambda: x * 2.0, 1: lambda: paddle.exp(x),
                                      2: lambda: x * x}, default=lambda: -x)
        b = static.nn.case([(k == 0, lambda: x + 1.0), (k < 2, lambda: x * 3.0)],
                           default=lambda: paddle.tanh(x))
        return [a + b, b]
    check(fn, {"x": f64(2), "k": np.array([index], "int64")})


def test_switch_case_list_and_default_is_last(static_mode):
    def fn(x, k):
        return [static.nn.switch_case(k, [lambda: x, lambda: x * 5.0])]
    for index, scale in ((0, 1.0), (1, 5.0), (3, 5.0)):
        got = check(fn, {"x": f64(2), "k": np.array([index], "int64")})
        np.testing.assert_allclose(got[0], f64(2) * scale)


def test_static_pylayer_tuple_outputs_are_the_op_outputs():
    """A forward returning a tuple gives the op's outputs, not the forward block's vars."""
    paddle.enable_static()
    main = static.Program()
    try:
        with static.program_guard(main):
            x = static.data("x", [3], "float32")
            a, b = static.nn.static_pylayer(lambda v: (v * 2.0, v + 1.0), [x])
    finally:
        paddle.disable_static()
    op = [o for o in main.global_block().ops if o.type == "static_pylayer"][0]
    assert [a.name, b.name] == op.output("Out")
    got = static.Executor().run(main, {"x": np.arange(3, dtype="float32")}, [a, b],
                                scope=static.Scope())
    np.testing.assert_array_equal(got[0], [0, 2, 4])
    np.testing.assert_array_equal(got[1], [1, 2, 3])

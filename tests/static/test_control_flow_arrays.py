"""Tensor arrays, static_pylayer, listing, verification and JSON round trips."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.tensor import array_length, array_read, array_write, create_array

from .test_control_flow import build, check, f64, numeric_grad, run, static_mode  # noqa: F401


def collect(x, n):
    """Per-step outputs x * (step+1) collected in an array inside a while loop."""
    arr = create_array("float64")
    i = paddle.zeros([1], "int64")

    def body(i, h, arr):
        h = paddle.tanh(h * x)
        arr = array_write(h * (i.astype("float64") + 1.0), i, arr)
        return [i + 1, h, arr]
    i, h, arr = static.nn.while_loop(lambda i, h, arr: i < n, body, [i, x, arr])
    return arr, i


def test_array_in_while_forward_and_grad(static_mode):
    def fn(x, n):
        arr, i = collect(x, n)
        total = array_read(arr, 0) + array_read(arr, i - 1) * 2.0
        return [total, array_length(arr)]
    got = check(fn, {"x": f64(3) * 0.7, "n": np.array([3], "int64")})
    assert got[1].tolist() == [3]


def test_array_eager_is_list(static_mode):
    paddle.disable_static()
    try:
        arr = create_array("float32")
        array_write(paddle.to_tensor([1.0]), 0, arr)
        array_write(paddle.to_tensor([2.0]), paddle.to_tensor([1]), arr)
        assert isinstance(arr, list) and array_length(arr) == 2
        assert type(array_length(arr)) is int  # as in Paddle 3.3.1
        assert float(array_read(arr, 1)) == 2.0
    finally:
        paddle.enable_static()


def test_array_initialized_list_and_repeated_reads_grad(static_mode):
    def fn(x, w):
        arr = create_array("float64", [x, w])
        array_write(x * w, 2, arr)
        return [array_read(arr, 0) * array_read(arr, 2) + array_read(arr, 0) + array_read(arr, 1)]
    check(fn, {"x": f64(2), "w": f64(2, seed=3)})


def test_array_read_unwritten_index_fails(static_mode):
    main, outs, _ = build(lambda x: [array_read(create_array("float64", [x]), 3)],
                          {"x": f64(2)})
    with pytest.raises(IndexError, match="index 3 is not written"):
        run(main, {"x": f64(2)}, outs)


def pylayer_program():
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [3], "float64")
        x.stop_gradient = False
        y = static.nn.static_pylayer(lambda v: paddle.exp(v) * 2.0, [x],
                                     backward_fn=lambda dy: dy * 3.0)
        gx, = static.gradients([y.sum()], [x])
    return main, x, y, gx


def test_static_pylayer_listing_forward_and_custom_grad(static_mode):
    main, x, y, gx = pylayer_program()
    text = str(main)
    assert "= static_pylayer(inputs={Input=['x']}, blocks = blocks[1, 2]" in text
    assert "static_pylayer_grad(" in text
    bwd = main.block(2)
    assert bwd.var(f"{y.name}@GRAD").is_data and bwd.has_var("x@GRAD")
    out, g = run(main, {"x": f64(3)}, [y, gx])
    np.testing.assert_allclose(out, np.exp(f64(3)) * 2.0)
    np.testing.assert_allclose(g, np.full(3, 3.0))
    main.verify()


def test_static_pylayer_true_gradient_and_eager(static_mode):
    def fn(x, w):
        y = static.nn.static_pylayer(lambda a, b: paddle.tanh(a) * b, [x, w],
                                     backward_fn=None)
        return [y]
    main, outs, grads = build(fn, {"x": f64(2), "w": f64(2, seed=1)})
    assert outs[0].stop_gradient and grads == [None, None]
    paddle.disable_static()
    try:
        out = static.nn.static_pylayer(lambda a: a * 2.0, [paddle.to_tensor([1.0])])
        assert float(out) == 2.0
    finally:
        paddle.enable_static()


def test_static_pylayer_backward_matches_numeric(static_mode):
    def fn(x):
        return [static.nn.static_pylayer(lambda v: v * v, [x], lambda dy: dy * 2.0 * x)]
    main, outs, grads = build(fn, {"x": f64(3)})
    got = run(main, {"x": f64(3)}, grads)[0]
    np.testing.assert_allclose(got, numeric_grad(main, {"x": f64(3)}, outs[0], "x"),
                               rtol=1e-6)


def nested_program():
    def fn(x, w):
        def body(i, y, arr):
            y = static.nn.cond(i < 1, lambda: paddle.sin(y * w), lambda: y * x)
            return [i + 1, y, array_write(y, i, arr)]
        _, y, arr = static.nn.while_loop(lambda i, y, a: i < 3, body,
                                         [paddle.zeros([1], "int64"), x,
                                          create_array("float64")])
        return [y + array_read(arr, 0)]
    return build(fn, {"x": f64(3), "w": f64(3, seed=4)})


def test_json_round_trip_with_sub_blocks(static_mode):
    main, outs, grads = nested_program()
    feeds = {"x": f64(3), "w": f64(3, seed=4)}
    main.verify()
    text = static.program_to_json(main)
    loaded = static.program_from_json(text)
    loaded.verify()
    assert static.program_to_json(loaded) == text
    assert str(loaded) == str(main)
    names = [v.name for v in outs + grads]
    for a, b in zip(run(main, feeds, names), run(loaded, feeds, names)):
        np.testing.assert_array_equal(a, b)
    assert main.num_blocks > 5


def test_clone_and_rerun_is_deterministic(static_mode):
    main, outs, grads = nested_program()
    feeds = {"x": f64(3), "w": f64(3, seed=4)}
    first = run(main, feeds, outs + grads)
    second = run(main.clone(), feeds, [v.name for v in outs + grads])
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(first[1], numeric_grad(main, feeds, outs[0], "x"), rtol=1e-6)


def test_parallel_and_nan_checked_runs_match(static_mode):
    main, outs, grads = nested_program()
    feeds = {"x": f64(3), "w": f64(3, seed=4)}
    names = [v.name for v in outs + grads]
    want = run(main, feeds, names)
    parallel = static.Executor().run(main, feed=feeds, fetch_list=names, scope=static.Scope(),
                                     exec_strategy=static.ExecutionStrategy(num_threads=4))
    paddle.set_flags({"FLAGS_check_nan_inf": True})
    try:
        checked = run(main, feeds, names)
    finally:
        paddle.set_flags({"FLAGS_check_nan_inf": False})
    for a, b, c in zip(want, parallel, checked):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)


def test_random_branch_gradient_uses_forward_values(static_mode):
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [200], "float64")
        x.stop_gradient = False
        p = static.data("p", [1], "bool")
        y = static.nn.cond(p, lambda: paddle.nn.functional.dropout(x, 0.5), lambda: x)
        gx, = static.gradients([y.sum()], [x])
    xv = np.abs(f64(200)) + 0.5
    out, g = run(main, {"x": xv, "p": np.array([True])}, [y, gx])
    assert 0 < (out == 0).sum() < 200
    np.testing.assert_allclose(g * xv, out)


def test_append_backward_reaches_parameter_in_while(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [2], "float32")
        w = static.create_parameter([2], "float32", name="w_cf",
                                    default_initializer=lambda s, d: np.full(s, 0.5))
        _, h = static.nn.while_loop(lambda i, h: i < 2, lambda i, h: [i + 1, h * w],
                                    [paddle.zeros([1], "int64"), x])
        loss = h.sum()
        (param, grad), = static.append_backward(loss)
    scope = static.Scope()
    exe = static.Executor()
    exe.run(startup, scope=scope)
    g, = exe.run(main, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[grad],
                 scope=scope)
    np.testing.assert_allclose(g, 2 * 0.5 * np.array([1.0, 2.0]))


def test_array_pop_removes_the_item_and_routes_gradients(static_mode):
    from sampan.static.control_flow import array_pop

    def fn(x, w):
        arr = create_array("float64", [x, w, x * w])
        middle = array_pop(arr, 1)  # arr: [x, x * w]
        last = array_pop(arr, array_length(arr) - 1)  # arr: [x]
        return [middle * 3.0 + last * array_read(arr, 0), array_length(arr)]
    feeds = {"x": f64(3), "w": f64(3, seed=4)}
    main, outs, grads = build(fn, feeds)
    main.verify()
    got = run(main, feeds, list(outs) + grads)
    x, w = feeds["x"], feeds["w"]
    np.testing.assert_allclose(got[0], w * 3.0 + x * w * x)
    assert got[1].tolist() == [1]
    for name, grad in zip(feeds, got[2:]):
        np.testing.assert_allclose(grad, numeric_grad(main, feeds, outs[0], name), rtol=1e-5)

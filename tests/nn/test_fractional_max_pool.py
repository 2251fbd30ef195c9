"""F.fractional_max_pool2d/3d and nn.FractionalMaxPool2D/3D: window placement recorded from
Paddle 3.3.1 (tools/paddle_reference/fractional_windows.py), the NumPy reference of
tests/ops/cases/fractional_pool.py, masks, gradients, the drawn offset and bad input."""
import json
import pathlib

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F
from tests.ops.cases.fractional_pool import fractional_ref

WINDOWS = json.loads((pathlib.Path(__file__).parent / "paddle_fractional_windows.json")
                     .read_text())


def _windows(n, o, k, u):
    """[[start, end), ...] read back from the mask of an increasing and a decreasing row."""
    def mask_of(row):
        x = paddle.to_tensor(row.reshape(1, 1, 1, n).astype("float32"))
        return F.fractional_max_pool2d(x, [1, o], kernel_size=[1, k] if k else None,
                                       random_u=u, return_mask=True)[1].numpy().ravel()
    starts, ends = mask_of(-np.arange(n)), mask_of(np.arange(n)) + 1
    return [[int(s), int(e)] for s, e in zip(starts, ends)]


@pytest.mark.parametrize("n,o,k,u,want", WINDOWS, ids=[str(w[:4]) for w in WINDOWS])
def test_windows_are_placed_as_paddle_places_them(n, o, k, u, want):
    assert _windows(n, o, k, u) == want


def test_docstring_sequence_of_the_paper():
    x = paddle.to_tensor(np.array([2, 4, 3, 1, 5, 2, 3], "float32").reshape(1, 1, 1, 7))
    out = F.fractional_max_pool2d(x, [1, 5], random_u=0.3)
    np.testing.assert_array_equal(out.numpy().ravel(), [2, 4, 1, 5, 3])


def test_ties_take_the_first_maximum_and_gradient_goes_there():
    # values and expected mask / gradient recorded with Paddle 3.3.1
    x = paddle.to_tensor(np.array([[[[1, 5, 5], [5, 2, 0], [0, 0, 5]]]], "float32"),
                         stop_gradient=False)
    out, mask = F.fractional_max_pool2d(x, 2, kernel_size=2, random_u=0.3, return_mask=True)
    np.testing.assert_array_equal(out.numpy(), np.full((1, 1, 2, 2), 5.0))
    np.testing.assert_array_equal(mask.numpy(), [[[[1, 1], [3, 8]]]])
    assert mask.dtype == paddle.int32
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[[[0, 2, 0], [1, 0, 0], [0, 0, 1]]]])


@pytest.mark.parametrize("shape,size,kernel", [((2, 3, 9, 8), [4, None], None),
                                               ((1, 2, 7, 6, 5), 3, 2),
                                               ((2, 1, 6, 9, 4), [2, 5, 4], [3, 2, 1])])
def test_functional_matches_reference_in_float64(shape, size, kernel):
    x = np.random.RandomState(0).rand(*shape)
    nd = len(shape) - 2
    fn = F.fractional_max_pool2d if nd == 2 else F.fractional_max_pool3d
    out, mask = fn(paddle.to_tensor(x), size, kernel_size=kernel, random_u=0.45,
                   return_mask=True)
    sizes = [s if o is None else o for o, s in
             zip([size] * nd if isinstance(size, int) else size, shape[2:])]
    kernels = None if kernel is None else ([kernel] * nd if isinstance(kernel, int) else kernel)
    want_out, want_mask = fractional_ref(x, sizes, kernels, 0.45)
    assert out.dtype == paddle.float64
    np.testing.assert_array_equal(out.numpy(), want_out)
    np.testing.assert_array_equal(mask.numpy(), want_mask)


def test_gradient_against_finite_differences():
    rng = np.random.RandomState(1)
    x = rng.permutation(5 * 7).reshape(1, 1, 5, 7) * 0.1
    weights = rng.rand(1, 1, 3, 4)

    def loss(a):
        out = F.fractional_max_pool2d(paddle.to_tensor(a), [3, 4], kernel_size=[2, 3],
                                      random_u=0.6)
        return float((out.numpy() * weights).sum())
    xt = paddle.to_tensor(x, stop_gradient=False)
    out = F.fractional_max_pool2d(xt, [3, 4], kernel_size=[2, 3], random_u=0.6)
    (out * paddle.to_tensor(weights)).sum().backward()
    numeric = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += 1e-6
        down[i] -= 1e-6
        numeric[i] = (loss(up) - loss(down)) / 2e-6
    np.testing.assert_allclose(xt.grad.numpy(), numeric, atol=1e-6)


def test_drawn_offset_follows_the_seed():
    x = paddle.rand([1, 1, 29, 29])

    def masks():
        return [F.fractional_max_pool2d(x, 6, return_mask=True)[1].numpy() for _ in range(4)]
    paddle.seed(5)
    first = masks()
    paddle.seed(5)
    again = masks()
    assert all((a == b).all() for a, b in zip(first, again))
    assert any((first[0] != m).any() for m in first[1:]), "each call draws a new offset"


def test_layers_keep_paddle_attributes_and_forward():
    layer = nn.FractionalMaxPool2D(output_size=3, kernel_size=2, random_u=0.3)
    assert (layer._output_size, layer._kernel_size, layer._random_u, layer._return_mask,
            layer._name) == (3, 2, 0.3, False, None)
    assert repr(layer) == "FractionalMaxPool2D(output_size=3, return_mask=False)"
    x = np.random.RandomState(2).rand(2, 3, 8, 8)
    want = fractional_ref(x, [3, 3], [2, 2], 0.3)[0]
    np.testing.assert_array_equal(layer(paddle.to_tensor(x)).numpy(), want)
    layer3 = nn.FractionalMaxPool3D(output_size=[2, 3, 2], random_u=0.5, return_mask=True)
    x3 = np.random.RandomState(3).rand(1, 2, 4, 6, 5)
    out, mask = layer3(paddle.to_tensor(x3))
    want_out, want_mask = fractional_ref(x3, [2, 3, 2], None, 0.5)
    np.testing.assert_array_equal(out.numpy(), want_out)
    np.testing.assert_array_equal(mask.numpy(), want_mask)


def test_static_program_runs_the_same_windows():
    x = np.random.RandomState(4).rand(2, 2, 9, 7).astype("float32")
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            data = paddle.static.data("x", [None, 2, 9, 7], "float32")
            out = F.fractional_max_pool2d(data, [4, 3], random_u=0.35)
        got = paddle.static.Executor().run(main, feed={"x": x}, fetch_list=[out])[0]
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(got, fractional_ref(x, [4, 3], None, 0.35)[0])


@pytest.mark.parametrize("call,match", [
    (lambda: F.fractional_max_pool2d(paddle.ones([4, 4]), 2), "4-D"),
    (lambda: F.fractional_max_pool3d(paddle.ones([1, 1, 4, 4]), 2), "5-D"),
    (lambda: F.fractional_max_pool2d(paddle.ones([1, 1, 4, 4]), 2, random_u=1.0), "random_u"),
    (lambda: F.fractional_max_pool2d(paddle.ones([1, 1, 4, 4]), 5), "input size 4"),
    (lambda: F.fractional_max_pool2d(paddle.ones([1, 1, 4, 4]), 3, kernel_size=3),
     "output_size - 1 \\+ kernel_size = 5"),
    (lambda: F.fractional_max_pool2d(paddle.ones([1, 1, 4, 4], "int32"), 2), "float"),
])
def test_bad_input_is_refused_with_the_reason(call, match):
    # Paddle pools an output larger than the input into -FLT_MAX cells; sampan refuses it
    with pytest.raises(Exception, match=match):
        call()

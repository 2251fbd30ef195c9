"""The inference-only channels-last convolutions (depthwise and 1x1) equal the im2col path
they replace, keep channels-last memory, and read channels-last inputs correctly."""
import numpy as np
import pytest

from sampan.ops.kernels.nn_conv import conv

DEPTHWISE = [  # (x shape NCHW, kernel, strides, paddings, padding algorithm)
    ((1, 16, 12, 12), (3, 3), [2, 2], [1, 1], "EXPLICIT"),
    ((2, 5, 9, 11), (3, 3), [1, 1], [1, 1], "EXPLICIT"),
    ((1, 7, 14, 14), (5, 5), [1, 1], [2, 2], "EXPLICIT"),
    ((1, 6, 15, 13), (5, 5), [2, 2], [2, 2], "EXPLICIT"),
    ((1, 4, 10, 9), (3, 2), [3, 2], [0, 2, 1, 0], "EXPLICIT"),
    ((2, 3, 8, 7), (5, 3), [1, 2], [0, 0], "SAME"),
    ((1, 3, 8, 7), (3, 3), [2, 1], [0, 0], "VALID"),
    ((1, 8, 1, 1), (3, 3), [1, 1], [1, 1], "EXPLICIT"),
]


def _general_and_fast(x, f, strides, paddings, algorithm, groups, layout):
    args = (x, f, strides, paddings, algorithm, [1, 1], groups, layout)
    general, columns = conv(*args, need=(True, True))
    fast, none = conv(*args, need=(True, False))
    assert columns is not None and none is None
    return general, fast


def _channels_last_memory(a, layout):
    return (a if layout == "NHWC" else a.transpose(0, 2, 3, 1)).flags.c_contiguous


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("x_shape, kernel, strides, paddings, algorithm", DEPTHWISE)
def test_depthwise_equals_the_im2col_path(x_shape, kernel, strides, paddings, algorithm,
                                          layout):
    rng = np.random.default_rng(sum(x_shape) + sum(kernel))
    x = rng.standard_normal(x_shape).astype("float32")
    if layout == "NHWC":
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    c = x_shape[1]
    f = rng.standard_normal((c, 1, *kernel)).astype("float32")
    general, fast = _general_and_fast(x, f, strides, paddings, algorithm, c, layout)
    assert fast.shape == general.shape and fast.dtype == general.dtype
    np.testing.assert_allclose(fast, general, rtol=1e-5, atol=1e-5)
    assert _channels_last_memory(fast, layout)


def test_depthwise_reads_a_channels_last_input_and_feeds_a_channels_last_pointwise():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 12, 9, 9)).astype("float32")
    x_cl = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    dw = rng.standard_normal((12, 1, 3, 3)).astype("float32")
    pw = rng.standard_normal((20, 12, 1, 1)).astype("float32")
    general, fast = _general_and_fast(x, dw, [1, 1], [1, 1], "EXPLICIT", 12, "NCHW")
    _, fast_cl = _general_and_fast(x_cl, dw, [1, 1], [1, 1], "EXPLICIT", 12, "NCHW")
    np.testing.assert_array_equal(fast_cl, fast)
    activated = np.maximum(fast_cl + 1.0, 0.0)  # elementwise ops keep the memory order
    assert _channels_last_memory(activated, "NCHW") and not activated.flags.c_contiguous
    expected, _ = _general_and_fast(np.maximum(general + 1.0, 0.0), pw, [1, 1], [0, 0],
                                    "EXPLICIT", 1, "NCHW")
    _, out = _general_and_fast(activated, pw, [1, 1], [0, 0], "EXPLICIT", 1, "NCHW")
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    assert _channels_last_memory(out, "NCHW")


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_pointwise_of_channels_last_memory_equals_the_im2col_path(layout):
    rng = np.random.default_rng(4)
    x = np.ascontiguousarray(rng.standard_normal((2, 6, 5, 24)).astype("float32"))  # NHWC
    if layout == "NCHW":
        x = x.transpose(0, 3, 1, 2)
    f = rng.standard_normal((8, 24, 1, 1)).astype("float32")
    general, fast = _general_and_fast(x, f, [1, 1], [0, 0], "EXPLICIT", 1, layout)
    np.testing.assert_allclose(fast, general, rtol=1e-5, atol=1e-5)
    assert fast.shape == general.shape and _channels_last_memory(fast, layout)


STRIDED = [  # (x shape NCHW, out channels, kernel, strides, paddings, padding algorithm)
    ((1, 3, 12, 12), 16, (3, 3), [2, 2], [1, 1], "EXPLICIT"),
    ((2, 4, 11, 9), 6, (3, 3), [2, 2], [1, 1], "EXPLICIT"),
    ((1, 3, 10, 13), 5, (5, 5), [2, 3], [2, 1, 0, 2], "EXPLICIT"),
    ((2, 2, 9, 8), 3, (2, 3), [3, 1], [0, 0], "SAME"),
    ((1, 3, 9, 9), 4, (7, 7), [2, 2], [3, 3], "EXPLICIT"),
    ((1, 2, 7, 7), 3, (1, 1), [2, 2], [0, 0], "VALID"),
    ((1, 64, 40, 130), 4, (3, 3), [2, 2], [1, 1], "EXPLICIT"),  # 7 bands of output rows
]


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("x_shape, out_channels, kernel, strides, paddings, algorithm", STRIDED)
def test_strided_conv_from_stride_phases_equals_the_im2col_path(
        x_shape, out_channels, kernel, strides, paddings, algorithm, layout):
    rng = np.random.default_rng(sum(x_shape) + out_channels)
    x = rng.standard_normal(x_shape).astype("float32")
    if layout == "NHWC":
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    f = rng.standard_normal((out_channels, x_shape[1], *kernel)).astype("float32")
    general, fast = _general_and_fast(x, f, strides, paddings, algorithm, 1, layout)
    assert fast.shape == general.shape and fast.dtype == general.dtype
    np.testing.assert_allclose(fast, general, rtol=1e-5, atol=1e-5)
    assert fast.flags.c_contiguous


def test_grouped_but_not_depthwise_keeps_the_im2col_path():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 8, 6, 6)).astype("float32")
    for f_shape, groups in [((16, 1, 3, 3), 8), ((8, 2, 3, 3), 4)]:  # multiplier 2; 2 per group
        f = rng.standard_normal(f_shape).astype("float32")
        general, fast = _general_and_fast(x, f, [1, 1], [1, 1], "EXPLICIT", groups, "NCHW")
        np.testing.assert_allclose(fast, general, rtol=1e-5, atol=1e-5)
        assert fast.flags.c_contiguous


def test_static_executor_returns_channels_last_results_contiguous():
    # a fetched depthwise output (no backward: the channels-last path) comes back
    # C-contiguous and equal to the eager convolution
    import sampan
    import sampan.nn.functional as F
    from sampan import static
    from sampan.ops._generated.api import conv2d
    rng = np.random.default_rng(6)
    xn = rng.standard_normal((1, 6, 7, 7)).astype("float32")
    wn = rng.standard_normal((6, 1, 3, 3)).astype("float32")
    sampan.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [None, 6, 7, 7], "float32")
            w = static.data("w", [6, 1, 3, 3], "float32")
            y = sampan.nn.functional.relu(conv2d(x, w, [2, 2], [1, 1], "EXPLICIT", [1, 1], 6))
        out, = static.Executor().run(main, feed={"x": xn, "w": wn}, fetch_list=[y])
    finally:
        sampan.disable_static()
    expected = F.relu(F.conv2d(sampan.to_tensor(xn), sampan.to_tensor(wn), stride=2, padding=1,
                               groups=6)).numpy()
    assert out.flags.c_contiguous
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)

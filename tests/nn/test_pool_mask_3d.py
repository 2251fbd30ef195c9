"""Functional and layer forms of max pooling with masks, max unpooling and the 3-D
convolutions and pools, against the loop references of tests/ops/cases/nn_spatial.py."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F
from tests.ops.case import distinct, rand
from tests.ops.cases.nn_spatial import (conv_ref, conv_transpose_ref, max_pool_with_index_ref,
                                        pool_ref, unpool_ref)


def test_max_pool2d_mask_is_flat_index_into_each_image():
    x = distinct(2, 3, 5, 6)
    out, mask = F.max_pool2d(paddle.to_tensor(x), 2, stride=2, return_mask=True)
    want_out, want_mask = max_pool_with_index_ref(x, [2, 2], [2, 2])
    np.testing.assert_array_equal(out.numpy(), want_out)
    np.testing.assert_array_equal(mask.numpy(), want_mask)
    assert mask.dtype == paddle.int32
    flat = x.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, want_mask.reshape(2, 3, -1), 2),
                                  want_out.reshape(2, 3, -1))


def test_max_pool1d_layer_mask_and_unpool_round_trip_with_gradient():
    x = paddle.to_tensor(distinct(2, 3, 8), stop_gradient=False)
    out, mask = nn.MaxPool1D(2, return_mask=True)(x)
    up = nn.MaxUnPool1D(2)(out, mask)
    xn = x.numpy()
    want = np.where(xn == np.repeat(xn.reshape(2, 3, 4, 2).max(-1), 2, axis=-1), xn, 0)
    np.testing.assert_array_equal(up.numpy(), want)
    (up * paddle.to_tensor(np.arange(8.0))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), (want != 0) * np.arange(8.0))


def test_max_unpool2d_output_size_and_layer():
    x = distinct(1, 2, 5, 5)
    out, mask = F.max_pool2d(paddle.to_tensor(x), 2, stride=2, return_mask=True)
    up = nn.MaxUnPool2D(2, stride=2, output_size=[5, 5])(out, mask)
    np.testing.assert_array_equal(up.numpy(), unpool_ref(out.numpy(), mask.numpy(), None, None,
                                                         None, [5, 5]))
    with pytest.raises(ValueError):
        F.max_unpool2d(out, mask, 2, output_size=[7, 7])


def test_max_pool2d_mask_with_gradient_matches_plain_max_pool():
    xn = distinct(1, 2, 5, 5)
    grads = []
    for mask in (False, True):
        x = paddle.to_tensor(xn, stop_gradient=False)
        out = F.max_pool2d(x, 3, stride=2, padding=1, return_mask=mask)
        (out[0] if mask else out).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


def test_return_mask_refuses_channel_last():
    with pytest.raises(ValueError):
        F.max_pool2d(paddle.rand([1, 4, 4, 2]), 2, return_mask=True, data_format="NHWC")


@pytest.mark.parametrize("data_format", ["NCDHW", "NDHWC"])
def test_conv3d_layers_match_loop_reference(data_format):
    x = rand(2, 4, 5, 4, 3, dtype="float32")
    x = x if data_format == "NCDHW" else np.ascontiguousarray(np.moveaxis(x, 1, -1))
    conv = nn.Conv3D(4, 6, (2, 3, 2), stride=(1, 2, 1), padding=1, dilation=(2, 1, 1),
                     groups=2, data_format=data_format)
    assert conv.weight.shape == [6, 2, 2, 3, 2]
    got = conv(paddle.to_tensor(x)).numpy()
    want = conv_ref(x, conv.weight.numpy(), [1, 2, 1], [1, 1, 1], dilations=[2, 1, 1],
                    groups=2, data_format=data_format)
    bias = conv.bias.numpy().reshape((1, -1, 1, 1, 1) if data_format == "NCDHW" else -1)
    np.testing.assert_allclose(got, want + bias, rtol=1e-5, atol=1e-5)


def test_conv3d_transpose_layer_matches_loop_reference():
    x = rand(1, 4, 2, 3, 2, dtype="float32")
    layer = nn.Conv3DTranspose(4, 2, 3, stride=2, padding=1, groups=2, bias_attr=False)
    assert layer.weight.shape == [4, 1, 3, 3, 3]
    got = layer(paddle.to_tensor(x), output_size=[4, 6, 4]).numpy()
    want = conv_transpose_ref(x, layer.weight.numpy(), [2, 2, 2], [1, 1, 1],
                              output_size=[4, 6, 4], groups=2)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_3d_pool_layers_match_loop_reference():
    x = distinct(1, 2, 5, 4, 6)
    t = paddle.to_tensor(x)
    cases = [
        (nn.MaxPool3D(2, stride=2, ceil_mode=True),
         pool_ref(x, [2, 2, 2], [2, 2, 2], [0, 0, 0], ceil_mode=True)),
        (nn.AvgPool3D(3, stride=2, padding=1, exclusive=False),
         pool_ref(x, [3, 3, 3], [2, 2, 2], [1, 1, 1], exclusive=False, pooling_type="avg")),
        (nn.AdaptiveAvgPool3D((2, None, 3)),
         pool_ref(x, [2, 4, 3], [1, 1, 1], [0, 0, 0], pooling_type="avg", adaptive=True)),
        (nn.AdaptiveMaxPool3D(2),
         pool_ref(x, [2, 2, 2], [1, 1, 1], [0, 0, 0], adaptive=True)),
    ]
    for layer, want in cases:
        np.testing.assert_allclose(layer(t).numpy(), want, rtol=1e-6, err_msg=repr(layer))


def test_max_pool3d_mask_and_unpool3d():
    x = distinct(1, 2, 4, 4, 4)
    out, mask = nn.MaxPool3D(2, return_mask=True)(paddle.to_tensor(x))
    np.testing.assert_array_equal(mask.numpy(), max_pool_with_index_ref(x, [2, 2, 2],
                                                                        [2, 2, 2])[1])
    up = nn.MaxUnPool3D(2)(out, mask)
    np.testing.assert_array_equal(up.numpy(), unpool_ref(out.numpy(), mask.numpy(), None,
                                                         None, None, [4, 4, 4]))


def test_3d_and_mask_functionals_build_static_programs():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2, 4, 4, 4], "float32")
            w = paddle.static.data("w", [3, 2, 2, 2, 2], "float32")
            y = F.max_pool3d(F.conv3d(x, w, padding=1), 2)
            out, mask = F.max_pool2d(paddle.static.data("z", [None, 1, 4, 4], "float32"), 2,
                                     return_mask=True)
            up = F.max_unpool2d(out, mask, 2)
        exe = paddle.static.Executor()
        xs, ws, zs = (rand(1, 2, 4, 4, 4, dtype="float32"), rand(3, 2, 2, 2, 2, dtype="float32"),
                      distinct(1, 1, 4, 4, dtype="float32"))
        got_y, got_up = exe.run(main, feed={"x": xs, "w": ws, "z": zs}, fetch_list=[y, up])
    finally:
        paddle.disable_static()
    want_y = pool_ref(conv_ref(xs, ws, paddings=[1, 1, 1]), [2, 2, 2], [2, 2, 2], [0, 0, 0])
    np.testing.assert_allclose(got_y, want_y, rtol=1e-5, atol=1e-5)
    o, m = max_pool_with_index_ref(zs, [2, 2], [2, 2])
    np.testing.assert_array_equal(got_up, unpool_ref(o, m, None, None, None, [4, 4]))

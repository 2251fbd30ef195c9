"""Constructor signatures of nn layers follow Paddle 3.3.1: argument order, names and the
keyword-only options (bias, padding_mode, device, dtype, affine, ...)."""
import inspect

import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.nn import functional as F


def _params(fn):
    """Parameter names of fn (without self) and those that are keyword-only."""
    params = [p for p in inspect.signature(fn).parameters.values() if p.name != "self"]
    keyword_only = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    return [p.name for p in params], keyword_only


def test_spectral_norm_names_its_epsilon_eps():
    weight = np.random.default_rng(0).standard_normal((3, 4))
    layer = nn.SpectralNorm([3, 4], 0, 30, 1e-12, "float64")
    tiny = nn.SpectralNorm([3, 4], eps=1e-12, power_iters=30, dtype="float64")
    tiny.weight_u.set_value(layer.weight_u.numpy())
    tiny.weight_v.set_value(layer.weight_v.numpy())
    sigma = np.linalg.svd(weight, compute_uv=False)[0]
    for norm in (layer, tiny):
        np.testing.assert_allclose(norm(paddle.to_tensor(weight)).numpy(), weight / sigma,
                                   rtol=1e-6)


@pytest.mark.parametrize("cls, order", [
    (nn.Conv1DTranspose, ["groups", "dilation"]),
    (nn.Conv2DTranspose, ["dilation", "groups"]),
    (nn.Conv3DTranspose, ["dilation", "groups"]),
])
def test_transposed_conv_dilation_groups_order(cls, order):
    names, _ = _params(cls.__init__)
    assert names[5:8] == ["output_padding"] + order


def test_conv2d_transpose_positional_dilation_then_groups():
    layer = nn.Conv2DTranspose(4, 2, 3, 1, 0, 0, 2, 1)
    assert layer._dilation == [2, 2] and layer._groups == 1
    assert nn.Conv2DTranspose(4, 2, 3, 1, 0, 0, 1, 2).weight.shape == [4, 1, 3, 3]
    assert nn.Conv1DTranspose(4, 2, 3, 1, 0, 0, 2, 1).weight.shape == [4, 1, 3]


def test_dropout_inplace_position():
    assert _params(nn.Dropout.__init__)[0] == ["p", "inplace", "axis", "mode", "name"]
    assert _params(F.dropout)[0] == ["x", "p", "axis", "training", "inplace", "mode", "name"]
    assert nn.Dropout(0.3, False, None, "downscale_in_infer").mode == "downscale_in_infer"


def test_dropout_inplace_updates_input():
    x = paddle.ones([40, 50])
    out = F.dropout(x, 0.5, inplace=True)
    assert out is x
    assert set(np.unique(x.numpy())) <= {0.0, 2.0} and 0 < (x.numpy() == 0).mean() < 1
    y = paddle.ones([3, 4])
    nn.Dropout(0.5, inplace=True).eval()(y)
    np.testing.assert_array_equal(y.numpy(), np.ones((3, 4)))
    z = paddle.ones([3, 4])
    assert F.dropout(z, 0.5, training=False, inplace=True, mode="downscale_in_infer") is z
    np.testing.assert_allclose(z.numpy(), np.full((3, 4), 0.5))


def test_dropout_inplace_refusals():
    leaf = paddle.ones([3, 4])
    leaf.stop_gradient = False
    with pytest.raises(ValueError):
        F.dropout(leaf, 0.5, inplace=True)
    with pytest.raises(NotImplementedError):
        F.dropout(paddle.ones([3, 4]), 0.5, axis=0, inplace=True)


@pytest.mark.parametrize("cls, keyword_only", [
    (nn.Conv1D, ["bias", "padding_mode", "device", "dtype", "weight_attr", "bias_attr",
                 "data_format"]),
    (nn.Conv2D, ["bias", "padding_mode", "device", "dtype", "weight_attr", "bias_attr",
                 "data_format"]),
    (nn.Conv3D, ["bias", "padding_mode", "device", "dtype", "weight_attr", "bias_attr",
                 "data_format"]),
    (nn.Embedding, ["scale_grad_by_freq", "sparse", "_weight", "_freeze", "device", "dtype",
                    "weight_attr", "name"]),
    (nn.GroupNorm, ["affine", "device", "dtype", "weight_attr", "bias_attr", "data_format",
                    "name"]),
    (nn.LayerNorm, ["elementwise_affine", "bias", "device", "dtype", "weight_attr",
                    "bias_attr", "name"]),
])
def test_keyword_only_parameters(cls, keyword_only):
    assert _params(cls.__init__)[1] == keyword_only


@pytest.mark.parametrize("cls", [nn.Conv1D, nn.Conv2D, nn.Conv3D])
def test_conv_bias_dtype_device(cls):
    layer = cls(2, 4, 3, bias=False, dtype="float64", device="cpu")
    assert layer.bias is None and layer.weight.dtype == paddle.float64
    assert cls(2, 4, 3, bias=False, bias_attr=paddle.ParamAttr()).bias is None
    assert cls(2, 4, 3, device=paddle.CPUPlace()).bias.shape == [4]
    with pytest.raises(ValueError, match="cpu"):
        cls(2, 4, 3, device="gpu:0")


def test_conv_bias_false_forward_matches_manual():
    layer = nn.Conv1D(1, 1, 2, bias=False, dtype="float64")
    layer.weight.set_value(np.array([[[1.0, -1.0]]]))
    x = paddle.to_tensor(np.array([[[1.0, 4.0, 9.0]]]))
    np.testing.assert_allclose(layer(x).numpy(), [[[-3.0, -5.0]]])


def test_embedding_given_weight_and_freeze():
    table = paddle.to_tensor(np.arange(12.0).reshape(4, 3))
    emb = nn.Embedding(4, 3, padding_idx=1, _weight=table)
    assert emb.weight is table
    np.testing.assert_array_equal(table.numpy()[1], [0.0, 0.0, 0.0])
    out = emb(paddle.to_tensor([[0, 3]]))
    np.testing.assert_array_equal(out.numpy(), [[[0.0, 1.0, 2.0], [9.0, 10.0, 11.0]]])
    frozen = nn.Embedding(4, 3, _freeze=True)
    assert frozen.weight.stop_gradient and not frozen.weight.trainable
    assert not nn.Embedding(4, 3, _freeze=True, weight_attr=paddle.ParamAttr()).weight.stop_gradient
    assert nn.Embedding(4, 3, dtype="float64").weight.dtype == paddle.float64
    with pytest.raises(ValueError):
        nn.Embedding(4, 3, _weight=paddle.ones([4, 2]))
    with pytest.raises(ValueError):
        nn.Embedding(4, 3, device="gpu")


def test_group_norm_affine_false_is_plain_normalisation():
    norm = nn.GroupNorm(2, 4, affine=False, dtype="float64")
    assert norm.weight is None and norm.bias is None
    x = np.random.default_rng(1).standard_normal((2, 4, 3))
    groups = x.reshape(2, 2, -1)
    ref = (groups - groups.mean(-1, keepdims=True)) / np.sqrt(groups.var(-1, keepdims=True)
                                                              + 1e-5)
    np.testing.assert_allclose(norm(paddle.to_tensor(x)).numpy(), ref.reshape(x.shape),
                               atol=1e-10)


def test_layer_norm_affine_options():
    assert nn.LayerNorm([2, 3]).weight.shape == [6]
    no_bias = nn.LayerNorm(4, bias=False)
    assert no_bias.bias is None and no_bias.weight.shape == [4]
    plain = nn.LayerNorm(4, elementwise_affine=False, weight_attr=paddle.ParamAttr())
    assert plain.weight is None and plain.bias is None
    assert nn.LayerNorm(4, dtype="float64").weight.dtype == paddle.float64
    x = np.array([[1.0, 2.0, 3.0, 6.0]])
    ref = (x - 3.0) / np.sqrt(3.5 + 1e-5)
    np.testing.assert_allclose(plain(paddle.to_tensor(x)).numpy(), ref, atol=1e-6)


@pytest.mark.parametrize("make, text", [
    (lambda: nn.Conv2D(2, 4, 3, padding=1, padding_mode="reflect"),
     "Conv2D(2, 4, kernel_size=[3, 3], padding=1, padding_mode=reflect, data_format=NCHW)"),
    (lambda: nn.Embedding(5, 2, padding_idx=0, sparse=True),
     "Embedding(5, 2, padding_idx=0, sparse=True, scale_grad_by_freq=False)"),
    (lambda: nn.Upsample(scale_factor=2),
     "Upsample(scale_factor=2, mode=nearest, align_corners=False, align_mode=0, "
     "data_format=None)"),
    (lambda: nn.UpsamplingBilinear2D(size=[4, 4]),
     "UpsamplingBilinear2D(size=[4, 4], data_format=NCHW)"),
    (lambda: nn.Dropout(0.2, inplace=True),
     "Dropout(p=0.2, axis=None, mode=upscale_in_train, inplace=True)"),
    (lambda: nn.GroupNorm(2, 4), "GroupNorm(num_groups=2, num_channels=4, epsilon=1e-05)"),
    (lambda: nn.Unfold([2, 2]), "Unfold(kernel_size=[2, 2], dilation=1, padding=0, stride=1)"),
    (lambda: nn.LPPool1D(3, 2), "LPPool1D(norm_type=3.0, kernel_size=2, stride=None, padding=0)"),
    (lambda: nn.PixelShuffle(2), "PixelShuffle(upscale_factor=2)"),
    (lambda: nn.ChannelShuffle(2, "NHWC"), "ChannelShuffle(groups=2, data_format=NHWC)"),
    (lambda: nn.AdaptiveMaxPool1D(3), "AdaptiveMaxPool1D(output_size=3, return_mask=False)"),
    (lambda: nn.MaxPool2D(2), "MaxPool2D(kernel_size=2, stride=None, padding=0)"),
    (lambda: nn.AdaptiveAvgPool2D(3), "AdaptiveAvgPool2D(output_size=3)"),
    (lambda: nn.MaxUnPool2D(2), "MaxUnPool2D(output_size=None)"),
    (lambda: nn.BatchNorm1D(3),
     "BatchNorm1D(num_features=3, momentum=0.9, epsilon=1e-05, data_format=NCL)"),
    (lambda: nn.PReLU(), "PReLU(num_parameters=1, data_format=NCHW, init=0.25, dtype=float32)"),
    (lambda: nn.Dropout2D(), "Dropout2D(p=0.5, data_format=NCHW)"),
    (lambda: nn.Bilinear(2, 3, 4),
     "Bilinear(in1_features=2, in2_features=3, out_features=4, dtype=float32)"),
])
def test_reprs_read_like_paddle(make, text):
    assert repr(make()) == text


def test_transformer_layer_children_in_paddle_order():
    names = [name for name, _ in nn.TransformerDecoderLayer(4, 2, 8).named_children()]
    assert names == ["self_attn", "cross_attn", "linear1", "dropout", "linear2", "norm1",
                     "norm2", "norm3", "dropout1", "dropout2", "dropout3"]


def test_conv_padding_mode_still_pads_once():
    layer = nn.Conv1D(1, 1, 3, padding=1, padding_mode="circular", bias=False,
                      dtype="float64")
    layer.weight.set_value(np.ones((1, 1, 3)))
    x = np.array([[[1.0, 2.0, 4.0]]])
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(), [[[7.0, 7.0, 7.0]]])


def test_uniform_initializer_third_argument_is_name():
    assert _params(nn.initializer.Uniform.__init__)[0] == ["low", "high", "name"]
    init = nn.initializer.Uniform(2.0, 3.0, "u")
    values = paddle.create_parameter([200], "float32", default_initializer=init).numpy()
    assert values.min() >= 2.0 and values.max() < 3.0


def test_prelu_keeps_its_slope_under_paddles_state_dict_key():
    layer = nn.PReLU(2, init=0.5)
    assert list(layer.state_dict()) == ["_weight"]
    layer.set_state_dict({"_weight": paddle.to_tensor([0.1, 0.2])})
    x = paddle.to_tensor(np.array([[[-1.0], [-2.0]]], dtype="float32"))
    np.testing.assert_allclose(layer(x).numpy().ravel(), [-0.1, -0.4], rtol=1e-6)


def test_nn_parameter_takes_requires_grad_second():
    p = nn.Parameter(paddle.ones([2]))
    assert not p.stop_gradient and p.trainable and p.persistable
    for frozen in (nn.Parameter(paddle.ones([2]), requires_grad=False),
                   nn.Parameter(paddle.ones([2]), False)):
        assert frozen.stop_gradient and not frozen.trainable
    assert nn.Parameter([1.0], dtype="float64").dtype == paddle.float64

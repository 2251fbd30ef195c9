"""nn layers and functions as Paddle users call them: InstanceNorm's `scale` parameter,
kl_div's log_target and zero labels, Layer.astype / half, the Bilinear initializer."""
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
import sampan.nn.functional as F


def test_instance_norm_parameters_are_scale_and_bias():
    layer = nn.InstanceNorm2D(3)
    assert list(layer.state_dict()) == ["scale", "bias"]
    np.testing.assert_array_equal(layer.scale.numpy(), np.ones(3))
    x = np.random.default_rng(0).normal(size=(2, 3, 4, 4)).astype(np.float32)
    mean = x.mean(axis=(2, 3), keepdims=True)
    want = (x - mean) / np.sqrt(x.var(axis=(2, 3), keepdims=True) + 1e-5)
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(), want, rtol=1e-4, atol=1e-5)
    plain = nn.InstanceNorm1D(3, weight_attr=False, bias_attr=False)
    assert plain.scale is None and plain.bias is None and list(plain.state_dict()) == []
    with pytest.raises(ValueError, match="weight_attr"):
        nn.InstanceNorm2D(3, weight_attr=False)


def test_kl_div_zero_labels_contribute_nothing():
    x = paddle.to_tensor([[-1.0, -2.0]], stop_gradient=False)
    y = paddle.to_tensor([[0.0, 1.0]])
    loss = F.kl_div(x, y, reduction="none")
    np.testing.assert_allclose(loss.numpy(), [[0.0, 2.0]])
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.0, -1.0]])


def test_kl_div_log_target_and_the_layer():
    x = np.log(np.array([[0.2, 0.8], [0.5, 0.5]]))
    target = np.array([[0.4, 0.6], [0.3, 0.7]])
    want = np.sum(target * (np.log(target) - x))
    got = F.kl_div(paddle.to_tensor(x), paddle.to_tensor(np.log(target)), "sum", log_target=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    layer = nn.KLDivLoss("batchmean", True)
    np.testing.assert_allclose(layer(paddle.to_tensor(x), paddle.to_tensor(np.log(target)))
                               .numpy(), want / 2, rtol=1e-12)


def test_layer_astype_and_half_cast_parameters():
    net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3))
    assert net.astype("float64") is net
    assert {p.dtype for p in net.parameters()} == {paddle.float64}
    net.half()
    assert {p.dtype for p in net.parameters()} == {paddle.float16}


def test_bilinear_initializer_matches_paddles_formula():
    attr = paddle.ParamAttr(learning_rate=0.0, initializer=nn.initializer.Bilinear())
    up = nn.Conv2DTranspose(2, 2, kernel_size=4, stride=2, padding=1, weight_attr=attr,
                            bias_attr=False)
    size, f = 4, 2
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    flat = [(1 - abs(i % size / f - c)) * (1 - abs((i / size) % size / f - c))
            for i in range(2 * 2 * size * size)]
    np.testing.assert_allclose(up.weight.numpy().ravel(), flat, rtol=1e-6)
    assert up(paddle.ones([1, 2, 3, 3])).shape == [1, 2, 6, 6]
    with pytest.raises(ValueError, match="shape"):
        nn.initializer.Bilinear()(paddle.create_parameter([2, 3], "float32"))
    assert math.isclose(float(up.weight.numpy()[0, 0, 0, 0]), flat[0], rel_tol=1e-6)


def test_embedding_max_norm_renormalizes_looked_up_rows_in_place():
    weight = np.array([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]], dtype=np.float32)
    layer = nn.Embedding(3, 2, max_norm=1.0, weight_attr=paddle.ParamAttr(
        initializer=nn.initializer.Assign(weight)))
    out = layer(paddle.to_tensor([0, 1]))
    np.testing.assert_allclose(np.linalg.norm(out.numpy(), axis=1), [1.0, 0.5], rtol=1e-5)
    np.testing.assert_allclose(layer.weight.numpy()[2], weight[2])  # not looked up
    l1 = F.embedding(paddle.to_tensor([2]), paddle.to_tensor(weight), max_norm=7.0,
                     norm_type=1.0)
    np.testing.assert_allclose(np.abs(l1.numpy()).sum(), 7.0, rtol=1e-5)


def test_embedding_scale_grad_by_freq_divides_by_occurrences():
    layer = nn.Embedding(4, 2, scale_grad_by_freq=True)
    ids = paddle.to_tensor([[0, 2], [2, 2]])
    out = layer(ids)
    np.testing.assert_array_equal(out.numpy(), layer.weight.numpy()[ids.numpy()])
    out.sum().backward()
    np.testing.assert_allclose(layer.weight.grad.numpy()[:, 0], [1.0, 0.0, 1.0, 0.0])


def test_batch_norm_1d_and_3d_default_formats():
    import inspect
    assert inspect.signature(nn.BatchNorm1D).parameters["data_format"].default == "NCL"
    assert inspect.signature(nn.BatchNorm3D).parameters["data_format"].default == "NCDHW"
    assert nn.BatchNorm1D(3)(paddle.randn([4, 3, 5])).shape == [4, 3, 5]
    assert nn.BatchNorm1D(3)(paddle.randn([4, 3])).shape == [4, 3]


def test_lr_schedulers_refuse_bad_arguments_by_name():
    lr = paddle.optimizer.lr
    with pytest.raises(TypeError, match="'step_size'"):
        lr.StepDecay(0.1, step_size=2.5)
    with pytest.raises(ValueError, match="'step_size'"):
        lr.StepDecay(0.1, step_size=0)
    with pytest.raises(ValueError, match="'gamma'"):
        lr.StepDecay(0.1, 2, gamma=1.5)
    with pytest.raises(ValueError, match="'milestones'"):
        lr.MultiStepDecay(0.1, [4, 2])
    with pytest.raises(ValueError, match="'gamma'"):
        lr.MultiStepDecay(0.1, [2, 4], gamma=1.0)
    with pytest.raises(ValueError, match="'mode'"):
        lr.ReduceOnPlateau(0.1, mode="lowest")
    with pytest.raises(ValueError, match="'threshold_mode'"):
        lr.ReduceOnPlateau(0.1, threshold_mode="relative")


def test_pdist_is_also_a_functional():
    out = F.pdist(paddle.to_tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]))
    np.testing.assert_allclose(out.numpy(), [5.0, 10.0, 5.0])

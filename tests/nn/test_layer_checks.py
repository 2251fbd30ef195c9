"""Argument checks Paddle makes at construction or call: loss reductions, activation
keywords, conv data_format, BatchNorm2D/3D input ranks, BCE probabilities; and
adaptive_max_pool1d's mask."""
import numpy as np
import pytest

import sampan.nn as nn
import sampan.nn.functional as F

from ._ref import t


@pytest.mark.parametrize("make", [
    lambda: nn.MSELoss(reduction="avg"), lambda: nn.L1Loss(reduction="avg"),
    lambda: nn.CrossEntropyLoss(reduction="avg"), lambda: nn.NLLLoss(reduction="avg"),
    lambda: nn.BCELoss(reduction="avg"), lambda: nn.CTCLoss(reduction="avg"),
    lambda: nn.KLDivLoss(reduction="avg"), lambda: nn.MultiMarginLoss(reduction="avg"),
])
def test_loss_layers_refuse_an_unknown_reduction(make):
    with pytest.raises(ValueError, match="reduction must be one of"):
        make()
    assert nn.KLDivLoss(reduction="batchmean") is not None


def test_activation_layers_refuse_unknown_keywords():
    with pytest.raises(TypeError, match="ReLU"):
        nn.ReLU(foo=1)
    with pytest.raises(TypeError, match="LeakyReLU"):
        nn.LeakyReLU(0.1, "name", 0.2)
    np.testing.assert_allclose(nn.LeakyReLU(0.1)(t(np.array([-1.0]))).numpy(), [-0.1])


def test_conv_refuses_a_data_format_of_another_rank():
    with pytest.raises(ValueError, match="Conv2D: data_format must be one of"):
        nn.Conv2D(4, 3, 3, data_format="NCL")
    with pytest.raises(ValueError, match="Conv1DTranspose: data_format"):
        nn.Conv1DTranspose(4, 3, 3, data_format="NCHW")


@pytest.mark.parametrize("layer,shape", [(nn.BatchNorm2D(3), (2, 3, 4)),
                                         (nn.BatchNorm3D(3), (2, 3, 4, 4))])
def test_batch_norm_2d_3d_check_the_input_rank(layer, shape):
    with pytest.raises(ValueError, match="expected a [45]-D input"):
        layer(t(np.ones(shape, np.float32)))


@pytest.mark.parametrize("value", [1.5, -0.2, float("nan")])
def test_binary_cross_entropy_refuses_non_probabilities(value):
    with pytest.raises(ValueError, match="probabilities in \\[0, 1\\]"):
        F.binary_cross_entropy(t(np.array([0.5, value])), t(np.array([1.0, 0.0])))


def test_adaptive_max_pool1d_returns_indices_along_the_length():
    x = np.array([[[3.0, 1.0, 4.0, 1.0, 5.0, 9.0]]])
    out, mask = F.adaptive_max_pool1d(t(x), 3, return_mask=True)
    np.testing.assert_array_equal(out.numpy(), [[[3.0, 4.0, 9.0]]])
    np.testing.assert_array_equal(mask.numpy(), [[[0, 2, 5]]])
    np.testing.assert_array_equal(F.adaptive_avg_pool1d(t(x), [2]).numpy(),
                                  [[[8.0 / 3, 5.0]]])


def test_prelu_weight_must_have_one_or_a_channel_count_of_elements():
    x = np.array([[[-1.0, 2.0]], [[-3.0, 4.0]]]).reshape(1, 2, 2)
    out = F.prelu(t(x), t(np.array([0.1, 0.5])))
    np.testing.assert_allclose(out.numpy(), [[[-0.1, 2.0], [-1.5, 4.0]]])
    with pytest.raises(ValueError, match="prelu: weight has 3 elements but x .* 2 channels"):
        F.prelu(t(x), t(np.array([0.1, 0.2, 0.3])))

"""Every layer of sampan.nn takes a batch of 0 and returns an empty result of the right
shape: the shape it returns for a batch of 7 with 7 replaced by 0 (a loss reduced to a
scalar stays a scalar). The table must name every Layer class sampan.nn exports."""
import inspect

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn


def f(*shape):
    """A float32 tensor of the given shape (values in [0, 1): valid for every loss)."""
    size = int(np.prod(shape))
    return paddle.to_tensor((np.arange(size, dtype="float32") % 7 / 7).reshape(shape))


def i(*shape, value=0, dtype="int64"):
    return paddle.to_tensor(np.full(shape, value, dtype))


ELEMENTWISE = ["CELU", "ELU", "GELU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh",
               "Identity", "LeakyReLU", "LogSigmoid", "LogSoftmax", "Mish", "ReLU", "ReLU6",
               "SELU", "SiLU", "Sigmoid", "Softmax", "Softmin", "Softplus", "Softshrink",
               "Softsign", "Swish", "Tanh", "Tanhshrink", "ThresholdedReLU", "Dropout",
               "AlphaDropout", "FeatureAlphaDropout", "RReLU", "PReLU", "GLU", "Flatten"]
CASES = {n: (lambda n=n: getattr(nn, n)(), lambda n: [f(n, 4)]) for n in ELEMENTWISE}
img = lambda n: [f(n, 4, 6, 6)]
seq = lambda n: [f(n, 4, 8)]
vol = lambda n: [f(n, 4, 4, 4, 4)]
tokens = lambda n: [f(n, 3, 4)]
pair = lambda n: [f(n, 3, 4), f(n, 3, 4)]
CASES.update({
    "Linear": (lambda: nn.Linear(4, 3), lambda n: [f(n, 4)]),
    "Bilinear": (lambda: nn.Bilinear(4, 5, 3), lambda n: [f(n, 4), f(n, 5)]),
    "Conv1D": (lambda: nn.Conv1D(4, 2, 3), seq),
    "Conv2D": (lambda: nn.Conv2D(4, 2, 3), img),
    "Conv3D": (lambda: nn.Conv3D(4, 2, 3), vol),
    "Conv1DTranspose": (lambda: nn.Conv1DTranspose(4, 2, 3), seq),
    "Conv2DTranspose": (lambda: nn.Conv2DTranspose(4, 2, 3), img),
    "Conv3DTranspose": (lambda: nn.Conv3DTranspose(4, 2, 3), vol),
    "AdaptiveAvgPool1D": (lambda: nn.AdaptiveAvgPool1D(2), seq),
    "AdaptiveAvgPool2D": (lambda: nn.AdaptiveAvgPool2D(2), img),
    "AdaptiveAvgPool3D": (lambda: nn.AdaptiveAvgPool3D(2), vol),
    "AdaptiveMaxPool1D": (lambda: nn.AdaptiveMaxPool1D(2), seq),
    "AdaptiveMaxPool2D": (lambda: nn.AdaptiveMaxPool2D(2), img),
    "AdaptiveMaxPool3D": (lambda: nn.AdaptiveMaxPool3D(2), vol),
    "AvgPool1D": (lambda: nn.AvgPool1D(2), seq), "AvgPool2D": (lambda: nn.AvgPool2D(2), img),
    "AvgPool3D": (lambda: nn.AvgPool3D(2), vol), "MaxPool1D": (lambda: nn.MaxPool1D(2), seq),
    "MaxPool2D": (lambda: nn.MaxPool2D(2), img), "MaxPool3D": (lambda: nn.MaxPool3D(2), vol),
    "FractionalMaxPool2D": (lambda: nn.FractionalMaxPool2D(4, random_u=0.3), img),
    "FractionalMaxPool3D": (lambda: nn.FractionalMaxPool3D(3, kernel_size=2), vol),
    "LPPool1D": (lambda: nn.LPPool1D(2, 2), seq), "LPPool2D": (lambda: nn.LPPool2D(2, 2), img),
    "BatchNorm": (lambda: nn.BatchNorm(4), img), "BatchNorm1D": (lambda: nn.BatchNorm1D(4), seq),
    "BatchNorm2D": (lambda: nn.BatchNorm2D(4), img),
    "BatchNorm3D": (lambda: nn.BatchNorm3D(4), vol),
    "SyncBatchNorm": (lambda: nn.SyncBatchNorm(4), img),
    "GroupNorm": (lambda: nn.GroupNorm(2, 4), img), "LayerNorm": (lambda: nn.LayerNorm(6), img),
    "InstanceNorm1D": (lambda: nn.InstanceNorm1D(4), seq),
    "InstanceNorm2D": (lambda: nn.InstanceNorm2D(4), img),
    "InstanceNorm3D": (lambda: nn.InstanceNorm3D(4), vol),
    "LocalResponseNorm": (lambda: nn.LocalResponseNorm(3), img),
    "ChannelShuffle": (lambda: nn.ChannelShuffle(2), img),
    "PixelShuffle": (lambda: nn.PixelShuffle(2), img),
    "PixelUnshuffle": (lambda: nn.PixelUnshuffle(2), img),
    "Softmax2D": (lambda: nn.Softmax2D(), img),
    "Maxout": (lambda: nn.Maxout(2), img),
    "Dropout2D": (lambda: nn.Dropout2D(), img), "Dropout3D": (lambda: nn.Dropout3D(), vol),
    "Embedding": (lambda: nn.Embedding(5, 3), lambda n: [i(n, 2)]),
    "Fold": (lambda: nn.Fold([4, 4], 2), lambda n: [f(n, 8, 9)]),
    "Unfold": (lambda: nn.Unfold(2), img),
    "Unflatten": (lambda: nn.Unflatten(1, [2, 2]), lambda n: [f(n, 4)]),
    "Upsample": (lambda: nn.Upsample(scale_factor=2), img),
    "UpsamplingBilinear2D": (lambda: nn.UpsamplingBilinear2D(scale_factor=2), img),
    "UpsamplingNearest2D": (lambda: nn.UpsamplingNearest2D(scale_factor=2), img),
    "Pad1D": (lambda: nn.Pad1D(1), seq), "Pad2D": (lambda: nn.Pad2D(1), img),
    "Pad3D": (lambda: nn.Pad3D(1), vol),
    "ZeroPad1D": (lambda: nn.ZeroPad1D(1), seq), "ZeroPad2D": (lambda: nn.ZeroPad2D(1), img),
    "ZeroPad3D": (lambda: nn.ZeroPad3D(1), vol),
    "ConstantPad1D": (lambda: nn.ConstantPad1D(1, 0.0), seq),
    "ConstantPad2D": (lambda: nn.ConstantPad2D(1, 0.0), img),
    "ConstantPad3D": (lambda: nn.ConstantPad3D(1, 0.0), vol),
    "ReflectionPad1D": (lambda: nn.ReflectionPad1D(1), seq),
    "ReflectionPad2D": (lambda: nn.ReflectionPad2D(1), img),
    "ReflectionPad3D": (lambda: nn.ReflectionPad3D(1), vol),
    "ReplicationPad1D": (lambda: nn.ReplicationPad1D(1), seq),
    "ReplicationPad2D": (lambda: nn.ReplicationPad2D(1), img),
    "ReplicationPad3D": (lambda: nn.ReplicationPad3D(1), vol),
    "CircularPad1D": (lambda: nn.CircularPad1D(1), seq),
    "CircularPad2D": (lambda: nn.CircularPad2D(1), img),
    "CircularPad3D": (lambda: nn.CircularPad3D(1), vol),
    "MaxUnPool1D": (lambda: nn.MaxUnPool1D(2), lambda n: [f(n, 4, 4), i(n, 4, 4)]),
    "MaxUnPool2D": (lambda: nn.MaxUnPool2D(2), lambda n: [f(n, 4, 3, 3), i(n, 4, 3, 3)]),
    "MaxUnPool3D": (lambda: nn.MaxUnPool3D(2), lambda n: [f(n, 4, 2, 2, 2), i(n, 4, 2, 2, 2)]),
    "CosineSimilarity": (lambda: nn.CosineSimilarity(), lambda n: [f(n, 4), f(n, 4)]),
    "PairwiseDistance": (lambda: nn.PairwiseDistance(), lambda n: [f(n, 4), f(n, 4)]),
    
    "Sequential": (lambda: nn.Sequential(nn.Linear(4, 3), nn.ReLU()), lambda n: [f(n, 4)]),
    "SimpleRNN": (lambda: nn.SimpleRNN(4, 3), lambda n: [f(n, 5, 4)]),
    "LSTM": (lambda: nn.LSTM(4, 3), lambda n: [f(n, 5, 4)]),
    "GRU": (lambda: nn.GRU(4, 3), lambda n: [f(n, 5, 4)]),
    "SimpleRNNCell": (lambda: nn.SimpleRNNCell(4, 3), lambda n: [f(n, 4)]),
    "LSTMCell": (lambda: nn.LSTMCell(4, 3), lambda n: [f(n, 4)]),
    "GRUCell": (lambda: nn.GRUCell(4, 3), lambda n: [f(n, 4)]),
    "RNN": (lambda: nn.RNN(nn.SimpleRNNCell(4, 3)), lambda n: [f(n, 5, 4)]),
    "BiRNN": (lambda: nn.BiRNN(nn.SimpleRNNCell(4, 3), nn.SimpleRNNCell(4, 3)),
              lambda n: [f(n, 5, 4)]),
    "MultiHeadAttention": (lambda: nn.MultiHeadAttention(4, 2), lambda n: tokens(n) * 3),
    "TransformerEncoderLayer": (lambda: nn.TransformerEncoderLayer(4, 2, 8), tokens),
    "TransformerEncoder": (lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 1),
                           tokens),
    "TransformerDecoderLayer": (lambda: nn.TransformerDecoderLayer(4, 2, 8), pair),
    "TransformerDecoder": (lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8), 1),
                           pair),
    "Transformer": (lambda: nn.Transformer(4, 2, 1, 1, 8), pair),
    # losses: (input, label)
    "BCELoss": (lambda: nn.BCELoss(), lambda n: [f(n, 3), f(n, 3)]),
    "BCEWithLogitsLoss": (lambda: nn.BCEWithLogitsLoss(), lambda n: [f(n, 3), f(n, 3)]),
    "CrossEntropyLoss": (lambda: nn.CrossEntropyLoss(), lambda n: [f(n, 3), i(n, 1)]),
    "NLLLoss": (lambda: nn.NLLLoss(), lambda n: [f(n, 3), i(n)]),
    "MSELoss": (lambda: nn.MSELoss(), lambda n: [f(n, 3), f(n, 3)]),
    "L1Loss": (lambda: nn.L1Loss(), lambda n: [f(n, 3), f(n, 3)]),
    "SmoothL1Loss": (lambda: nn.SmoothL1Loss(), lambda n: [f(n, 3), f(n, 3)]),
    "HuberLoss": (lambda: nn.HuberLoss(), lambda n: [f(n, 3), f(n, 3)]),
    "KLDivLoss": (lambda: nn.KLDivLoss(), lambda n: [f(n, 3), f(n, 3)]),
    "SoftMarginLoss": (lambda: nn.SoftMarginLoss(), lambda n: [f(n, 3), f(n, 3)]),
    "MarginRankingLoss": (lambda: nn.MarginRankingLoss(), lambda n: [f(n), f(n), f(n)]),
    "HingeEmbeddingLoss": (lambda: nn.HingeEmbeddingLoss(), lambda n: [f(n, 3), f(n, 3)]),
    "CosineEmbeddingLoss": (lambda: nn.CosineEmbeddingLoss(), lambda n: [f(n, 3), f(n, 3), i(n)]),
    "MultiLabelSoftMarginLoss": (lambda: nn.MultiLabelSoftMarginLoss(),
                                 lambda n: [f(n, 3), f(n, 3)]),
    "MultiLabelMarginLoss": (lambda: nn.MultiLabelMarginLoss(), lambda n: [f(n, 3), i(n, 3)]),
    "MultiMarginLoss": (lambda: nn.MultiMarginLoss(), lambda n: [f(n, 3), i(n)]),
    "PoissonNLLLoss": (lambda: nn.PoissonNLLLoss(), lambda n: [f(n, 3), f(n, 3)]),
    "GaussianNLLLoss": (lambda: nn.GaussianNLLLoss(), lambda n: [f(n, 3), f(n, 3), f(n, 3) + 1]),
    "TripletMarginLoss": (lambda: nn.TripletMarginLoss(), lambda n: [f(n, 3), f(n, 3), f(n, 3)]),
    "TripletMarginWithDistanceLoss": (lambda: nn.TripletMarginWithDistanceLoss(),
                                      lambda n: [f(n, 3), f(n, 3), f(n, 3)]),
    "HSigmoidLoss": (lambda: nn.HSigmoidLoss(4, 5), lambda n: [f(n, 4), i(n, 1)]),
    "AdaptiveLogSoftmaxWithLoss": (lambda: nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2, 4]),
                                   lambda n: [f(n, 4), i(n)]),
    "CTCLoss": (lambda: nn.CTCLoss(), lambda n: [f(5, n, 3), i(n, 2, value=1, dtype="int32"),
                                                 i(n, value=5), i(n, value=2)]),
})
NOT_BATCHED = {"Layer", "LayerDict", "LayerList", "Module", "ModuleDict", "ModuleList",
               "ParameterDict", "ParameterList", "RNNCellBase", "SpectralNorm"}


def _layer_classes():
    """{class: one of its exported names} for every Layer class sampan.nn exports."""
    classes = {}
    for name in dir(nn):
        value = getattr(nn, name)
        if inspect.isclass(value) and issubclass(value, nn.Layer):
            classes.setdefault(value, name)
    return classes


def test_the_table_covers_every_exported_layer():
    covered = {getattr(nn, name) for name in [*CASES, *NOT_BATCHED]}
    missing = sorted(name for cls, name in _layer_classes().items() if cls not in covered)
    assert not missing, f"add a zero-batch case for {missing}"


def _shapes(out):
    """The shapes of every tensor in a (nested) layer output."""
    if isinstance(out, (list, tuple)):
        return [s for item in out for s in _shapes(item)]
    return [list(out.shape)] if hasattr(out, "shape") else []


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_empty_batch_gives_an_empty_result_of_the_right_shape(name):
    make, inputs = CASES[name]
    paddle.seed(0)
    layer = make()
    full = _shapes(layer(*inputs(7)))
    empty = _shapes(layer(*inputs(0)))
    assert empty == [[0 if d == 7 else d for d in shape] for shape in full]


def test_batch_norm_training_on_an_empty_batch_keeps_its_running_statistics():
    bn = nn.BatchNorm2D(4)
    bn.train()
    mean, var = bn._mean.numpy().copy(), bn._variance.numpy().copy()
    assert bn(f(0, 4, 3, 3)).shape == [0, 4, 3, 3]
    np.testing.assert_array_equal(bn._mean.numpy(), mean)
    np.testing.assert_array_equal(bn._variance.numpy(), var)

"""The layers whose constructor attributes are compared with Paddle's, built from either
framework's `nn`: sampan's in test_layer_paddle_attributes.py, Paddle's in
tools/paddle_reference/layer_vars.py, which recorded paddle_layer_vars.json."""


def layer_cases(nn):
    """{layer name: a function building a small instance} over the module `nn`."""
    return {
        "AdaptiveAvgPool1D": lambda: nn.AdaptiveAvgPool1D(2),
        "AdaptiveAvgPool2D": lambda: nn.AdaptiveAvgPool2D(2),
        "AdaptiveAvgPool3D": lambda: nn.AdaptiveAvgPool3D(2),
        "AdaptiveMaxPool1D": lambda: nn.AdaptiveMaxPool1D(2),
        "AdaptiveMaxPool2D": lambda: nn.AdaptiveMaxPool2D(2),
        "AdaptiveMaxPool3D": lambda: nn.AdaptiveMaxPool3D(2),
        "AvgPool1D": lambda: nn.AvgPool1D(2), "AvgPool2D": lambda: nn.AvgPool2D(2),
        "AvgPool3D": lambda: nn.AvgPool3D(2), "MaxPool1D": lambda: nn.MaxPool1D(2),
        "MaxPool2D": lambda: nn.MaxPool2D(2), "MaxPool3D": lambda: nn.MaxPool3D(2),
        "MaxUnPool1D": lambda: nn.MaxUnPool1D(2), "MaxUnPool2D": lambda: nn.MaxUnPool2D(2),
        "MaxUnPool3D": lambda: nn.MaxUnPool3D(2), "LPPool1D": lambda: nn.LPPool1D(2, 2),
        "LPPool2D": lambda: nn.LPPool2D(2, 2),
        "Conv1D": lambda: nn.Conv1D(2, 4, 3), "Conv2D": lambda: nn.Conv2D(2, 4, 3),
        "Conv3D": lambda: nn.Conv3D(2, 4, 3), "Conv1DTranspose": lambda: nn.Conv1DTranspose(2, 4, 3),
        "Conv2DTranspose": lambda: nn.Conv2DTranspose(2, 4, 3),
        "Conv3DTranspose": lambda: nn.Conv3DTranspose(2, 4, 3),
        "DepthwiseConv2D": lambda: nn.Conv2D(4, 8, 3, groups=4, padding=[1, 1, 1, 1]),
        "BatchNorm1D": lambda: nn.BatchNorm1D(4), "BatchNorm2D": lambda: nn.BatchNorm2D(4),
        "BatchNorm3D": lambda: nn.BatchNorm3D(4), "SyncBatchNorm": lambda: nn.SyncBatchNorm(4),
        "InstanceNorm1D": lambda: nn.InstanceNorm1D(4), "InstanceNorm2D": lambda: nn.InstanceNorm2D(4),
        "InstanceNorm3D": lambda: nn.InstanceNorm3D(4), "LayerNorm": lambda: nn.LayerNorm(4),
        "GroupNorm": lambda: nn.GroupNorm(2, 4), "LocalResponseNorm": lambda: nn.LocalResponseNorm(3),
        "SpectralNorm": lambda: nn.SpectralNorm([4, 4]), "Linear": lambda: nn.Linear(2, 3),
        "Embedding": lambda: nn.Embedding(5, 3), "Dropout": lambda: nn.Dropout(0.5),
        "Dropout2D": lambda: nn.Dropout2D(), "Upsample": lambda: nn.Upsample(scale_factor=2),
        "Pad2D": lambda: nn.Pad2D(1), "ZeroPad2D": lambda: nn.ZeroPad2D(1),
    }

"""Second names Paddle 3.3.1 gives nn layers (PyTorch spellings: Conv2d, ModuleList,
HuberLoss, ...); each is the very same class object as its Paddle-named original."""
from ...eager.tensor import Parameter
from . import common, container, conv, layers, loss, pooling

__all__ = ["Conv1d", "Conv2d", "Conv3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
           "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "CircularPad1d", "CircularPad2d",
           "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "UpsamplingBilinear2d", "UpsamplingNearest2d", "LPPool1d",
           "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "Module", "ModuleList",
           "ModuleDict", "HuberLoss", "Parameter"]

Conv1d, Conv2d, Conv3d = conv.Conv1D, conv.Conv2D, conv.Conv3D
AdaptiveAvgPool1d = pooling.AdaptiveAvgPool1D
AdaptiveAvgPool2d, AdaptiveAvgPool3d = pooling.AdaptiveAvgPool2D, pooling.AdaptiveAvgPool3D
AdaptiveMaxPool1d = pooling.AdaptiveMaxPool1D
AdaptiveMaxPool2d, AdaptiveMaxPool3d = pooling.AdaptiveMaxPool2D, pooling.AdaptiveMaxPool3D
ZeroPad1d, ZeroPad2d, ZeroPad3d = common.ZeroPad1D, common.ZeroPad2D, common.ZeroPad3D
CircularPad1d, CircularPad2d, CircularPad3d = (common.CircularPad1D, common.CircularPad2D,
                                               common.CircularPad3D)
ConstantPad1d, ConstantPad2d, ConstantPad3d = (common.ConstantPad1D, common.ConstantPad2D,
                                               common.ConstantPad3D)
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (common.ReflectionPad1D,
                                                     common.ReflectionPad2D,
                                                     common.ReflectionPad3D)
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (common.ReplicationPad1D,
                                                        common.ReplicationPad2D,
                                                        common.ReplicationPad3D)
UpsamplingBilinear2d = common.UpsamplingBilinear2D
UpsamplingNearest2d = common.UpsamplingNearest2D
LPPool1d, LPPool2d = pooling.LPPool1D, pooling.LPPool2D
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = (pooling.MaxUnPool1D, pooling.MaxUnPool2D,
                                         pooling.MaxUnPool3D)
Module, ModuleList, ModuleDict = layers.Layer, container.LayerList, container.LayerDict
HuberLoss = loss.SmoothL1Loss

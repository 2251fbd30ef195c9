"""`paddle.static.WeightNormParamAttr`: the fields of a weight-normalized parameter."""

from ..core.param_attr import ParamAttr

__all__ = ["WeightNormParamAttr"]


class WeightNormParamAttr(ParamAttr):
    """ParamAttr fields plus `dim`, the axis weight normalization (w = g * v / ||v||)
    keeps; None normalizes over the whole tensor. Holds the settings only."""

    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0,
                 regularizer=None, trainable=True, do_model_average=False, need_clip=True):
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
            raise TypeError(f"WeightNormParamAttr: argument 'dim' must be an int or None, got "
                            f"{dim!r}")
        if not isinstance(learning_rate, (int, float)) or isinstance(learning_rate, bool):
            raise TypeError(f"WeightNormParamAttr: argument 'learning_rate' must be a number, "
                            f"got {learning_rate!r}")
        super().__init__(name, initializer, learning_rate, regularizer, trainable,
                         do_model_average, need_clip)
        self.dim = dim

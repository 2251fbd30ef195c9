"""`paddle.static.WeightNormParamAttr`: the fields of a weight-normalized parameter."""

__all__ = ["WeightNormParamAttr"]


class WeightNormParamAttr:
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
        self.dim = dim
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

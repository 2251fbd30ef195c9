"""Linear, Bilinear, Embedding, Dropout (2D, 3D, alpha, feature alpha), Flatten, Unflatten,
Identity, Pad1D/2D/3D, ZeroPad/CircularPad/ConstantPad/ReflectionPad/ReplicationPad 1D/2D/3D,
CosineSimilarity, Upsample."""
from ...framework_mode import in_dynamic_mode
from ...ops._generated import api
from .. import functional as F
from ._device import check_cpu_device
from .layers import Layer

__all__ = ["Linear", "Bilinear", "Embedding", "Dropout", "Dropout2D", "Dropout3D",
           "AlphaDropout", "FeatureAlphaDropout", "Flatten", "Unflatten", "Identity", "Pad1D",
           "Pad2D", "Pad3D", "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "CosineSimilarity", "Upsample",
           "UpsamplingNearest2D", "UpsamplingBilinear2D", "CircularPad1D", "CircularPad2D",
           "CircularPad3D", "ConstantPad1D", "ConstantPad2D", "ConstantPad3D", "ReflectionPad1D",
           "ReflectionPad2D", "ReflectionPad3D", "ReplicationPad1D", "ReplicationPad2D",
           "ReplicationPad3D"]


class Linear(Layer):
    """y = x @ weight + bias with weight [in_features, out_features]."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self._weight_attr, self._bias_attr, self.name = weight_attr, bias_attr, name
        self.weight = self.create_parameter([in_features, out_features], weight_attr)
        self.bias = self.create_parameter([out_features], bias_attr, is_bias=True)

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"dtype={self.weight.dtype.name}")


class Bilinear(Layer):
    """out = x1 · weight · x2 + bias with weight [out, in1, in2] and bias [1, out]."""

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None,
                 bias_attr=None, name=None):
        super().__init__()
        self._in1_features, self._in2_features = in1_features, in2_features
        self._out_features = out_features
        self.weight = self.create_parameter([out_features, in1_features, in2_features],
                                            weight_attr)
        self.bias = self.create_parameter([1, out_features], bias_attr, is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self.weight.dtype.name}")


class Embedding(Layer):
    """Lookup table [num_embeddings, embedding_dim] (XavierUniform default like Paddle); as
    in Paddle's dynamic mode, the padding_idx row starts as zeros. `_weight` supplies the
    table itself and `_freeze` stops its gradient."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, *, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, device=None, dtype=None, weight_attr=None, name=None):
        super().__init__()
        check_cpu_device(device, "Embedding")
        _check_embedding_sizes(num_embeddings, embedding_dim, padding_idx)
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self._padding_idx, self._sparse = padding_idx, sparse
        self._max_norm, self._norm_type = max_norm, norm_type
        self._scale_grad_by_freq = scale_grad_by_freq
        self._size = [num_embeddings, embedding_dim]
        self._weight_attr, self._name, self._device = weight_attr, name, device
        self._is_distributed = self._remote_prefetch = False
        self.weight = self._table(_weight, _freeze, weight_attr, dtype)
        if padding_idx is not None and in_dynamic_mode():
            rows = self.weight.numpy()
            rows[padding_idx] = 0.0
            self.weight.set_value(rows)

    def _table(self, weight, freeze, weight_attr, dtype):
        """The given `weight` or a new parameter; freeze (ignored when weight_attr is given
        for a new one, as in Paddle) makes it non-trainable."""
        shape = [self._num_embeddings, self._embedding_dim]
        if weight is None:
            table = self.create_parameter(shape, weight_attr, dtype)
            freeze = freeze and weight_attr is None
        elif list(weight.shape) != shape:
            raise ValueError(f"Embedding: _weight has shape {list(weight.shape)}, expected "
                             f"[num_embeddings, embedding_dim] = {shape}")
        else:
            table = weight
        table.stop_gradient = freeze
        if hasattr(table, "trainable"):
            table.trainable = not freeze
        return table

    def forward(self, x):
        return F.embedding(x, self.weight, self._padding_idx, self._max_norm, self._norm_type,
                           scale_grad_by_freq=self._scale_grad_by_freq)

    def extra_repr(self):
        padding = "" if self._padding_idx is None else f", padding_idx={self._padding_idx}"
        return (f"{self._num_embeddings}, {self._embedding_dim}{padding}, sparse={self._sparse}, "
                f"scale_grad_by_freq={self._scale_grad_by_freq}")


def _check_embedding_sizes(num_embeddings, embedding_dim, padding_idx):
    """Paddle's checks: positive sizes and padding_idx in [-num_embeddings, num_embeddings)."""
    if num_embeddings <= 0 or embedding_dim <= 0:
        raise ValueError(f"Embedding: num_embeddings and embedding_dim must be positive, got "
                         f"{num_embeddings} and {embedding_dim}")
    if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
        raise ValueError(f"Embedding: padding_idx must be in [-{num_embeddings}, "
                         f"{num_embeddings}), got {padding_idx}")


class Dropout(Layer):
    """Random zeroing in training; identity (or scaling) in eval."""

    def __init__(self, p=0.5, inplace=False, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        self.p, self.inplace, self.axis, self.mode = p, inplace, axis, mode
        self.name = name

    def forward(self, x):
        return F.dropout(x, self.p, self.axis, self.training, self.inplace, self.mode)

    def extra_repr(self):
        return f"p={self.p}, axis={self.axis}, mode={self.mode}, inplace={self.inplace}"


class Dropout2D(Layer):
    """Zero whole channels in training."""

    def __init__(self, p=0.5, data_format="NCHW", name=None):
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, x):
        return F.dropout2d(x, self.p, self.training, self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}"


class Dropout3D(Layer):
    """Zero whole channels of 5-D inputs in training."""

    def __init__(self, p=0.5, data_format="NCDHW", name=None):
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, x):
        return F.dropout3d(x, self.p, self.training, self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}"


class AlphaDropout(Layer):
    """Dropout that keeps SELU's self-normalising statistics (training only)."""

    _fn = staticmethod(F.alpha_dropout)

    def __init__(self, p=0.5, name=None):
        super().__init__()
        self.p, self.name = p, name

    def forward(self, x):
        return self._fn(x, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}"


class FeatureAlphaDropout(AlphaDropout):
    """AlphaDropout of whole channels of [N, C, ...] inputs (training only)."""

    _fn = staticmethod(F.feature_alpha_dropout)


class Flatten(Layer):
    """Flatten dims start_axis..stop_axis into one."""

    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, x):
        return api.flatten(x, self.start_axis, self.stop_axis)


class Unflatten(Layer):
    """Split dimension `axis` into the dims of `shape` (the inverse of Flatten)."""

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis, self.shape = axis, list(shape)

    def forward(self, x):
        axis = self.axis % len(x.shape)
        return api.reshape(x, list(x.shape[:axis]) + self.shape + list(x.shape[axis + 1:]))

    def extra_repr(self):
        return f"axis={self.axis}, shape={self.shape}"


class Identity(Layer):
    """Returns its input."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x):
        return x


class _PadNd(Layer):
    """F.pad with fixed spatial padding (an int pads every side of the `_dims` dims)."""

    _dims = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCHW", name=None):
        super().__init__()
        # Paddle's attribute names: padding, _mode, value, _data_format, _name
        self.padding = ([padding] * (2 * self._dims) if isinstance(padding, int)
                        else list(padding))
        if len(self.padding) != 2 * self._dims:
            raise ValueError(f"{type(self).__name__}: padding needs {2 * self._dims} values, "
                             f"got {padding!r}")
        self._mode, self.value, self._data_format, self._name = mode, value, data_format, name

    def forward(self, x):
        return F.pad(x, self.padding, self._mode, self.value, self._data_format)

    def extra_repr(self):
        return (f"padding={self.padding}, mode={self._mode}, value={self.value}, "
                f"data_format={self._data_format}")


class Pad1D(_PadNd):
    """Pad [N, C, L] by [left, right]."""

    _dims = 1

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_PadNd):
    """Pad [N, C, H, W] by [left, right, top, bottom]."""


class Pad3D(_PadNd):
    """Pad [N, C, D, H, W] by [left, right, top, bottom, front, back]."""

    _dims = 3

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCDHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class ZeroPad1D(Pad1D):
    """Zero padding of [N, C, L] by [left, right]."""

    def __init__(self, padding, data_format="NCL", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad2D(Pad2D):
    """Zero padding of [N, C, H, W] by [left, right, top, bottom]."""

    def __init__(self, padding, data_format="NCHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad3D(Pad3D):
    """Zero padding of [N, C, D, H, W] by [left, right, top, bottom, front, back]."""

    def __init__(self, padding, data_format="NCDHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


_LAYOUTS = {1: "NCL", 2: "NCHW", 3: "NCDHW"}


def _mode_pad(base, mode, prefix):
    """Paddle's {prefix}Pad{n}D: `base` (Pad1D/2D/3D) fixed to `mode`, built as
    (padding, data_format, name)."""
    def __init__(self, padding, data_format=_LAYOUTS[base._dims], name=None):
        base.__init__(self, padding, mode, 0.0, data_format, name)
    return _pad_class(base, prefix, __init__, f"{mode} padding")


def _constant_pad(base):
    """Paddle's ConstantPad{n}D: `base` padding with `value`, built as
    (padding, value, data_format, name)."""
    def __init__(self, padding, value, data_format=_LAYOUTS[base._dims], name=None):
        base.__init__(self, padding, "constant", value, data_format, name)
    return _pad_class(base, "Constant", __init__, "constant-value padding")


def _pad_class(base, prefix, init, what):
    """The subclass {prefix}Pad{n}D of `base` with constructor `init`."""
    name = f"{prefix}Pad{base._dims}D"
    init.__qualname__ = f"{name}.__init__"
    doc = f"{what.capitalize()} of the {base._dims} spatial dim(s), as {base.__name__}."
    return type(name, (base,), {"__init__": init, "__doc__": doc, "__module__": __name__})


CircularPad1D, CircularPad2D, CircularPad3D = (_mode_pad(b, "circular", "Circular")
                                               for b in (Pad1D, Pad2D, Pad3D))
ReflectionPad1D, ReflectionPad2D, ReflectionPad3D = (_mode_pad(b, "reflect", "Reflection")
                                                     for b in (Pad1D, Pad2D, Pad3D))
ReplicationPad1D, ReplicationPad2D, ReplicationPad3D = (_mode_pad(b, "replicate", "Replication")
                                                        for b in (Pad1D, Pad2D, Pad3D))
ConstantPad1D, ConstantPad2D, ConstantPad3D = (_constant_pad(b) for b in (Pad1D, Pad2D, Pad3D))


class CosineSimilarity(Layer):
    """Cosine similarity of two tensors along `axis`."""

    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self._axis, self._eps)

    def extra_repr(self):
        return f"axis={self._axis}, eps={self._eps}"


class Upsample(Layer):
    """F.interpolate with fixed size / scale_factor and mode."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.align_mode = align_corners, align_mode
        self.data_format = data_format
        self.recompute_scale_factor, self.name = recompute_scale_factor, name

    def forward(self, x):
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.align_mode, self.data_format, self.recompute_scale_factor)

    def extra_repr(self):
        return (f"{self._size_repr()}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}")

    def _size_repr(self):
        """The scale_factor when given, else the size (Paddle's repr)."""
        return (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")


class _FixedModeUpsampling(Upsample):
    """Upsampling whose mode is part of the class: the repr shows only size and layout."""

    def extra_repr(self):
        return f"{self._size_repr()}, data_format={self.data_format}"


class UpsamplingNearest2D(_FixedModeUpsampling):
    """Nearest-neighbour upsampling."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(size, scale_factor, "nearest", False, 0, data_format, name=name)


class UpsamplingBilinear2D(_FixedModeUpsampling):
    """Bilinear upsampling with align_corners=True (Paddle's default for this layer)."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(size, scale_factor, "bilinear", True, 0, data_format, name=name)

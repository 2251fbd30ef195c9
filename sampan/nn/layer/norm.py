"""BatchNorm (1D/2D/3D), SyncBatchNorm, LayerNorm, GroupNorm, InstanceNorm1D/2D/3D,
LocalResponseNorm, SpectralNorm."""
import math

from ...eager.grad_mode import no_grad
from ...ops._generated import api
from .. import functional as F
from .. import initializer as init
from ...core.param_attr import ParamAttr
from ._device import check_cpu_device
from .layers import Layer

__all__ = ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm", "LayerNorm",
           "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D",
           "LocalResponseNorm", "SpectralNorm"]


def _affine_params(layer, shape, weight_attr, bias_attr, dtype=None):
    """weight (ones) and bias (zeros), or None when their attr is False."""
    layer.weight = layer.create_parameter(shape, weight_attr, dtype,
                                          default_initializer=init.Constant(1.0))
    layer.bias = layer.create_parameter(shape, bias_attr, dtype, is_bias=True)


class _BatchNormBase(Layer):
    """Running statistics `_mean` / `_variance` are non-trainable parameters."""

    _ranks = (2, 3, 4, 5)  # the input ranks the class takes

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__()
        self._num_features, self._momentum, self._epsilon = num_features, momentum, epsilon
        self._data_format, self._use_global_stats = data_format, use_global_stats
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self._fuse_with_relu = self._in_place = False  # Paddle's GPU-kernel switches
        _affine_params(self, [num_features], weight_attr, bias_attr)
        self._mean = self.create_parameter(
            [num_features], ParamAttr(trainable=False), default_initializer=init.Constant(0.0))
        self._variance = self.create_parameter(
            [num_features], ParamAttr(trainable=False), default_initializer=init.Constant(1.0))

    def forward(self, x):
        if len(x.shape) not in self._ranks:
            raise ValueError(f"{type(self).__name__}: expected a "
                             f"{' or '.join(f'{r}-D' for r in self._ranks)} input, got shape "
                             f"{list(x.shape)}")
        return F.batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                            self.training, self._momentum, self._epsilon, self._data_format,
                            self._use_global_stats)

    def extra_repr(self):
        text = (f"num_features={self._num_features}, momentum={self._momentum}, "
                f"epsilon={self._epsilon}")
        return text if self._data_format == "NCHW" else f"{text}, data_format={self._data_format}"


class BatchNorm1D(_BatchNormBase):
    """Batch normalisation of [N, C] or [N, C, L] ("NLC": channel last)."""

    _ranks = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    """Batch normalisation of [N, C, H, W]."""

    _ranks = (4,)


class BatchNorm3D(_BatchNormBase):
    """Batch normalisation of [N, C, D, H, W] ("NDHWC": channel last)."""

    _ranks = (5,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


_SYNC_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


class SyncBatchNorm(_BatchNormBase):
    """Batch normalisation whose statistics span every process of the data-parallel group;
    in sampan's world of one process that is the local batch, so it is BatchNorm of a 2-D
    to 5-D input ("NC..." or channel-last "N...C" data_format).

    Example: ``paddle.nn.SyncBatchNorm(8)(paddle.rand([4, 8, 5, 5]))``
    """

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        if data_format not in _SYNC_FORMATS:
            raise ValueError(f"SyncBatchNorm: data_format must be one of {_SYNC_FORMATS}, got "
                             f"{data_format!r}")
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         name=name)

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """`layer` with every BatchNorm1D/2D/3D in it (itself included) replaced by a
        SyncBatchNorm sharing its parameters and running statistics."""
        converted = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, (BatchNorm, cls)):
            converted = cls(layer._num_features, layer._momentum, layer._epsilon,
                            False if layer.weight is None else None,
                            False if layer.bias is None else None, layer._data_format)
            converted.weight, converted.bias = layer.weight, layer.bias
            converted._mean, converted._variance = layer._mean, layer._variance
            converted.training = layer.training
        for name, sublayer in list(layer.named_children()):
            converted.add_sublayer(name, cls.convert_sync_batchnorm(sublayer))
        return converted


class BatchNorm(_BatchNormBase):
    """Legacy BatchNorm(num_channels, act=None, is_test=False, momentum, epsilon, ...)."""

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__(num_channels, momentum, epsilon, param_attr, bias_attr, data_layout,
                         use_global_stats or None)
        self._act = act
        self._param_attr, self._data_layout, self._is_test = param_attr, data_layout, is_test
        self._trainable_statistics, self._in_place = trainable_statistics, in_place

    def forward(self, x):
        y = super().forward(x)
        return getattr(F, self._act)(y) if self._act else y


class LayerNorm(Layer):
    """Normalise over the trailing `normalized_shape` dims; weight and bias are flat
    [prod(normalized_shape)] as in Paddle. elementwise_affine=False drops both, bias=False
    the bias."""

    def __init__(self, normalized_shape, epsilon=1e-05, *, elementwise_affine=True, bias=True,
                 device=None, dtype=None, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        check_cpu_device(device, "LayerNorm")
        shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
        self._normalized_shape, self._epsilon = shape, epsilon
        self._weight_attr, self._bias_attr, self._device = weight_attr, bias_attr, device
        if not elementwise_affine:
            weight_attr = False
        if not (elementwise_affine and bias):
            bias_attr = False
        _affine_params(self, [math.prod(shape)], weight_attr, bias_attr, dtype)

    def forward(self, x):
        return F.layer_norm(x, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Normalise groups of channels."""

    def __init__(self, num_groups, num_channels, epsilon=1e-05, *, affine=True, device=None,
                 dtype=None, weight_attr=None, bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        check_cpu_device(device, "GroupNorm")
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self._num_groups, self._epsilon, self._data_format = num_groups, epsilon, data_format
        self._num_channels = num_channels
        self._weight_attr, self._bias_attr, self._device = weight_attr, bias_attr, device
        if not affine:
            weight_attr = bias_attr = False
        _affine_params(self, [num_channels], weight_attr, bias_attr, dtype)

    def forward(self, x):
        return F.group_norm(x, self._num_groups, self._epsilon, self.weight, self.bias,
                            self._data_format)

    def extra_repr(self):
        return (f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
                f"epsilon={self._epsilon}")


class _InstanceNormBase(Layer):
    """Normalise each channel of each sample over its spatial dims; the affine parameters
    are `scale` and `bias` (Paddle's state-dict keys)."""

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError("InstanceNorm: weight_attr and bias_attr must be False together")
        self._epsilon, self._num_features, self._data_format = epsilon, num_features, data_format
        self._momentum, self._weight_attr, self._bias_attr = momentum, weight_attr, bias_attr
        self.scale = self.create_parameter([num_features], weight_attr,
                                           default_initializer=init.Constant(1.0))
        self.bias = self.create_parameter([num_features], bias_attr, is_bias=True)

    def forward(self, x):
        return F.instance_norm(x, weight=self.scale, bias=self.bias, eps=self._epsilon,
                               data_format=self._data_format)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalisation of [N, C, L]."""

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalisation of [N, C, H, W]."""


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalisation of [N, C, D, H, W]."""

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class LocalResponseNorm(Layer):
    """Layer form of nn.functional.local_response_norm."""

    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, x):
        return F.local_response_norm(x, self.size, self.alpha, self.beta, self.k,
                                     self.data_format)

    def extra_repr(self):
        return f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


def _unit(x, eps):
    """x / (||x|| + eps) for a 1-D x (Paddle's spectral_norm normalisation)."""
    return api.divide(x, api.scale(api.p_norm(x, 2.0, 0, 0.0, True), 1.0, eps))


class SpectralNorm(Layer):
    """forward(weight) = weight / sigma, sigma its largest singular value estimated by
    power_iters power iterations from the vectors weight_u [shape[dim]] and weight_v [the
    other dims' size] (non-trainable parameters drawn from N(0, 1), which the iterations do
    not update, as in Paddle); the weight is viewed as [shape[dim], rest]."""

    def __init__(self, weight_shape, dim=0, power_iters=1, eps=1e-12, dtype="float32"):
        super().__init__()
        shape = [int(d) for d in weight_shape]
        if math.prod(shape) <= 0 or not 0 <= dim < len(shape):
            raise ValueError(f"SpectralNorm: weight_shape must have positive dims and dim "
                             f"must index it, got {shape} and dim={dim}")
        self._weight_shape, self._dim = shape, dim
        self._power_iters, self._eps = power_iters, eps
        rows = shape[dim]
        for name, size in (("weight_u", rows), ("weight_v", math.prod(shape) // rows)):
            vector = self.create_parameter([size], None, dtype,
                                           default_initializer=init.Normal(0.0, 1.0))
            vector.stop_gradient = True
            setattr(self, name, vector)

    def _matrix(self, weight):
        """weight as [shape[dim], rest]."""
        rest = [d for d in range(len(weight.shape)) if d != self._dim]
        return api.reshape(api.transpose(weight, [self._dim] + rest),
                           [weight.shape[self._dim], -1])

    def forward(self, weight):
        mat = self._matrix(weight)
        u, v = self.weight_u, self.weight_v
        with no_grad():
            for _ in range(self._power_iters):
                v = _unit(api.matmul(mat, u, True, False), self._eps)
                u = _unit(api.matmul(mat, v), self._eps)
        sigma = api.sum(api.multiply(u, api.matmul(mat, v)), [])
        return api.divide(weight, sigma)

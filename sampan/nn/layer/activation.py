"""Activation layers: each wraps one nn.functional function and its keyword arguments."""
from .. import functional as F
from .layers import Layer

__all__ = ["ReLU", "ReLU6", "GELU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "LeakyReLU",
           "SiLU", "Swish", "ELU", "SELU", "Hardswish", "Hardsigmoid", "Hardtanh", "Softplus",
           "Softsign", "Mish", "LogSigmoid", "Tanhshrink", "PReLU", "Silu", "CELU",
           "ThresholdedReLU", "Maxout", "Softmax2D", "Softmin", "RReLU"]


class _Activation(Layer):
    """Calls `_fn(x, **self._kwargs)`. The arguments are Paddle's, in its order: the
    function's keywords, then `name` (so `nn.ReLU(True)` sets the name, as in Paddle)."""

    _fn = None
    _defaults = {}

    def __init__(self, *args, **kwargs):
        super().__init__()
        params = list(self._defaults) + ["name"]
        unknown = sorted(set(kwargs) - set(params))
        if unknown or len(args) > len(params):
            raise TypeError(f"{type(self).__name__}() takes the arguments {params}, got "
                            f"{len(args)} positional and keywords {sorted(kwargs)}")
        given = dict(zip(params, args))
        twice = sorted(set(given) & set(kwargs))
        if twice:
            raise TypeError(f"{type(self).__name__}() got multiple values for {twice}")
        given.update(kwargs)
        self._name = given.pop("name", None)
        self._kwargs = dict(self._defaults)
        self._kwargs.update(given)

    def forward(self, x):
        return type(self)._fn(x, **self._kwargs)

    def extra_repr(self):
        return ", ".join(f"{k}={v}" for k, v in self._kwargs.items())


def _activation(name, fn, **defaults):
    """A Layer class named `name` applying `fn` with keyword `defaults`."""
    doc = f"Layer form of nn.functional.{fn.__name__}."
    return type(name, (_Activation,), {"_fn": staticmethod(fn), "_defaults": defaults,
                                       "__doc__": doc, "__module__": __name__})


ReLU = _activation("ReLU", F.relu)
ReLU6 = _activation("ReLU6", F.relu6)
GELU = _activation("GELU", F.gelu, approximate=False)
Sigmoid = _activation("Sigmoid", F.sigmoid)
Tanh = _activation("Tanh", F.tanh)
Softmax = _activation("Softmax", F.softmax, axis=-1)
LogSoftmax = _activation("LogSoftmax", F.log_softmax, axis=-1)
LeakyReLU = _activation("LeakyReLU", F.leaky_relu, negative_slope=0.01)
Silu = _activation("Silu", F.silu, inplace=False)
SiLU = Silu  # Paddle's class is Silu; SiLU is kept for PyTorch-style code
CELU = _activation("CELU", F.celu, alpha=1.0)
ThresholdedReLU = _activation("ThresholdedReLU", F.thresholded_relu, threshold=1.0, value=0.0)
Maxout = _activation("Maxout", F.maxout, groups=None, axis=1)
Softmax2D = _activation("Softmax2D", F.softmax, axis=-3)
Swish = _activation("Swish", F.silu)
ELU = _activation("ELU", F.elu, alpha=1.0)
SELU = _activation("SELU", F.selu, scale=1.0507009873554804934193349852946,
                   alpha=1.6732632423543772848170429916717)
Hardswish = _activation("Hardswish", F.hardswish)
Hardsigmoid = _activation("Hardsigmoid", F.hardsigmoid)
Hardtanh = _activation("Hardtanh", F.hardtanh, min=-1.0, max=1.0)
Softplus = _activation("Softplus", F.softplus, beta=1, threshold=20)
Softsign = _activation("Softsign", F.softsign)
Mish = _activation("Mish", F.mish)
LogSigmoid = _activation("LogSigmoid", F.log_sigmoid)
Tanhshrink = _activation("Tanhshrink", F.tanhshrink)


class PReLU(Layer):
    """Leaky ReLU with a learned slope (one, or one per channel), initialised to `init`."""

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None):
        from ..initializer import Constant
        super().__init__()
        self._data_format, self._num_parameters, self._init = data_format, num_parameters, init
        # Paddle's attribute (and state_dict key) is `_weight`
        self._weight = self.create_parameter([num_parameters], weight_attr,
                                             default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, self._data_format)

    def extra_repr(self):
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, "
                f"init={self._init}, dtype={self._weight.dtype.name}")


Softmin = _activation("Softmin", F.softmin, axis=-1)


class RReLU(Layer):
    """Randomised leaky ReLU: random slopes in U(lower, upper) in training, their mean in
    evaluation."""

    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None):
        super().__init__()
        self.lower, self.upper = lower, upper

    def forward(self, x):
        return F.rrelu(x, self.lower, self.upper, self.training)

    def extra_repr(self):
        return (f"lower={self.lower}, upper={self.upper}, training={self.training}, "
                f"dtype={self._dtype}")

"""The eager Tensor: a NumPy array plus autograd state, with Paddle's attributes."""
import numpy as np

from ..core import dtype as dtypes
from ..core.array_protocol import export_array
from ..core.place import CPUPlace
from ..core.item_index import check_item_index
from ..core.printing import tensor_text
from ..ops._generated.methods import TensorOperators
from ..ops.axis_views import AxisViewsMixin
from ..ops.indexing_methods import IndexingMixin

__all__ = ["Tensor", "Parameter", "wrap"]

# How many times a tensor's data array was replaced (`_set_data`, the only place that
# does): whoever keeps tensors' arrays (a prepared plan's registers) compares it to know
# whether to read them again. Arrays updated in place stay the same objects.
replacements = 0


class Tensor(IndexingMixin, AxisViewsMixin, TensorOperators):
    """An n-dimensional array that records the ops producing it for autograd.

    `stop_gradient` is True for created tensors (Paddle semantics): set it to False to get
    `.grad` after `backward()`. Ops on tensors return new tensors; `x[i] = v` rewrites `x`.
    """

    __slots__ = ("_data", "stop_gradient", "_grad", "_node", "_index", "_name", "persistable",
                 "_hooks", "_grad_zero", "_sig", "__weakref__")

    def __init__(self, data=None, dtype=None, place=None, stop_gradient=True, name=None):
        array = np.asarray([] if data is None else data)
        if dtype is not None:
            array = array.astype(dtypes.to_dtype(dtype).np, copy=False)
        _init_slots(self, array, stop_gradient)
        self._name = name

    # -- metadata ---------------------------------------------------------------------
    @property
    def shape(self):
        """Dimensions as a list of ints."""
        return list(self._data.shape)

    @property
    def dtype(self):
        """Element type (a `sampan.dtype`)."""
        return dtypes.from_numpy_dtype(self._data.dtype)

    @property
    def ndim(self):
        """Number of dimensions."""
        return self._data.ndim

    def dim(self):
        """Number of dimensions."""
        return self._data.ndim

    ndimension = dim

    @property
    def size(self):
        """Number of elements (an int)."""
        return int(self._data.size)

    @property
    def place(self):
        """Where the data lives (always the CPU)."""
        return CPUPlace()

    @property
    def name(self):
        """The tensor's name (generated on first access when not given)."""
        if self._name is None:
            from ..core.unique_name import generate
            self._name = generate("generated_tensor")
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def is_leaf(self):
        """True when no recorded op produced this tensor."""
        return self._node is None

    @property
    def grad(self):
        """Accumulated gradient after `backward()`, or None."""
        if self._grad_zero:  # the cleared gradient, zeroed on first sight
            self._grad._set_data(np.zeros_like(self._grad._data))
            self._grad_zero = False
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None and not isinstance(value, Tensor):
            value = Tensor(value)
        self._grad = value
        self._grad_zero = False

    def gradient(self):
        """The gradient as a NumPy array, or None before backward (Paddle's `gradient()`)."""
        grad = self.grad
        return None if grad is None else grad.numpy()

    def _grad_ivar(self):
        """The gradient tensor, or None."""
        return self.grad

    @property
    def requires_grad(self):
        """`not stop_gradient`: whether backward computes a gradient for this tensor."""
        return not self.stop_gradient

    @requires_grad.setter
    def requires_grad(self, value):
        self.stop_gradient = not value

    # -- conversion -------------------------------------------------------------------
    def numpy(self):
        """A copy of the data as a NumPy array (as in Paddle: writing into it leaves the
        tensor unchanged, and later in-place updates of the tensor leave it unchanged)."""
        return self._data.copy()

    def item(self, *index):
        """The value of a one-element tensor (or of element `index`) as a Python number."""
        check_item_index(self._data.shape, index)
        # one int indexes the flattened tensor, as NumPy's and Paddle's item do
        return self._data.item(*index)

    @property
    def data(self):
        """This tensor itself (Paddle's `x.data`); assigning to it sets the values in place."""
        return self

    @data.setter
    def data(self, value):
        self.set_value(value)

    def tolist(self):
        """The data as nested Python lists."""
        return self._data.tolist()

    def __array__(self, dtype=None, copy=None):
        return export_array(self._data, dtype, copy)

    def __dlpack__(self, stream=None, **kwargs):
        """A DLPack capsule sharing the data (`torch.from_dlpack(tensor)`, `np.from_dlpack`);
        read-only data (a broadcast view) is exported as a copy, DLPack cannot mark it."""
        data = self._data if self._data.flags.writeable else self._data.copy()
        return data.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        """(device type, id) in DLPack's terms: the CPU."""
        return self._data.__dlpack_device__()

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __bool__(self):
        if self._data.size != 1:
            raise ValueError(f"the truth value of a tensor with {self._data.size} elements is "
                             f"ambiguous; use .any() or .all()")
        return bool(self._data)

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self._data.dtype.kind not in "iub":
            raise TypeError(f"only integer tensors can be used as an index, got {self.dtype}")
        return int(self.item())

    def __complex__(self):
        return complex(self.item())

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    __hash__ = object.__hash__

    def __repr__(self):
        return tensor_text(self._data, self.dtype.name, self.stop_gradient)

    def __format__(self, spec):
        if self._data.ndim == 0:
            return format(self._data.item(), spec)
        return repr(self)

    def __deepcopy__(self, memo):
        copy = self.__class__.__new__(self.__class__)
        _init_like(copy, self._data.copy(), self)
        memo[id(self)] = copy
        return copy

    # -- autograd ---------------------------------------------------------------------
    def backward(self, grad_tensor=None, retain_graph=False):
        """Accumulate d(self)/d(leaf) into every leaf's `.grad` that needs a gradient."""
        _autograd.tensor_backward(self, grad_tensor, retain_graph)

    def register_hook(self, hook):
        """Call `hook(grad)` when this tensor's gradient is computed; a non-None result
        replaces the gradient. Returns a handle with `remove()`."""
        return _autograd.register_hook(self, hook)

    def retain_grads(self):
        """Keep this non-leaf tensor's gradient in `.grad` after backward (leaves always do)."""
        if self._node is None or self.stop_gradient:
            return
        def keep(grad):
            self._grad = grad.detach() if self._grad is None else wrap(
                self._grad._data + grad._data)
        self.register_hook(keep)

    def clear_grad(self, set_to_zero=True):
        """Reset `.grad` (to zeros when `set_to_zero`, else to None).

        Zeroing is lazy: the next backward replaces the gradient instead of adding to a
        zero array, and reading `.grad` before that materialises the zeros. The old
        buffer goes at once (a zero view of its shape stands in), so a training step
        never holds last step's gradients beside the new ones."""
        if self._grad is not None and set_to_zero:
            self._grad_zero = True
            old = self._grad._data
            self._grad._set_data(np.broadcast_to(np.zeros((), old.dtype), old.shape))
        else:
            self._grad = None
            self._grad_zero = False

    clear_gradient = clear_grad

    def detach(self):
        """A tensor sharing this data with no autograd history."""
        return Tensor(self._data)

    def apply(self, func):
        """`func(self)` as a new tensor; refused on a tensor that needs a gradient (the
        function's work is not recorded for backward)."""
        self._refuse_apply("apply")
        out = func(self)
        return out if isinstance(out, Tensor) else Tensor(out)

    def apply_(self, func):
        """Replace the values by `func(self)` in place (refused when a gradient is needed)."""
        self._refuse_apply("apply_")
        self.set_value(self.apply(func))
        return self

    def _refuse_apply(self, name):
        if not self.stop_gradient:
            raise RuntimeError(f"Tensor.{name}(func) cannot run on a tensor that requires a "
                               f"gradient (stop_gradient=False): func is not differentiated")

    def detach_(self):
        """Drop this tensor's autograd history in place."""
        self._node = None
        self.stop_gradient = True
        return self

    def clone(self):
        """A copy that stays connected to the autograd graph."""
        from ..ops._generated.api import assign
        return assign(self)

    def astype(self, dtype):
        """This tensor cast to `dtype` (differentiable)."""
        from ..ops._generated.api import cast
        return cast(self, dtype)

    def cpu(self):
        """This tensor (data already lives on the CPU)."""
        return self

    def cuda(self, *args, **kwargs):
        raise RuntimeError("sampan runs on the CPU only; no CUDA device is available")

    def pin_memory(self):
        """This tensor (no pinned memory on the CPU backend)."""
        return self

    def set_value(self, value):
        """Replace the data in place with `value` (same shape), keeping autograd state."""
        array = np.asarray(value._data if isinstance(value, Tensor) else value)
        if tuple(array.shape) != self._data.shape:
            raise ValueError(f"set_value: shape {list(array.shape)} does not match the "
                             f"tensor's shape {self.shape}")
        self._set_data(array.astype(self._data.dtype, copy=True))

    def _set_data(self, array):
        """Replace the data array (shape or dtype may change; the cached signature resets)."""
        global replacements
        self._data = array
        self._sig = None
        replacements += 1

    def _take_over(self, other, allow_leaf=False):
        """In-place update (`x[i] = v`): this object now holds the op result `other`.

        allow_leaf lets a leaf that requires a gradient take over too: it then stops being
        a leaf and continues `other`'s history (Paddle's `_inplace_assign`)."""
        if self._node is None and not self.stop_gradient and not allow_leaf:
            raise RuntimeError(
                "a leaf Tensor with stop_gradient=False cannot be modified in place "
                "(x[...] = v); assign to a copy (x = x.clone()) or use paddle.no_grad()")
        self._set_data(other._data)
        self._node = other._node
        self._index = other._index
        self.stop_gradient = other.stop_gradient


def _init_slots(tensor, array, stop_gradient, persistable=False):
    """Fill every slot of a fresh tensor (shared by the constructors; no copies)."""
    tensor._data = array
    tensor._sig = None
    tensor.stop_gradient = stop_gradient
    tensor._grad = None
    tensor._node = None
    tensor._index = 0
    tensor._name = None
    tensor.persistable = persistable
    tensor._hooks = None
    tensor._grad_zero = False


def _init_like(tensor, array, like):
    """Fill a bare tensor's slots with `array` and `like`'s settings."""
    _init_slots(tensor, array, like.stop_gradient, like.persistable)


def wrap(array, stop_gradient=True):
    """A Tensor around an ndarray without copying (the eager mode's fast path: the slot
    assignments of _init_slots are inlined because every op result goes through here)."""
    t = _new(Tensor)
    t._data = array
    t._sig = None
    t.stop_gradient = stop_gradient
    t._grad = None
    t._node = None
    t._index = 0
    t._name = None
    t.persistable = False
    t._hooks = None
    t._grad_zero = False
    return t


_new = object.__new__


class Parameter(Tensor):
    """A trainable tensor owned by a Layer: stop_gradient False, persistable, named.

    `Parameter(data, requires_grad=True)` is Paddle 3's `nn.Parameter`; `requires_grad=False`
    makes it non-trainable (`trainable=` says the same, for sampan's own callers)."""

    __slots__ = ("trainable", "optimize_attr", "regularizer", "do_model_average",
                 "need_clip", "is_distributed", "__dict__")

    def __init__(self, data, requires_grad=True, *, dtype=None, name=None, trainable=None):
        trainable = bool(requires_grad) if trainable is None else trainable
        super().__init__(data, dtype=dtype, stop_gradient=not trainable, name=name)
        self.persistable = True
        self.trainable = trainable
        self.optimize_attr = {"learning_rate": 1.0}
        self.regularizer = None
        self.do_model_average = None
        self.need_clip = True
        self.is_distributed = False

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        copy = Parameter(self._data.copy(), name=self._name, trainable=self.trainable)
        copy.stop_gradient = self.stop_gradient
        copy.__dict__.update(self.__dict__)
        copy.optimize_attr = dict(self.optimize_attr)
        memo[id(self)] = copy
        return copy


# Imported last: autograd needs Tensor and wrap from this module (an import cycle).
from . import autograd as _autograd  # noqa: E402

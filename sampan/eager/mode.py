"""EagerMode: run an op's kernel now and record a GradNode when a gradient is needed."""
import numpy as np

from ..core import dtype as dtypes
from ..core.errors import InvalidArgument
from ..core.flags import FLAGS as _FLAGS
from ..ops.diagnostics import invalid_argument_error, kernel_failure_error
from ..ops.meta import MetaTensor
from .autograd import RECORD_SINGLE, GradNode
from .grad_mode import STATE
from .tensor import Tensor, wrap

__all__ = ["EagerMode", "EAGER", "to_eager_tensor", "signature_id"]


def to_eager_tensor(value, like=None):
    """A Tensor from a Tensor, NumPy array or Python scalar (scalars take `like`'s dtype)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex)):
        return wrap(np.asarray(value, dtype=dtypes.scalar_dtype(value, like).np))
    if isinstance(value, np.ndarray):
        return wrap(value)
    if isinstance(value, np.generic):
        return wrap(np.asarray(value))
    raise TypeError(f"expected a Tensor, got {type(value).__name__}")


_SCALARS = frozenset((float, int))


_SCALAR_OPERANDS = {}
_SCALAR_OPERANDS_LIMIT = 4096


def _scalar_operand(value, like):
    """A Python float/int next to tensor `like`, as a 0-d tensor of the dtype it takes there.

    Models repeat the same constants (`x * 2.0`, `y + 1e-5`), so the tensors are cached per
    (value, type, dtype), read-only; zeros are not (0.0 and -0.0 compare equal)."""
    key = (value, value.__class__, like._data.dtype)
    found = _SCALAR_OPERANDS.get(key)
    if found is None:
        dtype = dtypes.scalar_dtype(value, dtypes.from_numpy_dtype(like._data.dtype)).np
        try:
            array = np.array(value, dtype)
        except OverflowError:  # an int beyond a narrow int dtype wraps around, as in Paddle
            if not -2 ** 63 <= value < 2 ** 64:
                raise OverflowError(f"the Python int {value} next to a {dtype} tensor does "
                                    f"not fit in 64 bits") from None
            array = np.array(value, np.uint64 if value >= 2 ** 63 else np.int64).astype(dtype)
        found = wrap(array)
        if value:
            array.flags.writeable = False
            if len(_SCALAR_OPERANDS) >= _SCALAR_OPERANDS_LIMIT:
                _SCALAR_OPERANDS.clear()
            _SCALAR_OPERANDS[key] = found
    return found


def _first_dtype(tensors):
    """The dtype of the first real tensor among the arguments (for scalar operands)."""
    for t in tensors:
        if isinstance(t, Tensor):
            return dtypes.from_numpy_dtype(t._data.dtype)
    return None


def _normalise(op, tensors):
    """Slow path: convert scalars/arrays to tensors and unpack lists; returns tensors, arrays."""
    like = _first_dtype(tensors)
    fixed, arrays = [], []
    for name, kind, value in zip(op.tensor_names, op.tensor_kinds, tensors):
        if kind == "Tensor[]":
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"{op.name}(): argument '{name}' must be a list of Tensors, "
                                f"got {type(value).__name__}")
            try:
                items = [to_eager_tensor(v, like) for v in value]
            except TypeError:
                kinds = sorted({type(v).__name__ for v in value})
                raise TypeError(f"{op.name}(): argument '{name}' must be a list of Tensors, "
                                f"got items of type {', '.join(kinds)}") from None
            fixed.append(items)
            arrays.append([t._data for t in items])
        elif value is None:
            if kind != "Tensor?":
                raise TypeError(f"{op.name}(): argument '{name}' is required, got None")
            fixed.append(None)
            arrays.append(None)
        else:
            try:
                t = to_eager_tensor(value, like)
            except TypeError:
                raise TypeError(f"{op.name}(): argument '{name}' must be a Tensor, got "
                                f"{type(value).__name__}") from None
            fixed.append(t)
            arrays.append(t._data)
    return fixed, arrays


def _meta(array):
    """MetaTensor of an array, a list of arrays, or None."""
    if array is None:
        return None
    if isinstance(array, list):
        return [_meta(a) for a in array]
    return MetaTensor(array.shape, dtypes.from_numpy_dtype(array.dtype))


_checked = set()
_CHECKED_LIMIT = 65536


def _array_key(array):
    """(shape, dtype) of an input array; a tuple of those for a list input; None for None."""
    if array is None:
        return None
    if array.__class__ is list:
        return tuple([(a.shape, a.dtype) for a in array])
    return array.shape, array.dtype


def _signature(op, arrays, attrs):
    """A hashable key of an op call's input shapes/dtypes and attributes (None if not)."""
    try:
        key = (op, attrs, *[_array_key(a) for a in arrays])
        hash(key)
    except (AttributeError, TypeError):
        return None
    return key


_SIGNATURE_IDS = {}


def signature_id(tensor):
    """A small int naming the tensor's (shape, dtype), cached on the tensor until its data
    is replaced (Tensor._set_data resets it): cheaper to hash than the pair itself."""
    array = tensor._data
    meta = (array.shape, array.dtype)
    found = _SIGNATURE_IDS.get(meta)
    if found is None:
        found = _SIGNATURE_IDS[meta] = len(_SIGNATURE_IDS) + 1
    tensor._sig = found
    return found


def _check_new(op, arrays, attrs, key):
    """Run infer_meta for a call whose signature `key` has not passed before (None: not
    hashable, checked every time), so bad input fails with a clear message before the
    kernel; a passing signature is remembered, so a training loop's steady state costs
    one set lookup per op."""
    _full_check(op, arrays, attrs)
    if key is not None:
        if len(_checked) > _CHECKED_LIMIT:
            _checked.clear()
        _checked.add(key)


def _full_check(op, arrays, attrs):
    """Call the op's infer_meta rule on the metas of `arrays` (after refusing one tensor
    where the op takes a list: iterating it would give its rows)."""
    for name, kind, array in zip(op.tensor_names, op.tensor_kinds, arrays):
        if kind == "Tensor[]" and not isinstance(array, (list, tuple)):
            raise TypeError(f"{op.name}(): argument '{name}' must be a list of Tensors, got "
                            f"one tensor; wrap it in a list")
        if kind != "Tensor[]" and isinstance(array, list):
            raise TypeError(f"{op.name}(): argument '{name}' must be a Tensor, got list")
    metas = [_meta(a) for a in arrays]
    try:
        op.infer_meta(*metas, *attrs)
    except InvalidArgument as err:
        raise invalid_argument_error(op, metas, attrs, err) from None


def _needs_grad(tensors):
    """True when any (possibly nested) input tensor wants a gradient."""
    for t in tensors:
        if t.__class__ is list:
            if any(not x.stop_gradient for x in t):
                return True
        elif t is not None and not t.stop_gradient:
            return True
    return False


def _tensor_pair(a, b):
    """The two operands of a binary call as Tensors when one is a Tensor and the other a
    Tensor or a Python float/int (turned into a 0-d tensor); (None, None) otherwise."""
    if a.__class__ is Tensor:
        if b.__class__ is Tensor:
            return a, b
        if b.__class__ in _SCALARS:
            return a, _scalar_operand(b, a)
    elif a.__class__ in _SCALARS and b.__class__ is Tensor:
        return _scalar_operand(a, b), b
    return None, None


def _unary(op, a, attrs):
    """The one-tensor, one-output case (activations, reductions, reshapes)."""
    x = a._data
    if _FLAGS["FLAGS_eager_check_meta"]:
        key = (op, attrs, a._sig or signature_id(a))
        if key not in _checked:
            _check_new(op, (x,), attrs, key)
    try:  # `*attrs` costs an argument list: up to two attributes pass one by one
        if not attrs:
            result = op.kernel(x)
        elif len(attrs) == 1:
            result = op.kernel(x, attrs[0])
        elif len(attrs) == 2:
            result = op.kernel(x, attrs[0], attrs[1])
        else:
            result = op.kernel(x, *attrs)
    except Exception as exc:
        raise kernel_failure_error(op, [_meta(x)], attrs, exc) from exc
    out = wrap(result)
    if not a.stop_gradient and op.backward is not None and STATE.enabled:
        RECORD_SINGLE[op]((a,), (x,), attrs, out)
    return out


def _wrap_many(op, result):
    """Wrap a multi-output kernel result; returns (per-output objects, flat tensors)."""
    outs, flat = [], []
    for kind, value in zip(op.output_kinds, op.result_tuple(result)):
        if kind == "Tensor[]":
            items = [wrap(a) for a in value]
            outs.append(items)
            flat.extend(items)
        else:
            t = wrap(value)
            outs.append(t)
            flat.append(t)
    return outs, flat


def _run_any(op, tensors, attrs):
    """Any op call: tensors, lists of them, scalars or arrays, any number of outputs."""
    try:  # plain Tensors and lists of them; anything else is normalised first
        arrays = [t._data if t.__class__ is not list else [x._data for x in t]
                  for t in tensors]
    except AttributeError:
        arrays = None
    if arrays is None:
        tensors, arrays = _normalise(op, tensors)
    key = _signature(op, arrays, attrs)
    if _FLAGS["FLAGS_eager_check_meta"] and (key is None or key not in _checked):
        _check_new(op, arrays, attrs, key)
    try:
        result = op.kernel(*arrays, *attrs)
    except Exception as exc:
        raise kernel_failure_error(op, [_meta(a) for a in arrays], attrs, exc) from exc
    if op.single_output:
        outs = wrap(result)
        if op.backward is not None and STATE.enabled and _needs_grad(tensors):
            RECORD_SINGLE[op](tensors, arrays, attrs, outs)
        return outs
    outs, flat = _wrap_many(op, result)
    if op.backward is not None and STATE.enabled and _needs_grad(tensors):
        GradNode.record(op, tensors, arrays, attrs, flat, outs)
    return outs


class EagerMode:
    """Runs ops immediately on NumPy arrays."""

    is_static = False

    def run_op(self, op, tensors, attrs):
        """Check, run the kernel, wrap the results, and record autograd when needed.

        Two plain tensors and one output (`x + y`, `matmul(x, y)`: most calls) run here
        without a further Python call before the kernel; other calls go to `_run_any`.
        The check key includes `attrs`, which are hashable here: only tensor-less ops
        (assign_value) and list-input ops (getitem, setitem) take `Any` attributes."""
        if op.single_output:
            if len(tensors) == 2:
                a, b = tensors
                if a.__class__ is not Tensor or b.__class__ is not Tensor:
                    a, b = _tensor_pair(a, b)
                if a is not None:
                    x, y = a._data, b._data
                    if _FLAGS["FLAGS_eager_check_meta"]:
                        key = (op, attrs, a._sig or signature_id(a), b._sig or signature_id(b))
                        if key not in _checked:
                            _check_new(op, (x, y), attrs, key)
                    try:
                        # `*attrs` costs an argument list: up to two attributes pass
                        # one by one (as in _unary)
                        if not attrs:
                            result = op.kernel(x, y)
                        elif len(attrs) == 1:
                            result = op.kernel(x, y, attrs[0])
                        elif len(attrs) == 2:
                            result = op.kernel(x, y, attrs[0], attrs[1])
                        else:
                            result = op.kernel(x, y, *attrs)
                    except Exception as exc:
                        raise kernel_failure_error(op, [_meta(x), _meta(y)], attrs,
                                                   exc) from exc
                    out = wrap(result)
                    if not (a.stop_gradient and b.stop_gradient) and \
                            op.backward is not None and STATE.enabled:
                        RECORD_SINGLE[op]((a, b), (x, y), attrs, out)
                    return out
            elif len(tensors) == 1 and tensors[0].__class__ is Tensor:
                return _unary(op, tensors[0], attrs)
        return _run_any(op, tensors, attrs)


EAGER = EagerMode()

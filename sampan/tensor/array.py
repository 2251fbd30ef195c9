"""Tensor arrays (Paddle's LoDTensorArray): Python lists of Tensors in eager mode, array
Variables (sampan.static.control_flow.tensor_array) in static mode."""
__all__ = ["create_array", "array_write", "array_read", "array_length"]


def _static():
    """The static implementation, or None in eager mode (imported late: cycles)."""
    from ..framework_mode import in_dynamic_mode
    from ..static.control_flow import tensor_array
    return None if in_dynamic_mode() else tensor_array


def _index(i):
    return int(i.item()) if hasattr(i, "item") else int(i)


def create_array(dtype, initialized_list=None):
    """An empty array of `dtype` (or holding `initialized_list`)."""
    static = _static()
    return static.create_array(dtype, initialized_list) if static else list(
        initialized_list or [])


def array_write(x, i, array=None):
    """Write `x` at position `i` of `array` (created when None); returns the array."""
    static = _static()
    if static:
        return static.array_write(x, i, array)
    array = [] if array is None else array
    k = _index(i)
    array.extend([None] * (k + 1 - len(array)))
    array[k] = x
    return array


def array_read(array, i):
    """The element at position `i`."""
    static = _static()
    return static.array_read(array, i) if static else array[_index(i)]


def array_length(array):
    """Number of elements: a Python int in dynamic mode (the array is a list, as in
    Paddle), an int64 tensor of shape [1] while a Program is built."""
    static = _static()
    return static.array_length(array) if static else len(array)

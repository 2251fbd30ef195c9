"""Kernels whose output sizes come from a tensor (sizes known only at run time)."""
from .elementwise import full
from .manipulation import pad, pad_grad, reshape
from .nn_random import gaussian, uniform

__all__ = ["reshape_dynamic", "pad_dynamic", "pad_dynamic_grad", "full_dynamic",
           "uniform_random", "gaussian_random"]


def _sizes(shape):
    """A 1-D integer array as a tuple of Python ints."""
    return tuple(int(v) for v in shape.reshape(-1))


def reshape_dynamic(x, shape):
    """x reshaped to the sizes in `shape` (Paddle's 0 and -1 rules)."""
    return reshape(x, _sizes(shape))


def pad_dynamic(x, paddings, mode, value, data_format):
    """x padded by the sizes in `paddings` (the pad kernel)."""
    return pad(x, _sizes(paddings), mode, value, data_format)


def pad_dynamic_grad(x, paddings, out_grad, mode, data_format):
    """Gradient of pad_dynamic (the pad_grad kernel with the run-time sizes)."""
    return pad_grad(x, out_grad, _sizes(paddings), mode, data_format)


def full_dynamic(shape, fill_value, dtype):
    """A new array of the sizes in `shape` filled with fill_value."""
    return full(_sizes(shape), fill_value, dtype)


def uniform_random(shape, dtype, min, max, seed):  # noqa: A002 - the op's attribute names
    """Uniform values in [min, max) of the sizes in `shape` (the `uniform` kernel's draw)."""
    return uniform(_sizes(shape), dtype, min, max, seed)


def gaussian_random(shape, mean, std, seed, dtype):
    """Normal values of the sizes in `shape` (the `gaussian` kernel's draw)."""
    return gaussian(_sizes(shape), mean, std, seed, dtype)

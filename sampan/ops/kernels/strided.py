"""as_strided over the row-major elements of x: out[i0, i1, ...] = flat(x)[offset / itemsize +
sum_k i_k stride_k], the positions checked against x's size by infer_meta first; the output is
a copy (no view another op could write through), its gradient a scatter-add of out_grad."""
import numpy as np

__all__ = ["as_strided", "as_strided_grad"]


def _positions(shape, stride, start):
    """int64 array of `shape`: the flat element position of every output element."""
    positions = np.full(tuple(shape), start, dtype=np.int64)
    for axis, (size, step) in enumerate(zip(shape, stride)):
        line = [1] * len(shape)
        line[axis] = size
        positions = positions + (np.arange(size, dtype=np.int64) * step).reshape(line)
    return positions


def as_strided(x, shape, stride, offset):
    """The elements of x at `stride` steps (in elements) from byte `offset`, shaped `shape`."""
    return x.reshape(-1)[_positions(shape, stride, offset // x.itemsize)]


def as_strided_grad(x, out_grad, shape, stride, offset):
    """Gradient of as_strided: out_grad added at every position it read (overlaps add up)."""
    x_grad = np.zeros(x.size, dtype=out_grad.dtype)
    np.add.at(x_grad, _positions(shape, stride, offset // x.itemsize), out_grad)
    return x_grad.reshape(x.shape).astype(x.dtype, copy=False)

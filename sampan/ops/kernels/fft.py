"""NumPy kernels of the discrete Fourier transforms and of the complex-number ops.

Three transforms, as in Paddle, each over a tuple of axes: c2c (complex to complex), r2c
(real to complex, `onesided` keeps the non-negative frequencies of the last axis) and c2r
(a Hermitian half spectrum to real, `last_dim_size` output points on the last axis).
`forward` picks the sign of the exponent (e^-i for True); the scale follows from
`normalization` and the direction, over n = the product of the signal sizes along `axes`:

    normalization   forward   inverse
    "backward"      1         1/n
    "forward"       1/n       1
    "ortho"         1/sqrt(n) 1/sqrt(n)

Gradients follow Paddle's (and PyTorch's) convention for complex numbers: for a real loss L,
the gradient of a complex z is dL/d(re z) + i dL/d(im z). Each transform is linear, so its
gradient is the adjoint: the opposite-sign transform with the same scale.
"""
import math

import numpy as np

from .elementwise import _sum_to

__all__ = ["fft_c2c", "fft_c2c_grad", "fft_r2c", "fft_r2c_grad", "fft_c2r", "fft_c2r_grad",
           "real_grad", "imag_grad", "conj_grad", "angle", "angle_grad", "complex",
           "complex_grad", "as_complex", "as_real"]

_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def _scale(normalization, forward, n):
    """The factor a transform of `n` points applies (table in the module docstring)."""
    if normalization == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 / n if (normalization == "backward") != forward else 1.0


def _points(shape, axes):
    """Number of points of a transform over `axes` of an array of `shape`."""
    return math.prod(shape[a] for a in axes)


def _c2c(x, axes, forward, scale):
    """Unnormalised complex transform (e^-i when forward) times scale."""
    out = np.fft.fftn(x, axes=axes) if forward else np.fft.ifftn(x, axes=axes, norm="forward")
    return out * scale if scale != 1.0 else out


def fft_c2c(x, axes, normalization, forward):
    """Complex-to-complex transform of x over axes."""
    scale = _scale(normalization, forward, _points(x.shape, axes))
    return _c2c(x, axes, forward, scale).astype(x.dtype, copy=False)


def fft_c2c_grad(out_grad, axes, normalization, forward):
    """Gradient of fft_c2c: the opposite-sign transform with the forward's scale."""
    scale = _scale(normalization, forward, _points(out_grad.shape, axes))
    return _c2c(out_grad, axes, not forward, scale).astype(out_grad.dtype, copy=False)


def _r2c(x, axes, forward, onesided, scale):
    """Transform of a real x (half spectrum on the last axis when onesided) times scale."""
    out = np.fft.rfftn(x, axes=axes) if onesided else np.fft.fftn(x, axes=axes)
    # For a real x the e^+i transform is the conjugate of the e^-i one.
    out = out if forward else np.conj(out)
    return out * scale if scale != 1.0 else out


def fft_r2c(x, axes, normalization, forward, onesided):
    """Real-to-complex transform of x over axes."""
    scale = _scale(normalization, forward, _points(x.shape, axes))
    return _r2c(x, axes, forward, onesided, scale).astype(_COMPLEX_OF[x.dtype], copy=False)


def fft_r2c_grad(x, out_grad, axes, normalization, forward, onesided):
    """Gradient of fft_r2c: the real part of the adjoint transform of the (zero-padded) grad."""
    scale = _scale(normalization, forward, _points(x.shape, axes))
    last = axes[-1] % x.ndim
    full = _fit(out_grad, last, x.shape[last]) if onesided else out_grad
    return np.real(_c2c(full, axes, not forward, scale)).astype(x.dtype)


def _fit(a, axis, size):
    """a cropped or zero-padded to `size` along axis."""
    if a.shape[axis] >= size:
        return a[(slice(None),) * axis + (slice(0, size),)]
    widths = [(0, 0)] * a.ndim
    widths[axis] = (0, size - a.shape[axis])
    return np.pad(a, widths)


def _c2r_sizes(x, axes, last_dim_size):
    """Output sizes along axes: x's, except last_dim_size (or 2 * (m - 1)) on the last one."""
    last = last_dim_size or 2 * (x.shape[axes[-1]] - 1)
    return [x.shape[a] for a in axes[:-1]] + [last]


def fft_c2r(x, axes, normalization, forward, last_dim_size):
    """Real transform of the Hermitian spectrum whose non-negative half on axes[-1] is x."""
    sizes = _c2r_sizes(x, axes, last_dim_size)
    scale = _scale(normalization, forward, math.prod(sizes))
    # The output is real, so the e^-i transform of x is the e^+i transform of conj(x).
    spectrum = np.conj(x) if forward else x
    out = np.fft.irfftn(spectrum, s=sizes, axes=axes, norm="forward")
    out = out * scale if scale != 1.0 else out
    return out.astype(np.finfo(x.dtype).dtype, copy=False)


def fft_c2r_grad(x, out_grad, axes, normalization, forward, last_dim_size):
    """Gradient of fft_c2r: the adjoint half-spectrum transform of the grad, with the bins
    that stand for a conjugate pair (all but zero and Nyquist) counted twice."""
    sizes = _c2r_sizes(x, axes, last_dim_size)
    scale = _scale(normalization, forward, math.prod(sizes))
    grad = _r2c(out_grad, axes, not forward, True, scale)
    last, n = axes[-1] % x.ndim, sizes[-1]
    grad[(slice(None),) * last + (slice(1, (n + 1) // 2),)] *= 2
    return _fit(grad, last, x.shape[last]).astype(x.dtype, copy=False)


# ---- Complex numbers

def real_grad(x, out_grad):
    """Gradient of real: the grad as the real part (x's dtype)."""
    return out_grad.astype(x.dtype)


def imag_grad(x, out_grad):
    """Gradient of imag: the grad as the imaginary part (zero for a real x)."""
    if x.dtype.kind != "c":
        return np.zeros_like(x)
    return (1j * out_grad).astype(x.dtype)


def conj_grad(out_grad):
    """Gradient of conj: the conjugate of the grad."""
    return np.conj(out_grad)


def angle(x):
    """Argument of x in radians (0 or pi for a real x)."""
    return np.asarray(np.angle(x), dtype=np.finfo(x.dtype).dtype)


def angle_grad(x, out_grad):
    """Gradient of angle: i x / |x|^2 times the grad (zero at 0 and for a real x)."""
    if x.dtype.kind != "c":
        return np.zeros_like(x)
    square = np.real(x * np.conj(x))
    safe = np.where(square == 0, 1, square)
    return np.where(square == 0, 0, out_grad * 1j * x / safe).astype(x.dtype)


def complex(real, imag):  # noqa: A001 - Paddle's name
    """real + i imag, broadcast."""
    dtype = _COMPLEX_OF[np.result_type(real, imag)]
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), dtype)
    out.real, out.imag = real, imag
    return out


def complex_grad(real, imag, out_grad):
    """Gradients of complex: the real and imaginary parts of the grad, summed to each shape."""
    return (_sum_to(np.real(out_grad), real.shape).astype(real.dtype),
            _sum_to(np.imag(out_grad), imag.shape).astype(imag.dtype))


def as_complex(x):
    """Complex tensor from a real one whose last axis (size 2) holds (real, imag)."""
    return complex(x[..., 0], x[..., 1])


def as_real(x):
    """Real tensor with a last axis of size 2 holding x's (real, imag)."""
    return np.stack([np.real(x), np.imag(x)], axis=-1)

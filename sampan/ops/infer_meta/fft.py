"""Shape/dtype rules of the Fourier transforms and the complex-number ops (kernels/fft.py)."""
from ...core.dtype import complex64, complex128, float32, float64
from ...core.errors import InvalidArgument
from ..meta import MetaTensor
from .elementwise import broadcast_shapes

__all__ = ["fft_c2c", "fft_r2c", "fft_c2r", "angle", "complex", "as_complex", "as_real"]

COMPLEX_OF = {float32: complex64, float64: complex128}
REAL_OF = {complex64: float32, complex128: float64}
NORMS = ("backward", "forward", "ortho")


def _real_float(meta, arg):
    """meta's dtype, which must be float32 or float64."""
    if meta.dtype not in COMPLEX_OF:
        raise InvalidArgument(arg, f"expects a float32 or float64 tensor, got "
                                   f"{meta.dtype.name}", "dtype")
    return meta.dtype


def _complex(meta, arg):
    """meta's dtype, which must be complex64 or complex128."""
    if meta.dtype not in REAL_OF:
        raise InvalidArgument(arg, f"expects a complex64 or complex128 tensor, got "
                                   f"{meta.dtype.name}", "dtype")
    return meta.dtype


def _transform(x, axes, normalization):
    """Check the axes (distinct, in range) and the normalization; the last axis, normalised."""
    if normalization not in NORMS:
        raise InvalidArgument("normalization", f"is {normalization!r}; expected one of "
                                               f"{', '.join(NORMS)}")
    if not axes:
        raise InvalidArgument("axes", "a transform needs at least one axis")
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise InvalidArgument("axes", f"axis {a} is out of range for a {x.ndim}-D tensor")
    if len({a % x.ndim for a in axes}) != len(axes):
        raise InvalidArgument("axes", f"{list(axes)} names an axis twice")
    if any(x.shape[a] == 0 for a in axes):
        raise InvalidArgument("x", f"has no points along the transformed axes {list(axes)}")
    return axes[-1] % x.ndim


def _with_size(shape, axis, size):
    """shape with `size` at `axis`."""
    return shape[:axis] + (size,) + shape[axis + 1:]


def fft_c2c(x, axes, normalization, forward):
    """Like x, which must be complex."""
    _complex(x, "x")
    _transform(x, axes, normalization)
    return MetaTensor(x.shape, x.dtype)


def fft_r2c(x, axes, normalization, forward, onesided):
    """x's shape (n // 2 + 1 on the last axis when onesided); the complex dtype of real x."""
    dtype = COMPLEX_OF[_real_float(x, "x")]
    last = _transform(x, axes, normalization)
    n = x.shape[last]
    half = -1 if n == -1 else n // 2 + 1
    return MetaTensor(_with_size(x.shape, last, half) if onesided else x.shape, dtype)


def fft_c2r(x, axes, normalization, forward, last_dim_size):
    """x's shape with last_dim_size (or 2 * (m - 1)) on the last axis; the real dtype."""
    dtype = REAL_OF[_complex(x, "x")]
    last = _transform(x, axes, normalization)
    if last_dim_size < 0:
        raise InvalidArgument("last_dim_size", f"is {last_dim_size}; expected >= 0")
    m = x.shape[last]
    n = last_dim_size or (-1 if m == -1 else 2 * (m - 1))
    if n == 0:
        raise InvalidArgument("x", f"has {m} point on axis {last}, which gives an empty "
                                   "output; pass the output length (n or s)")
    return MetaTensor(_with_size(x.shape, last, n), dtype)


def angle(x):
    """x's shape; the real dtype of a float or complex x."""
    if x.dtype in REAL_OF:
        return MetaTensor(x.shape, REAL_OF[x.dtype])
    return MetaTensor(x.shape, _real_float(x, "x"))


def complex(real, imag):  # noqa: A001 - Paddle's name
    """Broadcast shape; the complex dtype of two float tensors of one dtype."""
    dtype = _real_float(real, "real")
    if _real_float(imag, "imag") is not dtype:
        raise InvalidArgument("imag", f"is {imag.dtype.name} but real is {dtype.name}; they "
                                      "must agree", "dtype")
    shape = broadcast_shapes(real.shape, imag.shape, "imag", "real")
    return MetaTensor(shape, COMPLEX_OF[dtype])


def as_complex(x):
    """x's shape without its last axis, which must have size 2; the complex dtype."""
    dtype = _real_float(x, "x")
    if not x.ndim or x.shape[-1] not in (2, -1):
        raise InvalidArgument("x", f"needs a last axis of size 2, got shape {list(x.shape)}")
    return MetaTensor(x.shape[:-1], COMPLEX_OF[dtype])


def as_real(x):
    """x's shape plus a last axis of size 2; the real dtype of complex x."""
    return MetaTensor(x.shape + (2,), REAL_OF[_complex(x, "x")])

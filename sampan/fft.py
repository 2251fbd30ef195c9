"""paddle.fft: discrete Fourier transforms over any axes, with Paddle's names and signatures.

Every transform runs on one of three ops (see docs/fft.md): ``fft_c2c`` (complex to complex),
``fft_r2c`` (real to complex) and ``fft_c2r`` (Hermitian half spectrum to real). `n` / `s`
crop or zero-pad the input first with the slice and pad ops, so gradients flow through them.

``norm`` picks the scaling of the pair of directions (n is the number of points):
"backward" (default) scales the inverse by 1/n, "forward" scales the forward transform by
1/n, "ortho" scales both by 1/sqrt(n).

Integer inputs compute in the default float dtype; float32 gives complex64 and float64
gives complex128.

Example::

    >>> import sampan as paddle
    >>> x = paddle.to_tensor([0.0, 1.0, 0.0, 0.0])
    >>> paddle.fft.rfft(x).numpy()
    array([ 1.+0.j,  0.-1.j, -1.+0.j], dtype=complex64)
"""
from collections.abc import Sequence

from .core.dtype import complex64, complex128, default_float, float64, to_dtype
from .ops._generated import api

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]

_NORMS = ("backward", "forward", "ortho")


# ---- argument checks (ValueError, as Paddle raises)

def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f"Unexpected norm: {norm!r}; it should be one of 'forward', "
                         "'backward' or 'ortho'")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _check_axis(x, axis):
    """axis normalised to [0, ndim)."""
    if not _is_int(axis):
        raise ValueError(f"Invalid FFT axis ({axis!r}), it should be an integer")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"Invalid FFT axis ({axis}), it should be in range "
                         f"[-{x.ndim}, {x.ndim}) for a {x.ndim}-D input")
    return axis % x.ndim


def _check_sizes(x, s, what="s"):
    """s as a list of positive ints no longer than x's rank."""
    if not isinstance(s, Sequence):
        raise ValueError(f"Invalid FFT argument {what} ({s!r}), it should be a sequence of "
                         "integers")
    if len(s) > x.ndim:
        raise ValueError(f"Length of FFT argument {what} ({len(s)}) should not be larger than "
                         f"the rank of the input ({x.ndim})")
    for size in s:
        if not _is_int(size) or size <= 0:
            raise ValueError(f"Invalid FFT argument {what}: {list(s)} contains {size!r}; sizes "
                             "should be positive integers")
    return list(s)


def _check_2d(x, s, axes):
    """The extra checks of the 2-D functions: rank >= 2, s and axes of two entries."""
    if x.ndim < 2:
        raise ValueError(f"The rank of the input ({x.ndim}) should be >= 2")
    for what, value in (("s", s), ("axes", axes)):
        if value is not None and (not isinstance(value, Sequence) or len(value) != 2):
            raise ValueError(f"Invalid FFT argument {what} ({value!r}), it should be a "
                             "sequence of 2 integers")


def _plan(x, s, axes, norm):
    """(sizes or None, axes) of an n-D transform, checked and normalised."""
    _check_norm(norm)
    if s is not None:
        s = _check_sizes(x, s)
    if axes is None:
        count = x.ndim if s is None else len(s)
        return s, list(range(x.ndim - count, x.ndim))
    if not isinstance(axes, Sequence):
        raise ValueError(f"Invalid FFT axes ({axes!r}), it should be a sequence of integers")
    axes = [_check_axis(x, a) for a in axes]
    if s is not None and len(s) != len(axes):
        raise ValueError(f"Length of s ({len(s)}) and length of axes ({len(axes)}) do not "
                         "match")
    return s, axes


def _plan_1d(x, n, axis, norm):
    """(sizes or None, axes) of a 1-D transform."""
    _check_norm(norm)
    axis = _check_axis(x, axis)
    if n is not None and (not _is_int(n) or n <= 0):
        raise ValueError(f"Invalid FFT argument n ({n!r}), it should be a positive integer")
    return (None if n is None else [n]), [axis]


# ---- dtypes and resizing

def _real(x):
    """x, integers and bools cast to the default float dtype."""
    return x if x.dtype.np.kind in "fc" else api.cast(x, default_float())


def _complex(x):
    """x as complex: complex64 from float32 (and integers by default), complex128 from
    float64."""
    if x.dtype.np.kind == "c":
        return x
    x = _real(x)
    return api.cast(x, complex128 if x.dtype is float64 else complex64)


def _resize(x, sizes, axes):
    """x cropped or zero-padded to sizes[i] along axes[i] (differentiable)."""
    crop = [(a, n) for a, n in zip(axes, sizes) if x.shape[a] > n]
    if crop:
        x = api.slice(x, [a for a, _ in crop], [0] * len(crop), [n for _, n in crop])
    widths = [0] * (2 * x.ndim)
    for a, n in zip(axes, sizes):
        if x.shape[a] == -1:
            raise ValueError(f"FFT sizes need a known input size on axis {a}")
        widths[2 * a + 1] = max(n - x.shape[a], 0)
    return api.pad(x, widths) if any(widths) else x


# ---- the three transforms

def _c2c(x, sizes, axes, norm, forward):
    x = _complex(x)
    if sizes is not None:
        x = _resize(x, sizes, axes)
    return api.fft_c2c(x, axes, norm, forward)


def _r2c(x, sizes, axes, norm, forward, onesided):
    x = _real(x)
    if sizes is not None:
        x = _resize(x, sizes, axes)
    return api.fft_r2c(x, axes, norm, forward, onesided)


def _c2r(x, sizes, axes, norm, forward):
    x = _complex(x)
    if sizes is None:
        return api.fft_c2r(x, axes, norm, forward, 0)
    x = _resize(x, sizes[:-1] + [sizes[-1] // 2 + 1], axes)
    return api.fft_c2r(x, axes, norm, forward, sizes[-1])


def _any_to_complex(x, sizes, axes, norm, forward):
    """The full complex transform: r2c for real and integer x, c2c for complex x."""
    if x.dtype.np.kind == "c":
        return _c2c(x, sizes, axes, norm, forward)
    return _r2c(x, sizes, axes, norm, forward, False)


# ---- 1-D

def fft(x, n=None, axis=-1, norm="backward", name=None):
    """1-D discrete Fourier transform of x along `axis`.

    Args:
        x (Tensor): real, integer or complex input.
        n (int, optional): length of the transformed axis; the input is cropped or
            zero-padded to it. Default: x's length along `axis`.
        axis (int, optional): the axis to transform. Default: -1.
        norm (str, optional): "backward", "forward" or "ortho". Default: "backward".
    Returns:
        Tensor: complex, x's shape with n on `axis`.

    Example::

        >>> paddle.fft.fft(paddle.to_tensor([1.0, 0.0, 0.0, 0.0]))   # four ones
    """
    return _any_to_complex(x, *_plan_1d(x, n, axis, norm), norm, True)


def ifft(x, n=None, axis=-1, norm="backward", name=None):
    """1-D inverse discrete Fourier transform of x along `axis` (ifft(fft(x)) == x).

    Arguments and result as `fft`.
    """
    return _any_to_complex(x, *_plan_1d(x, n, axis, norm), norm, False)


def rfft(x, n=None, axis=-1, norm="backward", name=None):
    """1-D Fourier transform of a real x: the n // 2 + 1 non-negative frequencies.

    Args:
        x (Tensor): real or integer input.
        n (int, optional): number of input points used (crop or zero-pad). Default: x's
            length along `axis`.
        axis (int, optional): the axis to transform. Default: -1.
        norm (str, optional): "backward", "forward" or "ortho". Default: "backward".
    Returns:
        Tensor: complex, n // 2 + 1 long on `axis`.
    """
    return _r2c(x, *_plan_1d(x, n, axis, norm), norm, True, True)


def irfft(x, n=None, axis=-1, norm="backward", name=None):
    """Inverse of `rfft`: n real points from the non-negative half of a Hermitian spectrum.

    Args:
        x (Tensor): the half spectrum (n // 2 + 1 points on `axis` are used; fewer are
            zero-padded).
        n (int, optional): output length. Default: 2 * (m - 1) for m input points.
        axis (int, optional): the axis to transform. Default: -1.
        norm (str, optional): "backward", "forward" or "ortho". Default: "backward".
    Returns:
        Tensor: real (float32 from complex64, float64 from complex128).
    """
    return _c2r(x, *_plan_1d(x, n, axis, norm), norm, False)


def hfft(x, n=None, axis=-1, norm="backward", name=None):
    """Fourier transform of a signal with Hermitian symmetry (a real spectrum), given its
    non-negative half. Arguments and result as `irfft`."""
    return _c2r(x, *_plan_1d(x, n, axis, norm), norm, True)


def ihfft(x, n=None, axis=-1, norm="backward", name=None):
    """Inverse of `hfft`: the non-negative half of the inverse transform of a real x.
    Arguments and result as `rfft`."""
    return _r2c(x, *_plan_1d(x, n, axis, norm), norm, False, True)


# ---- n-D

def fftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D discrete Fourier transform of x over `axes`.

    Args:
        x (Tensor): real, integer or complex input.
        s (sequence of int, optional): output sizes along `axes` (crop or zero-pad).
        axes (sequence of int, optional): axes to transform. Default: the last len(s) axes,
            or all axes when s is None too.
        norm (str, optional): "backward", "forward" or "ortho". Default: "backward".
    Returns:
        Tensor: complex.
    """
    return _any_to_complex(x, *_plan(x, s, axes, norm), norm, True)


def ifftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D inverse discrete Fourier transform. Arguments and result as `fftn`."""
    return _any_to_complex(x, *_plan(x, s, axes, norm), norm, False)


def rfftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D Fourier transform of a real x, halved (s[-1] // 2 + 1 points) on the last axis.
    Arguments as `fftn`; x must be real or integer."""
    return _r2c(x, *_plan(x, s, axes, norm), norm, True, True)


def irfftn(x, s=None, axes=None, norm="backward", name=None):
    """Inverse of `rfftn`: a real output of sizes s (default: the input's, with
    2 * (m - 1) on the last axis). Arguments as `fftn`."""
    return _c2r(x, *_plan(x, s, axes, norm), norm, False)


def hfftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D transform of a Hermitian signal given as its half on the last axis; real output
    shaped as `irfftn`'s."""
    return _c2r(x, *_plan(x, s, axes, norm), norm, True)


def ihfftn(x, s=None, axes=None, norm="backward", name=None):
    """Inverse of `hfftn`: the half spectrum of the inverse transform of a real x."""
    return _r2c(x, *_plan(x, s, axes, norm), norm, False, True)


# ---- 2-D: the n-D functions over two axes (default the last two)

def _two_d(nd, name, what):
    """The 2-D form of the n-D function `nd`: s and axes of two entries, rank >= 2."""
    def transform(x, s=None, axes=(-2, -1), norm="backward", name=None):
        _check_2d(x, s, axes)
        return nd(x, s, axes, norm)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"{what} (`{nd.__name__}` over two axes, by default the last two)."
                         f"\n\n    Arguments and result as `{nd.__name__}`.")
    return transform


fft2 = _two_d(fftn, "fft2", "2-D discrete Fourier transform")
ifft2 = _two_d(ifftn, "ifft2", "2-D inverse discrete Fourier transform")
rfft2 = _two_d(rfftn, "rfft2", "2-D Fourier transform of a real x")
irfft2 = _two_d(irfftn, "irfft2", "Inverse of `rfft2`")
hfft2 = _two_d(hfftn, "hfft2", "2-D transform of a Hermitian signal")
ihfft2 = _two_d(ihfftn, "ihfft2", "Inverse of `hfft2`")


# ---- frequencies and shifts

def _frequencies(n, d, dtype, start, stop):
    """(arange(start, stop) / (n * d)) in dtype (default: the default float dtype)."""
    if not _is_int(n) or n * d == 0:
        raise ValueError(f"fftfreq needs an integer n and a nonzero n * d, got n={n!r}, d={d!r}")
    dtype = default_float() if dtype is None else to_dtype(dtype)
    return api.arange(start, stop, 1, dtype), 1.0 / (n * d)


def fftfreq(n, d=1.0, dtype=None, name=None):
    """Sample frequencies of an n-point transform with sample spacing d:
    [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (n * d).

    Example::

        >>> paddle.fft.fftfreq(4).numpy()
        array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float32)
    """
    ramp, step = _frequencies(n, d, dtype, -(n // 2), (n + 1) // 2)
    return api.scale(api.roll(ramp, [-(n // 2)], [0]), step)


def rfftfreq(n, d=1.0, dtype=None, name=None):
    """Non-negative sample frequencies of an n-point real transform:
    [0, 1, ..., n // 2] / (n * d)."""
    ramp, step = _frequencies(n, d, dtype, 0, n // 2 + 1)
    return api.scale(ramp, step)


def _shift(x, axes, amount):
    """x rolled by amount(size) along each of axes (default all)."""
    if axes is None:
        axes = list(range(x.ndim))
    elif _is_int(axes):
        axes = [axes]
    axes = [_check_axis(x, a) for a in axes]
    if any(x.shape[a] == -1 for a in axes):
        raise ValueError("fftshift needs known sizes along the shifted axes")
    return api.roll(x, [amount(x.shape[a]) for a in axes], axes)


def fftshift(x, axes=None, name=None):
    """x with the zero frequency moved to the centre: each of axes (default all) rolled by
    half its size."""
    return _shift(x, axes, lambda size: size // 2)


def ifftshift(x, axes=None, name=None):
    """Inverse of `fftshift` (they differ for odd sizes)."""
    return _shift(x, axes, lambda size: (size + 1) // 2)

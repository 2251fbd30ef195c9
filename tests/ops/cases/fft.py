"""Cases of the Fourier-transform and complex-number ops (kernels/fft.py), against numpy.fft."""
import numpy as np

from tests.ops.case import OpCase, rand, rand_away

_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def crand(*shape, dtype="complex128"):
    """Complex values with both parts uniform in [-1, 1)."""
    return (rand(*shape) + 1j * rand(*shape)).astype(dtype)


def ref_c2c(x, axes, normalization, forward):
    fn = np.fft.fftn if forward else np.fft.ifftn
    return fn(x, axes=axes, norm=normalization)


def ref_r2c(x, axes, normalization, forward, onesided):
    out = ref_c2c(x, axes, normalization, forward)
    if onesided:
        out = np.take(out, range(x.shape[axes[-1]] // 2 + 1), axis=axes[-1])
    return out


def ref_c2r(x, axes, normalization, forward, last_dim_size):
    sizes = [x.shape[a] for a in axes[:-1]] + [last_dim_size or 2 * (x.shape[axes[-1]] - 1)]
    if forward:  # numpy's hfft has no n-D form: hfftn(x) = irfftn(conj(x)), scaled the other way
        return np.fft.irfftn(np.conj(x), s=sizes, axes=axes, norm=_SWAP[normalization])
    return np.fft.irfftn(x, s=sizes, axes=axes, norm=normalization)


def _c2c(x, axes, normalization, forward, name, **kw):
    attrs = {"axes": axes, "normalization": normalization, "forward": forward}
    return OpCase("fft_c2c", {"x": x}, attrs, ref=ref_c2c, name=name, **kw)


def _r2c(x, axes, normalization, forward, onesided, name, **kw):
    attrs = {"axes": axes, "normalization": normalization, "forward": forward,
             "onesided": onesided}
    return OpCase("fft_r2c", {"x": x}, attrs, ref=ref_r2c, name=name, **kw)


def _c2r(x, axes, normalization, forward, last_dim_size, name, **kw):
    attrs = {"axes": axes, "normalization": normalization, "forward": forward,
             "last_dim_size": last_dim_size}
    return OpCase("fft_c2r", {"x": x}, attrs, ref=ref_c2r, name=name, **kw)


TRANSFORMS = [
    _c2c(crand(2, 5), (1,), "backward", True, "1d"),
    _c2c(crand(3, 4), (0, 1), "ortho", False, "2d_inverse_ortho"),
    _c2c(crand(2, 3, 4), (2, 0), "forward", True, "axes_2_0_forward_norm"),
    _c2c(crand(4, 3), (-2,), "backward", False, "negative_axis_inverse"),
    _c2c(crand(2, 6, dtype="complex64"), (1,), "backward", True, "c64", grad=(),
         rtol=1e-5, atol=1e-5),
    _r2c(rand(2, 6), (1,), "backward", True, True, "even"),
    _r2c(rand(3, 5), (0, 1), "ortho", True, True, "2d_odd"),
    _r2c(rand(4, 3), (1, 0), "forward", True, False, "full_axes_1_0"),
    _r2c(rand(2, 7), (1,), "backward", False, True, "inverse_ihfft"),
    _r2c(rand(3, 4), (0,), "ortho", False, False, "inverse_full"),
    _r2c(rand(2, 8, dtype="float32"), (1,), "backward", True, True, "f32", grad=(),
         rtol=1e-5, atol=1e-5),
    _c2r(crand(2, 4), (1,), "backward", False, 0, "irfft_even"),
    _c2r(crand(2, 4), (1,), "ortho", False, 7, "irfft_odd"),
    _c2r(crand(3, 2, 3), (0, 2), "forward", False, 5, "irfft2_odd"),
    _c2r(crand(3, 4), (1, 0), "backward", False, 0, "irfft2_axes_1_0"),
    _c2r(crand(2, 5), (1,), "backward", True, 8, "hfft"),
    _c2r(crand(2, 3, 4), (1, 2), "ortho", True, 0, "hfft2"),
    _c2r(crand(2, 3), (1,), "backward", False, 8, "pads_missing_bins"),
    _c2r(crand(2, 6), (1,), "backward", False, 4, "crops_extra_bins"),
    _c2r(crand(2, 5, dtype="complex64"), (1,), "backward", False, 0, "c64", grad=(),
         rtol=1e-5, atol=1e-5),
]

_WITH_ZERO = crand(2, 3)
_WITH_ZERO[0, 0] = 0

COMPLEX = [
    OpCase("angle", {"x": crand(2, 3)}, ref=np.angle),
    OpCase("angle", {"x": _WITH_ZERO}, ref=np.angle, grad=(), name="at_zero"),
    OpCase("angle", {"x": rand_away(4)}, ref=np.angle, name="of_real"),
    OpCase("angle", {"x": crand(3, dtype="complex64")}, ref=np.angle, grad=(), name="c64"),
    OpCase("complex", {"real": rand(2, 3), "imag": rand(3)}, ref=lambda r, i: r + 1j * i,
           name="broadcast"),
    OpCase("complex", {"real": rand(2, dtype="float32"), "imag": rand(2, dtype="float32")},
           ref=lambda r, i: (r + 1j * i).astype("complex64"), grad=(), name="f32"),
    OpCase("as_complex", {"x": rand(3, 2)}, ref=lambda x: x[..., 0] + 1j * x[..., 1]),
    OpCase("as_real", {"x": crand(2, 3)}, ref=lambda x: np.stack([x.real, x.imag], -1)),
    OpCase("real", {"x": crand(4, dtype="complex64")}, ref=np.real, grad=(), name="c64"),
    OpCase("imag", {"x": crand(2, 2)}, ref=np.imag, name="2d"),
    OpCase("conj", {"x": crand(2, 2)}, ref=np.conj, name="2d"),
]

CASES = TRANSFORMS + COMPLEX

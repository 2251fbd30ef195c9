"""paddle.fft against numpy.fft (and scipy.fft for the n-D Hermitian transforms): values over
shapes, n / s, axes and the three norms; dtype promotion; gradients of real losses through
the transforms against finite differences; shifts and frequencies; argument errors; static
mode; the complex-number helpers (real, imag, conj, angle, complex, as_complex, as_real)."""
import itertools

import numpy as np
import pytest

import sampan as paddle
from sampan.core.errors import OpError
from tests.api._check import check_grad, check_static, tensor

rng = np.random.default_rng(5)
NORMS = ("backward", "forward", "ortho")


def _real(*shape):
    return rng.uniform(-1, 1, shape)


def _cplx(*shape):
    return _real(*shape) + 1j * _real(*shape)


def _close(got, want, rtol=1e-10, atol=1e-12):
    got = got.numpy()
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# ---------------------------------------------------------------- 1-D transforms

ONE_D = {  # name -> (input maker, numpy reference)
    "fft": (_cplx, np.fft.fft), "ifft": (_cplx, np.fft.ifft), "rfft": (_real, np.fft.rfft),
    "irfft": (_cplx, np.fft.irfft), "hfft": (_cplx, np.fft.hfft), "ihfft": (_real, np.fft.ihfft),
}


@pytest.mark.parametrize("name", sorted(ONE_D))
@pytest.mark.parametrize("shape", [(8,), (3, 7), (2, 3, 6)])
@pytest.mark.parametrize("n", [None, 4, 11])
@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("norm", NORMS)
def test_1d_transforms_match_numpy(name, shape, n, axis, norm):
    make, ref = ONE_D[name]
    x = make(*shape)
    got = getattr(paddle.fft, name)(tensor(x), n=n, axis=axis, norm=norm)
    _close(got, ref(x, n=n, axis=axis, norm=norm))


@pytest.mark.parametrize("name", ["fft", "ifft"])
def test_fft_and_ifft_of_real_and_integer_input(name):
    x = _real(3, 5)
    _close(getattr(paddle.fft, name)(tensor(x), n=6), getattr(np.fft, name)(x, n=6))
    ints = np.arange(6).reshape(2, 3)
    out = getattr(paddle.fft, name)(tensor(ints))
    assert out.dtype == paddle.complex64
    _close(out, getattr(np.fft, name)(ints), rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------------- 2-D and n-D transforms

ND = {"fftn": (_cplx, np.fft.fftn), "ifftn": (_cplx, np.fft.ifftn),
      "rfftn": (_real, np.fft.rfftn), "irfftn": (_cplx, np.fft.irfftn)}
S_AXES = [(None, None), ([5, 4], None), (None, (0, 2)), ([4, 6], (2, 0)), ([3], (-2,)),
          ([2, 5, 3], (1, 2, 0))]


@pytest.mark.parametrize("name", sorted(ND))
@pytest.mark.parametrize("s,axes", S_AXES)
@pytest.mark.parametrize("norm", NORMS)
def test_nd_transforms_match_numpy(name, s, axes, norm):
    make, ref = ND[name]
    x = make(3, 4, 5)
    got = getattr(paddle.fft, name)(tensor(x), s=s, axes=axes, norm=norm)
    _close(got, ref(x, s=s, axes=axes, norm=norm))


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("s,axes", [(None, (-2, -1)), ([6, 3], (-2, -1)), ([4, 4], (0, 2)),
                                    (None, (2, 1))])
@pytest.mark.parametrize("norm", NORMS)
def test_2d_transforms_match_numpy(name, s, axes, norm):
    x = (_cplx if name in ("fft2", "ifft2", "irfft2") else _real)(2, 5, 4)
    got = getattr(paddle.fft, name)(tensor(x), s=s, axes=axes, norm=norm)
    _close(got, getattr(np.fft, name)(x, s=s, axes=axes, norm=norm))


@pytest.mark.parametrize("name", ["hfftn", "ihfftn", "hfft2", "ihfft2"])
@pytest.mark.parametrize("s,axes", [(None, (-2, -1)), ([5, 4], (0, 2)), ([3, 7], (2, 1))])
@pytest.mark.parametrize("norm", NORMS)
def test_hermitian_nd_transforms_match_scipy(name, s, axes, norm):
    scipy_fft = pytest.importorskip("scipy.fft")
    x = (_cplx if name.startswith("h") else _real)(3, 4, 5)
    got = getattr(paddle.fft, name)(tensor(x), s=s, axes=axes, norm=norm)
    _close(got, getattr(scipy_fft, name)(x, s=s, axes=axes, norm=norm))


def test_nd_transforms_default_to_every_axis_or_the_last_len_s():
    x = _cplx(2, 3, 4)
    _close(paddle.fft.fftn(tensor(x)), np.fft.fftn(x))
    _close(paddle.fft.ifftn(tensor(x), s=[5]), np.fft.ifftn(x, s=[5], axes=[-1]))


def test_round_trips():
    x = _real(4, 6)
    t = tensor(x)
    _close(paddle.fft.irfft2(paddle.fft.rfft2(t), s=[4, 6]), x)
    _close(paddle.fft.ihfft(paddle.fft.hfft(tensor(np.fft.ihfft(x)), n=6)), np.fft.ihfft(x))
    _close(paddle.fft.ifftn(paddle.fft.fftn(t)), x.astype(complex))


@pytest.mark.parametrize("dtype,complex_dtype", [("float32", "complex64"),
                                                 ("float64", "complex128")])
def test_dtypes_follow_the_input_precision(dtype, complex_dtype):
    x = _real(2, 6).astype(dtype)
    for fn in (paddle.fft.fft, paddle.fft.rfft, paddle.fft.ihfft, paddle.fft.fft2):
        assert fn(tensor(x)).dtype == getattr(paddle, complex_dtype)
    z = tensor(x.astype(complex_dtype))
    assert paddle.fft.ifft(z).dtype == getattr(paddle, complex_dtype)
    for fn in (paddle.fft.irfft, paddle.fft.hfft, paddle.fft.irfftn):
        assert fn(z).dtype == getattr(paddle, dtype)
        assert fn(tensor(x)).dtype == getattr(paddle, dtype)  # real input read as complex
    _close(paddle.fft.rfft(tensor(x)), np.fft.rfft(x), rtol=1e-5, atol=1e-5)


def test_integer_input_computes_in_the_default_float_dtype():
    ints = np.array([[1, 2, 3, 4], [0, 1, 0, 1]])
    assert paddle.fft.rfft(tensor(ints)).dtype == paddle.complex64
    assert paddle.fft.irfft(tensor(ints)).dtype == paddle.float32
    _close(paddle.fft.rfftn(tensor(ints)), np.fft.rfftn(ints), rtol=1e-6, atol=1e-6)


def test_paddle_doc_examples():
    x = paddle.to_tensor([0.0, 1.0, 0.0, 0.0])
    _close(paddle.fft.rfft(x), np.array([1, -1j, -1], "complex64"))
    x = paddle.to_tensor(np.array([[3 + 3j, 2 + 2j, 3 + 3j], [2 + 2j, 2 + 2j, 3 + 3j]]))
    _close(paddle.fft.hfft2(x), np.array([[19.0, 7, 3, -9], [1, 1, 1, 1]]))
    x = np.exp(3j * np.pi * np.arange(7) / 7)
    np.testing.assert_allclose(paddle.fft.fft(paddle.to_tensor(x)).numpy().round(3),
                               [1 + 1.254j, 1 + 4.381j, 1 - 4.381j, 1 - 1.254j, 1 - 0.482j,
                                1, 1 + 0.482j])


# ---------------------------------------------------------------- gradients of real losses

def _weights(*shape):
    return tensor(rng.uniform(0.5, 1.5, shape))


def _complex_of(a, b):
    return paddle.complex(a, b)


@pytest.mark.parametrize("norm", NORMS)
def test_gradient_through_fft_of_real_input(norm):
    w = _weights(6)
    check_grad(lambda x: paddle.abs(paddle.fft.fft(x, n=6, norm=norm)) * w, _real(2, 5))
    check_grad(lambda x: paddle.real(paddle.fft.ifft(x, axis=0, norm=norm)), _real(3, 2))


@pytest.mark.parametrize("norm", NORMS)
def test_gradient_through_fft_of_complex_input(norm):
    w = _weights(3, 4)

    def loss(a, b):
        z = paddle.fft.fft2(_complex_of(a, b), s=[3, 4], norm=norm)
        return paddle.abs(z) * w + paddle.imag(z)
    check_grad(loss, _real(2, 5), _real(2, 5))


@pytest.mark.parametrize("norm", NORMS)
def test_gradient_through_rfft_and_irfft(norm):
    check_grad(lambda x: paddle.abs(paddle.fft.rfft(x, n=7, norm=norm)), _real(3, 6))
    check_grad(lambda x: paddle.abs(paddle.fft.rfftn(x, s=[2, 5], norm=norm)), _real(3, 4))
    w = _weights(2, 7)
    check_grad(lambda a, b: paddle.fft.irfft(_complex_of(a, b), n=7, norm=norm) ** 2 * w,
               _real(2, 3), _real(2, 3))
    w = _weights(3, 4)
    check_grad(lambda a, b: paddle.fft.irfftn(_complex_of(a, b), norm=norm) * w,
               _real(3, 3), _real(3, 3))


def test_gradient_through_hfft_ihfft_and_shifts():
    w6, w33, w52 = _weights(6), _weights(3, 3), _weights(5, 2)
    check_grad(lambda a, b: paddle.fft.hfft(_complex_of(a, b), n=6) * w6, _real(4), _real(4))
    check_grad(lambda x: paddle.abs(paddle.fft.ihfft2(x)) * w33, _real(3, 4))
    check_grad(lambda x: paddle.fft.fftshift(x, axes=0) * w52, _real(5, 2))


def test_complex_leaf_gets_the_conjugate_wirtinger_gradient():
    """For a real loss L the gradient of a complex leaf is dL/d(re) + i dL/d(im)."""
    z = _cplx(5)
    w = rng.uniform(0.5, 1.5, 5)

    def loss(values):
        return np.sum(w * np.abs(np.fft.fft(values, norm="ortho")))
    leaf = tensor(z, grad=True)
    (paddle.abs(paddle.fft.fft(leaf, norm="ortho")) * tensor(w)).sum().backward()
    want = np.zeros(5, complex)
    for i, unit in itertools.product(range(5), (1, 1j)):
        step = np.zeros(5, complex)
        step[i] = 1e-6 * unit
        want[i] += unit * (loss(z + step) - loss(z - step)) / 2e-6
    np.testing.assert_allclose(leaf.grad.numpy(), want, rtol=1e-6, atol=1e-8)


# ---------------------------------------------------------------- shifts and frequencies

@pytest.mark.parametrize("shape", [(5,), (4, 7), (2, 3, 6)])
@pytest.mark.parametrize("axes", [None, 0, (-1,), (0, -1)])
def test_fftshift_and_ifftshift_match_numpy(shape, axes):
    x = _real(*shape)
    _close(paddle.fft.fftshift(tensor(x), axes), np.fft.fftshift(x, axes))
    _close(paddle.fft.ifftshift(tensor(x), axes), np.fft.ifftshift(x, axes))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("d", [1.0, 0.3])
def test_fftfreq_and_rfftfreq_match_numpy(n, d):
    _close(paddle.fft.fftfreq(n, d), np.fft.fftfreq(n, d), rtol=1e-6, atol=1e-7)
    _close(paddle.fft.rfftfreq(n, d), np.fft.rfftfreq(n, d), rtol=1e-6, atol=1e-7)
    out = paddle.fft.fftfreq(n, d, dtype="float64")
    assert out.dtype == paddle.float64
    _close(out, np.fft.fftfreq(n, d))


def test_frequencies_default_to_float32_and_shift_to_the_centre():
    freq = paddle.fft.fftfreq(5, d=0.3)
    assert freq.dtype == paddle.float32
    np.testing.assert_allclose(paddle.fft.fftshift(freq).numpy(),
                               [-1.3333334, -0.6666667, 0.0, 0.6666667, 1.3333334], rtol=1e-6)


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("call", [
    lambda x: paddle.fft.fft(x, norm="bad"),
    lambda x: paddle.fft.rfft2(x, norm=None),
    lambda x: paddle.fft.fft(x, axis=2),
    lambda x: paddle.fft.ifft(x, axis=-3),
    lambda x: paddle.fft.fftn(x, axes=(0, 5)),
    lambda x: paddle.fft.fft(x, n=0),
    lambda x: paddle.fft.irfft(x, n=-2),
    lambda x: paddle.fft.rfft(x, n=2.5),
    lambda x: paddle.fft.fftn(x, s=[3, 0]),
    lambda x: paddle.fft.fftn(x, s=[3, 3, 3]),
    lambda x: paddle.fft.fftn(x, s=[3], axes=(0, 1)),
    lambda x: paddle.fft.fft2(x, axes=(0, 1, 1)),
    lambda x: paddle.fft.fft2(paddle.sum(x, 0)),
    lambda x: paddle.fft.fftfreq(0),
], ids=["norm", "norm_none", "axis", "negative_axis", "axes", "n_zero", "n_negative",
        "n_float", "s_zero", "s_too_long", "s_axes_mismatch", "fft2_axes", "fft2_rank",
        "fftfreq_zero"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call(tensor(_real(3, 4)))


def test_messages_name_the_bad_value():
    with pytest.raises(ValueError, match="ortho"):
        paddle.fft.fft(tensor(_real(4)), norm="Ortho")
    with pytest.raises(ValueError, match=r"\[-2, 2\)"):
        paddle.fft.rfft(tensor(_real(2, 4)), axis=2)
    with pytest.raises(ValueError, match="positive"):
        paddle.fft.hfft(tensor(_cplx(4)), n=0)


def test_op_level_errors_name_the_op():
    with pytest.raises(TypeError, match="fft_r2c"):
        paddle.fft.rfft(tensor(_cplx(4)))
    with pytest.raises(OpError, match="names an axis twice"):
        paddle.fft.fftn(tensor(_cplx(3, 4)), axes=(1, -1))
    with pytest.raises(OpError, match="empty output"):
        paddle.fft.irfft(tensor(_cplx(3, 1)))
    with pytest.raises(OpError, match="no points"):
        paddle.fft.fft(tensor(np.zeros((2, 0))))


# ---------------------------------------------------------------- static mode

@pytest.mark.parametrize("fn", [
    lambda x: paddle.real(paddle.fft.fft(x, n=6, norm="ortho")),
    lambda x: paddle.fft.irfft2(paddle.fft.rfft2(x), s=[3, 5]),
    lambda x: paddle.fft.hfft(paddle.fft.ihfft(x, axis=0), n=4, axis=0),
    lambda x: paddle.fft.fftshift(x, axes=(0, 1)),
], ids=["fft", "rfft2_irfft2", "ihfft_hfft", "fftshift"])
def test_static_mode_matches_eager(fn):
    check_static(fn, _real(4, 5))


def test_static_fftfreq():
    from tests.api._check import run_static
    got = run_static(lambda x: x + paddle.fft.fftfreq(4, 0.5), np.zeros(4, "float32"))
    np.testing.assert_allclose(got, np.fft.fftfreq(4, 0.5), rtol=1e-6)


# ---------------------------------------------------------------- complex helpers

def test_complex_helpers_match_numpy():
    z = _cplx(2, 3)
    a, b = _real(2, 3), _real(3)
    _close(paddle.real(tensor(z)), z.real)
    _close(paddle.imag(tensor(z)), z.imag)
    _close(paddle.conj(tensor(z)), np.conj(z))
    _close(paddle.angle(tensor(z)), np.angle(z))
    _close(paddle.angle(tensor(np.array([-2.0, 0.0, 3.0]))), [np.pi, 0, 0])
    _close(paddle.complex(tensor(a), tensor(b)), a + 1j * b)
    _close(paddle.as_real(tensor(z)), np.stack([z.real, z.imag], -1))
    _close(paddle.as_complex(tensor(np.stack([a, a + 1], -1))), a + 1j * (a + 1))
    assert paddle.is_complex(tensor(z)) and not paddle.is_complex(tensor(a))
    assert paddle.complex(tensor(a.astype("float32")), tensor(a.astype("float32"))).dtype \
        == paddle.complex64


def test_complex_helpers_gradients():
    w = _weights(2, 3)
    check_grad(lambda a, b: paddle.angle(_complex_of(a, b)) * w, _real(2, 3), _real(2, 3))
    check_grad(lambda a, b: paddle.abs(paddle.conj(_complex_of(a, b)) + 1) * w, _real(2, 3),
               _real(3))
    check_grad(lambda x: paddle.imag(paddle.as_complex(x)) * 2 + paddle.real(
        paddle.as_complex(x)), _real(3, 2))
    w22 = _weights(2, 2)
    check_grad(lambda a, b: paddle.as_real(_complex_of(a, b)) * w22, _real(2), _real(2))


def test_angle_gradient_is_zero_at_zero():
    z = tensor(np.array([0j, 1 + 1j]), grad=True)
    paddle.angle(z).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [0, -0.5 + 0.5j])


def test_complex_helper_errors():
    with pytest.raises(TypeError):
        paddle.complex(tensor(_real(2)), tensor(_real(2).astype("float32")))
    with pytest.raises(ValueError):
        paddle.as_complex(tensor(_real(2, 3)))
    with pytest.raises(TypeError):
        paddle.as_real(tensor(_real(2)))


# ---------------------------------------------------------------- paddle.signal

def _ref_frame(x, length, hop):
    count = 1 + (x.shape[-1] - length) // hop
    return np.stack([x[..., t * hop:t * hop + length] for t in range(count)], -1)


def _ref_overlap_add(frames, hop):
    length, count = frames.shape[-2:]
    out = np.zeros(frames.shape[:-2] + ((count - 1) * hop + length,), frames.dtype)
    for t in range(count):
        out[..., t * hop:t * hop + length] += frames[..., t]
    return out


def _hann(n):
    return np.hanning(n + 1)[:-1]


def _ref_stft(x, n_fft, hop, window, center=True, pad_mode="reflect", normalized=False,
              onesided=True):
    if center:
        widths = [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)]
        x = np.pad(x, widths, mode=pad_mode)
    left = (n_fft - len(window)) // 2
    window = np.pad(window, (left, n_fft - len(window) - left))
    frames = np.swapaxes(_ref_frame(x, n_fft, hop), -1, -2) * window
    norm = "ortho" if normalized else "backward"
    out = np.fft.rfft(frames, norm=norm) if onesided else np.fft.fft(frames, norm=norm)
    return np.swapaxes(out, -1, -2)


@pytest.mark.parametrize("length,hop", [(4, 2), (5, 2), (3, 3), (2, 3), (6, 1)])
def test_frame_and_overlap_add_match_loops(length, hop):
    x = _real(2, 13)
    _close(paddle.signal.frame(tensor(x), length, hop), _ref_frame(x, length, hop))
    got = paddle.signal.frame(tensor(x.T), length, hop, axis=0)
    _close(got, np.moveaxis(_ref_frame(x, length, hop), [0, 1, 2], [2, 1, 0]))
    frames = _cplx(3, length, 4)
    _close(paddle.signal.overlap_add(tensor(frames), hop), _ref_overlap_add(frames, hop))
    moved = np.moveaxis(frames, [0, 1, 2], [2, 1, 0])
    _close(paddle.signal.overlap_add(tensor(moved), hop, axis=0),
           _ref_overlap_add(frames, hop).T)


def test_frame_and_overlap_add_paddle_examples_and_gradients():
    np.testing.assert_array_equal(paddle.signal.frame(paddle.arange(8), 4, 2).numpy(),
                                  [[0, 2, 4], [1, 3, 5], [2, 4, 6], [3, 5, 7]])
    got = paddle.signal.overlap_add(paddle.arange(16).reshape([8, 2]), hop_length=2)
    np.testing.assert_array_equal(got.numpy(), [0, 2, 5, 9, 13, 17, 21, 25, 13, 15])
    w = _weights(3, 4)
    check_grad(lambda x: paddle.signal.frame(x, 3, 2) * w, _real(9))
    w = _weights(2, 9)
    check_grad(lambda x: paddle.signal.overlap_add(x, 2) * w, _real(2, 3, 4))


STFT_CONFIGS = [
    dict(n_fft=16),
    dict(n_fft=16, hop_length=5, window=_hann(16), normalized=True),
    dict(n_fft=15, hop_length=4, win_length=11, window=_hann(11)),
    dict(n_fft=12, hop_length=3, center=False),
    dict(n_fft=12, hop_length=3, pad_mode="constant", onesided=False),
]


@pytest.mark.parametrize("config", STFT_CONFIGS, ids=range(len(STFT_CONFIGS)))
@pytest.mark.parametrize("shape", [(50,), (2, 47)])
def test_stft_matches_a_numpy_reference(config, shape):
    x = _real(*shape)
    kwargs = dict(config)
    window = kwargs.pop("window", None)
    win_length = kwargs.get("win_length", kwargs["n_fft"])
    got = paddle.signal.stft(tensor(x), window=None if window is None else tensor(window),
                             **kwargs)
    hop = kwargs.pop("hop_length", kwargs["n_fft"] // 4)
    kwargs.pop("win_length", None)
    n_fft = kwargs.pop("n_fft")
    want = _ref_stft(x, n_fft, hop, np.ones(win_length) if window is None else window,
                     **kwargs)
    _close(got, want)


def test_stft_of_complex_input_and_float32():
    z = _cplx(40)
    got = paddle.signal.stft(tensor(z), 8, onesided=False)
    _close(got, _ref_stft(z, 8, 2, np.ones(8), onesided=False))
    out = paddle.signal.stft(tensor(_real(2, 40).astype("float32")), 8)
    assert out.dtype == paddle.complex64 and out.shape == [2, 5, 21]


@pytest.mark.parametrize("config", [
    dict(n_fft=16, window=_hann(16)),
    dict(n_fft=16, hop_length=5, window=_hann(16), normalized=True),
    dict(n_fft=15, hop_length=3, win_length=11, window=_hann(11)),
    dict(n_fft=8, hop_length=2),
], ids=range(4))
def test_istft_inverts_stft(config):
    x = _real(2, 64)
    window = config.get("window")
    kwargs = dict(config, window=None if window is None else tensor(window))
    spectrum = paddle.signal.stft(tensor(x), **kwargs)
    got = paddle.signal.istft(spectrum, **kwargs)  # frames may stop short of the end
    _close(got, x[:, :got.shape[-1]], rtol=1e-9, atol=1e-10)
    assert got.shape[-1] > 50
    _close(paddle.signal.istft(spectrum[0], length=50, **kwargs), x[0, :50], rtol=1e-9,
           atol=1e-10)


def test_istft_without_centre_and_with_complex_output():
    x = _real(60)
    spec = paddle.signal.stft(tensor(x), 12, 3, center=False)
    got = paddle.signal.istft(spec, 12, 3, center=False)
    _close(got, x[:got.shape[0]], rtol=1e-9, atol=1e-10)
    z = _cplx(48)
    full = paddle.signal.stft(tensor(z), 8, onesided=False)
    got = paddle.signal.istft(full, 8, onesided=False, return_complex=True)
    _close(got, z, rtol=1e-9, atol=1e-10)
    real_full = paddle.signal.stft(tensor(x), 8, onesided=False)
    _close(paddle.signal.istft(real_full, 8, onesided=False), x, rtol=1e-9, atol=1e-10)


def test_stft_and_istft_gradients():
    w = _weights(5, 21)
    check_grad(lambda x: paddle.abs(paddle.signal.stft(x, 8)) * w, _real(40))
    signal = tensor(_real(40))
    check_grad(lambda win: paddle.abs(paddle.signal.stft(signal, 8, window=win)) * w,
               _real(8))
    w2 = _weights(20)

    def through_istft(a, b):
        return paddle.signal.istft(_complex_of(a, b), 8) * w2
    check_grad(through_istft, _real(5, 11), _real(5, 11))


@pytest.mark.parametrize("call", [
    lambda: paddle.signal.stft(tensor(_real(2, 2, 30)), 8),
    lambda: paddle.signal.stft(tensor(_cplx(30)), 8),
    lambda: paddle.signal.stft(tensor(_real(30)), 8, win_length=9),
    lambda: paddle.signal.stft(tensor(_real(30)), 8, hop_length=0),
    lambda: paddle.signal.stft(tensor(_real(30)), 8, pad_mode="circular"),
    lambda: paddle.signal.stft(tensor(_real(30)), 8, window=tensor(np.ones(5))),
    lambda: paddle.signal.stft(tensor(_real(6)), 16, center=False),
    lambda: paddle.signal.istft(tensor(_real(5, 11)), 8),
    lambda: paddle.signal.istft(tensor(_cplx(4, 11)), 8),
    lambda: paddle.signal.istft(tensor(_cplx(5, 11)), 8, hop_length=9),
    lambda: paddle.signal.istft(tensor(_cplx(5, 11)), 8, return_complex=True),
    lambda: paddle.signal.istft(tensor(_cplx(5, 11)), 8, window=tensor(np.zeros(8))),
    lambda: paddle.signal.frame(tensor(_real(6)), 8, 2),
    lambda: paddle.signal.frame(tensor(_real(6)), 2, 2, axis=1),
    lambda: paddle.signal.overlap_add(tensor(_real(6)), 2),
], ids=["rank", "onesided_complex", "win_length", "hop", "pad_mode", "window_size",
        "n_fft_too_long", "istft_real", "istft_bins", "istft_hop", "return_complex_onesided",
        "nola", "frame_too_long", "frame_axis", "overlap_add_rank"])
def test_signal_errors(call):
    with pytest.raises(ValueError):
        call()


def test_stft_static_matches_eager():
    check_static(lambda x: paddle.abs(paddle.signal.stft(x, 8, 3)), _real(2, 30))
    check_static(lambda x: paddle.signal.istft(paddle.signal.stft(x, 8), 8), _real(32))

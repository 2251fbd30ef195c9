"""paddle.signal: short-time Fourier transforms (stft, istft) and the framing they use.

`frame` and `overlap_add` are compositions of slice, pad, concat and reshape (no index
tensors), so they work for every dtype and are differentiable; the transforms are
`paddle.fft`'s ops.
"""
from . import fft as _fft
from .core.dispatch import current_mode
from .core.dtype import complex64, float32, float64
from .ops._generated import api

__all__ = ["stft", "istft"]


def _positive_int(value, what):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"Unexpected {what}: {value!r}. It should be a positive integer.")


def _check_frame_axis(axis):
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")


def _to_last(x, axis):
    """x with `axis` (0 or -1) moved last."""
    return x if axis == -1 else api.transpose(x, list(range(1, x.ndim)) + [0])


def _last_two_swapped(x):
    perm = list(range(x.ndim))
    perm[-2:] = perm[-1], perm[-2]
    return api.transpose(x, perm)


def _blocks(frame_length, hop_length):
    """Number of hop-sized blocks one frame touches."""
    return -(-frame_length // hop_length)


def _fit_last(x, size):
    """x cropped or zero-padded to `size` along its last axis."""
    have = x.shape[-1]
    if have > size:
        return api.slice(x, [x.ndim - 1], [0], [size])
    if have < size:
        return api.pad(x, [0] * (2 * x.ndim - 1) + [size - have])
    return x


def _frame_last(x, frame_length, hop_length):
    """[..., L] -> [..., frame_length, num_frames]: frame t is x[t*hop : t*hop + length].

    The signal is cut into hop-sized blocks; frame t is blocks t .. t+K-1 joined, so
    the frames are K shifted slices of the block matrix concatenated."""
    count = 1 + (x.shape[-1] - frame_length) // hop_length
    k = _blocks(frame_length, hop_length)
    rows = count + k - 1
    blocks = api.reshape(_fit_last(x, rows * hop_length), [0] * (x.ndim - 1) + [rows,
                                                                               hop_length])
    axis = blocks.ndim - 2
    shifted = [api.slice(blocks, [axis], [j], [j + count]) for j in range(k)]
    frames = api.concat(shifted, -1) if k > 1 else shifted[0]
    return _last_two_swapped(_fit_last(frames, frame_length))


def _overlap_add_last(x, hop_length):
    """[..., frame_length, num_frames] -> [..., (num_frames - 1) * hop + frame_length]:
    the adjoint of `_frame_last` (each block sums the frames that cover it)."""
    frame_length, count = x.shape[-2], x.shape[-1]
    k = _blocks(frame_length, hop_length)
    frames = _fit_last(_last_two_swapped(x), k * hop_length)
    axis = frames.ndim - 2
    total = None
    for j in range(k):
        part = api.slice(frames, [frames.ndim - 1], [j * hop_length], [(j + 1) * hop_length])
        widths = [0] * (2 * frames.ndim)
        widths[2 * axis], widths[2 * axis + 1] = j, k - 1 - j
        part = api.pad(part, widths)
        total = part if total is None else api.add(total, part)
    flat = api.reshape(total, [0] * (total.ndim - 2) + [(count + k - 1) * hop_length])
    return _fit_last(flat, (count - 1) * hop_length + frame_length)


def frame(x, frame_length, hop_length, axis=-1, name=None):
    """Overlapping frames of x along its first or last axis.

    Args:
        x (Tensor): input of shape [..., seq_length] (axis=-1) or [seq_length, ...] (axis=0).
        frame_length (int): frame length, at most seq_length.
        hop_length (int): step between frame starts.
        axis (int, optional): 0 or -1. Default: -1.
    Returns:
        Tensor: [..., frame_length, num_frames] for axis=-1, [num_frames, frame_length, ...]
        for axis=0, with num_frames = 1 + (seq_length - frame_length) // hop_length.

    Example::

        >>> paddle.signal.frame(paddle.arange(8), 4, 2).shape
        [4, 3]
    """
    _check_frame_axis(axis)
    _positive_int(frame_length, "frame_length")
    _positive_int(hop_length, "hop_length")
    if frame_length > x.shape[axis]:
        raise ValueError(f"frame_length ({frame_length}) should be at most the sequence "
                         f"length ({x.shape[axis]})")
    out = _frame_last(_to_last(x, axis), frame_length, hop_length)
    if axis == -1:
        return out
    return api.transpose(out, [out.ndim - 1, out.ndim - 2] + list(range(out.ndim - 2)))


def overlap_add(x, hop_length, axis=-1, name=None):
    """Sum of overlapping frames: the signal `frame` cut them from (frames add up where they
    overlap).

    Args:
        x (Tensor): frames [..., frame_length, num_frames] (axis=-1) or
            [num_frames, frame_length, ...] (axis=0), at least 2-D.
        hop_length (int): step between frame starts.
        axis (int, optional): 0 or -1. Default: -1.
    Returns:
        Tensor: [..., seq_length] or [seq_length, ...], with
        seq_length = (num_frames - 1) * hop_length + frame_length.
    """
    _check_frame_axis(axis)
    _positive_int(hop_length, "hop_length")
    if x.ndim < 2:
        raise ValueError(f"overlap_add needs a tensor of at least 2 dims, got {x.ndim}")
    if axis == -1:
        return _overlap_add_last(x, hop_length)
    moved = api.transpose(x, list(range(2, x.ndim)) + [1, 0])
    out = _overlap_add_last(moved, hop_length)
    return api.transpose(out, [out.ndim - 1] + list(range(out.ndim - 1)))


def _window(window, win_length, n_fft, dtype):
    """The window (ones by default) checked and zero-padded to n_fft around its centre."""
    if window is None:
        window = api.full([win_length], 1.0, dtype)
    elif window.ndim != 1 or window.shape[0] != win_length:
        raise ValueError(f"expected a 1-D window of size win_length ({win_length}), got shape "
                         f"{list(window.shape)}")
    left = (n_fft - win_length) // 2
    if n_fft == win_length:
        return window
    return api.pad(window, [left, n_fft - win_length - left])


def _lengths(n_fft, hop_length, win_length):
    """(hop_length, win_length) with their defaults, checked."""
    _positive_int(n_fft, "n_fft")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    _positive_int(hop_length, "hop_length")
    if not 0 < win_length <= n_fft:
        raise ValueError(f"win_length should be in (0, n_fft ({n_fft})], got {win_length}")
    return hop_length, win_length


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=True, name=None):
    """Short-time Fourier transform: X[..., f, t] = sum_n window[n] x[t * hop + n] e^(-2 pi i f n / n_fft).

    Args:
        x (Tensor): [seq_length] or [batch, seq_length], real or complex.
        n_fft (int): points of each transform.
        hop_length (int, optional): step between frames. Default: n_fft // 4.
        win_length (int, optional): window size (<= n_fft). Default: n_fft.
        window (Tensor, optional): 1-D window of win_length, zero-padded to n_fft around
            its centre. Default: ones.
        center (bool, optional): pad x by n_fft // 2 on both sides first. Default: True.
        pad_mode (str, optional): "reflect" or "constant". Default: "reflect".
        normalized (bool, optional): scale by 1 / sqrt(n_fft). Default: False.
        onesided (bool, optional): keep n_fft // 2 + 1 frequencies (real input only).
    Returns:
        Tensor: complex, [..., n_fft // 2 + 1 (or n_fft), num_frames].

    Example::

        >>> paddle.signal.stft(paddle.randn([2, 64]), n_fft=16).shape
        [2, 9, 17]
    """
    if x.ndim not in (1, 2):
        raise ValueError(f"stft expects a 1-D or 2-D x, got {x.ndim}-D")
    hop_length, win_length = _lengths(n_fft, hop_length, win_length)
    is_complex = x.dtype.np.kind == "c"
    if is_complex and onesided:
        raise ValueError("onesided should be False for a complex input")
    window = _window(window, win_length, n_fft, x.dtype)
    batched = x if x.ndim == 2 else api.unsqueeze(x, [0])
    if center:
        if pad_mode not in ("reflect", "constant"):
            raise ValueError(f"pad_mode should be 'reflect' or 'constant', got {pad_mode!r}")
        half = n_fft // 2
        batched = api.pad(batched, [0, 0, half, half], pad_mode)
    if not 0 < n_fft <= batched.shape[-1]:
        raise ValueError(f"n_fft should be in (0, seq_length ({batched.shape[-1]})], got "
                         f"{n_fft}")
    frames = _last_two_swapped(frame(batched, n_fft, hop_length))   # [batch, frames, n_fft]
    frames = api.multiply(frames, window)
    norm = "ortho" if normalized else "backward"
    out = _fft.rfft(frames, norm=norm) if onesided else _fft.fft(frames, norm=norm)
    out = _last_two_swapped(out)
    return out if x.ndim == 2 else api.squeeze(out, [0])


def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=True, length=None, return_complex=False, name=None):
    """Inverse short-time Fourier transform: the least-squares signal whose `stft` is x
    (exact when x is an stft and the squared windows overlap without gaps).

    Args:
        x (Tensor): complex [n_fft // 2 + 1 (or n_fft), num_frames], optionally batched.
        n_fft, hop_length, win_length, window, center, normalized: as in `stft`.
        onesided (bool, optional): x holds only the non-negative frequencies. Default: True.
        length (int, optional): output length. Default: the whole signal.
        return_complex (bool, optional): return a complex signal (needs onesided=False).
    Returns:
        Tensor: [..., seq_length], real unless return_complex.
    """
    if x.dtype.np.kind != "c" or x.ndim not in (2, 3):
        raise ValueError(f"istft expects a 2-D or 3-D complex x, got {x.ndim}-D {x.dtype.name}")
    hop_length, win_length = _lengths(n_fft, hop_length, win_length)
    if hop_length > win_length:
        raise ValueError(f"hop_length ({hop_length}) should be at most win_length "
                         f"({win_length}), or frames leave gaps")
    bins = n_fft // 2 + 1 if onesided else n_fft
    if x.shape[-2] != bins:
        raise ValueError(f"x has {x.shape[-2]} frequencies; expected {bins} for n_fft={n_fft} "
                         f"and onesided={onesided}")
    if return_complex and onesided:
        raise ValueError("onesided should be False when return_complex is True")
    real_dtype = float32 if x.dtype is complex64 else float64
    window = _window(window, win_length, n_fft, real_dtype)
    spectra = _last_two_swapped(x if x.ndim == 3 else api.unsqueeze(x, [0]))
    norm = "ortho" if normalized else "backward"
    if return_complex:
        frames = _fft.ifft(spectra, norm=norm)
    else:
        frames = _fft.irfft(_fit_last(spectra, n_fft // 2 + 1), n=n_fft, norm=norm)
    frames = _last_two_swapped(api.multiply(frames, window))     # [batch, n_fft, frames]
    signal = overlap_add(frames, hop_length)
    count = x.shape[-1]
    squares = api.tile(api.unsqueeze(api.multiply(window, window), [1]), [1, count])
    envelope = overlap_add(squares, hop_length)
    start = n_fft // 2 if center else 0
    stop = signal.shape[-1] - start if length is None else start + length
    signal = api.slice(signal, [1], [start], [stop])
    envelope = api.slice(envelope, [0], [start], [stop])
    if not current_mode().is_static and float(api.min(api.abs(envelope)).numpy()) < 1e-11:
        raise ValueError("istft: the squared windows overlap-add to zero somewhere (the "
                         "nonzero overlap-add condition fails); use another window or hop")
    out = api.divide(signal, envelope)
    return out if x.ndim == 3 else api.squeeze(out, [0])


"""linear, bilinear, dropout (plain, 2-D, 3-D, alpha, feature alpha), embedding, one_hot,
pad, zeropad2d, normalize, cosine_similarity."""
import warnings

import numpy as np

from ...core.dispatch import current_mode
from ...eager.grad_mode import no_grad
from ...ops._generated import api
from ...ops.infer_meta.manipulation import _pad_widths
from ...tensor.creation import to_tensor
from ...tensor.manipulation import size_tensor
from ...tensor.axes import axes_in_range
from ...tensor.inplace import write_inplace

__all__ = ["linear", "bilinear", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
           "feature_alpha_dropout", "embedding", "embedding_renorm_", "one_hot", "pad",
           "zeropad2d", "normalize", "cosine_similarity"]


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, weight of shape [in_features, out_features]."""
    out = api.matmul(x, weight)
    return out if bias is None else api.add(out, bias)


def bilinear(x1, x2, weight, bias=None, name=None):
    """out[n, o] = x1[n] · weight[o] · x2[n] + bias[o]; weight [out, in1, in2], bias [1, out]."""
    out_features, in1, in2 = weight.shape
    flat = api.reshape(api.transpose(weight, [1, 0, 2]), [in1, out_features * in2])
    left = api.reshape(api.matmul(x1, flat), [-1, out_features, in2])
    out = api.sum(api.multiply(left, api.unsqueeze(x2, [1])), [-1])
    return out if bias is None else api.add(out, bias)


def _axis_mask(x, p, axis):
    """A 0/1 tensor (x's dtype) over the `axis` dims (size 1 elsewhere), kept w.p. 1 − p."""
    axes = axes_in_range(axis, len(x.shape), "dropout")
    shape = [d if i in axes else 1 for i, d in enumerate(x.shape)]
    draw = api.uniform(shape, x.dtype, 0.0, 1.0)
    return api.cast(api.greater_equal(draw, api.full_like(draw, p)), x.dtype)


def _check_probability(p, api_name):
    """A drop probability must be a number in [0, 1]."""
    if not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"{api_name}: p must be a number in [0, 1], got {p!r}")


def dropout(x, p=0.5, axis=None, training=True, inplace=False, mode="upscale_in_train",
            name=None):
    """Zero elements with probability p; `mode` decides where the 1/(1−p) scaling goes. With
    `axis`, one draw covers each index of those dims (whole rows, channels, ...); p = 1 drops
    everything. inplace writes the result into x (not with `axis`, as in Paddle)."""
    if inplace and axis is not None:
        raise NotImplementedError("dropout: inplace=True is not supported together with axis")
    out = _dropout(x, p, axis, training, mode)
    return write_inplace(x, out, "dropout_") if inplace else out


def _dropout(x, p, axis, training, mode):
    """Out-of-place dropout (see dropout)."""
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"dropout mode must be upscale_in_train or downscale_in_infer, "
                         f"got {mode!r}")
    if axis is None:
        return api.dropout(x, p, not training, mode)
    _check_probability(p, "dropout")
    if not training:
        return x if mode == "upscale_in_train" else api.scale(x, 1.0 - p)
    if p == 1:
        return api.scale(x, 0.0)
    out = api.multiply(x, _axis_mask(x, p, axis))
    return api.scale(out, 1.0 / (1.0 - p)) if mode == "upscale_in_train" else out


def dropout1d(input, p=0.5, training=True, inplace=False):  # noqa: A002 - Paddle's name
    """Zero whole channels of [N, C, L] (or [C, L]) input with probability p. As in Paddle
    3.3.1, inplace=True is accepted but ignored, with a warning."""
    _check_probability(p, "dropout1d")
    if len(input.shape) not in (2, 3):
        raise RuntimeError(f"dropout1d expects a 2-D or 3-D input, got shape {input.shape}")
    if inplace:
        warnings.warn("dropout1d: inplace=True is not supported (as in Paddle) and is ignored")
    return dropout(input, p, [0, 1] if len(input.shape) == 3 else [0], training)


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    """Zero whole channels of NCHW (or NHWC) x with probability p."""
    axis = [0, 1] if data_format == "NCHW" else [0, 3]
    return dropout(x, p, axis, training)


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    """Zero whole channels of NCDHW (or NDHWC) x with probability p."""
    if len(x.shape) != 5:
        raise ValueError(f"dropout3d: x must be 5-D, got shape {x.shape}")
    axis = [0, 1] if data_format == "NCDHW" else [0, 4]
    return dropout(x, p, axis, training)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _alpha_dropout(x, p, training, axes, api_name):
    """Alpha dropout with one draw per index of the `axes` dims."""
    _check_probability(p, api_name)
    if not training or p == 0:
        return x
    if p == 1:
        return api.scale(x, 0.0)
    saturation = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * saturation ** 2)) ** -0.5
    keep = _axis_mask(x, p, axes)
    dropped = api.scale(api.scale(keep, -1.0, 1.0), saturation)
    return api.scale(api.add(api.multiply(x, keep), dropped), a, -a * saturation * p)


def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropout for SELU networks: dropped values become SELU's negative saturation and an
    affine correction keeps the mean and variance; identity in eval or when p is 0."""
    return _alpha_dropout(x, p, training, list(range(len(x.shape))), "alpha_dropout")


def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    """alpha_dropout of whole channels: one draw per (sample, channel) of x [N, C, ...]."""
    if len(x.shape) < 2:
        raise ValueError(f"feature_alpha_dropout: x needs at least 2 dims [N, C, ...], got "
                         f"shape {list(x.shape)}")
    return _alpha_dropout(x, p, training, [0, 1], "feature_alpha_dropout")


def _eager_only(what):
    """Refuse an option that works on eager tensors only while a Program is built."""
    if current_mode().is_static:
        raise NotImplementedError(f"embedding: argument '{what}' works in dynamic mode only")


def _renormalize_rows(x, weight, max_norm, norm_type):
    """Scale, in place, the rows of weight that x looks up whose norm exceeds max_norm."""
    _eager_only("max_norm")
    ids = np.unique(x.numpy())
    rows = weight.numpy()[ids]
    norms = np.linalg.norm(rows, ord=norm_type, axis=1)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(rows.dtype)
    with no_grad():
        updated = weight.numpy().copy()
        updated[ids] = rows * scale[:, None]
        weight._set_data(updated)


def embedding_renorm_(x, weight, max_norm, norm_type=2.0):
    """Rescale, in place, each row of `weight` that the ids in x look up whose
    norm_type-norm exceeds max_norm (to max_norm / (norm + 1e-7) times itself, as
    embedding's max_norm does); returns weight. Eager only."""
    _renormalize_rows(x, weight, float(max_norm), float(norm_type))
    return weight


def _gradient_by_inverse_frequency(x, out):
    """out with its gradient scaled by 1 / (occurrences of each id in x); values unchanged."""
    _eager_only("scale_grad_by_freq")
    _, inverse, counts = np.unique(x.numpy(), return_inverse=True, return_counts=True)
    scale = (1.0 / counts[inverse.reshape(-1)]).reshape(list(x.shape) + [1])
    fixed = out.detach()
    moving = api.multiply(api.subtract(out, fixed), to_tensor(scale, out.dtype))
    return api.add(fixed, moving)


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    """Rows of `weight` picked by the integer ids in x; padding_idx rows come out as zeros.
    max_norm first rescales (in place, as Paddle's dynamic mode does) each looked-up row
    whose norm_type-norm exceeds it; scale_grad_by_freq divides each row's gradient by the
    number of times its id occurs in x."""
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        _renormalize_rows(x, weight, float(max_norm), float(norm_type))
    out = api.embedding(x, weight, padding_idx)
    return _gradient_by_inverse_frequency(x, out) if scale_grad_by_freq else out


def one_hot(x, num_classes=-1, name=None):
    """Float one-hot vectors of the integer ids in x (new last axis); num_classes=-1 means
    max(x) + 1, which needs x's values (an eager tensor)."""
    if num_classes == -1:
        num_classes = _inferred_class_count(x)
    return api.one_hot(x, num_classes)


def _inferred_class_count(x):
    """max(x) + 1 for one_hot's num_classes=-1."""
    if current_mode().is_static:
        raise ValueError("one_hot: num_classes=-1 needs the values of x; give num_classes "
                         "when building a static program")
    values = x.numpy()
    return int(values.max()) + 1 if values.size else 1


def pad(x, pad, mode="constant", value=0.0, data_format=None,  # noqa: A002
        pad_from_left_axis=True, name=None):
    """Paddle's F.pad: constant, reflect, replicate or circular padding. A negative size
    crops that side instead (as in PyTorch; Paddle rejects it) before the rest is padded."""
    if _known_at_run_time(pad):
        return _pad_at_run_time(x, pad, mode, value, data_format, pad_from_left_axis)
    sizes = _pad_sizes(pad, mode)
    if mode == "constant" and not pad_from_left_axis and len(sizes) == 2 * len(x.shape):
        sizes = [n for k in range(len(sizes) - 2, -1, -2) for n in sizes[k:k + 2]]
    data_format = data_format or "NCHW"  # any channel-first name: only a trailing C matters
    if min(sizes, default=0) < 0:
        x = _crop(x, [max(-n, 0) for n in sizes], mode, data_format)
        sizes = [max(n, 0) for n in sizes]
    return api.pad(x, sizes, mode, float(value), data_format)


def _known_at_run_time(pad):
    """True when F.pad's `pad` is a static Variable or a list holding one."""
    items = pad if isinstance(pad, (list, tuple)) else [pad]
    return any(getattr(n, "symbolic_size", False) for n in items)


def _pad_at_run_time(x, pad, mode, value, data_format, pad_from_left_axis):
    """F.pad whose sizes are known only when the Program runs: op pad_dynamic reads them
    from a tensor (negative sizes, which crop, are refused when it runs)."""
    sizes = (api.cast(api.reshape(pad, [-1]), "int64") if not isinstance(pad, (list, tuple))
             else size_tensor(pad))
    count = sizes.shape[0]
    if count % 2 and mode == "constant":
        sizes = api.concat([sizes, api.full([1], 0, "int64")], 0)
        count += 1
    if mode == "constant" and not pad_from_left_axis and count == 2 * len(x.shape):
        order = [n for k in range(count - 2, -1, -2) for n in (k, k + 1)]
        sizes = api.gather(sizes, to_tensor(np.array(order, np.int64)))
    return api.pad_dynamic(x, sizes, mode, float(value), data_format or "NCHW")


def _pad_sizes(pad, mode):
    """F.pad's `pad` (list, tuple or Tensor) as a list of ints; in constant mode an odd count
    gets a trailing 0, as in Paddle."""
    sizes = [int(n) for n in (pad.tolist() if hasattr(pad, "tolist") else pad)]
    if len(sizes) % 2 and mode == "constant":
        sizes.append(0)
    return sizes


def _crop(x, crops, mode, data_format):
    """x with crops[i] elements removed from the side that pad size i refers to."""
    widths = _pad_widths(len(x.shape), crops, mode, data_format)
    axes = [axis for axis, width in enumerate(widths) if width != (0, 0)]
    for axis in axes:
        size, (before, after) = x.shape[axis], widths[axis]
        if 0 <= size < before + after:
            raise ValueError(f"pad(): negative pad sizes crop {before + after} elements from "
                             f"dim {axis} of size {size} (x of shape {list(x.shape)})")
    ends = [-widths[axis][1] if widths[axis][1] else np.iinfo(np.int64).max for axis in axes]
    return api.slice(x, axes, [widths[axis][0] for axis in axes], ends)


def zeropad2d(x, padding, data_format="NCHW", name=None):
    """Zero padding of a 4-D x by [left, right, top, bottom]."""
    return pad(x, [padding] * 4 if isinstance(padding, int) else padding, "constant", 0.0,
               data_format)


def normalize(x, p=2, axis=1, epsilon=1e-12, out=None, name=None):
    """x divided by its p-norm along `axis` (at least epsilon); given `out`, the result is
    written into it and out returned."""
    norm = api.p_norm(x, float(p), axis, 0.0, True)
    result = api.divide(x, api.maximum(norm, api.full_like(norm, epsilon)))
    return result if out is None else write_inplace(out, result, "normalize")


def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    """Cosine of the angle between x1 and x2 along `axis`."""
    dot = api.sum(api.multiply(x1, x2), [axis])
    n1 = api.p_norm(x1, 2.0, axis)
    n2 = api.p_norm(x2, 2.0, axis)
    denom = api.maximum(api.multiply(n1, n2), api.full_like(dot, eps))
    return api.divide(dot, denom)

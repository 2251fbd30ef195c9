"""paddle.vision.transforms.functional in NumPy, with the semantics of Paddle's 'cv2' backend.

Images are NumPy arrays, HWC or HW (uint8 or float); 3-D paddle Tensors are taken as CHW and
go through NumPy and back. PIL images are refused with a TypeError: sampan has no PIL. Where
OpenCV rounds 8-bit results with fixed-point arithmetic, results may differ from it by one.
"""
import functools
import math
import numbers

import numpy as np

from ...eager.tensor import Tensor
from ...tensor.creation import to_tensor as _tensor

__all__ = ["to_tensor", "resize", "pad", "crop", "center_crop", "hflip", "vflip",
           "adjust_brightness", "adjust_contrast", "adjust_saturation", "adjust_hue",
           "to_grayscale", "rotate", "normalize", "erase"]


def _unsupported(img):
    kind = type(img)
    name = f"{kind.__module__}.{kind.__qualname__}"
    if kind.__module__.split(".")[0] == "PIL":
        return TypeError(f"{name} images are not supported: sampan has no PIL. Convert the "
                         f"image with numpy.asarray(img) (an HWC array) first")
    return TypeError(f"expected an image as a numpy.ndarray (HWC or HW) or a paddle Tensor "
                     f"(CHW), got {name}")


def _is_numpy_image(img):
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _is_tensor_image(img):
    return isinstance(img, Tensor)


def image_op(fn):
    """Let `fn(hwc_array, ...)` take NumPy HW/HWC arrays directly and 2-D/3-D (CHW) Tensors
    through NumPy, returning a Tensor of the same layout; refuse anything else."""
    @functools.wraps(fn)
    def run(img, *args, **kwargs):
        if isinstance(img, np.ndarray):
            if img.ndim not in (2, 3):
                raise ValueError(f"{fn.__name__}: an image array must be HW or HWC, got shape "
                                 f"{img.shape}")
            return fn(img, *args, **kwargs)
        if isinstance(img, Tensor):
            array = img.numpy()
            if array.ndim == 3:
                return _tensor(fn(array.transpose(1, 2, 0), *args, **kwargs).transpose(2, 0, 1))
            if array.ndim == 2:
                return _tensor(fn(array, *args, **kwargs))
            raise ValueError(f"{fn.__name__}: an image Tensor must be CHW or HW, got shape "
                             f"{img.shape}")
        raise _unsupported(img)
    return run


def _restore(values, dtype):
    """Float results back to the image's dtype: integers rounded and clipped to their range."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        values = np.clip(np.rint(values), info.min, info.max)
    return values.astype(dtype)


def to_tensor(pic, data_format="CHW"):
    """An HWC (or HW) array as a paddle Tensor in `data_format` ("CHW" or "HWC"); uint8 values
    become float32 in [0, 1], other dtypes are kept. Tensors are returned unchanged.

    Example:
        >>> to_tensor(np.zeros((4, 5, 3), np.uint8)).shape
        [3, 4, 5]
    """
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if isinstance(pic, Tensor):
        return pic
    if not _is_numpy_image(pic):
        raise _unsupported(pic) if not isinstance(pic, np.ndarray) else ValueError(
            f"to_tensor: an image array must be HW or HWC, got shape {pic.shape}")
    array = pic[:, :, None] if pic.ndim == 2 else pic
    if data_format == "CHW":
        array = array.transpose(2, 0, 1)
    if array.dtype == np.uint8:
        return _tensor(array.astype(np.float32) / np.float32(255.0))
    return _tensor(array)


def _resize_axis(img, axis, size, interpolation):
    """Resample one axis to `size` samples the way OpenCV's resize does."""
    n = img.shape[axis]
    scale = n / size
    if interpolation == "nearest":
        index = np.minimum(np.floor(np.arange(size) * scale).astype(np.int64), n - 1)
        return np.take(img, index, axis=axis)
    src = np.clip((np.arange(size) + 0.5) * scale - 0.5, 0, n - 1)
    low = np.floor(src).astype(np.int64)
    high = np.minimum(low + 1, n - 1)
    shape = [1] * img.ndim
    shape[axis] = size
    weight = (src - low).reshape(shape)
    return np.take(img, low, axis=axis) * (1 - weight) + np.take(img, high, axis=axis) * weight


_INTERPOLATIONS = ("nearest", "bilinear")


def _check_interpolation(interpolation):
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"interpolation {interpolation!r} is not supported by sampan; use one "
                         f"of {list(_INTERPOLATIONS)}")


def _target_size(h, w, size):
    """(height, width) for `size`: an int is the shorter side (aspect ratio kept)."""
    if isinstance(size, numbers.Integral):
        if w < h:
            return int(size * h / w), size
        return size, int(size * w / h)
    if len(size) != 2:
        raise TypeError(f"Got inappropriate size arg: {size}")
    return int(size[0]), int(size[1])


@image_op
def resize(img, size, interpolation="bilinear"):
    """Resize to `size`: (height, width), or an int for the shorter side keeping the aspect
    ratio. `interpolation` is "bilinear" (default) or "nearest".

    Example:
        >>> resize(np.zeros((256, 300, 3), np.uint8), 224).shape
        (224, 262, 3)
    """
    _check_interpolation(interpolation)
    h, w = img.shape[:2]
    if isinstance(size, numbers.Integral) and min(h, w) == size:
        return img
    out_h, out_w = _target_size(h, w, size)
    work = img if interpolation == "nearest" else img.astype(np.float64)
    out = _resize_axis(_resize_axis(work, 0, out_h, interpolation), 1, out_w, interpolation)
    return out if interpolation == "nearest" else _restore(out, img.dtype)


def _padding_ltrb(padding):
    """(left, top, right, bottom) from an int, a 2-sequence (left/right, top/bottom) or a
    4-sequence."""
    if isinstance(padding, numbers.Integral):
        return (int(padding),) * 4
    if isinstance(padding, (list, tuple)) and len(padding) in (2, 4):
        return tuple(int(p) for p in (padding * 2 if len(padding) == 2 else padding))
    raise ValueError(f"Padding must be an int or a 2, or 4 element tuple, not {padding!r}")


_PAD_MODES = {"constant": "constant", "edge": "edge", "reflect": "reflect",
              "symmetric": "symmetric"}


@image_op
def pad(img, padding, fill=0, padding_mode="constant"):
    """Pad the borders: `padding` is an int (all sides), (left/right, top/bottom) or
    (left, top, right, bottom). `padding_mode` is "constant" (with `fill`, a number or one
    value per channel), "edge", "reflect" (mirror without the edge) or "symmetric".

    Example:
        >>> pad(np.ones((2, 2), np.uint8), 1).shape
        (4, 4)
    """
    if padding_mode not in _PAD_MODES:
        raise ValueError(f"Padding mode should be either constant, edge, reflect or "
                         f"symmetric, got {padding_mode!r}")
    left, top, right, bottom = _padding_ltrb(padding)
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    if padding_mode != "constant":
        return np.pad(img, widths, mode=_PAD_MODES[padding_mode])
    out = np.empty((img.shape[0] + top + bottom, img.shape[1] + left + right) + img.shape[2:],
                   img.dtype)
    out[...] = fill if np.ndim(fill) == 0 or img.ndim == 2 else np.asarray(fill)[:img.shape[2]]
    out[top:top + img.shape[0], left:left + img.shape[1]] = img
    return out


@image_op
def crop(img, top, left, height, width):
    """The `height` x `width` region whose top-left corner is (`top`, `left`)."""
    return img[top:top + height, left:left + width]


@image_op
def center_crop(img, output_size):
    """The central region of `output_size` ((height, width) or an int for a square)."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    h, w = img.shape[:2]
    th, tw = output_size
    top, left = int(round((h - th) / 2.0)), int(round((w - tw) / 2.0))
    return img[top:top + th, left:left + tw]


@image_op
def hflip(img):
    """Mirror left to right."""
    return img[:, ::-1].copy()


@image_op
def vflip(img):
    """Mirror top to bottom."""
    return img[::-1].copy()


def _gray(img):
    """Luma of an RGB image (OpenCV's RGB2GRAY, its exact integer formula for uint8)."""
    if img.dtype == np.uint8:
        r, g, b = (img[..., i].astype(np.int64) for i in range(3))
        return ((r * 4899 + g * 9617 + b * 1868 + 8192) >> 14).astype(np.uint8)
    return img[..., 0] * 0.299 + img[..., 1] * 0.587 + img[..., 2] * 0.114


def _check_rgb(img, name):
    if img.ndim != 3 or img.shape[2] != 3:
        raise ValueError(f"{name}: expected an RGB image of shape (H, W, 3), got {img.shape}")


@image_op
def adjust_brightness(img, brightness_factor):
    """Scale intensities by `brightness_factor` (0 black, 1 unchanged), clipped to [0, 255]
    and truncated back to the image's dtype (Paddle's cv2 lookup table)."""
    return np.clip(img.astype(np.float64) * brightness_factor, 0, 255).astype(img.dtype)


@image_op
def adjust_contrast(img, contrast_factor):
    """Stretch intensities around 74 by `contrast_factor` (0 flat gray, 1 unchanged), clipped
    to [0, 255] and truncated back (Paddle's cv2 lookup table, pivot included)."""
    return np.clip((img.astype(np.float64) - 74) * contrast_factor + 74, 0, 255).astype(
        img.dtype)


@image_op
def adjust_saturation(img, saturation_factor):
    """Blend an RGB image with its grayscale: 0 gray, 1 unchanged, 2 twice as saturated;
    clipped to [0, 255] and truncated back. (Paddle's cv2 backend draws a random factor
    around the given one; this uses the factor as documented.)"""
    _check_rgb(img, "adjust_saturation")
    work = img.astype(np.float32)
    blended = work * saturation_factor + _gray(work)[..., None] * (1 - saturation_factor)
    return np.clip(blended, 0, 255).astype(img.dtype)


def _rgb_to_hsv(rgb):
    maxc, minc = rgb.max(-1), rgb.min(-1)
    delta = maxc - minc
    s = np.where(maxc > 0, delta / np.where(maxc > 0, maxc, 1), 0.0)
    safe = np.where(delta > 0, delta, 1)
    rc, gc, bc = ((maxc - rgb[..., i]) / safe for i in range(3))
    h = np.where(maxc == rgb[..., 0], bc - gc,
                 np.where(maxc == rgb[..., 1], 2.0 + rc - bc, 4.0 + gc - rc))
    return np.where(delta > 0, (h / 6.0) % 1.0, 0.0), s, maxc


def _hsv_to_rgb(h, s, v):
    sector = np.floor(h * 6.0)
    f = h * 6.0 - sector
    sector = sector.astype(np.int64) % 6
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    return np.stack([np.choose(sector, [v, q, p, p, t, v]),
                     np.choose(sector, [t, v, v, q, p, p]),
                     np.choose(sector, [p, p, t, v, v, q])], axis=-1)


@image_op
def adjust_hue(img, hue_factor):
    """Rotate the hue of an RGB image by `hue_factor` turns, in [-0.5, 0.5] (0 unchanged,
    ±0.5 complementary colours)."""
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    _check_rgb(img, "adjust_hue")
    h, s, v = _rgb_to_hsv(img.astype(np.float64))
    return _restore(_hsv_to_rgb((h + hue_factor) % 1.0, s, v), img.dtype)


@image_op
def to_grayscale(img, num_output_channels=1):
    """The luma of an RGB image, as (H, W, 1) or repeated to (H, W, 3)."""
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    _check_rgb(img, "to_grayscale")
    gray = _restore(_gray(img), img.dtype)
    return np.repeat(gray[..., None], num_output_channels, axis=2)


def _warp(img, inverse, out_h, out_w, interpolation, fill):
    """Sample `img` at `inverse @ (x, y, 1)` for every output pixel; pixels from outside the
    image take `fill` (bilinear samples blend with it at the border, as OpenCV's do)."""
    fill_value = fill if np.ndim(fill) == 0 or img.ndim == 2 else \
        np.asarray(fill)[:img.shape[2]]
    padded = np.empty((img.shape[0] + 2, img.shape[1] + 2) + img.shape[2:], np.float64)
    padded[...] = fill_value
    padded[1:-1, 1:-1] = img
    ys, xs = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
    sx = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2] + 1
    sy = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2] + 1
    limit_y, limit_x = padded.shape[0] - 1, padded.shape[1] - 1
    if interpolation == "nearest":
        iy = np.clip(np.floor(sy + 0.5), 0, limit_y).astype(np.int64)
        ix = np.clip(np.floor(sx + 0.5), 0, limit_x).astype(np.int64)
        return _restore(padded[iy, ix], img.dtype)
    x0, y0 = np.floor(sx), np.floor(sy)
    wx, wy = sx - x0, sy - y0
    if img.ndim == 3:
        wx, wy = wx[..., None], wy[..., None]
    x0c, x1c = (np.clip(v, 0, limit_x).astype(np.int64) for v in (x0, x0 + 1))
    y0c, y1c = (np.clip(v, 0, limit_y).astype(np.int64) for v in (y0, y0 + 1))
    top = padded[y0c, x0c] * (1 - wx) + padded[y0c, x1c] * wx
    bottom = padded[y1c, x0c] * (1 - wx) + padded[y1c, x1c] * wx
    return _restore(top * (1 - wy) + bottom * wy, img.dtype)


def _rotation_matrix(center, angle):
    """OpenCV's getRotationMatrix2D(center, angle, 1) as a 3x3 matrix (source to output)."""
    a, b = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    cx, cy = center
    return np.array([[a, b, (1 - a) * cx - b * cy], [-b, a, b * cx + (1 - a) * cy],
                     [0.0, 0.0, 1.0]])


@image_op
def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """Rotate counter-clockwise by `angle` degrees about `center` ((x, y), default the image
    centre (w/2, h/2)). `expand` grows the output to hold the whole rotated image; uncovered
    pixels take `fill`. `interpolation` is "nearest" (default) or "bilinear".

    Example:
        >>> rotate(np.zeros((4, 6), np.uint8), 90, expand=True).shape
        (6, 4)
    """
    _check_interpolation(interpolation)
    h, w = img.shape[:2]
    center = (w / 2.0, h / 2.0) if center is None else center
    matrix = _rotation_matrix(center, angle)
    if expand:
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64).T
        xs, ys = (matrix @ corners)[:2].round(10)
        new_w = int(math.ceil(xs.max()) - math.floor(xs.min()))
        new_h = int(math.ceil(ys.max()) - math.floor(ys.min()))
        matrix[0, 2] += (new_w - w) * 0.5
        matrix[1, 2] += (new_h - h) * 0.5
        h, w = new_h, new_w
    return _warp(img, np.linalg.inv(matrix), h, w, interpolation, fill)


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    """`(img - mean) / std` per channel (numbers apply to every channel). Arrays give float32
    arrays (`to_rgb` first reverses the channel order); Tensors give Tensors (`to_rgb` is
    ignored, as in Paddle).

    Example:
        >>> normalize(np.full((2, 2, 3), 255, np.uint8), [127.5] * 3, [127.5] * 3, "HWC")[0, 0]
        array([1., 1., 1.], dtype=float32)
    """
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    mean = np.asarray(mean, np.float32).reshape(shape if np.ndim(mean) else ())
    std = np.asarray(std, np.float32).reshape(shape if np.ndim(std) else ())
    if isinstance(img, Tensor):
        return (img - _tensor(mean)) / _tensor(std)
    if not isinstance(img, np.ndarray):
        raise _unsupported(img)
    if to_rgb:
        img = img[::-1] if data_format == "CHW" else img[..., ::-1]
    return ((img - mean) / std).astype(np.float32, copy=False)


@image_op
def erase(img, i, j, h, w, v, inplace=False):
    """Replace the region of height `h` and width `w` at (`i`, `j`) with `v` (a number or
    an array broadcastable to the region); a copy unless `inplace`."""
    out = img if inplace else img.copy()
    out[i:i + h, j:j + w] = v
    return out

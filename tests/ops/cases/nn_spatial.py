"""Cases of the 3-D convolution / pooling ops, max pooling with indices and max unpooling.
References are plain loops over output positions, written for any number of spatial dims."""
import itertools

import numpy as np

from tests.ops.case import OpCase, distinct, rand
from tests.ops.cases.nn import pool_window


def _first(x, data_format):
    """x with channels first."""
    return np.moveaxis(x, -1, 1) if data_format.endswith("C") else x


def _back(y, data_format):
    """A channels-first result in data_format."""
    return np.moveaxis(y, 1, -1) if data_format.endswith("C") else y


def _pairs(paddings, nd):
    """[(before, after)] per spatial axis from nd or 2*nd values."""
    p = list(paddings)
    return [(p[i], p[i]) for i in range(nd)] if len(p) == nd else \
        [(p[2 * i], p[2 * i + 1]) for i in range(nd)]


def _window(starts, kernel, dilations):
    """Index of a dilated window starting at `starts` (channels-first, all N and C)."""
    return (slice(None), slice(None)) + tuple(
        slice(s, s + d * (k - 1) + 1, d) for s, k, d in zip(starts, kernel, dilations))


def conv_ref(input, filter, strides=None, paddings=None, padding_algorithm="EXPLICIT",
             dilations=None, groups=1, data_format="NCDHW"):
    """Direct loop over output positions (EXPLICIT padding)."""
    x = _first(input, data_format)
    nd = x.ndim - 2
    strides, paddings = strides or (1,) * nd, paddings or (0,) * nd
    dilations = dilations or (1,) * nd
    xp = np.pad(x, [(0, 0), (0, 0)] + _pairs(paddings, nd))
    o, cg, kernel = filter.shape[0], filter.shape[1], filter.shape[2:]
    out_sizes = [(xp.shape[2 + i] - dilations[i] * (kernel[i] - 1) - 1) // strides[i] + 1
                 for i in range(nd)]
    out = np.zeros((x.shape[0], o, *out_sizes), x.dtype)
    for oc in range(o):
        g = oc // (o // groups)
        for pos in itertools.product(*map(range, out_sizes)):
            patch = xp[_window([p * s for p, s in zip(pos, strides)], kernel, dilations)]
            patch = patch[:, g * cg:(g + 1) * cg]
            out[(slice(None), oc) + pos] = (patch * filter[oc]).reshape(len(x), -1).sum(axis=1)
    return _back(out, data_format)


def conv_transpose_ref(x, filter, strides=None, paddings=None, output_padding=(),
                       output_size=(), padding_algorithm="EXPLICIT", groups=1, dilations=None,
                       data_format="NCDHW"):
    """Scatter every input position times the filter into a padded output, then crop."""
    xc = _first(x, data_format)
    nd = xc.ndim - 2
    strides, paddings = strides or (1,) * nd, paddings or (0,) * nd
    dilations = dilations or (1,) * nd
    pads = _pairs(paddings, nd)
    c, og, kernel = xc.shape[1], filter.shape[1], filter.shape[2:]
    full = [(xc.shape[2 + i] - 1) * strides[i] + dilations[i] * (kernel[i] - 1) + 1
            for i in range(nd)]
    extra = output_padding or (0,) * nd
    sizes = list(output_size) or [full[i] - sum(pads[i]) + extra[i] for i in range(nd)]
    big = np.zeros((len(xc), og * groups, *[max(full[i], sizes[i] + sum(pads[i]))
                                            for i in range(nd)]), xc.dtype)
    for ic in range(c):
        g = ic // (c // groups)
        for pos in itertools.product(*map(range, xc.shape[2:])):
            index = _window([p * s for p, s in zip(pos, strides)], kernel, dilations)
            value = xc[(slice(None), ic) + pos].reshape((-1,) + (1,) * (nd + 1))
            big[(slice(None), slice(g * og, (g + 1) * og)) + index[2:]] += value * filter[ic]
    crop = tuple(slice(pads[i][0], pads[i][0] + sizes[i]) for i in range(nd))
    return _back(big[(slice(None), slice(None)) + crop], data_format)


def _pool_windows(shape, kernel_size, strides, paddings, ceil_mode, global_pooling, adaptive):
    """(output sizes, {output position: (window index, extent product)})."""
    sizes = shape[2:]
    nd = len(sizes)
    kernel = tuple(sizes) if global_pooling else tuple(kernel_size)
    pads = [(0, 0)] * nd if global_pooling or adaptive else _pairs(paddings, nd)
    if adaptive:
        out = list(kernel_size)
    else:
        out = [(sizes[i] - kernel[i] + sum(pads[i]) + (strides[i] - 1 if ceil_mode else 0))
               // strides[i] + 1 for i in range(nd)]
    windows = {}
    for pos in itertools.product(*map(range, out)):
        b = [pool_window(pos[i], sizes[i], out[i], kernel[i], strides[i], pads[i][0], adaptive)
             for i in range(nd)]
        windows[pos] = (tuple(slice(s, e) for s, e, _ in b), int(np.prod([e for *_, e in b])))
    return out, windows


def pool_ref(x, kernel_size, strides, paddings, ceil_mode=False, exclusive=True,
             data_format="NCDHW", pooling_type="max", global_pooling=False, adaptive=False,
             padding_algorithm="EXPLICIT"):
    """Loop over output positions with Paddle's window and divisor rules."""
    xc = _first(x, data_format)
    out_sizes, windows = _pool_windows(xc.shape, kernel_size, strides, paddings, ceil_mode,
                                       global_pooling, adaptive)
    out = np.zeros(xc.shape[:2] + tuple(out_sizes), xc.dtype)
    for pos, (index, extent) in windows.items():
        window = xc[(slice(None), slice(None)) + index].reshape(xc.shape[:2] + (-1,))
        if pooling_type == "max":
            out[(Ellipsis,) + pos] = window.max(axis=-1)
        else:
            count = window.shape[-1] if exclusive or adaptive else extent
            out[(Ellipsis,) + pos] = window.sum(axis=-1) / count
    return _back(out, data_format)


def max_pool_with_index_ref(x, kernel_size, strides=None, paddings=None, global_pooling=False,
                            adaptive=False, ceil_mode=False):
    """(maxima, flat spatial index of each window's first maximum in row-major order)."""
    nd = x.ndim - 2
    out_sizes, windows = _pool_windows(x.shape, kernel_size, strides or (1,) * nd,
                                       paddings or (0,) * nd, ceil_mode, global_pooling,
                                       adaptive)
    out = np.zeros(x.shape[:2] + tuple(out_sizes), x.dtype)
    mask = np.zeros(out.shape, np.int32)
    flat_index = np.arange(int(np.prod(x.shape[2:]))).reshape(x.shape[2:])
    for pos, (index, _) in windows.items():
        window = x[(slice(None), slice(None)) + index].reshape(x.shape[:2] + (-1,))
        first = window.argmax(axis=-1)
        out[(Ellipsis,) + pos] = window.max(axis=-1)
        mask[(Ellipsis,) + pos] = flat_index[index].ravel()[first]
    return out, mask


def unpool_ref(x, indices, ksize, strides, paddings, output_size, data_format="NCHW"):
    """Loop writing each value at its flat position."""
    out = np.zeros(x.shape[:2] + (int(np.prod(output_size)),), x.dtype)
    for n, c in itertools.product(*map(range, x.shape[:2])):
        out[n, c, indices[n, c].ravel()] = x[n, c].ravel()
    return out.reshape(x.shape[:2] + tuple(output_size))


def _conv3d_cases():
    """conv3d and conv3d_transpose variants."""
    conv, tconv = "conv3d", "conv3d_transpose"
    return [
        OpCase(conv, {"input": rand(1, 2, 4, 4, 3), "filter": rand(3, 2, 2, 3, 2)},
               ref=conv_ref),
        OpCase(conv, {"input": rand(2, 4, 5, 4, 4), "filter": rand(2, 2, 2, 2, 2)},
               {"strides": [2, 1, 2], "paddings": [1, 0, 1, 1, 0, 1], "dilations": [1, 2, 1],
                "groups": 2}, ref=conv_ref, name="stride_pad6_dil_groups"),
        OpCase(conv, {"input": rand(1, 3, 4, 3, 2), "filter": rand(2, 2, 2, 2, 2)},
               {"paddings": [1, 1, 0], "data_format": "NDHWC"}, ref=conv_ref, name="ndhwc"),
        OpCase(tconv, {"x": rand(1, 2, 2, 3, 2), "filter": rand(2, 3, 2, 2, 2)},
               ref=conv_transpose_ref),
        OpCase(tconv, {"x": rand(1, 4, 2, 2, 3), "filter": rand(4, 1, 3, 2, 2)},
               {"strides": [2, 2, 1], "paddings": [1, 0, 0], "groups": 2,
                "output_padding": [1, 0, 0], "dilations": [1, 1, 2]},
               ref=conv_transpose_ref, name="stride_groups_outpad"),
        OpCase(tconv, {"x": rand(1, 3, 2, 2, 3), "filter": rand(3, 2, 2, 2, 2)},
               {"strides": [2, 2, 2], "output_size": [7, 5, 4], "data_format": "NDHWC"},
               ref=conv_transpose_ref, name="ndhwc_output_size"),
    ]


def _pool3d_cases():
    """pool3d variants: max (tap loop and gathered), avg, adaptive, global, NDHWC."""
    def case(x, name, **attrs):
        attrs.setdefault("strides", [1, 1, 1])
        attrs.setdefault("paddings", [0, 0, 0])
        return OpCase("pool3d", {"x": x}, attrs, ref=pool_ref, name=name)
    return [
        case(distinct(1, 2, 4, 4, 4), "max_tiles", kernel_size=[2, 2, 2], strides=[2, 2, 2]),
        case(distinct(1, 1, 5, 4, 5), "max_pad_ceil", kernel_size=[3, 2, 3],
             strides=[2, 2, 2], paddings=[1, 0, 1], ceil_mode=True),
        case(distinct(1, 1, 4, 4, 4), "max_large", kernel_size=[3, 3, 3]),
        case(distinct(1, 3, 4, 2, 3), "max_ndhwc", kernel_size=[2, 1, 2],
             data_format="NDHWC"),
        case(distinct(1, 2, 5, 4, 3), "max_adaptive", kernel_size=[2, 3, 2], adaptive=True),
        case(rand(1, 2, 4, 5, 4), "avg_inclusive", kernel_size=[3, 2, 3], strides=[2, 2, 2],
             paddings=[1, 1, 1], pooling_type="avg", exclusive=False),
        case(rand(1, 2, 5, 4, 3), "avg_adaptive_ndhwc", kernel_size=[2, 3, 2],
             pooling_type="avg", adaptive=True, data_format="NDHWC"),
        case(rand(2, 2, 3, 4, 2), "avg_global", kernel_size=[1, 1, 1], pooling_type="avg",
             global_pooling=True),
    ]


def _with_index_cases():
    """Max pooling with indices, 2-D and 3-D, and max unpooling."""
    two, three = "max_pool2d_with_index", "max_pool3d_with_index"
    idx = max_pool_with_index_ref(distinct(2, 2, 4, 6), [2, 2], [2, 2])[1]
    idx3 = max_pool_with_index_ref(distinct(1, 2, 4, 4, 2), [2, 2, 2], [2, 2, 2])[1]
    return [
        OpCase(two, {"x": distinct(2, 2, 4, 6)}, {"kernel_size": [2, 2], "strides": [2, 2]},
               ref=max_pool_with_index_ref),
        OpCase(two, {"x": distinct(1, 2, 5, 5)},
               {"kernel_size": [3, 3], "strides": [2, 2], "paddings": [1, 1],
                "ceil_mode": True}, ref=max_pool_with_index_ref, name="pad_ceil"),
        OpCase(two, {"x": distinct(1, 2, 5, 7)}, {"kernel_size": [2, 3], "adaptive": True},
               ref=max_pool_with_index_ref, name="adaptive"),
        OpCase(three, {"x": distinct(1, 2, 4, 5, 4)},
               {"kernel_size": [2, 3, 2], "strides": [2, 1, 2], "paddings": [0, 1, 1]},
               ref=max_pool_with_index_ref),
        OpCase(three, {"x": distinct(1, 1, 3, 4, 5)}, {"kernel_size": [1, 2, 3],
                                                       "global_pooling": True},
               ref=max_pool_with_index_ref, name="global"),
        OpCase("unpool", {"x": rand(2, 2, 2, 3), "indices": idx},
               {"ksize": [2, 2], "strides": [2, 2], "paddings": [0, 0],
                "output_size": [4, 6]}, ref=unpool_ref),
        OpCase("unpool3d", {"x": rand(1, 2, 2, 2, 1), "indices": idx3},
               {"ksize": [2, 2, 2], "strides": [2, 2, 2], "paddings": [0, 0, 0],
                "output_size": [4, 4, 2]}, ref=unpool_ref),
    ]


CASES = _conv3d_cases() + _pool3d_cases() + _with_index_cases()

"""Shape/dtype rules of the nn family: convolution, pooling, normalisation, dropout,
embedding, losses (their gradients use `same_as`), optimizer updates and random creation."""
from ...core.dtype import default_float, float16, float32, float64, int32, int64, uint8
from ...core.errors import InvalidArgument
from ..meta import MetaTensor
from .elementwise import broadcast_shapes
from .nn_geometry import (LAYOUTS, PADDING_ALGORITHMS, conv_output_hw,
                          conv_transpose_output_hw, flat_paddings, join_layout, pool_geometry,
                          split_layout)

__all__ = ["conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose", "pool2d", "pool3d",
           "max_pool2d_with_index", "max_pool3d_with_index", "fractional_max_pool", "unpool", "unpool3d", "batch_norm", "layer_norm", "group_norm",
           "dropout", "embedding", "cross_entropy_with_softmax", "nll_loss",
           "sigmoid_cross_entropy_with_logits", "warpctc", "sgd", "momentum", "adam", "adamw", "rmsprop",
           "adagrad", "adamax", "adadelta", "nadam", "radam", "lamb", "uniform", "gaussian", "truncated_gaussian_random", "randint", "randperm",
           "bernoulli"]

NORM_LAYOUTS = ("NCHW", "NHWC", "NCL", "NLC", "NC", "NCDHW", "NDHWC")


# -- shared checks ----------------------------------------------------------------------

def _check_float(meta, arg):
    """Refuse non-floating (or complex) tensors, as Paddle's nn kernels do."""
    if not meta.dtype.is_floating or meta.dtype.np.kind == "c":
        raise InvalidArgument(arg, f"expects float16, float32 or float64, got {meta.dtype.name}",
                              "dtype")


def _check_integer(meta, arg):
    """Refuse non-integer tensors (ids, hard labels)."""
    if not meta.dtype.is_integer:
        raise InvalidArgument(arg, f"expects an integer tensor, got {meta.dtype.name}", "dtype")


def _check_same_dtype(meta, ref, arg, ref_arg):
    """Refuse a tensor whose dtype differs from `ref`'s."""
    if meta.dtype is not ref.dtype:
        raise InvalidArgument(arg, f"dtype {meta.dtype.name} differs from {ref_arg}'s "
                                   f"{ref.dtype.name}", "dtype")


def _check_rank(meta, ranks, arg):
    """Refuse a tensor whose rank is not in `ranks`."""
    if meta.ndim not in ranks:
        raise InvalidArgument(arg, f"expects a {'/'.join(map(str, ranks))}-D tensor, got shape "
                                   f"{list(meta.shape)}")


def _check_choice(value, choices, arg):
    """Refuse an attribute value outside `choices`."""
    if value not in choices:
        raise InvalidArgument(arg, f"got {value!r}, expected one of {list(choices)}")


def _check_positive(values, nd, arg):
    """Refuse anything but nd positive ints (strides, dilations, kernel sizes)."""
    if len(values) != nd or min(values) < 1:
        raise InvalidArgument(arg, f"expects {nd} positive values, got {list(values)}")


def _check_paddings(paddings, nd):
    """Refuse paddings that are not nd or 2*nd non-negative values."""
    if min(flat_paddings(paddings, nd)) < 0:
        raise InvalidArgument("paddings", f"must be non-negative, got {list(paddings)}")


def _same_dim(a, b):
    """True when two dims can be equal (-1 matches anything)."""
    return a == b or a < 0 or b < 0


def _same_shape(a, b):
    """True when two shapes can be equal (-1 matches anything)."""
    return len(a) == len(b) and all(_same_dim(x, y) for x, y in zip(a, b))


def _check_vector(meta, size, arg, what):
    """Refuse a parameter that is not 1-D of length `size` (skipped when absent)."""
    if meta is not None and (meta.ndim != 1 or not _same_dim(meta.shape[0], size)):
        raise InvalidArgument(arg, f"expects a 1-D tensor of {size} {what}, got shape "
                                   f"{list(meta.shape)}")


def _numel(dims):
    """Product of dims, -1 when any is unknown."""
    total = 1
    for d in dims:
        if d < 0:
            return -1
        total *= d
    return total


def _stat_dtype(dtype):
    """Dtype of normalisation statistics: float32 for float16 inputs."""
    return float32 if dtype is float16 else dtype


# -- convolution and pooling ------------------------------------------------------------

def _check_conv(x, filt, x_arg, nd, strides, paddings, padding_algorithm, dilations, groups,
                data_format):
    """Checks shared by the convolutions and transposed convolutions of nd spatial dims."""
    _check_rank(x, (nd + 2,), x_arg)
    _check_rank(filt, (nd + 2,), "filter")
    _check_float(x, x_arg)
    _check_same_dtype(filt, x, "filter", x_arg)
    _check_choice(data_format, LAYOUTS[nd], "data_format")
    _check_choice(padding_algorithm, PADDING_ALGORITHMS, "padding_algorithm")
    _check_positive(strides, nd, "strides")
    _check_positive(dilations, nd, "dilations")
    _check_paddings(paddings, nd)
    if groups < 1:
        raise InvalidArgument("groups", f"must be >= 1, got {groups}")


def _check_divisible(count, groups, arg, what):
    """Refuse a known channel count that groups does not divide."""
    if count >= 0 and count % groups:
        raise InvalidArgument(arg, f"{what} ({count}) must be divisible by groups ({groups})")


def _conv(nd, input, filter, strides, paddings, padding_algorithm, dilations, groups,
          data_format):
    """(out, columns) metas of a convolution over nd spatial dims."""
    _check_conv(input, filter, "input", nd, strides, paddings, padding_algorithm, dilations,
                groups, data_format)
    n, channels, in_hw = split_layout(input.shape, data_format)
    out_channels, filter_channels = filter.shape[:2]
    if channels >= 0 and filter_channels >= 0 and channels != filter_channels * groups:
        raise InvalidArgument("filter", f"input has {channels} channels (shape "
                                        f"{list(input.shape)}, {data_format}) but filter "
                                        f"{list(filter.shape)} with groups={groups} expects "
                                        f"{filter_channels * groups}")
    _check_divisible(out_channels, groups, "filter", "the filter's output channels")
    out_hw = conv_output_hw(in_hw, filter.shape[2:], strides, paddings, padding_algorithm,
                            dilations)
    columns = (channels, *filter.shape[2:], *out_hw, n)
    return (MetaTensor(join_layout(n, out_channels, out_hw, data_format), input.dtype),
            MetaTensor(columns, input.dtype))


def conv2d(input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format):
    """[N, O, Ho, Wo] (or NHWC) for an [O, C/groups, kh, kw] filter."""
    return _conv(2, input, filter, strides, paddings, padding_algorithm, dilations, groups,
                 data_format)


def conv3d(input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format):
    """[N, O, Do, Ho, Wo] (or NDHWC) for an [O, C/groups, kd, kh, kw] filter."""
    return _conv(3, input, filter, strides, paddings, padding_algorithm, dilations, groups,
                 data_format)


def _conv_transpose(nd, x, filter, strides, paddings, output_padding, output_size,
                    padding_algorithm, groups, dilations, data_format):
    """Output meta of a transposed convolution over nd spatial dims."""
    _check_conv(x, filter, "x", nd, strides, paddings, padding_algorithm, dilations, groups,
                data_format)
    n, channels, in_hw = split_layout(x.shape, data_format)
    if not _same_dim(channels, filter.shape[0]):
        raise InvalidArgument("filter", f"x has {channels} channels (shape {list(x.shape)}, "
                                        f"{data_format}) but filter {list(filter.shape)} expects "
                                        f"{filter.shape[0]}")
    _check_divisible(filter.shape[0], groups, "filter", "the input channels")
    for values, arg in ((output_padding, "output_padding"), (output_size, "output_size")):
        if values and len(values) != nd:
            raise InvalidArgument(arg, f"expects {nd} values or none, got {list(values)}")
    out_hw = conv_transpose_output_hw(in_hw, filter.shape[2:], strides, paddings,
                                      padding_algorithm, dilations, output_padding, output_size)
    out_channels = -1 if filter.shape[1] < 0 else filter.shape[1] * groups
    return MetaTensor(join_layout(n, out_channels, out_hw, data_format), x.dtype)


def conv2d_transpose(x, filter, strides, paddings, output_padding, output_size, padding_algorithm,
                     groups, dilations, data_format):
    """[N, filter[1] * groups, Ho, Wo] (or NHWC) for a [C, O/groups, kh, kw] filter."""
    return _conv_transpose(2, x, filter, strides, paddings, output_padding, output_size,
                           padding_algorithm, groups, dilations, data_format)


def conv3d_transpose(x, filter, strides, paddings, output_padding, output_size, padding_algorithm,
                     groups, dilations, data_format):
    """[N, filter[1] * groups, Do, Ho, Wo] (or NDHWC) for a [C, O/groups, kd, kh, kw] filter."""
    return _conv_transpose(3, x, filter, strides, paddings, output_padding, output_size,
                           padding_algorithm, groups, dilations, data_format)


def _pool(nd, x, kernel_size, strides, paddings, ceil_mode, data_format, global_pooling,
          adaptive, padding_algorithm="EXPLICIT"):
    """Output shape of pooling over nd spatial dims (adaptive: the output size is kernel_size)."""
    _check_rank(x, (nd + 2,), "x")
    _check_float(x, "x")
    _check_choice(data_format, LAYOUTS[nd], "data_format")
    _check_choice(padding_algorithm, PADDING_ALGORITHMS, "padding_algorithm")
    _check_positive(kernel_size, nd, "kernel_size")
    _check_positive(strides, nd, "strides")
    _check_paddings(paddings, nd)
    n, channels, in_hw = split_layout(x.shape, data_format)
    _, _, out_hw = pool_geometry(in_hw, kernel_size, strides, paddings, padding_algorithm,
                                 ceil_mode, global_pooling, adaptive)
    return join_layout(n, channels, out_hw, data_format)


def pool2d(x, kernel_size, strides, paddings, ceil_mode, exclusive, data_format, pooling_type,
           global_pooling, adaptive, padding_algorithm):
    """[N, C, Ho, Wo] (or NHWC); adaptive pooling's output size is kernel_size."""
    _check_choice(pooling_type, ("max", "avg"), "pooling_type")
    return MetaTensor(_pool(2, x, kernel_size, strides, paddings, ceil_mode, data_format,
                            global_pooling, adaptive, padding_algorithm), x.dtype)


def pool3d(x, kernel_size, strides, paddings, ceil_mode, exclusive, data_format, pooling_type,
           global_pooling, adaptive, padding_algorithm):
    """[N, C, Do, Ho, Wo] (or NDHWC); adaptive pooling's output size is kernel_size."""
    _check_choice(pooling_type, ("max", "avg"), "pooling_type")
    return MetaTensor(_pool(3, x, kernel_size, strides, paddings, ceil_mode, data_format,
                            global_pooling, adaptive, padding_algorithm), x.dtype)


def max_pool2d_with_index(x, kernel_size, strides, paddings, global_pooling, adaptive,
                          ceil_mode):
    """(out, int32 mask) both [N, C, Ho, Wo]."""
    shape = _pool(2, x, kernel_size, strides, paddings, ceil_mode, "NCHW", global_pooling,
                  adaptive)
    return MetaTensor(shape, x.dtype), MetaTensor(shape, int32)


def max_pool3d_with_index(x, kernel_size, strides, paddings, global_pooling, adaptive,
                          ceil_mode):
    """(out, int32 mask) both [N, C, Do, Ho, Wo]."""
    shape = _pool(3, x, kernel_size, strides, paddings, ceil_mode, "NCDHW", global_pooling,
                  adaptive)
    return MetaTensor(shape, x.dtype), MetaTensor(shape, int32)


def fractional_max_pool(x, output_size, kernel_size, random_u):
    """(out, int32 mask) both [N, C, *output_size] for an [N, C, *spatial] float input."""
    _check_rank(x, (len(output_size) + 2,), "x")
    _check_float(x, "x")
    if len(kernel_size) != len(output_size):
        raise InvalidArgument("kernel_size", f"has {len(kernel_size)} sizes for "
                                             f"{len(output_size)} spatial axes")
    if not 0.0 <= random_u < 1.0:
        raise InvalidArgument("random_u", f"must be in (0, 1) (0: drawn), got {random_u}")
    shape = tuple(x.shape[:2]) + tuple(output_size)
    return MetaTensor(shape, x.dtype), MetaTensor(shape, int32)


def _unpool(nd, x, indices, output_size):
    """[N, C, *output_size] for an [N, C, ...] input and integer indices of its shape."""
    _check_rank(x, (nd + 2,), "x")
    _check_float(x, "x")
    _check_integer(indices, "indices")
    if not all(_same_dim(a, b) for a, b in zip(x.shape, indices.shape)) \
            or x.ndim != indices.ndim:
        raise InvalidArgument("indices", f"shape {list(indices.shape)} differs from x's "
                                         f"{list(x.shape)}")
    _check_positive(output_size, nd, "output_size")
    return MetaTensor((*x.shape[:2], *output_size), x.dtype)


def unpool(x, indices, ksize, strides, paddings, output_size, data_format):
    """[N, C, *output_size] of 2-D max unpooling."""
    return _unpool(2, x, indices, output_size)


def unpool3d(x, indices, ksize, strides, paddings, output_size, data_format):
    """[N, C, *output_size] of 3-D max unpooling."""
    return _unpool(3, x, indices, output_size)


# -- normalisation ----------------------------------------------------------------------

def _channels(x, data_format):
    """Channel count of a normalisation input (last axis for channel-last layouts)."""
    _check_choice(data_format, NORM_LAYOUTS, "data_format")
    return x.shape[-1 if data_format.endswith("C") else 1]


def batch_norm(x, mean, variance, scale, bias, is_test, momentum, epsilon, data_format,
               use_global_stats):
    """out like x; running stats like mean/variance; saved mean and 1/std of shape [C]."""
    _check_rank(x, (2, 3, 4, 5), "x")
    _check_float(x, "x")
    channels = _channels(x, data_format)
    for meta, arg in ((mean, "mean"), (variance, "variance"), (scale, "scale"), (bias, "bias")):
        _check_vector(meta, channels, arg, "channels")
        if meta is not None:
            _check_float(meta, arg)
    return (MetaTensor(x.shape, x.dtype), MetaTensor(mean.shape, mean.dtype),
            MetaTensor(variance.shape, variance.dtype), MetaTensor((channels,), mean.dtype),
            MetaTensor((channels,), variance.dtype))


def layer_norm(x, scale, bias, epsilon, begin_norm_axis):
    """out like x; mean and variance of shape [prod(x.shape[:begin_norm_axis])]."""
    _check_float(x, "x")
    if not 0 <= begin_norm_axis < x.ndim:
        raise InvalidArgument("begin_norm_axis", f"must be in [0, {x.ndim}) for x of shape "
                                                 f"{list(x.shape)}, got {begin_norm_axis}")
    features = _numel(x.shape[begin_norm_axis:])
    _check_vector(scale, features, "scale", "normalised features")
    _check_vector(bias, features, "bias", "normalised features")
    stats = MetaTensor((_numel(x.shape[:begin_norm_axis]),), _stat_dtype(x.dtype))
    return MetaTensor(x.shape, x.dtype), stats, stats


def group_norm(x, scale, bias, epsilon, groups, data_format):
    """y like x; mean and variance of shape [N, groups]."""
    _check_rank(x, (2, 3, 4, 5), "x")
    _check_float(x, "x")
    channels = _channels(x, data_format)
    if groups < 1:
        raise InvalidArgument("groups", f"must be >= 1, got {groups}")
    _check_divisible(channels, groups, "x", f"the channel count of shape {list(x.shape)}")
    _check_vector(scale, channels, "scale", "channels")
    _check_vector(bias, channels, "bias", "channels")
    stats = MetaTensor((x.shape[0], groups), _stat_dtype(x.dtype))
    return MetaTensor(x.shape, x.dtype), stats, stats


# -- dropout, embedding -----------------------------------------------------------------

def dropout(x, p, is_test, mode):
    """out like x; mask of x's shape in uint8."""
    _check_float(x, "x")
    if not 0.0 <= p <= 1.0:
        raise InvalidArgument("p", f"must be in [0, 1], got {p}")
    _check_choice(mode, ("upscale_in_train", "downscale_in_infer"), "mode")
    return MetaTensor(x.shape, x.dtype), MetaTensor(x.shape, uint8)


def embedding(x, weight, padding_idx):
    """x.shape + [embedding dim], in weight's dtype."""
    _check_integer(x, "x")
    _check_rank(weight, (2,), "weight")
    _check_float(weight, "weight")
    rows = weight.shape[0]
    if padding_idx != -1 and (padding_idx < 0 or 0 <= rows <= padding_idx):
        raise InvalidArgument("padding_idx", f"must be -1 (none) or in [0, {rows}), got "
                                             f"{padding_idx}")
    return MetaTensor(x.shape + (weight.shape[1],), weight.dtype)


# -- losses -----------------------------------------------------------------------------

def _check_axis(axis, ndim, arg="axis"):
    """The axis normalised to [0, ndim), refusing one out of range."""
    if not -ndim <= axis < ndim:
        raise InvalidArgument(arg, f"must be in [{-ndim}, {ndim}), got {axis}")
    return axis % ndim


def cross_entropy_with_softmax(input, label, soft_label, use_softmax, numeric_stable_mode,
                               ignore_index, axis):
    """softmax like input; loss like input with size 1 on `axis`."""
    _check_float(input, "input")
    axis = _check_axis(axis, input.ndim)
    loss_shape = input.shape[:axis] + (1,) + input.shape[axis + 1:]
    if soft_label:
        _check_same_dtype(label, input, "label", "input")
        ok = _same_shape(label.shape, input.shape)
        expected = f"{list(input.shape)} (soft labels)"
    else:
        _check_integer(label, "label")
        ok = (_same_shape(label.shape, loss_shape)
              or _same_shape(label.shape, input.shape[:axis] + input.shape[axis + 1:]))
        expected = f"{list(loss_shape)} or that without axis {axis} (hard labels)"
    if not ok:
        raise InvalidArgument("label", f"shape {list(label.shape)} does not fit input "
                                       f"{list(input.shape)}: expected {expected}")
    return MetaTensor(input.shape, input.dtype), MetaTensor(loss_shape, input.dtype)


def nll_loss(input, label, weight, ignore_index, reduction):
    """out: label's shape (reduction "none") or 0-d; total_weight: 0-d."""
    _check_float(input, "input")
    _check_integer(label, "label")
    _check_choice(reduction, ("none", "mean", "sum"), "reduction")
    axis = 0 if input.ndim == 1 else 1
    if not _same_shape(label.shape, input.shape[:axis] + input.shape[axis + 1:]):
        raise InvalidArgument("label", f"shape {list(label.shape)} does not fit input "
                                       f"{list(input.shape)} (class axis {axis})")
    if weight is not None:
        _check_vector(weight, input.shape[axis], "weight", "classes")
        _check_same_dtype(weight, input, "weight", "input")
    out_shape = label.shape if reduction == "none" else ()
    return MetaTensor(out_shape, input.dtype), MetaTensor((), input.dtype)


def sigmoid_cross_entropy_with_logits(x, label, pos_weight, normalize, ignore_index):
    """out like x; label must match x, pos_weight must broadcast to x."""
    _check_float(x, "x")
    _check_same_dtype(label, x, "label", "x")
    if not _same_shape(label.shape, x.shape):
        raise InvalidArgument("label", f"shape {list(label.shape)} differs from x's "
                                       f"{list(x.shape)}")
    if pos_weight is not None:
        _check_same_dtype(pos_weight, x, "pos_weight", "x")
        if not _same_shape(broadcast_shapes(x.shape, pos_weight.shape, "pos_weight"), x.shape):
            raise InvalidArgument("pos_weight", f"shape {list(pos_weight.shape)} must broadcast "
                                                f"to x's {list(x.shape)}")
    return MetaTensor(x.shape, x.dtype)


def warpctc(logits, label, logits_length, labels_length, blank, norm_by_times):
    """loss [B, 1] and the logits gradient like logits [T, B, C]; label [B, L], lengths [B]."""
    _check_float(logits, "logits")
    _check_rank(logits, (3,), "logits")
    _check_rank(label, (2,), "label")
    for meta, arg in ((label, "label"), (logits_length, "logits_length"),
                      (labels_length, "labels_length")):
        _check_integer(meta, arg)
    batch = logits.shape[1]
    if not _same_dim(label.shape[0], batch):
        raise InvalidArgument("label", f"has {label.shape[0]} sequences but logits "
                                       f"{list(logits.shape)} has {batch}")
    _check_vector(logits_length, batch, "logits_length", "sequences")
    _check_vector(labels_length, batch, "labels_length", "sequences")
    return MetaTensor((batch, 1), logits.dtype), MetaTensor(logits.shape, logits.dtype)


# -- optimizer updates ------------------------------------------------------------------

def _check_update(param, learning_rate, like_param):
    """param is float, learning_rate holds one value, every (meta, arg) is shaped like param."""
    _check_float(param, "param")
    _check_float(learning_rate, "learning_rate")
    if _numel(learning_rate.shape) not in (1, -1):
        raise InvalidArgument("learning_rate", f"expects one value, got shape "
                                               f"{list(learning_rate.shape)}")
    for meta, arg in like_param:
        if not _same_shape(meta.shape, param.shape):
            raise InvalidArgument(arg, f"shape {list(meta.shape)} differs from param's "
                                       f"{list(param.shape)}")


def _like(*metas):
    """Outputs with the metas of the given inputs (the updated values)."""
    return tuple(MetaTensor(m.shape, m.dtype) for m in metas)


def sgd(param, learning_rate, grad):
    """param_out like param."""
    _check_update(param, learning_rate, ((grad, "grad"),))
    return MetaTensor(param.shape, param.dtype)


def momentum(param, grad, velocity, learning_rate, mu, use_nesterov, regularization_method,
             regularization_coeff):
    """param_out, velocity_out like their inputs."""
    _check_update(param, learning_rate, ((grad, "grad"), (velocity, "velocity")))
    _check_choice(regularization_method, ("", "l2_decay"), "regularization_method")
    return _like(param, velocity)


def _check_scalars(*pairs):
    """Every (meta, arg) holds one value (the beta-power accumulators)."""
    for meta, arg in pairs:
        if _numel(meta.shape) not in (1, -1):
            raise InvalidArgument(arg, f"expects one value, got shape {list(meta.shape)}")


def adam(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, moment2_max,
         beta1, beta2, epsilon, amsgrad):
    """param, moments and beta powers out, like their inputs; moment2_max_out like
    moment2_max under amsgrad, else empty."""
    _check_update(param, learning_rate, ((grad, "grad"), (moment1, "moment1"),
                                         (moment2, "moment2")))
    _check_scalars((beta1_pow, "beta1_pow"), (beta2_pow, "beta2_pow"))
    if not amsgrad:
        return _like(param, moment1, moment2, beta1_pow, beta2_pow) + (
            MetaTensor((0,), param.dtype),)
    if moment2_max is None:
        raise InvalidArgument("moment2_max", "is required when amsgrad is True")
    _check_update(param, learning_rate, ((moment2_max, "moment2_max"),))
    return _like(param, moment1, moment2, beta1_pow, beta2_pow, moment2_max)


def adamw(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, moment2_max,
          beta1, beta2, epsilon, lr_ratio, coeff, with_decay, amsgrad):
    """Same outputs as adam."""
    return adam(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, moment2_max,
                beta1, beta2, epsilon, amsgrad)


def rmsprop(param, mean_square, grad, moment, learning_rate, mean_grad, epsilon, decay,
            momentum, centered):
    """param_out, moment_out, mean_square_out, mean_grad_out like their inputs."""
    _check_update(param, learning_rate, ((mean_square, "mean_square"), (grad, "grad"),
                                         (moment, "moment"), (mean_grad, "mean_grad")))
    return _like(param, moment, mean_square, mean_grad)


def adagrad(param, grad, moment, learning_rate, epsilon):
    """param_out, moment_out like their inputs."""
    _check_update(param, learning_rate, ((grad, "grad"), (moment, "moment")))
    return _like(param, moment)


def adamax(param, grad, learning_rate, moment, inf_norm, beta1_pow, beta1, beta2, epsilon):
    """param_out, moment_out, inf_norm_out, beta1_pow_out like their inputs."""
    _check_update(param, learning_rate, ((grad, "grad"), (moment, "moment"),
                                         (inf_norm, "inf_norm")))
    _check_scalars((beta1_pow, "beta1_pow"))
    return _like(param, moment, inf_norm, beta1_pow)


def adadelta(param, grad, avg_squared_grad, avg_squared_update, learning_rate, rho, epsilon):
    """param_out and both running averages like their inputs."""
    _check_update(param, learning_rate, ((grad, "grad"), (avg_squared_grad, "avg_squared_grad"),
                                         (avg_squared_update, "avg_squared_update")))
    return _like(param, avg_squared_grad, avg_squared_update)


def nadam(param, grad, learning_rate, momentum_decay_pow, beta2_pow, mu_product, moment1,
          moment2, beta1, beta2, epsilon, momentum_decay):
    """param_out and every accumulator out like its input (all shaped like param)."""
    accumulators = ((momentum_decay_pow, "momentum_decay_pow"), (beta2_pow, "beta2_pow"),
                    (mu_product, "mu_product"), (moment1, "moment1"), (moment2, "moment2"))
    _check_update(param, learning_rate, ((grad, "grad"),) + accumulators)
    return _like(param, *(meta for meta, _ in accumulators))


def radam(param, grad, learning_rate, beta1_pow, beta2_pow, rho, moment1, moment2, beta1,
          beta2, epsilon):
    """param_out and every accumulator out like its input (all shaped like param)."""
    accumulators = ((beta1_pow, "beta1_pow"), (beta2_pow, "beta2_pow"), (rho, "rho"),
                    (moment1, "moment1"), (moment2, "moment2"))
    _check_update(param, learning_rate, ((grad, "grad"),) + accumulators)
    return _like(param, *(meta for meta, _ in accumulators))


def lamb(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, weight_decay,
         beta1, beta2, epsilon, always_adapt):
    """Same outputs as adam without amsgrad's."""
    _check_update(param, learning_rate, ((grad, "grad"), (moment1, "moment1"),
                                         (moment2, "moment2")))
    _check_scalars((beta1_pow, "beta1_pow"), (beta2_pow, "beta2_pow"))
    return _like(param, moment1, moment2, beta1_pow, beta2_pow)


# -- random creation --------------------------------------------------------------------

def _random_meta(shape, dtype, default, allowed):
    """MetaTensor of a random op's output, refusing negative dims and other dtypes."""
    if any(d < 0 for d in shape):
        raise InvalidArgument("shape", f"dims must be non-negative, got {list(shape)}")
    dtype = dtype or default
    if dtype not in allowed:
        raise InvalidArgument("dtype", f"expects one of {[d.name for d in allowed]}, got "
                                       f"{dtype.name}", "dtype")
    return MetaTensor(shape, dtype)


_FLOAT_TYPES = (float16, float32, float64)


def uniform(shape, dtype, min, max, seed):
    """Float tensor of `shape` (default float dtype)."""
    return _random_meta(shape, dtype, default_float(), _FLOAT_TYPES)


def gaussian(shape, mean, std, seed, dtype):
    """Float tensor of `shape` (default float dtype)."""
    return _random_meta(shape, dtype, default_float(), _FLOAT_TYPES)


def truncated_gaussian_random(shape, mean, std, seed, a, b, dtype):
    """Float tensor of `shape` (default float dtype); needs a < b."""
    if not a < b:
        raise InvalidArgument("b", f"the truncation bounds need a < b, got a={a}, b={b}")
    return _random_meta(shape, dtype, default_float(), _FLOAT_TYPES)


def randint(low, high, shape, dtype):
    """int64 (or int32) tensor of `shape`; needs low < high."""
    if low >= high:
        raise InvalidArgument("high", f"must be greater than low, got low={low}, high={high}")
    return _random_meta(shape, dtype, int64, (int32, int64))


def randperm(n, dtype):
    """1-D tensor of n values (int64 by default)."""
    if n < 0:
        raise InvalidArgument("n", f"must be non-negative, got {n}")
    return _random_meta((n,), dtype, int64, (int32, int64) + _FLOAT_TYPES)


def bernoulli(x):
    """Like x (probabilities in, 0/1 samples out)."""
    _check_float(x, "x")
    return MetaTensor(x.shape, x.dtype)

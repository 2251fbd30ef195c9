"""Normalisation kernels: batch_norm, layer_norm, group_norm and their gradients.

All three standardise the rows of a 2-D view of the input (per channel, per sample or
per sample-group), then apply a per-feature affine transform; they share the row
standardisation, its gradient and the affine helpers below. float16 inputs are
computed (and their statistics returned) in float32, like Paddle.
"""
import numpy as np

__all__ = ["batch_norm", "batch_norm_grad", "layer_norm", "layer_norm_grad", "group_norm",
           "group_norm_grad"]


def _stat_dtype(dtype):
    """Dtype statistics are computed and returned in: float32 for float16, else unchanged."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _standardize(rows, epsilon):
    """(xhat, mean, biased variance, 1/std) of every row of a 2-D array."""
    mean = rows.mean(axis=1)
    centered = rows - mean[:, None]
    var = np.mean(centered * centered, axis=1)
    inv_std = 1.0 / np.sqrt(var + epsilon)
    return centered * inv_std[:, None], mean, var, inv_std


def _standardize_grad(g, xhat, inv_std):
    """Input gradient of the row standardisation, given the gradient g of xhat."""
    return inv_std[:, None] * (g - g.mean(axis=1, keepdims=True)
                               - xhat * (g * xhat).mean(axis=1, keepdims=True))


def _restandardize(rows, mean, variance, epsilon):
    """(xhat, 1/std) of rows from statistics saved by the forward pass."""
    inv_std = 1.0 / np.sqrt(variance.astype(rows.dtype) + epsilon)
    return (rows - mean.astype(rows.dtype)[:, None]) * inv_std[:, None], inv_std


def _affine(xhat, scale, bias, param_shape):
    """xhat * scale + bias, the 1-D parameters reshaped to param_shape (None = identity)."""
    out = xhat if scale is None else xhat * scale.reshape(param_shape)
    return out if bias is None else out + bias.reshape(param_shape)


def _affine_grads(g, xhat, scale, bias, param_shape):
    """(gradient of xhat, scale_grad, bias_grad) of _affine; None for an absent parameter."""
    axes = tuple(i for i, size in enumerate(param_shape) if size == 1)
    scale_grad = None if scale is None else (g * xhat).sum(axis=axes).astype(scale.dtype)
    bias_grad = None if bias is None else g.sum(axis=axes).astype(bias.dtype)
    g_xhat = g if scale is None else g * scale.reshape(param_shape)
    return g_xhat, scale_grad, bias_grad


def _channel_axis(ndim, data_format):
    """Channel axis named by a Paddle data_format (NCHW, NHWC, NCL, NLC, NC, NCDHW, NDHWC)."""
    return ndim - 1 if data_format.endswith("C") else 1


def _channels_first(x, data_format):
    """x as [N, C, everything else] (statistics dtype), whatever its channel axis."""
    moved = np.moveaxis(x, _channel_axis(x.ndim, data_format), 1)
    rest = int(np.prod(moved.shape[2:]))  # explicit, so an empty batch reshapes too
    return moved.reshape(moved.shape[0], moved.shape[1], rest).astype(_stat_dtype(x.dtype),
                                                                      copy=False)


def _from_channels_first(x3, like, data_format):
    """Inverse of _channels_first: back to the shape, layout and dtype of `like`."""
    axis = _channel_axis(like.ndim, data_format)
    moved_shape = list(like.shape)
    moved_shape.insert(1, moved_shape.pop(axis))
    out = np.moveaxis(x3.reshape(moved_shape), 1, axis)
    return np.ascontiguousarray(out).astype(like.dtype, copy=False)


def _channel_rows(x3):
    """[N, C, S] as [C, N*S] rows: the per-channel samples batch_norm standardises."""
    return x3.transpose(1, 0, 2).reshape(x3.shape[1], x3.shape[0] * x3.shape[2])


def _from_channel_rows(rows, shape3):
    """Inverse of _channel_rows for an [N, C, S] shape."""
    return rows.reshape(shape3[1], shape3[0], shape3[2]).transpose(1, 0, 2)


def batch_norm(x, mean, variance, scale, bias, is_test, momentum, epsilon, data_format,
               use_global_stats):
    """Per-channel normalisation with batch statistics (training) or running ones (is_test).

    Returns out, the new running mean / variance (momentum * old + (1 - momentum) * batch,
    biased batch variance; unchanged copies with global stats), the mean used and the
    inverse standard deviation used (Paddle's saved_variance).
    """
    x3 = _channels_first(x, data_format)
    rows = _channel_rows(x3)
    # an empty batch has no statistics: the running ones are used and stay (as in Paddle)
    if is_test or use_global_stats or not rows.shape[1]:
        xhat, inv_std = _restandardize(rows, mean, variance, epsilon)
        used_mean, mean_out, variance_out = mean, mean.copy(), variance.copy()
    else:
        xhat, used_mean, batch_var, inv_std = _standardize(rows, epsilon)
        mean_out = (momentum * mean + (1.0 - momentum) * used_mean).astype(mean.dtype)
        variance_out = (momentum * variance + (1.0 - momentum) * batch_var).astype(variance.dtype)
    y = _from_channel_rows(_affine(xhat, scale, bias, (-1, 1)), x3.shape)
    out = _from_channels_first(y, x, data_format)
    return (out, mean_out, variance_out, used_mean.astype(mean.dtype),
            inv_std.astype(variance.dtype))


def batch_norm_grad(x, scale, bias, saved_mean, saved_variance, out_grad, epsilon, data_format,
                    is_test, use_global_stats):
    """Gradients of batch_norm for x, scale and bias (saved_variance holds 1/std)."""
    x3 = _channels_first(x, data_format)
    rows = _channel_rows(x3)
    inv_std = saved_variance.astype(rows.dtype)
    xhat = (rows - saved_mean.astype(rows.dtype)[:, None]) * inv_std[:, None]
    g = _channel_rows(_channels_first(out_grad, data_format))
    g_xhat, scale_grad, bias_grad = _affine_grads(g, xhat, scale, bias, (-1, 1))
    if is_test or use_global_stats:
        x_grad = g_xhat * inv_std[:, None]
    else:
        x_grad = _standardize_grad(g_xhat, xhat, inv_std)
    x_grad = _from_channels_first(_from_channel_rows(x_grad, x3.shape), x, data_format)
    return x_grad, scale_grad, bias_grad


def _sample_rows(x, begin_norm_axis):
    """x as [prod(shape[:axis]), prod(shape[axis:])] in the statistics dtype."""
    left, right = int(np.prod(x.shape[:begin_norm_axis])), int(np.prod(x.shape[begin_norm_axis:]))
    return x.reshape(left, right).astype(_stat_dtype(x.dtype), copy=False)


def layer_norm(x, scale, bias, epsilon, begin_norm_axis):
    """Normalise over the axes from begin_norm_axis on; scale/bias are flat over those axes."""
    xhat, mean, var, _ = _standardize(_sample_rows(x, begin_norm_axis), epsilon)
    out = _affine(xhat, scale, bias, (1, -1)).reshape(x.shape).astype(x.dtype, copy=False)
    return out, mean, var


def layer_norm_grad(x, scale, bias, mean, variance, out_grad, epsilon, begin_norm_axis):
    """Gradients of layer_norm for x, scale and bias."""
    xhat, inv_std = _restandardize(_sample_rows(x, begin_norm_axis), mean, variance, epsilon)
    g = _sample_rows(out_grad, begin_norm_axis)
    g_xhat, scale_grad, bias_grad = _affine_grads(g, xhat, scale, bias, (1, -1))
    x_grad = _standardize_grad(g_xhat, xhat, inv_std).reshape(x.shape).astype(x.dtype, copy=False)
    return x_grad, scale_grad, bias_grad


def _group_rows(x3, groups):
    """[N, C, S] as [N*groups, C/groups*S] rows, one per group of one sample."""
    n, c, s = x3.shape
    return x3.reshape(n * groups, c // groups * s)


def group_norm(x, scale, bias, epsilon, groups, data_format):
    """Normalise each sample over groups of channels; per-channel scale and bias."""
    x3 = _channels_first(x, data_format)
    n = x3.shape[0]
    xhat, mean, var, _ = _standardize(_group_rows(x3, groups), epsilon)
    y = _affine(xhat.reshape(x3.shape), scale, bias, (1, -1, 1))
    return (_from_channels_first(y, x, data_format), mean.reshape(n, groups),
            var.reshape(n, groups))


def group_norm_grad(x, scale, bias, mean, variance, y_grad, epsilon, groups, data_format):
    """Gradients of group_norm for x, scale and bias."""
    x3 = _channels_first(x, data_format)
    n = x3.shape[0]
    xhat, inv_std = _restandardize(_group_rows(x3, groups), mean.ravel(), variance.ravel(),
                                   epsilon)
    g3 = _channels_first(y_grad, data_format)
    g_xhat, scale_grad, bias_grad = _affine_grads(g3, xhat.reshape(x3.shape), scale, bias,
                                                  (1, -1, 1))
    x_grad = _standardize_grad(_group_rows(g_xhat, groups), xhat, inv_std)
    return _from_channels_first(x_grad, x, data_format), scale_grad, bias_grad

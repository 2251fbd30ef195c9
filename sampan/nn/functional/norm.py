"""batch_norm, layer_norm, group_norm (registry ops); instance_norm, local_response_norm
and rms_norm (composed)."""
from ...eager.grad_mode import no_grad
from ...eager.tensor import Tensor
from ...ops._generated import api

__all__ = ["batch_norm", "layer_norm", "group_norm", "instance_norm", "local_response_norm",
           "rms_norm"]


def _moments(x, axes):
    """Mean and biased variance over `axes` (kept as size-1 dims)."""
    mean = api.mean(x, axes, True)
    return mean, api.mean(api.square(api.subtract(x, mean)), axes, True)


def _normalized(x, mean, var, epsilon):
    return api.multiply(api.subtract(x, mean), api.rsqrt(api.scale(var, 1.0, epsilon)))


def _affine(y, weight, bias, shape):
    if weight is not None:
        y = api.multiply(y, api.reshape(weight, shape))
    if bias is not None:
        y = api.add(y, api.reshape(bias, shape))
    return y


def write_back(target, value):
    """Make running statistic `target` hold `value`: data swap (eager) or assign op (static)."""
    if isinstance(target, Tensor):
        target._set_data(value.numpy().astype(target.numpy().dtype))
        return
    from ...static.program_state import default_main_program
    default_main_program().current_block().append_op(
        "assign", {"x": [value.name]}, {"out": [target.name]}, {})


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-05, data_format="NCHW", use_global_stats=None,
               name=None):
    """Normalise per channel with batch statistics (training) or the running ones.

    Training updates the running statistics to momentum·old + (1 − momentum)·batch.
    """
    layout = "NCHW" if data_format.startswith("NC") else "NHWC"
    use_batch = training if use_global_stats is None else not use_global_stats
    out, mean_out, var_out = api.batch_norm(x, running_mean, running_var, weight, bias,
                                            not training, momentum, epsilon, layout,
                                            not use_batch)
    if use_batch:
        with no_grad():
            write_back(running_mean, mean_out)
            write_back(running_var, var_out)
    return out


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalise over the trailing `normalized_shape` dims, which must equal x's last dims."""
    trailing = _checked_trailing(x, normalized_shape)
    flat = [None if p is None else api.reshape(p, [-1]) for p in (weight, bias)]
    return api.layer_norm(x, flat[0], flat[1], epsilon, len(x.shape) - len(trailing))


def _checked_trailing(x, normalized_shape, fn="layer_norm"):
    """normalized_shape as a list, after checking it matches x's trailing dims (a -1 dim of
    a static Variable matches any size): a mismatch raises ValueError, as in Paddle."""
    dims = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    shape = list(x.shape)
    tail = shape[len(shape) - len(dims):] if len(dims) <= len(shape) else None
    if tail is None or any(d != n and d != -1 for d, n in zip(tail, dims)):
        raise ValueError(f"{fn}: normalized_shape {dims} must equal the last "
                         f"{len(dims)} dims of x, but x has shape {shape}")
    return dims


def rms_norm(input, normalized_shape, weight=None, eps=1e-05, name=None):  # noqa: A002
    """(out, invvar): input divided by its root mean square over the trailing
    `normalized_shape` dims (eps added to the mean square), times weight; invvar [rows] holds
    the reciprocal root mean squares, rows being the leading dims flattened. Composed, so it
    has gradients and runs on CPU (Paddle 3.3.1 has only a GPU kernel)."""
    dims = _checked_trailing(input, normalized_shape, "rms_norm")
    rank = len(input.shape)
    axes = list(range(rank - len(dims), rank))
    inverse = api.rsqrt(api.scale(api.mean(api.square(input), axes, True), 1.0, eps))
    out = api.multiply(input, inverse)
    if weight is not None:
        out = api.multiply(out, api.reshape(weight, dims))
    return out, api.reshape(inverse, [-1])


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    """Normalise each group of channels of each sample."""
    return api.group_norm(x, weight, bias, epsilon, num_groups, data_format)


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    """Normalise each channel of each sample over its spatial dims."""
    mean, var = _moments(x, list(range(2, len(x.shape))))
    shape = [1, -1] + [1] * (len(x.shape) - 2)
    return _affine(_normalized(x, mean, var, eps), weight, bias, shape)


def _window_sums(x, axis, size):
    """Sums of `size` neighbouring entries along axis, zero-padded size//2 before and
    (size-1)//2 after, so the result has x's shape."""
    length = x.shape[axis]
    padding = [0, 0] * len(x.shape)
    padding[2 * axis], padding[2 * axis + 1] = size // 2, (size - 1) // 2
    padded = api.pad(x, padding, "constant", 0.0, "NCHW")
    total = api.slice(padded, [axis], [0], [length])
    for start in range(1, size):
        total = api.add(total, api.slice(padded, [axis], [start], [start + length]))
    return total


def local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW",
                        name=None):
    """x / (k + alpha · mean of x² over `size` neighbouring channels) ** beta."""
    if len(x.shape) < 3:
        raise ValueError(f"local_response_norm: x must have at least 3 dims, got shape "
                         f"{list(x.shape)}")
    if data_format not in ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC"):
        raise ValueError(f"local_response_norm: unknown data_format {data_format!r}")
    axis = 1 if data_format.startswith("NC") else len(x.shape) - 1
    div = api.scale(_window_sums(api.square(x), axis, size), alpha / size, k)
    return api.divide(x, api.pow(div, beta))

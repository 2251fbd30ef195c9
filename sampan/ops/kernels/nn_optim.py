"""Optimizer update kernels (Paddle's formulas).

Each returns its outputs as new arrays. Given `out` (one array or None per output, in
output order), an output is written into its array instead: the eager optimizer and the
executor pass a parameter's and its accumulators' own buffers to update them in place.
The values are bit-identical either way (the same ufuncs in the same order); the caller
passes only arrays of the output's dtype and shape, and an output may share its buffer
with the input it replaces (every kernel reads an input before writing its output).
"""
import numpy as np

__all__ = ["sgd", "momentum", "adam", "adamw", "rmsprop", "adagrad"]

_FRESH = (None,) * 5


def _rate(learning_rate, like):
    """The (0-d or size-1) learning rate as a scalar of like's dtype."""
    return np.asarray(learning_rate, dtype=like.dtype).reshape(())


def _average(acc, decay, update, out):
    """decay * acc + update: Paddle's moving averages (update is already scaled)."""
    return np.add(np.multiply(acc, decay, out=out), update, out=out)


def sgd(param, learning_rate, grad, *, out=_FRESH):
    """param - lr * grad."""
    step = np.multiply(grad, _rate(learning_rate, param), dtype=param.dtype)
    return np.subtract(param, step, out=step if out[0] is None else out[0])


def momentum(param, grad, velocity, learning_rate, mu, use_nesterov, regularization_method,
             regularization_coeff, *, out=_FRESH):
    """v = mu * v + g (g += coeff * param for "l2_decay"); param -= lr * v, or
    lr * (g + mu * v) with Nesterov."""
    lr = _rate(learning_rate, param)
    g = grad.astype(param.dtype, copy=False)
    if regularization_method == "l2_decay":
        g = g + param.dtype.type(regularization_coeff) * param
    velocity_out = _average(velocity, velocity.dtype.type(mu), g, out[1])
    step = g + param.dtype.type(mu) * velocity_out if use_nesterov else velocity_out
    return np.subtract(param, lr * step, out=out[0]), velocity_out


def _adam_step(param, grad, lr, moment1, moment2, beta1_pow, beta2_pow, beta1, beta2, epsilon,
               out):
    """Paddle's Adam update of (param, moment1, moment2, beta1_pow, beta2_pow) at lr."""
    dtype = param.dtype.type
    g = grad.astype(param.dtype, copy=False)
    moment1_out = _average(moment1, dtype(beta1), dtype(1.0 - beta1) * g, out[1])
    moment2_out = _average(moment2, dtype(beta2), dtype(1.0 - beta2) * g * g, out[2])
    bias2 = np.sqrt(1.0 - beta2_pow.astype(param.dtype).reshape(()))
    lr_t = lr * bias2 / (1.0 - beta1_pow.astype(param.dtype).reshape(()))
    step = lr_t * moment1_out / (np.sqrt(moment2_out) + dtype(epsilon) * bias2)
    return (np.subtract(param, step, out=out[0]), moment1_out, moment2_out,
            np.multiply(beta1_pow, beta1_pow.dtype.type(beta1), out=out[3]),
            np.multiply(beta2_pow, beta2_pow.dtype.type(beta2), out=out[4]))


def adam(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, beta1, beta2,
         epsilon, *, out=_FRESH):
    """Adam: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t);
    param -= lr_t * m / (sqrt(v) + eps * sqrt(1 - b2^t))."""
    return _adam_step(param, grad, _rate(learning_rate, param), moment1, moment2, beta1_pow,
                      beta2_pow, beta1, beta2, epsilon, out)


def adamw(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, beta1, beta2,
          epsilon, lr_ratio, coeff, with_decay, *, out=_FRESH):
    """AdamW: with lr' = lr * lr_ratio, param -= lr' * coeff * param (if with_decay), then
    Adam at lr'."""
    lr = _rate(learning_rate, param) * param.dtype.type(lr_ratio)
    if with_decay:
        param = np.subtract(param, lr * param.dtype.type(coeff) * param, out=out[0])
    return _adam_step(param, grad, lr, moment1, moment2, beta1_pow, beta2_pow, beta1, beta2,
                      epsilon, out)


def rmsprop(param, mean_square, grad, moment, learning_rate, mean_grad, epsilon, decay,
            momentum, centered, *, out=_FRESH):
    """RMSProp: ms = decay*ms + (1-decay)*g^2; mom = momentum*mom + lr*g/sqrt(ms [- mg^2] + eps);
    param -= mom. Returns param_out, moment_out, mean_square_out, mean_grad_out."""
    dtype = param.dtype.type
    g = grad.astype(param.dtype, copy=False)
    mean_square_out = _average(mean_square, dtype(decay), dtype(1.0 - decay) * g * g, out[2])
    if centered:
        mean_grad_out = _average(mean_grad, dtype(decay), dtype(1.0 - decay) * g, out[3])
        denom = mean_square_out - mean_grad_out * mean_grad_out
    else:
        mean_grad_out = mean_grad.copy() if out[3] is None else _copy_into(out[3], mean_grad)
        denom = mean_square_out
    step = _rate(learning_rate, param) * g / np.sqrt(denom + dtype(epsilon))
    moment_out = _average(moment, dtype(momentum), step, out[1])
    return np.subtract(param, moment_out, out=out[0]), moment_out, mean_square_out, mean_grad_out


def _copy_into(out, value):
    """`out` holding `value` (no work when they are the same array)."""
    if out is not value:
        np.copyto(out, value)
    return out


def adagrad(param, grad, moment, learning_rate, epsilon, *, out=_FRESH):
    """Adagrad: moment += g^2; param -= lr * g / (sqrt(moment) + eps)."""
    g = grad.astype(param.dtype, copy=False)
    moment_out = np.add(moment, g * g, out=out[1])
    step = _rate(learning_rate, param) * g / (np.sqrt(moment_out) + param.dtype.type(epsilon))
    return np.subtract(param, step, out=out[0]), moment_out

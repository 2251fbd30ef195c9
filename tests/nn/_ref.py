"""NumPy references and helpers shared by the nn tests."""
import numpy as np

import sampan


def t(array, grad=False):
    """A tensor from an array (float64 kept), optionally requiring a gradient."""
    out = sampan.to_tensor(np.asarray(array))
    out.stop_gradient = not grad
    return out


def set_params(layer, **arrays):
    """Overwrite named parameters of `layer` with arrays."""
    for name, value in arrays.items():
        getattr(layer, name).set_value(np.asarray(value, dtype=getattr(layer, name).numpy().dtype))


def conv2d_ref(x, w, b, stride, pad, dilation=1, groups=1):
    """Direct-loop grouped convolution."""
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    ho = (h - dilation * (kh - 1) - 1) // stride + 1
    wo = (wd - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, o, ho, wo))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for i in range(ho):
            for j in range(wo):
                patch = x[:, g * cg:(g + 1) * cg,
                          i * stride:i * stride + dilation * (kh - 1) + 1:dilation,
                          j * stride:j * stride + dilation * (kw - 1) + 1:dilation]
                out[:, oc, i, j] = (patch * w[oc]).sum(axis=(1, 2, 3))
    return out + (0 if b is None else b.reshape(1, -1, 1, 1))


def pool2d_ref(x, k, s, pad, op, exclusive=True):
    """Direct-loop max/avg pooling."""
    fill = -np.inf if op == "max" else 0.0
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    ones = np.pad(np.ones(x.shape[2:]), pad)
    ho = (xp.shape[2] - k) // s + 1
    wo = (xp.shape[3] - k) // s + 1
    out = np.zeros(x.shape[:2] + (ho, wo))
    for i in range(ho):
        for j in range(wo):
            win = xp[:, :, i * s:i * s + k, j * s:j * s + k]
            if op == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                count = ones[i * s:i * s + k, j * s:j * s + k].sum() if exclusive else k * k
                out[:, :, i, j] = win.sum(axis=(2, 3)) / count
    return out


def numeric_grad(fn, array, eps=1e-6):
    """Central-difference gradient of scalar fn() w.r.t. `array` (modified in place)."""
    grad = np.zeros_like(array)
    for idx in np.ndindex(array.shape):
        old = array[idx]
        array[idx] = old + eps
        plus = fn()
        array[idx] = old - eps
        minus = fn()
        array[idx] = old
        grad[idx] = (plus - minus) / (2 * eps)
    return grad


def optimizer_history(make, p0, grads):
    """Parameter values after each update of optimizer `make([p])` on a parameter starting
    at p0, fed the fixed gradients `grads` (as the gradient of sum(p·g)); returns
    (history, optimizer, parameter)."""
    from sampan.eager.tensor import Parameter
    from sampan.ops._generated import api
    p = Parameter(p0.copy(), name="p_0")
    o = make([p])
    history = []
    for g in grads:
        api.sum(api.multiply(p, t(g))).backward()
        o.step()
        o.clear_grad()
        history.append(p.numpy().copy())
    return history, o, p

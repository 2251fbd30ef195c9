"""NumPy references for the distribution tests: Gamma-function helpers from `math`, and
float64 tensors."""
import math

import numpy as np

import sampan as paddle

lgamma = np.vectorize(math.lgamma)


def digamma(x):
    """psi(x) by a central difference of math.lgamma (about 1e-9 accurate)."""
    h = 1e-5
    return (lgamma(np.asarray(x) + h) - lgamma(np.asarray(x) - h)) / (2 * h)


def lbeta(a, b):
    return lgamma(a) + lgamma(b) - lgamma(np.asarray(a) + b)


def t64(values, grad=False):
    """A float64 tensor of `values`, requiring a gradient when `grad`."""
    out = paddle.to_tensor(np.asarray(values, dtype=np.float64))
    out.stop_gradient = not grad
    return out


def close(tensor, want, rtol=1e-6, atol=1e-8):
    """tensor's values (and shape) equal `want`."""
    got = tensor.numpy()
    want = np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def mc_kl(p, q, n=200_000, seed=7):
    """Monte-Carlo estimate of KL(p || q): mean of log p(x) - log q(x) over p's draws."""
    paddle.seed(seed)
    x = p.sample([n])
    return (p.log_prob(x) - q.log_prob(x)).numpy().mean(axis=0)

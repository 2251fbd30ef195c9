"""Cases of the special-function ops (kernels/special.py). References are independent of the
kernels: math.lgamma and its five-point derivative, a long direct sum for polygamma, bisection
on math.erf, the Bessel power series summed with math.fsum, and SciPy's incomplete gamma."""
import math

import numpy as np
from scipy import special as scipy_special

from tests.ops.case import OpCase, rand

_rng = np.random.default_rng(5)


def _elementwise(fn):
    """fn applied to every element of a float array (float64 result of the same shape)."""
    return lambda x, **_: np.vectorize(fn, otypes=[np.float64])(np.asarray(x, np.float64))


def ref_digamma(x):
    """d/dx math.lgamma by the five-point stencil (error ~1e-10)."""
    h = 1e-3
    f = math.lgamma
    return (-f(x + 2 * h) + 8 * f(x + h) - 8 * f(x - h) + f(x - 2 * h)) / (12 * h)


def ref_polygamma(x, n):
    """psi^(n)(x) = (-1)^(n+1) n! sum_k (x + k)^-(n+1) for n >= 1: 2000 terms plus the
    Euler-Maclaurin tail of the rest."""
    if n == 0:
        return ref_digamma(x)
    s, z = n + 1, x + 2000
    head = math.fsum((x + k) ** -s for k in range(2000))
    tail = z ** (1 - s) / (s - 1) + 0.5 * z ** -s + s * z ** (-s - 1) / 12
    return (-1) ** (n + 1) * math.factorial(n) * (head + tail)


def ref_erfinv(y):
    """The y with erf(x) = y, by bisection on math.erf."""
    lo, hi = -7.0, 7.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if math.erf(mid) < y else (lo, mid)
    return 0.5 * (lo + hi)


def ref_bessel(nu, x, scaled=False):
    """I_nu(x) = sum_k (x/2)^(2k+nu) / (k! (k+nu)!), optionally times exp(-|x|)."""
    terms = [(abs(x) / 2) ** (2 * k + nu) / (math.factorial(k) * math.factorial(k + nu))
             for k in range(80)]
    value = math.fsum(terms) * (math.exp(-abs(x)) if scaled else 1.0)
    return math.copysign(value, x) if nu else value


def _away_from_poles(*shape, low=-4.5, high=6.0):
    """Values in [low, high) at least 0.1 from the non-positive integers (poles of Gamma)."""
    x = _rng.uniform(low, high, size=shape)
    near = (x < 0.1) & (np.abs(x - np.round(x)) < 0.1)
    return np.where(near, x + 0.25, x)


def _off_zero(*shape):
    """Values in [-8, 8) at least 0.1 from 0 (the kink of exp(-|x|) in i0e and i1e)."""
    x = rand(*shape, low=-8, high=8)
    return np.where(np.abs(x) < 0.1, 0.5, x)


def _cases(op, fn, make, attrs=None, rtol=1e-6, atol=1e-9):
    """A 2-D, a 0-d and a float32 case of a unary special op."""
    ref = _elementwise(fn)
    return [OpCase(op, {"x": make(2, 3)}, attrs, ref=ref, rtol=rtol, atol=atol),
            OpCase(op, {"x": np.asarray(make())}, attrs, ref=ref, rtol=rtol, atol=atol,
                   name="0d"),
            OpCase(op, {"x": make(4).astype("float32")}, attrs, ref=ref, rtol=2e-5, atol=1e-6,
                   grad=(), name="f32")]


GAMMA = (_cases("lgamma", math.lgamma, _away_from_poles)
         + _cases("digamma", ref_digamma, _away_from_poles, rtol=1e-7, atol=1e-8)
         + _cases("polygamma", lambda v: ref_polygamma(v, 1), _away_from_poles, {"n": 1})
         + _cases("polygamma", lambda v: ref_polygamma(v, 3),
                  lambda *s: _away_from_poles(*s, low=0.3, high=5.0), {"n": 3})
         + [OpCase("polygamma", {"x": rand(3, low=0.5, high=3.0)}, {"n": 0},
                   ref=_elementwise(ref_digamma), rtol=1e-7, atol=1e-8, name="n0"),
            OpCase("lgamma", {"x": np.array([1, 2, 5], "int64")}, ref=lambda x: np.array(
                [0.0, 0.0, math.log(24)], "float32"), name="int")])

ERFINV = _cases("erfinv", ref_erfinv, lambda *s: rand(*s, low=-0.95, high=0.95), atol=1e-12)

BESSEL = [case for nu in (0, 1) for scaled in (False, True)
          for case in _cases(f"i{nu}{'e' if scaled else ''}",
                             lambda v, nu=nu, scaled=scaled: ref_bessel(nu, v, scaled),
                             _off_zero)]



def _incomplete_gamma_cases(op, want):
    """Broadcast, 0-d, edge-value and float32 cases of gammainc / gammaincc against SciPy's
    `want` (gradients in y)."""
    edges_x = np.array([0.0, 0.5, 2.0, 1.0, 3.0, 1e3])
    edges_y = np.array([1.0, 0.0, np.inf, 1e-3, 40.0, 1.01e3])
    return [OpCase(op, {"x": rand(2, 1, low=0.2, high=6.0), "y": rand(1, 3, low=0.1, high=9.0)},
                   ref=want, rtol=1e-12, atol=1e-14),
            OpCase(op, {"x": rand(4, low=5.0, high=30.0), "y": rand(4, low=5.0, high=30.0)},
                   ref=want, rtol=1e-12, atol=1e-14, name="large"),
            OpCase(op, {"x": np.asarray(1.5), "y": np.asarray(0.7)}, ref=want, rtol=1e-12,
                   name="0d"),
            OpCase(op, {"x": edges_x, "y": edges_y}, ref=want, rtol=1e-12, atol=1e-300,
                   grad=(), name="edges"),
            OpCase(op, {"x": rand(3, low=0.5, high=4.0).astype("float32"),
                        "y": rand(3, low=0.5, high=4.0).astype("float32")},
                   ref=want, rtol=2e-6, atol=1e-7, grad=(), name="f32")]


INCOMPLETE_GAMMA = (_incomplete_gamma_cases("gammainc", scipy_special.gammainc)
                    + _incomplete_gamma_cases("gammaincc", scipy_special.gammaincc))

CASES = GAMMA + ERFINV + BESSEL + INCOMPLETE_GAMMA

"""NumPy kernels of the special functions: lgamma, digamma, polygamma, erfinv, the regularized
incomplete gamma functions P and Q (gammainc, gammaincc) and the modified Bessel functions I0, I1
with their exponentially scaled forms I0e, I1e.

No SciPy: every function is evaluated in float64 from a recurrence that shifts the argument up
to where an asymptotic series converges (gamma family), a reflection formula for negative
arguments, a power series or an asymptotic expansion (Bessel), or a rational first guess
polished by Halley steps on erf (erfinv), a power series or a continued fraction (incomplete
gamma); results are cast back to the input's float dtype. Each unary op has a backward op and a
double backward op (kernels made by `_family`); the incomplete gamma ops differentiate in y only.
"""
import functools
import math

import numpy as np

from .elementwise import _as_float, _erf, _grad_for

__all__ = ["lgamma", "lgamma_grad", "lgamma_double_grad", "digamma", "digamma_grad",
           "digamma_double_grad", "polygamma", "polygamma_grad", "polygamma_double_grad",
           "erfinv", "erfinv_grad", "erfinv_double_grad", "i0", "i0_grad", "i0_double_grad",
           "i1", "i1_grad", "i1_double_grad", "i0e", "i0e_grad", "i0e_double_grad", "i1e",
           "i1e_grad", "i1e_double_grad", "gammainc", "gammainc_grad", "gammaincc",
           "gammaincc_grad"]

# Bernoulli numbers B_2, B_4, ..., B_20 (the asymptotic series of lgamma and polygamma).
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330)
_SHIFT = 10.0       # the series are used from here up (terms shrink by ~(k / (pi z))^2)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _f64(x):
    """x as a float64 array (integers first become the default float, as the op's output)."""
    return np.asarray(_as_float(x), dtype=np.float64)


def _shifted(x, start, term):
    """(z, total): z = x + k for the fewest whole k with z >= start (NaN stays), and total
    = sum of term(x + j) for j < k (x must be >= 0)."""
    z, total = x.copy(), np.zeros_like(x)
    low = z < start
    while low.any():
        total += np.where(low, term(np.where(low, z, 1.0)), 0.0)
        z = np.where(low, z + 1.0, z)
        low = z < start
    return z, total


def _series(r, coefficients):
    """sum_k coefficients[k] * r**k by Horner's rule."""
    total = np.zeros_like(r)
    for c in reversed(coefficients):
        total = total * r + c
    return total


# ---------------------------------------------------------------- gamma family

def _stirling_tail(z):
    """log Gamma(z) - ((z - 1/2) log z - z + log(2 pi)/2), from Stirling's series (z >= 10)."""
    r = 1.0 / z
    return r * _series(r * r, [b / (2 * k * (2 * k - 1)) for k, b in enumerate(_BERNOULLI, 1)])


def _lgamma_positive(x):
    """log Gamma(x) for x >= 0: recurrence up to z >= 10, then Stirling's series."""
    z, logs = _shifted(x, _SHIFT, np.log)
    return (z - 0.5) * np.log(z) - z + _HALF_LOG_2PI + _stirling_tail(z) - logs


def _sinpi(x):
    """sin(pi x), exactly 0 at integers (the poles of Gamma)."""
    r = np.remainder(x, 2.0)
    return np.where(r == np.floor(r), 0.0, np.sin(np.pi * r))


def _lgamma(x):
    """log |Gamma(x)|; x < 0 by reflection: log(pi / |sin(pi x)|) - lgamma(1 - x)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        negative = x < 0
        out = _lgamma_positive(np.where(negative, 1.0 - x, x))
        reflected = np.log(np.pi / np.abs(_sinpi(x))) - out
        return np.where(np.isinf(x), np.inf, np.where(negative, reflected, out))


@functools.lru_cache(maxsize=None)
def _cot_derivative(n):
    """Coefficients of P_n with d^n/dx^n cot(pi x) = pi^n P_n(cot(pi x)):
    P_0(c) = c, P_(k+1)(c) = -(1 + c^2) P_k'(c)."""
    poly = np.array([0.0, 1.0])
    for _ in range(n):
        poly = -np.polynomial.polynomial.polymul([1.0, 0.0, 1.0],
                                                 np.polynomial.polynomial.polyder(poly))
    return poly


@functools.lru_cache(maxsize=None)
def _polygamma_tail(n):
    """Coefficients of psi^(n)'s asymptotic series in powers of 1/z^2 (n >= 1), after the
    leading (n-1)!/z^n + n!/(2 z^(n+1)): B_2k (2k+n-1)! / (2k)!."""
    return [b * math.factorial(2 * k + n - 1) / math.factorial(2 * k)
            for k, b in enumerate(_BERNOULLI, 1)]


def _psi_asymptotic(n, z):
    """psi^(n)(z) for z >= 10 + n from its asymptotic series."""
    r = 1.0 / z
    r2 = r * r
    if n == 0:
        return np.log(z) - 0.5 * r - r2 * _series(r2, [b / (2 * k) for k, b in
                                                         enumerate(_BERNOULLI, 1)])
    lead = math.factorial(n - 1) * r ** n + 0.5 * math.factorial(n) * r ** (n + 1)
    tail = r ** (n + 2) * _series(r2, _polygamma_tail(n))
    return (-1) ** (n + 1) * (lead + tail)


def _psi_positive(n, x):
    """psi^(n)(x) for x >= 0: psi^(n)(x) = psi^(n)(x + k) - (-1)^n n! sum_j (x + j)^-(n+1)."""
    z, total = _shifted(x, _SHIFT + n, lambda v: v ** -(n + 1.0))
    return _psi_asymptotic(n, z) - (-1) ** n * math.factorial(n) * total


def _polygamma(n, x):
    """psi^(n)(x), the n-th derivative of digamma; x < 0 by the reflection
    psi^(n)(x) = (-1)^n psi^(n)(1 - x) - pi^(n+1) P_n(cot(pi x))."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        negative = x < 0
        out = _psi_positive(n, np.where(negative, 1.0 - x, x))
        cot = 1.0 / np.tan(np.pi * (x - np.floor(x)))
        poles = np.pi ** (n + 1) * np.polynomial.polynomial.polyval(cot, _cot_derivative(n))
        return np.where(negative, (-1) ** n * out - poles, out)


# ---------------------------------------------------------------- incomplete gamma

_EPS = np.finfo(np.float64).eps
_TINY = 1e-300            # keeps the continued fraction's Lentz denominators off zero
_MAX_STEPS = 50000        # series / continued-fraction steps (about 8 sqrt(a) needed near y = a)
_LOG1PMX_TERMS = 40       # series terms of log(1 + d) - d for |d| < 0.3


def _log1pmx(d):
    """log(1 + d) - d, summed as -d^2/2 + d^3/3 - ... for |d| < 0.3 to avoid cancellation."""
    small = np.abs(d) < 0.3
    t = np.where(small, d, 0.0)
    power, total = t * t, np.zeros_like(t)
    for k in range(2, _LOG1PMX_TERMS):
        total += power / k if k % 2 else -power / k
        power = power * t
    with np.errstate(divide="ignore"):
        return np.where(small, total, np.log1p(np.where(small, 0.0, d)) - d)


def _log_power_factor(a, y):
    """log(y^a e^-y / Gamma(a)) for a, y > 0; for a >= 10 through Stirling's series and
    a log1pmx((y - a) / a), so large a and y do not cancel."""
    large = a >= _SHIFT
    big = np.where(large, a, _SHIFT)
    stirling = (big * _log1pmx((y - big) / big) + 0.5 * np.log(big) - _HALF_LOG_2PI
                - _stirling_tail(big))
    direct = a * np.log(y) - y - _lgamma_positive(np.where(large, 1.0, a))
    return np.where(large, stirling, direct)


def _iterate(step, fixed, state):
    """Run `step(k, *fixed, *state) -> (new state, done)` for k = 1, 2, ... on the elements not
    yet done (1-D float64 arrays; `state` is updated in place) until all are done."""
    live = np.arange(state[0].size)
    for k in range(1, _MAX_STEPS):
        if live.size == 0:
            return
        new, done = step(k, *(f[live] for f in fixed), *(s[live] for s in state))
        for array, value in zip(state, new):
            array[live] = value
        live = live[~done]


def _series_step(k, a, y, term, total):
    """One term of sum_n y^n / ((a + 1) ... (a + n))."""
    term = term * y / (a + k)
    total = total + term
    return (term, total), np.abs(term) <= total * _EPS


def _lentz_step(k, a, y, c, d, h):
    """One step of the modified Lentz evaluation of Q's continued fraction
    1 / (y + 1 - a - 1 (1 - a) / (y + 3 - a - 2 (2 - a) / (y + 5 - a - ...)))."""
    an, bn = -k * (k - a), y + 1.0 - a + 2.0 * k
    d = an * d + bn
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    c = bn + an / c
    c = np.where(np.abs(c) < _TINY, _TINY, c)
    delta = c * d
    return (c, d, h * delta), np.abs(delta - 1.0) <= _EPS


def _regular_pq(a, y):
    """(P(a, y), Q(a, y)) for finite 1-D a, y > 0: the series of P where y <= max(a, 1), else
    the continued fraction of Q; the other one as its complement (then never small)."""
    log_factor = _log_power_factor(a, y)
    fraction = (y > a) & (y > 1.0)
    p, q = np.empty_like(a), np.empty_like(a)
    s = ~fraction
    term, total = np.ones(s.sum()), np.ones(s.sum())
    _iterate(_series_step, (a[s], y[s]), (term, total))
    p[s] = np.exp(log_factor[s]) * total / a[s]
    q[s] = 1.0 - p[s]
    f = fraction
    b0 = y[f] + 1.0 - a[f]
    c, d = np.full(b0.shape, 1.0 / _TINY), 1.0 / b0
    h = d.copy()
    _iterate(_lentz_step, (a[f], y[f]), (c, d, h))
    q[f] = np.exp(log_factor[f]) * h
    p[f] = 1.0 - q[f]
    return p, q


def _incomplete_gamma(a, y):
    """(P(a, y), Q(a, y)) elementwise in float64 with SciPy's edge values: P = 1 at a = 0 or
    y = inf, P = 0 at y = 0 or a = inf, NaN for negative or NaN arguments, (0, 0) and
    (inf, inf)."""
    a, y = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(y, np.float64))
    shape, a, y = a.shape, a.ravel(), y.ravel()
    regular = (a > 0) & (y > 0) & np.isfinite(a) & np.isfinite(y)
    p = np.full(a.shape, np.nan)
    p[~regular & ((a == 0) & (y > 0) | (y == np.inf) & np.isfinite(a))] = 1.0
    p[~regular & ((y == 0) & (a > 0) | (a == np.inf) & np.isfinite(y))] = 0.0
    q = 1.0 - p
    p[regular], q[regular] = _regular_pq(a[regular], y[regular])
    return p.reshape(shape), q.reshape(shape)


def _density(a, y):
    """d/dy P(a, y) = y^(a-1) e^-y / Gamma(a) (at y = 0: 0 for a > 1, 1 for a = 1, else inf)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = np.exp(_log_power_factor(a, np.where(y > 0, y, 1.0))) / np.where(y > 0, y, 1.0)
        at_zero = np.where(a > 1, 0.0, np.where(a == 1, 1.0, np.inf))
        return np.where(y > 0, inside, at_zero)


def _incomplete_gamma_kernel(x, y, which):
    """P (which = 0) or Q (which = 1) of x and y broadcast, in their common float dtype."""
    dtype = np.result_type(_as_float(x), _as_float(y))
    return np.asarray(_incomplete_gamma(x, y)[which], dtype=dtype)


def _incomplete_gamma_grad(x, y, out_grad, sign):
    """Gradient in y of P (sign +1) or Q (sign -1): sign * out_grad * density, summed to y."""
    a, v = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    return _grad_for(y, sign * out_grad * _density(a, v))


def gammainc(x, y):
    """Regularized lower incomplete gamma P(x, y) = gamma(x, y) / Gamma(x), broadcast."""
    return _incomplete_gamma_kernel(x, y, 0)


def gammaincc(x, y):
    """Regularized upper incomplete gamma Q(x, y) = Gamma(x, y) / Gamma(x), broadcast."""
    return _incomplete_gamma_kernel(x, y, 1)


def gammainc_grad(x, y, out_grad):
    """Gradient of gammainc in y: out_grad * y^(x-1) e^-y / Gamma(x) (none in x, as Paddle)."""
    return _incomplete_gamma_grad(x, y, out_grad, 1.0)


def gammaincc_grad(x, y, out_grad):
    """Gradient of gammaincc in y: -out_grad * y^(x-1) e^-y / Gamma(x) (none in x, as Paddle)."""
    return _incomplete_gamma_grad(x, y, out_grad, -1.0)


# ---------------------------------------------------------------- erfinv

# Giles' single-precision erfinv (central and tail polynomials in w = -log(1 - x^2)).
_ERFINV_CENTRAL = (1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087,
                   -4.39150654e-06, -3.5233877e-06, 3.43273939e-07, 2.81022636e-08)
_ERFINV_TAIL = (2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773,
                -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erfinv(x):
    """erfinv: Giles' approximation (~1e-7) refined by two Halley steps on erf; +-inf at
    +-1, NaN outside [-1, 1]."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = np.abs(x) < 1
        t = np.where(inside, x, 0.0)
        w = -np.log((1.0 - t) * (1.0 + t))
        y = t * np.where(w < 5.0, _series(w - 2.5, _ERFINV_CENTRAL),
                         _series(np.sqrt(w) - 3.0, _ERFINV_TAIL))
        for _ in range(2):
            error = _erf(y) - t
            y = y - error / (_TWO_OVER_SQRT_PI * np.exp(-y * y) + y * error)
        edge = np.where(np.abs(x) == 1, np.copysign(np.inf, x), np.nan)
        return np.where(inside, y, edge)


# ---------------------------------------------------------------- Bessel I0, I1

_BESSEL_SWITCH = 25.0     # power series below, asymptotic expansion above
_SERIES_TERMS = 50        # enough for |x| < 25 to float64 precision (terms are all positive)
_ASYMPTOTIC_TERMS = 30


def _bessel_series(nu, a):
    """I_nu(a) for 0 <= a < 25 and nu in (0, 1): sum_k (a/2)^(2k+nu) / (k! (k+nu)!)."""
    q = 0.25 * a * a
    term = np.ones_like(a) if nu == 0 else 0.5 * a
    total = term.copy()
    for k in range(1, _SERIES_TERMS):
        term = term * q / (k * (k + nu))
        total += term
    return total


def _bessel_asymptotic(nu, a, scaled):
    """I_nu(a) (e^-a I_nu(a) when `scaled`) for a >= 25:
    e^a (2 pi a)^-1/2 sum_k (-1)^k prod_(j<=k) (4nu^2 - (2j-1)^2) / (k! (8a)^k)."""
    mu = 4.0 * nu * nu
    term = np.ones_like(a)
    total = term.copy()
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = -term * (mu - (2 * k - 1) ** 2) / (8.0 * k * a)
        total += term
    with np.errstate(over="ignore", invalid="ignore"):
        log_scale = -0.5 * np.log(2.0 * np.pi * a) + (0.0 if scaled else a)
        return np.where(np.isinf(a), 0.0 if scaled else np.inf, total * np.exp(log_scale))


def _bessel(nu, x, scaled):
    """I_nu(x) (or e^-|x| I_nu(x) when `scaled`), nu in (0, 1); I1 is odd, I0 even."""
    a = np.abs(x)
    small = a < _BESSEL_SWITCH
    near = _bessel_series(nu, np.where(small, a, 0.0))
    if scaled:
        near = near * np.exp(-np.where(small, a, 0.0))
    out = np.where(small, near, _bessel_asymptotic(nu, np.where(small, _BESSEL_SWITCH, a),
                                                   scaled))
    return np.copysign(out, x) if nu == 1 else out


def _over_x(value, x, at_zero):
    """value / x, with `at_zero` where x == 0 (the limit of the ratio)."""
    safe = np.where(x == 0, 1.0, x)
    return np.where(x == 0, at_zero, value / safe)


def _d_i1(x):
    """I1'(x) = I0(x) - I1(x)/x (1/2 at 0)."""
    return _bessel(0, x, False) - _over_x(_bessel(1, x, False), x, 0.5)


def _dd_i1(x):
    """I1''(x) = I1 - I0/x + 2 I1/x^2; its series 3x/8 + 5x^3/96 near 0 avoids cancellation."""
    i0, i1 = _bessel(0, x, False), _bessel(1, x, False)
    near = x * (0.375 + x * x * 5.0 / 96.0)
    safe = np.where(np.abs(x) < 1e-2, 1.0, x)
    return np.where(np.abs(x) < 1e-2, near, i1 - i0 / safe + 2.0 * i1 / (safe * safe))


def _d_i0e(x):
    """I0e'(x) = I1e(x) - sign(x) I0e(x)."""
    return _bessel(1, x, True) - np.sign(x) * _bessel(0, x, True)


def _d_i1e(x):
    """I1e'(x) = I0e(x) - I1e(x)/x - sign(x) I1e(x) (1/2 at 0)."""
    i1e = _bessel(1, x, True)
    return _bessel(0, x, True) - _over_x(i1e, x, 0.5) - np.sign(x) * i1e


def _dd_i0e(x):
    """I0e''(x) = I1e'(x) - sign(x) I1e(x) + I0e(x) (x != 0)."""
    return _d_i1e(x) - np.sign(x) * _bessel(1, x, True) + _bessel(0, x, True)


def _dd_i1e(x):
    """I1e''(x) = I0e' - I1e'/x + I1e/x^2 - sign(x) I1e' (0 at 0, where the kink of |x| is)."""
    d1 = _d_i1e(x)
    inner = _over_x(_bessel(1, x, True) / np.where(x == 0, 1.0, x) - d1, x, 0.0)
    return _d_i0e(x) + inner - np.sign(x) * d1


# ---------------------------------------------------------------- kernels

def _family(name, value, slope, curvature, doc):
    """(kernel, grad, double grad) of a unary special function f with f' = slope and
    f'' = curvature (float64 functions of float64 arrays)."""
    def kernel(x):
        x = _as_float(x)
        return np.asarray(value(np.asarray(x, np.float64)), dtype=x.dtype)

    def grad(x, out_grad):
        return np.asarray(out_grad * slope(_f64(x)), dtype=out_grad.dtype)

    def double_grad(x, out_grad, x_grad_grad):
        x64 = _f64(x)
        return (np.asarray(x_grad_grad * out_grad * curvature(x64), dtype=x.dtype),
                np.asarray(x_grad_grad * slope(x64), dtype=out_grad.dtype))
    for fn, suffix, text in ((kernel, "", doc), (grad, "_grad", f"Gradient of {name}."),
                             (double_grad, "_double_grad", f"Gradients of {name}_grad for x "
                                                           f"and out_grad.")):
        fn.__name__ = fn.__qualname__ = name + suffix
        fn.__doc__ = text
    return kernel, grad, double_grad


lgamma, lgamma_grad, lgamma_double_grad = _family(
    "lgamma", _lgamma, lambda x: _polygamma(0, x), lambda x: _polygamma(1, x),
    "Elementwise log |Gamma(x)|.")
digamma, digamma_grad, digamma_double_grad = _family(
    "digamma", lambda x: _polygamma(0, x), lambda x: _polygamma(1, x),
    lambda x: _polygamma(2, x), "Elementwise digamma psi(x), the derivative of lgamma.")
i0, i0_grad, i0_double_grad = _family(
    "i0", lambda x: _bessel(0, x, False), lambda x: _bessel(1, x, False), _d_i1,
    "Elementwise modified Bessel function of the first kind of order 0.")
i1, i1_grad, i1_double_grad = _family(
    "i1", lambda x: _bessel(1, x, False), _d_i1, _dd_i1,
    "Elementwise modified Bessel function of the first kind of order 1.")
i0e, i0e_grad, i0e_double_grad = _family(
    "i0e", lambda x: _bessel(0, x, True), _d_i0e, _dd_i0e,
    "Elementwise exponentially scaled Bessel function exp(-|x|) I0(x).")
i1e, i1e_grad, i1e_double_grad = _family(
    "i1e", lambda x: _bessel(1, x, True), _d_i1e, _dd_i1e,
    "Elementwise exponentially scaled Bessel function exp(-|x|) I1(x).")


def polygamma(x, n):
    """Elementwise psi^(n)(x), the n-th derivative of digamma (n = 0 is digamma)."""
    x = _as_float(x)
    return np.asarray(_polygamma(n, np.asarray(x, np.float64)), dtype=x.dtype)


def polygamma_grad(x, out_grad, n):
    """Gradient of polygamma: out_grad * psi^(n+1)(x)."""
    return np.asarray(out_grad * _polygamma(n + 1, _f64(x)), dtype=out_grad.dtype)


def polygamma_double_grad(x, out_grad, x_grad_grad, n):
    """Gradients of polygamma_grad for x (ddx * out_grad * psi^(n+2)) and out_grad."""
    x64 = _f64(x)
    return (np.asarray(x_grad_grad * out_grad * _polygamma(n + 2, x64), dtype=x.dtype),
            np.asarray(x_grad_grad * _polygamma(n + 1, x64), dtype=out_grad.dtype))


def erfinv(x):
    """Elementwise inverse error function (+-inf at +-1, NaN outside [-1, 1])."""
    x = _as_float(x)
    return np.asarray(_erfinv(np.asarray(x, np.float64)), dtype=x.dtype)


def erfinv_grad(out, out_grad):
    """Gradient of erfinv from its output: out_grad * sqrt(pi)/2 * exp(out^2)."""
    return np.asarray(out_grad / _TWO_OVER_SQRT_PI * np.exp(_f64(out) ** 2),
                      dtype=out_grad.dtype)


def erfinv_double_grad(out, out_grad, x_grad_grad):
    """Gradients of erfinv_grad for out (ddx * out_grad * sqrt(pi) out exp(out^2)) and
    out_grad (ddx * sqrt(pi)/2 exp(out^2))."""
    slope = np.exp(_f64(out) ** 2) / _TWO_OVER_SQRT_PI
    return (np.asarray(x_grad_grad * out_grad * 2.0 * _f64(out) * slope, dtype=out.dtype),
            np.asarray(x_grad_grad * slope, dtype=out_grad.dtype))

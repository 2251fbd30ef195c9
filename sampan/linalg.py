"""paddle.linalg: decompositions, solvers and norms over the last two axes (batched)."""
from .ops._generated import api
from .tensor.extra import cross, matrix_norm, norm, vector_norm
from .tensor.aliases import vecdot
from .tensor.creation import randn
from .tensor.linalg import corrcoef, cov, eig, eigvals, lu, lu_unpack, matrix_exp, svdvals
from .tensor.tensor_lists import tensor_list

__all__ = ["norm", "vector_norm", "matrix_norm", "inv", "det", "slogdet", "solve", "cholesky",
           "qr", "svd", "eigh", "eigvalsh", "matrix_power", "pinv", "matrix_rank", "cond",
           "multi_dot", "lstsq", "cross", "triangular_solve", "cholesky_solve", "eig", "eigvals",
           "lu", "lu_unpack", "lu_solve", "householder_product", "cov", "corrcoef", "svdvals",
           "matrix_exp", "vecdot", "svd_lowrank", "pca_lowrank", "cholesky_inverse",
           "matrix_transpose", "matmul", "diagonal"]

inv = api.inv
det = api.det
slogdet = api.slogdet
cholesky = api.cholesky
eigh = api.eigh
pinv = api.pinv
matrix_rank = api.matrix_rank


def qr(x, mode="reduced", name=None):
    """(q, r) of x; only r when mode is "r"."""
    q, r = api.qr(x, mode)
    return r if mode == "r" else (q, r)


def solve(x, y, left=True, name=None):
    """The solution of x @ out = y (left) or out @ x = y (left=False) for square x."""
    if left:
        return api.solve(x, y)
    swap = [*range(len(x.shape) - 2), len(x.shape) - 1, len(x.shape) - 2]
    flipped = [*range(len(y.shape) - 2), len(y.shape) - 1, len(y.shape) - 2]
    return api.transpose(api.solve(api.transpose(x, swap), api.transpose(y, flipped)), flipped)


def svd(x, full_matrices=False, name=None):
    """(u, s, vh) with x = u @ diag(s) @ vh."""
    return api.svd(x, full_matrices)


def _adjoint(x):
    """The conjugate transpose of the last two axes."""
    axes = [*range(len(x.shape) - 2), len(x.shape) - 1, len(x.shape) - 2]
    return api.transpose(api.conj(x), axes)


def _range_basis(a, q, niter):
    """An orthonormal basis [*, M, q] nearly spanning the top-q range of a [*, M, N]: a
    Gaussian sketch, then `niter` rounds of power iteration re-orthonormalised by QR
    (Halko, Martinsson and Tropp's randomized range finder)."""
    sketch = randn([*a.shape[:-2], a.shape[-1], q], dtype=a.dtype)
    basis = api.qr(api.matmul(a, sketch), "reduced")[0]
    for _ in range(niter):
        basis = api.qr(api.matmul(_adjoint(a), basis), "reduced")[0]
        basis = api.qr(api.matmul(a, basis), "reduced")[0]
    return basis


def svd_lowrank(x, q=None, niter=2, M=None, name=None):  # noqa: N803 - Paddle's name
    """(U [*, M, q], S [*, q], V [*, N, q]) with x - M ≈ U @ diag(S) @ V^H, for x [*, M, N] of
    rank about q (default 6) or less: a randomized range finder with `niter` power
    iterations, then the SVD of the small projected matrix. Random (paddle.seed fixes it);
    composed of matmul, qr and svd, so it has gradients."""
    if len(x.shape) < 2:
        raise ValueError(f"svd_lowrank: x must be [*, M, N], got shape {list(x.shape)}")
    q = 6 if q is None else q
    rows, cols = x.shape[-2:]
    if not 0 < q <= min(rows, cols):
        raise ValueError(f"svd_lowrank: q must be in [1, {min(rows, cols)}] for x of shape "
                         f"{list(x.shape)}, got {q}")
    a = x if M is None else api.subtract(x, M)
    if rows < cols:  # sketch the smaller side: work on a^H and swap the factors back
        v, s, u = svd_lowrank(_adjoint(a), q, niter)
        return u, s, v
    basis = _range_basis(a, q, niter)
    u, s, vh = api.svd(api.matmul(_adjoint(basis), a), False)
    return api.matmul(basis, u), s, _adjoint(vh)


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """(U, S, V) of svd_lowrank on x [*, M, N] centred over its rows (when `center`): V's
    columns are the principal directions, S**2 / (M - 1) the variances. q defaults to
    min(6, M, N)."""
    if len(x.shape) < 2:
        raise ValueError(f"pca_lowrank: x must be [*, M, N], got shape {list(x.shape)}")
    q = min(6, *x.shape[-2:]) if q is None else q
    if center:
        x = api.subtract(x, api.mean(x, [-2], True))
    return svd_lowrank(x, q, niter)


def eigvalsh(x, UPLO="L", name=None):  # noqa: N803 - Paddle's name
    """Ascending eigenvalues of symmetric matrices."""
    return api.eigh(x, UPLO)[0]


def matrix_power(x, n, name=None):
    """x multiplied by itself n times (inverse powers for n < 0, identity for n = 0)."""
    if n == 0:
        size = x.shape[-1]
        return api.add(api.scale(x, 0.0), api.eye(size, size, x.dtype))
    if n < 0:
        x, n = api.inv(x), -n
    result, base = None, x
    while n:
        if n & 1:
            result = base if result is None else api.matmul(result, base)
        n >>= 1
        if n:
            base = api.matmul(base, base)
    return result


def cond(x, p=None, name=None):
    """Condition number: ratio of extreme singular values (p None, 2, -2) or
    norm(x, p) * norm(inv(x), p) for 'fro', 'nuc', 1, -1, inf, -inf."""
    if p in (None, 2, -2):
        s = api.svd(x, False)[1]
        big, small = api.max(s, [-1]), api.min(s, [-1])
        return api.divide(small, big) if p == -2 else api.divide(big, small)
    return api.multiply(matrix_norm(x, p), matrix_norm(api.inv(x), p))


def multi_dot(x, name=None):
    """Product of a list of matrices, left to right."""
    x = tensor_list(x, "x", "multi_dot")
    result = x[0]
    for m in x[1:]:
        result = api.matmul(result, m)
    return result


def lstsq(x, y, rcond=None, driver=None, name=None):
    """(solution, residuals, rank, singular_values) of least squares x @ solution = y."""
    return api.lstsq(x, y, rcond)


def _check_square_system(x, y, fn):
    """x [*, M, M] and y [*, M, K] (the right-hand sides), else a ValueError naming fn."""
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2] or len(y.shape) < 2 or (
            y.shape[-2] != x.shape[-1]):
        raise ValueError(f"{fn}: need a square [*, M, M] matrix and [*, M, K] right-hand "
                         f"sides, got {x.shape} and {y.shape}")


def _transposed(x):
    rank = len(x.shape)
    return api.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """Solution of x @ out = y reading only the upper (or lower) triangle of x, transposed
    first when `transpose`, with a unit diagonal assumed when `unitriangular`."""
    _check_square_system(x, y, "triangular_solve")
    tri = api.triu(x) if upper else api.tril(x)
    if unitriangular:
        size = x.shape[-1]
        eye = api.eye(size, size, x.dtype)
        tri = api.add(api.multiply(tri, api.scale(eye, -1.0, 1.0)), eye)
    return api.solve(_transposed(tri) if transpose else tri, y)


def _square_lu(lu, pivots, fn):
    """Check `fn`'s packed LU [*, N, N] and pivots [*, N]; returns N."""
    shape = list(lu.shape)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"{fn}: argument 'lu' must be square matrices [*, N, N] from "
                         f"paddle.linalg.lu, got shape {shape}")
    if list(pivots.shape) != shape[:-1]:
        raise ValueError(f"{fn}: argument 'pivots' must have shape {shape[:-1]} to go with "
                         f"lu {shape}, got {list(pivots.shape)}")
    return shape[-1]


def lu_solve(b, lu, pivots, trans="N", name=None):
    """The solution x [*, N, K] of A @ x = b (trans "N"), A^T @ x = b ("T") or A^H @ x = b
    ("C"), where A = P @ L @ U is what `lu` packed into lu [*, N, N] and pivots [*, N].
    Composed of the permutation, two triangular solves and a matmul, so b and lu have
    gradients.

    Example: ``x = paddle.linalg.lu_solve(b, *paddle.linalg.lu(a))`` solves a @ x = b."""
    if trans not in ("N", "T", "C"):
        raise ValueError(f"lu_solve: argument 'trans' must be 'N', 'T' or 'C', got {trans!r}")
    n = _square_lu(lu, pivots, "lu_solve")
    if len(b.shape) < 2 or b.shape[-2] != n:
        raise ValueError(f"lu_solve: argument 'b' must be [*, {n}, K] to go with lu "
                         f"{list(lu.shape)}, got shape {list(b.shape)}")
    perm = api.lu_permutation(pivots, n, lu.dtype)
    if trans == "N":  # L U x = P^T b
        y = api.matmul(perm, b, True, False)
        y = triangular_solve(lu, y, False, False, True)
        return triangular_solve(lu, y, True, False, False)
    packed = api.conj(lu) if trans == "C" else lu
    y = triangular_solve(packed, b, True, True, False)   # U^T y = b
    y = triangular_solve(packed, y, False, True, True)   # L^T z = y
    return api.matmul(perm, y)


def householder_product(x, tau, name=None):
    """The first N columns of H_1 @ H_2 @ ... @ H_K for x [*, M, N] and tau [*, K] (K <= N <=
    M), H_i = I - tau_i v_i v_i^H with v_i = (0, ..., 0, 1, x[i+1:, i]): the Q of a
    Householder QR (LAPACK's orgqr). x is not changed; composed of matmuls, so x and tau
    have gradients."""
    shape = list(x.shape)
    if len(shape) < 2 or len(tau.shape) < 1 or not shape[-2] >= shape[-1] >= tau.shape[-1]:
        raise ValueError(f"householder_product: x must be [*, M, N] with M >= N and tau "
                         f"[*, K] with K <= N, got x {shape} and tau {list(tau.shape)}")
    if list(tau.shape[:-1]) != shape[:-2]:
        raise ValueError(f"householder_product: tau's batch dims {list(tau.shape[:-1])} must "
                         f"be x's {shape[:-2]}")
    m, n = shape[-2:]
    q = api.add(api.full_like(x[..., :, :1], 0.0), api.eye(m, m, x.dtype))  # [*, M, M]
    for i in range(tau.shape[-1]):
        below = x[..., i + 1:, i:i + 1]
        unit = api.full_like(x[..., :1, :1], 1.0)
        parts = [api.full_like(x[..., :i, :1], 0.0), unit, below] if i else [unit, below]
        v = api.concat(parts, -2)  # [*, M, 1]
        step = api.matmul(api.matmul(q, v), api.conj(v), False, True)
        q = api.subtract(q, api.multiply(step, tau[..., i:i + 1, None]))
    return q[..., :, :n]


def cholesky_inverse(x, upper=False, name=None):
    """The inverse of A from its Cholesky factor x [*, N, N] (A = x x^T, or x^T x when
    `upper`): cholesky_solve of the identity, so it has a gradient."""
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"cholesky_inverse: x must be square matrices [*, N, N], got shape "
                         f"{list(x.shape)}")
    n = x.shape[-1]
    identity = api.add(api.full_like(x, 0.0), api.eye(n, n, x.dtype))
    return cholesky_solve(identity, x, upper)


def matrix_transpose(x, name=None):
    """x with its last two axes swapped."""
    if len(x.shape) < 2:
        raise ValueError(f"matrix_transpose: x needs at least 2 dims, got shape "
                         f"{list(x.shape)}")
    return api.transpose(x, [*range(len(x.shape) - 2), len(x.shape) - 1, len(x.shape) - 2])


matmul = api.matmul
diagonal = api.diagonal


def cholesky_solve(x, y, upper=False, name=None):
    """Solution of A @ out = x given A's Cholesky factor y (A = y y^T, or y^T y when
    `upper`): two triangular solves."""
    _check_square_system(y, x, "cholesky_solve")
    inner = triangular_solve(y, x, upper=upper, transpose=upper)
    return triangular_solve(y, inner, upper=upper, transpose=not upper)

"""Cases of the general eigen- and LU decompositions (kernels/linalg.py: eig, lu,
lu_permutation), judged by rebuilding the input and against a loop-by-loop reference."""
import numpy as np

from sampan.core.dtype import float64
from tests.ops.case import OpCase, rand

_rng = np.random.default_rng(5)


def _real_spectrum(*shape):
    """Non-symmetric matrices with well separated real eigenvalues (1, 3, 5, ...)."""
    n = shape[-1]
    basis = _rng.uniform(-1, 1, size=shape) + 2 * np.eye(n)
    return basis @ np.diag(np.arange(n) * 2.0 + 1.0) @ np.linalg.inv(basis)


def _eig_check(outs, inputs, attrs):
    """x v = v diag(w), unit-norm columns, complex outputs."""
    w, v = outs
    x = inputs["x"]
    assert w.dtype.kind == "c" and v.dtype.kind == "c"
    np.testing.assert_allclose(x @ v, v * w[..., None, :], atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1.0, rtol=1e-9)


def _lu_reference(a, pivot=True):
    """Packed LU and 1-based pivots of one matrix, row by row as in a textbook."""
    a = a.copy()
    m, n = a.shape
    pivots = []
    for j in range(min(m, n)):
        p = j + int(np.argmax(np.abs(a[j:, j]))) if pivot else j
        pivots.append(p + 1)
        a[[j, p]] = a[[p, j]]
        for i in range(j + 1, m):
            a[i, j] /= a[j, j]
            a[i, j + 1:] -= a[i, j] * a[j, j + 1:]
    return a, np.array(pivots, np.int32)


def _lu_ref(x, pivot=True):
    """_lu_reference over the batch, with zero infos."""
    flat = x.reshape((-1,) + x.shape[-2:])
    parts = [_lu_reference(a, pivot) for a in flat]
    lus = np.stack([p[0] for p in parts]).reshape(x.shape)
    pivots = np.stack([p[1] for p in parts]).reshape(x.shape[:-2] + (-1,))
    return lus, pivots, np.zeros(x.shape[:-2], np.int32)


def _permutation_ref(pivots, rows, dtype):
    """P with P[order[i], i] = 1 after swapping order's entries as the pivots say."""
    flat = pivots.reshape(-1, pivots.shape[-1])
    mats = []
    for swaps in flat:
        order = list(range(rows))
        for i, p in enumerate(swaps):
            order[i], order[p - 1] = order[p - 1], order[i]
        mat = np.zeros((rows, rows))
        mat[order, range(rows)] = 1
        mats.append(mat)
    return np.stack(mats).reshape(pivots.shape[:-1] + (rows, rows))


CASES = [
    OpCase("eig", {"x": _real_spectrum(3, 3)}, check=_eig_check),
    OpCase("eig", {"x": _real_spectrum(2, 4, 4)}, check=_eig_check, name="batched"),
    OpCase("eig", {"x": np.array([[0.0, -2.0], [2.0, 0.0]])}, check=_eig_check, grad=(),
           name="complex_pair"),
    OpCase("lu", {"x": rand(4, 4)}, ref=_lu_ref, rtol=1e-9, atol=1e-12),
    OpCase("lu", {"x": rand(2, 5, 3)}, ref=_lu_ref, rtol=1e-9, atol=1e-12, name="tall"),
    OpCase("lu", {"x": rand(2, 3, 5)}, ref=_lu_ref, rtol=1e-9, atol=1e-12, name="wide"),
    OpCase("lu", {"x": rand(3, 3) + 4 * np.eye(3)}, {"pivot": False}, ref=_lu_ref, rtol=1e-9,
           atol=1e-12, name="no_pivot"),
    OpCase("lu_permutation", {"pivots": np.array([[3, 3], [2, 3]], np.int32)},
           {"rows": 3, "dtype": float64}, ref=_permutation_ref),
]

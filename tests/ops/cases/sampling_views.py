"""Cases of standard_gamma and binomial (kernels/random_draws.py: draws checked for support,
dtype and sample mean) and as_strided (kernels/strided.py: against NumPy's as_strided)."""
import numpy as np

from tests.ops.case import OpCase, positive, rand


def _gamma_check(outs, inputs, attrs):
    """Non-negative draws in x's dtype whose mean over 4000 copies is near the shape x."""
    out, x = outs[0], inputs["x"]
    assert out.dtype == x.dtype and out.shape == x.shape and (out >= 0).all()
    assert abs(out.mean(axis=0) - x.mean(axis=0)).max() < 0.25


def _binomial_check(outs, inputs, attrs):
    """int64 draws in [0, count] with sample mean near count * prob."""
    out, count, prob = outs[0], inputs["count"], inputs["prob"]
    assert out.dtype == np.int64 and out.shape == np.broadcast_shapes(count.shape, prob.shape)
    assert (out >= 0).all() and (out <= count).all()
    assert abs(out.mean(axis=0) - (count * prob).mean(axis=0)).max() < 0.6


def _strided_ref(shape, stride, offset=0):
    """NumPy's view of a flat float64 array at element strides (offset in bytes)."""
    def ref(x, **_):
        flat = np.ascontiguousarray(x).reshape(-1)[offset // 8:]
        return np.lib.stride_tricks.as_strided(flat, shape, [s * 8 for s in stride])
    return ref


def _strided_case(shape, stride, offset=0, name=""):
    """as_strided of a 2x4x6 float64 tensor."""
    attrs = {"shape": shape, "stride": stride, "offset": offset}
    return OpCase("as_strided", {"x": rand(2, 4, 6)}, attrs, ref=_strided_ref(shape, stride, offset),
                  name=name)


CASES = [
    OpCase("standard_gamma", {"x": np.tile(np.array([0.5, 2.0, 7.0]), (4000, 1))},
           check=_gamma_check, static=False),
    OpCase("standard_gamma", {"x": np.tile(positive(2, low=1.0, high=3.0), (4000, 1))
                              .astype("float32")}, check=_gamma_check, static=False, name="f32"),
    OpCase("binomial", {"count": np.tile(np.array([0, 10, 50], "int64"), (4000, 1)),
                        "prob": np.array([0.5, 0.2, 0.6])}, check=_binomial_check, static=False),
    OpCase("binomial", {"count": np.full((4000, 1), 8.0), "prob": np.array([0.0, 1.0, 0.5])},
           check=_binomial_check, static=False, name="float_count"),
    _strided_case([8, 6], [6, 1], name="reshape"),
    _strided_case([3, 3], [1, 3], 16, name="transposed"),
    _strided_case([4, 5], [2, 1], name="overlapping"),
    _strided_case([2, 0], [5, 1], name="empty"),
]

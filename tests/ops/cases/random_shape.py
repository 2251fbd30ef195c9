"""Cases for the random ops whose sizes come from a tensor (uniform_random, gaussian_random)."""
import numpy as np

from tests.ops.case import OpCase
from tests.ops.cases.nn import _seeded_check


def _shape_check(dtype, low, high, mean, std):
    """Check of a draw: sizes from the shape input, dtype, range, sample mean and std."""
    def check(outs, inputs, attrs):
        out = outs[0]
        assert out.shape == tuple(inputs["shape"]) and out.dtype == np.dtype(dtype)
        assert out.min() >= low and out.max() < high, f"range [{out.min()}, {out.max()}]"
        assert abs(out.mean() - mean) < 0.15 and abs(out.std() - std) < 0.15, \
            f"mean {out.mean()}, std {out.std()}"
    return check


CASES = [
    OpCase("uniform_random", {"shape": np.array([30, 40], "int64")},
           {"min": 2.0, "max": 3.0, "dtype": "float64"},
           check=_shape_check("float64", 2, 3, 2.5, 12 ** -0.5),
           static=False),
    OpCase("uniform_random", {"shape": np.array([3, 4], "int32")}, {"seed": 7},
           check=_seeded_check(lambda g, a: g.uniform(-1.0, 1.0, size=(3, 4)).astype("float32")),
           static=False, name="seed"),
    OpCase("gaussian_random", {"shape": np.array([4000], "int64")}, {"mean": 1.0, "std": 2.0},
           check=_shape_check("float32", -np.inf, np.inf, 1.0, 2.0),
           static=False),
    OpCase("gaussian_random", {"shape": np.array([2, 3], "int64")}, {"seed": 11},
           check=_seeded_check(lambda g, a: g.normal(0.0, 1.0, size=(2, 3)).astype("float32")),
           static=False, name="seed"),
]

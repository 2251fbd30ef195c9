"""Cases for ops whose sizes come from a tensor."""
import numpy as np

from sampan.core.dtype import float32, int64
from tests.ops.case import OpCase, rand

CASES = [
    OpCase("reshape_dynamic", {"x": rand(2, 3, 4), "shape": np.array([2, -1], "int64")},
           ref=lambda x, shape: x.reshape(2, 12)),
    OpCase("reshape_dynamic", {"x": rand(2, 6), "shape": np.array([0, 3, 2], "int64")},
           ref=lambda x, shape: x.reshape(2, 3, 2), name="copy_dim"),
    OpCase("pad_dynamic", {"x": rand(2, 3, 4), "paddings": np.array([1, 0, 2, 3], "int64")},
           ref=lambda x, paddings: np.pad(x, [(0, 0), (2, 3), (1, 0)])),
    OpCase("pad_dynamic", {"x": rand(1, 3, 3, 2), "paddings": np.array([1, 2, 0, 1], "int32")},
           {"mode": "reflect", "data_format": "NHWC"},
           ref=lambda x, paddings, mode, data_format: np.pad(
               x, [(0, 0), (0, 1), (1, 2), (0, 0)], mode="reflect"), name="reflect_nhwc"),
    OpCase("full_dynamic", {"shape": np.array([2, 3], "int64")},
           {"fill_value": 1.5, "dtype": float32},
           ref=lambda shape, fill_value, dtype: np.full((2, 3), 1.5, "float32")),
    OpCase("full_dynamic", {"shape": np.array([4], "int32")}, {"fill_value": 7, "dtype": int64},
           ref=lambda shape, fill_value, dtype: np.full(4, 7, "int64"), name="int"),
]

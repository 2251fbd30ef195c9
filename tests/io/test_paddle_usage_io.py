"""DataLoader batches of Python numbers get Paddle's dtypes (NumPy's for np.array(batch))."""
import numpy as np

import sampan as paddle
from sampan.io import DataLoader, Dataset


class _Numbers(Dataset):
    """Sample i: (i, i / 2, i > 1, np.float32(i))."""

    def __getitem__(self, i):
        return i, i / 2, i > 1, np.float32(i)

    def __len__(self):
        return 4


def test_python_numbers_collate_like_numpy_arrays():
    ints, floats, flags, singles = next(iter(DataLoader(_Numbers(), batch_size=4)))
    assert ints.dtype == paddle.int64 and floats.dtype == paddle.float64
    assert flags.dtype == paddle.bool and singles.dtype == paddle.float32
    np.testing.assert_array_equal(floats.numpy(), [0.0, 0.5, 1.0, 1.5])

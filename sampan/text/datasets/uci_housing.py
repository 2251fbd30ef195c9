"""UCI Housing: Boston house prices, 13 normalised features and the price."""
import numpy as np

from ...core.dtype import get_default_dtype
from ...io import Dataset
from ._common import check_mode, locate

__all__ = ["UCIHousing"]

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
_COLUMNS = 14


class UCIHousing(Dataset):
    """(features, price) pairs from `housing.data` (whitespace-separated numbers, 14 per
    row). Each feature is centred on its mean and divided by its range over the whole file;
    the first 80% of rows are "train", the rest "test". Both items are arrays of the
    default dtype, of shapes [13] and [1].

    Example:
        >>> data = UCIHousing(data_file="housing.data", mode="test")
    """

    def __init__(self, data_file=None, mode="train", download=True):
        self.mode = check_mode("UCIHousing", mode, ("train", "test"))
        self.data_file = locate("UCIHousing", data_file, URL, "uci_housing", download,
                                "data_file")
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self, feature_num=_COLUMNS, ratio=0.8):
        values = np.loadtxt(self.data_file, dtype=np.float64).ravel()
        if values.size % feature_num:
            raise ValueError(f"UCIHousing: {self.data_file} holds {values.size} numbers, not "
                             f"a whole number of rows of {feature_num}")
        data = values.reshape(-1, feature_num)
        features = data[:, :-1]
        span = features.max(axis=0) - features.min(axis=0)
        data[:, :-1] = (features - features.mean(axis=0)) / span
        offset = int(data.shape[0] * ratio)
        self.data = data[:offset] if self.mode == "train" else data[offset:]

    def __getitem__(self, idx):
        row = self.data[idx]
        return row[:-1].astype(self.dtype), row[-1:].astype(self.dtype)

    def __len__(self):
        return len(self.data)

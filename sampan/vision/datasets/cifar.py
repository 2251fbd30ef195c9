"""Cifar10 and Cifar100 from the "python version" tar.gz, read without unpickling."""
import tarfile

import numpy as np

from ...core.dtype import get_default_dtype
from ...io import Dataset
from ._source import check_mode, locate, resolve_backend
from .pickled_batches import load_batch

__all__ = ["Cifar10", "Cifar100"]

_URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"


def _field(batch, *names):
    """batch[name] for the first name present, as bytes (Python 2 files) or str keys."""
    for name in names:
        for key in (name.encode(), name):
            if key in batch:
                return batch[key]
    return None


class Cifar10(Dataset):
    """CIFAR-10: (image, label) pairs, the image an HWC (32, 32, 3) array (float32 after
    `transform`, if any), the label an int64 scalar array.

    The batches inside the archive are pickles; they are read by a restricted reader that
    accepts only plain data (dicts, lists, strings, numeric arrays) and refuses anything else
    without running it.

    Args:
        data_file (str, optional): the cifar-10-python.tar.gz archive.
        mode (str): "train" or "test".
        transform (callable, optional): applied to each image.
        download (bool): with data_file unset, use the archive in Paddle's download cache
            (~/.cache/paddle/dataset/cifar). sampan cannot download: a missing file is an
            error naming it.
        backend (str, optional): "cv2" (NumPy arrays); "pil" is not supported.

    Example:
        >>> train = Cifar10(data_file="cifar-10-python.tar.gz", transform=ToTensor())
    """

    ARCHIVE = "cifar-10-python.tar.gz"
    MEMBER_FLAGS = {"train": "data_batch", "test": "test_batch"}

    def __init__(self, data_file=None, mode="train", transform=None, download=True,
                 backend=None):
        self.mode = check_mode(mode)
        self.backend = resolve_backend(backend)
        self.flag = self.MEMBER_FLAGS[self.mode]
        self.data_file = locate(type(self).__name__, data_file, _URL_PREFIX + self.ARCHIVE,
                                "cifar", download, "data_file")
        self.transform = transform
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self):
        self.data = []
        with tarfile.open(self.data_file, mode="r") as archive:
            members = sorted((m for m in archive.getmembers()
                              if m.isfile() and self.flag in m.name), key=lambda m: m.name)
            for member in members:
                batch = load_batch(archive.extractfile(member).read(),
                                   f"{self.data_file}:{member.name}")
                self._add_batch(batch, member.name)

    def _add_batch(self, batch, name):
        data = _field(batch, "data")
        labels = _field(batch, "labels", "fine_labels")
        if not isinstance(data, np.ndarray) or data.ndim != 2 or data.shape[1] != 3072 \
                or labels is None or len(labels) != len(data):
            raise ValueError(f"{self.data_file}:{name} is not a CIFAR batch (a 'data' array "
                             f"of N x 3072 and N labels)")
        self.data.extend(zip(data, labels))

    def __getitem__(self, idx):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.transform is not None:
            image = self.transform(image)
        return image.astype(self.dtype), np.array(label).astype("int64")

    def __len__(self):
        return len(self.data)


class Cifar100(Cifar10):
    """CIFAR-100 (fine labels); arguments as Cifar10, with cifar-100-python.tar.gz."""

    ARCHIVE = "cifar-100-python.tar.gz"
    MEMBER_FLAGS = {"train": "train", "test": "test"}

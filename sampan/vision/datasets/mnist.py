"""MNIST and FashionMNIST from their idx-ubyte gzip files."""
import gzip
import math
import struct

import numpy as np

from ...core.dtype import get_default_dtype
from ...io import Dataset
from ._source import check_mode, locate, resolve_backend

__all__ = ["MNIST", "FashionMNIST"]

_IMAGE_MAGIC, _LABEL_MAGIC = 2051, 2049


def _read_up_to(f, size, chunk=1 << 20):
    """At most `size` bytes, read in chunks so that a header declaring more data than the
    file holds costs no more memory than the file."""
    parts = []
    while size > 0:
        part = f.read(min(chunk, size))
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _read_idx(path, magic, header_ints):
    """The header integers and the uint8 payload of an idx file (gzip), sizes checked."""
    with gzip.open(path, "rb") as f:
        header = f.read(4 * header_ints)
        if len(header) != 4 * header_ints:
            raise ValueError(f"{path}: truncated idx header")
        values = struct.unpack(f">{header_ints}I", header)
        if values[0] != magic:
            raise ValueError(f"{path}: idx magic number {values[0]}, expected {magic}")
        size = math.prod(values[1:])
        payload = _read_up_to(f, size)
        if len(payload) != size or f.read(1):
            raise ValueError(f"{path}: the header declares {size} bytes of data, the file "
                             f"holds {len(payload)}{' or more' if len(payload) == size else ''}")
    return values[1:], np.frombuffer(payload, np.uint8)


class MNIST(Dataset):
    """The MNIST handwritten digits: (image, label) pairs, the label an int64 array of shape
    [1]. Images are as Paddle gives them: by default (no `backend`, Paddle's PIL mode) the
    transform gets the uint8 (H, W) image a PIL "L" image converts to, so `ToTensor`
    scales it to [0, 1]; with backend="cv2" it gets a float32 (H, W) array of 0-255 values.
    An image without transform, or an array a transform returns, comes out float32.

    Args:
        image_path (str, optional): the images' idx3-ubyte .gz file.
        label_path (str, optional): the labels' idx1-ubyte .gz file.
        mode (str): "train" or "test" (which cached files to use when paths are not given).
        transform (callable, optional): applied to each image.
        download (bool): with a path unset, use the file in Paddle's download cache
            (~/.cache/paddle/dataset/...). sampan cannot download: a missing file is an error
            naming it.
        backend (str, optional): None (Paddle's default PIL mode, as uint8 arrays) or "cv2";
            "pil" itself is not supported (sampan has no PIL).

    Example:
        >>> train = MNIST(image_path="train-images-idx3-ubyte.gz",
        ...               label_path="train-labels-idx1-ubyte.gz", transform=ToTensor())
    """

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    FILES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
             "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None,
                 download=True, backend=None):
        self.mode = check_mode(mode)
        self._uint8_to_transform = backend is None  # Paddle's default backend is PIL
        self.backend = resolve_backend(backend)
        image_file, label_file = self.FILES[self.mode]
        name = type(self).__name__
        self.image_path = locate(name, image_path, self.URL_PREFIX + image_file, self.NAME,
                                 download, "image_path")
        self.label_path = locate(name, label_path, self.URL_PREFIX + label_file, self.NAME,
                                 download, "label_path")
        self.transform = transform
        self._parse_dataset()
        self.dtype = get_default_dtype()

    def _parse_dataset(self):
        (count, rows, cols), pixels = _read_idx(self.image_path, _IMAGE_MAGIC, 4)
        (label_count,), labels = _read_idx(self.label_path, _LABEL_MAGIC, 2)
        if count != label_count:
            raise ValueError(f"{self.image_path} holds {count} images but {self.label_path} "
                             f"{label_count} labels")
        self.images = pixels.reshape(count, rows, cols)
        self.labels = labels.astype(np.int64).reshape(count, 1)

    def __getitem__(self, idx):
        image = self.images[idx]
        if self.transform is not None:
            image = self.transform(image if self._uint8_to_transform
                                   else image.astype(np.float32))
        if isinstance(image, np.ndarray):
            image = image.astype(self.dtype)
        return image, self.labels[idx].copy()

    def __len__(self):
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST (Zalando's clothing images), in MNIST's format; arguments as MNIST."""

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"

"""DatasetFolder and ImageFolder: samples found by walking a directory tree."""
import os

from ...io import Dataset
from ..image import get_image_backend, image_load

__all__ = ["DatasetFolder", "ImageFolder", "IMG_EXTENSIONS", "default_loader",
           "has_valid_extension", "make_dataset"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp",
                  ".npy")


def has_valid_extension(filename, extensions):
    """Whether `filename` ends with one of `extensions` (case-insensitive)."""
    if not isinstance(extensions, (list, tuple)):
        raise TypeError("`extensions` must be list or tuple.")
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def default_loader(path):
    """Load a .npy image (a NumPy array, or a Tensor under the 'tensor' backend). Other image
    formats need a `loader` of your own: sampan has neither PIL nor OpenCV."""
    return image_load(path, get_image_backend())


def _validity(extensions, is_valid_file):
    if extensions is not None and is_valid_file is not None:
        raise ValueError("Both extensions and is_valid_file cannot be passed at the same time")
    if is_valid_file is not None:
        return is_valid_file, extensions
    extensions = IMG_EXTENSIONS if extensions is None else extensions
    return (lambda path: has_valid_extension(path, extensions)), extensions


def _walk(directory, is_valid_file):
    """Files under `directory` accepted by `is_valid_file`, in sorted order."""
    found = []
    for root, _, names in sorted(os.walk(directory, followlinks=True)):
        found += [os.path.join(root, name) for name in sorted(names)
                  if is_valid_file(os.path.join(root, name))]
    return found


def make_dataset(dir, class_to_idx, extensions=None, is_valid_file=None):
    """(path, class index) for every accepted file under `dir/<class>/`."""
    is_valid_file, _ = _validity(extensions, is_valid_file)
    dir = os.path.expanduser(dir)
    return [(path, class_to_idx[target]) for target in sorted(class_to_idx)
            if os.path.isdir(os.path.join(dir, target))
            for path in _walk(os.path.join(dir, target), is_valid_file)]


def _none_found(root, what, extensions):
    supported = ",".join(extensions) if extensions else "(is_valid_file)"
    return RuntimeError(f"Found 0 {what} in subfolders of: {root}\n"
                        f"Supported extensions are: {supported}")


class DatasetFolder(Dataset):
    """Samples arranged as `root/<class>/.../<file>`: (sample, class index) pairs, classes
    numbered in sorted order.

    Args:
        root (str): the root directory.
        loader (callable, optional): path -> sample; default loads .npy arrays (sampan
            decodes no other image format).
        extensions (list[str]|tuple[str], optional): accepted file extensions (default
            IMG_EXTENSIONS, which includes .npy). Not together with is_valid_file.
        transform (callable, optional): applied to each sample.
        is_valid_file (callable, optional): path -> whether to use the file.

    Attributes: classes, class_to_idx, samples ((path, index) pairs), targets.

    Example:
        >>> folder = DatasetFolder("data/train", extensions=(".npy",))
    """

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root, self.transform = root, transform
        is_valid_file, extensions = _validity(extensions, is_valid_file)
        self.classes, self.class_to_idx = self._find_classes(root)
        self.samples = make_dataset(root, self.class_to_idx, is_valid_file=is_valid_file)
        if not self.samples:
            raise _none_found(root, "directories", extensions)
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.targets = [target for _, target in self.samples]

    @staticmethod
    def _find_classes(dir):
        classes = sorted(entry.name for entry in os.scandir(dir) if entry.is_dir())
        return classes, {name: i for i, name in enumerate(classes)}

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self):
        return len(self.samples)


class ImageFolder(Dataset):
    """Every accepted file under `root` (any depth) as a one-item list [sample]; arguments as
    DatasetFolder, without classes.

    Example:
        >>> images = ImageFolder("data/unlabelled", loader=numpy.load)
    """

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root, self.transform = root, transform
        is_valid_file, extensions = _validity(extensions, is_valid_file)
        self.samples = _walk(os.path.expanduser(root), is_valid_file)
        if not self.samples:
            raise _none_found(root, "files", extensions)
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self):
        return len(self.samples)

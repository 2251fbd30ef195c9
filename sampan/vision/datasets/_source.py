"""Where a dataset's files come from: the path given, or Paddle's download cache. sampan
never downloads (there is no network access); a missing file is an error saying which file
to fetch and where to put it."""
import os

from ..image import _check_backend, get_image_backend

CACHE_DIR = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")


def locate(dataset, given, url, folder, download, argument):
    """`given` if set, else the cached copy of `url` under ~/.cache/paddle/dataset/`folder`
    (where Paddle keeps its downloads), else a clear error."""
    if given is not None:
        if not os.path.isfile(given):
            raise FileNotFoundError(f"{dataset}: {argument}={given!r} does not exist")
        return given
    if not download:
        raise ValueError(f"{dataset}: {argument} is not set and downloading automatically "
                         f"is disabled")
    cached = os.path.join(CACHE_DIR, folder, url.rsplit("/", 1)[-1])
    if os.path.isfile(cached):
        return cached
    raise RuntimeError(
        f"{dataset}: cannot download {url}: sampan has no network access. Fetch the file "
        f"yourself and pass {argument}='/path/to/{url.rsplit('/', 1)[-1]}', or put it at "
        f"{cached}")


def resolve_backend(backend):
    """The dataset backend: 'cv2' (NumPy arrays) unless given; 'pil' is refused."""
    backend = get_image_backend() if backend is None else backend
    _check_backend(backend, ("cv2",))
    return backend


def check_mode(mode):
    if mode.lower() not in ("train", "test"):
        raise ValueError(f"mode should be 'train' or 'test', but got {mode}")
    return mode.lower()

"""paddle.vision's image backend switch and image_load.

sampan decodes no image formats (it has neither PIL nor OpenCV): images are NumPy arrays,
loaded from .npy files. The default backend is therefore 'cv2' (NumPy arrays), where Paddle's
is 'pil'; 'tensor' returns paddle Tensors; 'pil' is refused.
"""
import os

import numpy as np

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

_BACKENDS = ("cv2", "tensor")
_backend = "cv2"


def _check_backend(backend, allowed=_BACKENDS):
    if backend == "pil":
        raise ValueError("the 'pil' image backend is not supported: sampan has no PIL; use "
                         "'cv2' (NumPy arrays)")
    if backend not in allowed:
        raise ValueError(f"Expected backend are one of {list(allowed)}, but got {backend!r}")


def set_image_backend(backend):
    """Choose what image loaders return: 'cv2' (NumPy HWC arrays, the default) or 'tensor'."""
    global _backend
    _check_backend(backend)
    _backend = backend


def get_image_backend():
    """The current image backend ('cv2' unless set_image_backend changed it)."""
    return _backend


def load_array(path):
    """An image stored as a .npy file (pickled object arrays are refused)."""
    if os.path.splitext(str(path))[1].lower() != ".npy":
        raise ValueError(f"cannot decode {path!r}: sampan reads images only from .npy files "
                         f"(it has neither PIL nor OpenCV); convert the image to a NumPy array "
                         f"saved with numpy.save, or pass a loader of your own")
    return np.load(path, allow_pickle=False)


def image_load(path, backend=None):
    """Load the image at `path` (a .npy file) as a NumPy array ('cv2') or a Tensor
    ('tensor'); `backend` defaults to get_image_backend().

    Example:
        >>> img = image_load("cat.npy")        # an HWC uint8 array
    """
    backend = get_image_backend() if backend is None else backend
    _check_backend(backend)
    array = load_array(path)
    if backend == "tensor":
        from ..tensor.creation import to_tensor
        return to_tensor(array)
    return array

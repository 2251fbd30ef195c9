"""paddle.vision: models, transforms and datasets for images, on NumPy.

Images are NumPy arrays (HWC) or CHW Tensors; sampan has neither PIL nor OpenCV and no
network access, so `pretrained=True` and dataset downloads are refused with errors saying
what to do instead. See docs/vision.md.

The submodules load on first use (`paddle.vision.models`, `from paddle.vision.transforms
import ToTensor`, ...), keeping `import sampan` fast; Paddle's re-exports at this level
(`paddle.vision.resnet18`, `paddle.vision.ToTensor`, `paddle.vision.MNIST`) work too.
"""
import importlib

from .image import get_image_backend, image_load, set_image_backend

__all__ = ["datasets", "models", "ops", "transforms", "set_image_backend",
           "get_image_backend", "image_load"]

_SUBMODULES = ("datasets", "models", "ops", "transforms")
_REEXPORTING = ("models", "transforms", "datasets")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if not name.startswith("__"):
        for submodule in _REEXPORTING:
            module = importlib.import_module(f"{__name__}.{submodule}")
            if name in module.__all__:
                return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    names = set(globals()) | set(_SUBMODULES)
    for submodule in _REEXPORTING:
        names |= set(importlib.import_module(f"{__name__}.{submodule}").__all__)
    return sorted(names)

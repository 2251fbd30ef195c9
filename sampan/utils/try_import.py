"""`paddle.utils.try_import`: import an optional dependency or say how to install it."""
import importlib

__all__ = ["try_import"]

# import names whose pip package is named differently
_PIP_NAMES = {"cv2": "opencv-python", "PIL": "pillow", "sklearn": "scikit-learn",
              "yaml": "pyyaml"}


def try_import(module_name, err_msg=None):
    """The module `module_name`, imported; ImportError with `err_msg` (default: which
    package to pip-install) when it is not installed."""
    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        top = module_name.split(".")[0]
        message = err_msg or (f"Failed importing {module_name}: this program needs it, "
                              f"install it with `pip install {_PIP_NAMES.get(top, top)}`")
        raise ImportError(message) from error

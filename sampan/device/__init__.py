"""`paddle.device`: sampan computes on the CPU; these answer device queries accordingly."""
from ..core.place import (get_device, is_compiled_with_cinn, is_compiled_with_cuda,
                          is_compiled_with_custom_device, is_compiled_with_distribute,
                          is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu,
                          set_device)
from . import cuda

__all__ = ["set_device", "get_device", "is_compiled_with_cuda", "is_compiled_with_xpu",
           "is_compiled_with_rocm", "is_compiled_with_cinn", "is_compiled_with_distribute",
           "is_compiled_with_ipu", "is_compiled_with_custom_device", "get_cudnn_version",
           "get_default_device", "set_default_device", "get_all_device_type",
           "get_available_device", "cuda"]


def get_cudnn_version():
    """None, as a build without cuDNN answers."""
    return None


def get_default_device():
    """The device new tensors are placed on: always 'cpu'."""
    return "cpu"


def set_default_device(device):
    """Set the default device (only the CPU exists: `set_device` checks the name)."""
    set_device(device)


def get_all_device_type():
    """The device types sampan can use: ['cpu']."""
    return ["cpu"]


def get_available_device():
    """The devices sampan can use: ['cpu']."""
    return ["cpu"]

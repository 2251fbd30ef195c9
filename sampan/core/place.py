"""Devices: sampan computes on the CPU; the Place classes exist for Paddle compatibility."""

__all__ = ["CPUPlace", "CUDAPlace", "set_device", "get_device", "is_compiled_with_cuda",
           "is_compiled_with_xpu", "is_compiled_with_rocm", "is_compiled_with_cinn",
           "is_compiled_with_distribute", "is_compiled_with_ipu", "is_compiled_with_custom_device"]


class CPUPlace:
    """The host CPU."""

    def __repr__(self):
        return "Place(cpu)"

    def __eq__(self, other):
        return isinstance(other, CPUPlace)

    def __hash__(self):
        return hash("cpu")

    def _equals(self, other):
        """Paddle's place comparison: True for another CPU place."""
        return self == other

    def is_cpu_place(self):
        """True: this is the CPU."""
        return True

    def is_gpu_place(self):
        """False: not a GPU."""
        return False

    is_xpu_place = is_custom_place = is_cuda_pinned_place = is_gpu_place


class CUDAPlace:
    """A GPU; constructing one fails because sampan has no GPU backend."""

    def __init__(self, device_id=0):
        raise RuntimeError("sampan is CPU-only: CUDAPlace is not available")


_device = ["cpu"]


def set_device(device):
    """Select the device; only "cpu" exists."""
    name = str(device).lower()
    if not name.startswith("cpu"):
        raise ValueError(f"device {device!r} is not available; sampan runs on 'cpu' only")
    _device[0] = "cpu"
    return CPUPlace()


def _set_expected_place(place):
    """Paddle's internal setter of the default place; the CPU is sampan's only one."""
    if not isinstance(place, CPUPlace):
        raise ValueError(f"place {place!r} is not available; sampan runs on CPUPlace only")
    set_device("cpu")


def get_device():
    """The current device name ("cpu")."""
    return _device[0]


def is_compiled_with_cuda():
    """Always False: sampan has no CUDA backend."""
    return False


def is_compiled_with_xpu():
    """Always False: no XPU backend."""
    return False


def is_compiled_with_rocm():
    """Always False: no ROCm backend."""
    return False


def is_compiled_with_cinn():
    """Always False: no CINN compiler."""
    return False


def is_compiled_with_distribute():
    """Always False: one process, no collective backend."""
    return False


def is_compiled_with_ipu():
    """Always False: no IPU backend."""
    return False


def is_compiled_with_custom_device(device_type):
    """Always False: no custom device plugins."""
    return False

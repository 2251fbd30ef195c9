"""IPU sharding and compilation (`ipu_shard_guard`, `set_ipu_shard`, `IpuStrategy`,
`IpuCompiledProgram`): sampan has no IPU backend, so each raises the error a build of
Paddle without IPU raises, at the same point."""
__all__ = ["ipu_shard_guard", "set_ipu_shard", "IpuStrategy", "IpuCompiledProgram"]

_NO_IPU = "Can not use this function since PaddlePaddle is not compiled with IPU"


class ipu_shard_guard:  # noqa: N801 (Paddle's name)
    """Context manager placing the ops built inside on IPU `index` / pipeline `stage`:
    entering it raises ValueError."""

    def __init__(self, index=-1, stage=-1):
        self.index, self.stage = index, stage

    def __enter__(self):
        raise ValueError(_NO_IPU)

    def __exit__(self, *exc):
        return False


def set_ipu_shard(call_func, index=-1, stage=-1):
    """`call_func` (a function or Layer) wrapped to run under ipu_shard_guard; calling it
    raises the guard's ValueError."""
    if not callable(call_func):
        raise TypeError("Unsupported type. Only accept paddle.nn.Layer or function.")

    def wrapper(*args, **kwargs):
        with ipu_shard_guard(index=index, stage=stage):
            return call_func(*args, **kwargs)
    return wrapper


class IpuStrategy:
    """IPU compile options: RuntimeError, as without IPU support."""

    def __init__(self):
        raise RuntimeError("Can not use IpuStrategy in non IPU compiled environment, please "
                           "re-compile with WITH_IPU=ON.")


class IpuCompiledProgram:
    """A Program compiled for IPUs: ValueError, as without IPU support."""

    def __init__(self, program=None, scope=None, ipu_strategy=None):
        raise ValueError(_NO_IPU)

"""Config: where the model files are and which executor passes the predictor uses."""
import os
import warnings

from ..executor.strategy import BuildStrategy
from .model_format import existing_model_path, model_prefix

__all__ = ["Config"]


class Config:
    """Paddle-Inference-style settings: `Config(model_file, params_file)`, `Config(prefix)`,
    `Config(model_dir)` (the one model in that directory), `Config(model_dir, prefix)` (the
    model `prefix` in that directory), `Config(other_config)` (a copy)."""

    def __init__(self, model_path=None, params_path=None):
        self._model = self._params = self._model_dir = None
        self._ir_optim = True
        self._memory_optim = True
        self._threads = 1
        if isinstance(model_path, Config):
            self.__dict__.update(model_path.__dict__)
        elif model_path is not None:
            self.set_model(model_path, params_path)

    def set_model(self, model, params=None):
        """Model and params files; a single argument is a model directory, a prefix or a
        `.pdmodel` path; a directory and a file prefix name the model in that directory."""
        model = _path(model, "model")
        if params is not None and os.path.isdir(model):
            self._model_dir = model
            model, params = os.path.join(model, os.fspath(params)), None
        elif params is None and os.path.isdir(model):
            self._model_dir = model
            model = _model_in_directory(model)
        if params is None:
            prefix = model_prefix(model) or model
            model, params = existing_model_path(prefix), f"{prefix}.pdiparams"
        self._model, self._params = model, _path(params, "params")

    def model_dir(self):
        """The directory given to `Config(model_dir)` / `set_model(model_dir)`, else None."""
        return self._model_dir

    def set_prog_file(self, path):
        """The `.pdmodel` file."""
        self._model = os.fspath(path)

    def set_params_file(self, path):
        """The `.pdiparams` file."""
        self._params = os.fspath(path)

    def prog_file(self):
        return self._model

    def params_file(self):
        return self._params

    def switch_ir_optim(self, x=True):
        """Run the executor's default graph passes (CSE, constant folding, in-place)."""
        self._ir_optim = bool(x)

    def ir_optim(self):
        return self._ir_optim

    def enable_memory_optim(self, x=True):
        """Free intermediate values as soon as their last reader ran."""
        self._memory_optim = bool(x)

    def memory_optim_enabled(self):
        return self._memory_optim

    def set_cpu_math_library_num_threads(self, n):
        """Recorded only: NumPy's BLAS threads are set by OPENBLAS_NUM_THREADS & co."""
        self._threads = int(n)

    def cpu_math_library_num_threads(self):
        return self._threads

    def disable_gpu(self):
        """Accepted for compatibility: sampan runs on the CPU only."""

    def enable_use_gpu(self, memory_pool_init_size_mb=100, device_id=0, precision=None):
        """Accepted as in a CPU-only Paddle build: the predictor still runs on the CPU."""
        warnings.warn("sampan runs inference on the CPU only; enable_use_gpu has no effect",
                      stacklevel=2)

    def use_gpu(self):
        return False

    def gpu_device_id(self):
        return 0

    def enable_mkldnn(self):
        """Accepted for compatibility (no effect)."""

    enable_onednn = disable_mkldnn = disable_onednn = enable_mkldnn

    def set_mkldnn_cache_capacity(self, capacity=0):
        """Accepted for compatibility (no effect)."""

    def switch_ir_debug(self, x=True):
        """Accepted for compatibility (no effect)."""

    def enable_profile(self):
        """Accepted for compatibility (no effect)."""

    def delete_pass(self, name):
        """Accepted for compatibility: Paddle's IR pass names do not apply here."""

    def set_optim_cache_dir(self, path):
        """Accepted for compatibility (nothing is cached on disk)."""

    def enable_new_ir(self, x=True):
        """Accepted for compatibility (sampan has one program representation)."""

    enable_new_executor = enable_new_ir

    def switch_use_feed_fetch_ops(self, x=True):
        """Accepted for compatibility (no effect)."""

    def switch_specify_input_names(self, x=True):
        """Accepted for compatibility (no effect)."""

    def disable_glog_info(self):
        """Accepted for compatibility (sampan writes no glog output)."""

    def glog_info_disabled(self):
        return True

    def build_strategy(self):
        """The executor BuildStrategy these settings select."""
        passes = self._ir_optim
        return BuildStrategy(enable_cse=passes, enable_constant_folding=passes,
                             enable_inplace=passes, memory_optimize=self._memory_optim)

    def summary(self):
        """A short text description."""
        return (f"model: {self._model}\nparams: {self._params}\nir_optim: {self._ir_optim}\n"
                f"memory_optim: {self._memory_optim}\ncpu threads: {self._threads}")


def _path(value, what):
    """`value` as a path string; anything else is a TypeError naming the argument."""
    try:
        return os.fspath(value)
    except TypeError:
        raise TypeError(f"Config: the {what} path must be a str or os.PathLike, got "
                        f"{type(value).__name__}") from None


def _model_in_directory(directory):
    """The path of the one model in `directory`: its `.pdmodel` file, or its `.json` file
    (Paddle 3's name) when there is no `.pdmodel`."""
    names = os.listdir(directory)
    models = sorted(n for n in names if n.endswith(".pdmodel")) or sorted(
        n for n in names if n.endswith(".json"))
    if len(models) != 1:
        raise ValueError(f"Config: model directory {directory!r} must hold exactly one "
                         f".pdmodel (or .json) file, found {models}; pass the model and "
                         f"params files")
    return os.path.join(directory, models[0])

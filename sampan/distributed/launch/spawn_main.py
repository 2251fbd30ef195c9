"""What each rank of `spawn` runs: load the function by name and call it; a failure ends
the whole job (as a failing script does under the launcher)."""
import importlib
import pickle
import runpy
import sys

from ..comm.mpi_runtime import install_abort_on_failure
from ...core.process_env import launched_rank
from .rank_main import guarded


def _load(module, qualname, main_path):
    if module == "__main__":
        namespace = runpy.run_path(main_path, run_name="__mp_main__")
        target = namespace[qualname.split(".")[0]]
        rest = qualname.split(".")[1:]
    else:
        target, rest = importlib.import_module(module), qualname.split(".")
    for part in rest:
        target = getattr(target, part)
    return target


def run(payload_path):
    with open(payload_path, "rb") as f:
        (module, qualname, main_path), args, parent_path = pickle.load(f)
    rank = launched_rank()
    install_abort_on_failure(rank)
    sys.path[:0] = [p for p in parent_path if p not in sys.path]
    guarded(rank, lambda: _load(module, qualname, main_path)(*args))


if __name__ == "__main__":
    run(sys.argv[1])

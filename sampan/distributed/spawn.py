"""`paddle.distributed.spawn(func, args, nprocs)`: run `func(*args)` in `nprocs` ranks
started under mpiexec, as the launcher starts scripts.

The function travels by name (module and qualified name; a function of the main script
is found by running that script in each rank under the name `__mp_main__`, so its
`if __name__ == "__main__":` block does not run again), its arguments by pickle.
"""
import os
import pickle
import sys
import tempfile

from .launch.main import launch

__all__ = ["spawn", "SpawnContext"]


class SpawnContext:
    """The finished job of `spawn` (Paddle's MultiprocessContext): `join()` is immediate."""

    def __init__(self, exit_code):
        self.exit_code = exit_code

    def join(self, timeout=None):
        """True: the ranks already ended (spawn waits for them)."""
        return True


def _function_reference(func):
    module = getattr(func, "__module__", None)
    qualname = getattr(func, "__qualname__", "")
    if module is None or "<locals>" in qualname or "<lambda>" in qualname:
        raise ValueError(f"spawn: func must be a module-level function (got {func!r}): "
                         f"each rank finds it again by module and name")
    main_path = None
    if module == "__main__":
        main_path = os.path.abspath(getattr(sys.modules["__main__"], "__file__", "") or "")
        if not os.path.isfile(main_path):
            raise ValueError("spawn: func is defined in an interactive session; define it "
                             "in a module or script file")
    return module, qualname, main_path


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    """Run `func(*args)` in `nprocs` processes (-1: one per CPU) that form one job;
    each calls `init_parallel_env()` itself, as with Paddle. Raises RuntimeError when a
    rank fails (its traceback is printed by that rank), after every rank has ended.

    Example:
        def train(lr):
            dist.init_parallel_env()
            ...
        if __name__ == "__main__":
            dist.spawn(train, args=(0.1,), nprocs=2)
    """
    nprocs = (os.cpu_count() or 1) if nprocs in (-1, None) else int(nprocs)
    payload = pickle.dumps((_function_reference(func), tuple(args), sys.path))
    with tempfile.NamedTemporaryFile("wb", suffix=".spawn", delete=False) as f:
        f.write(payload)
    try:
        code = launch(nprocs, ["-m", "sampan.distributed.launch.spawn_main", f.name],
                      options.get("log_dir"))
    finally:
        os.unlink(f.name)
    if code != 0:
        raise RuntimeError(f"spawn: the job of {nprocs} ranks running "
                           f"{func.__qualname__} failed with exit status {code}")
    return SpawnContext(code)

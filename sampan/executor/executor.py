"""Executor: run a Program's compiled Plan against a Scope with feeds and fetches."""

import os
from contextlib import nullcontext

import numpy as np

from ..core.flags import FLAGS
from ..core.random import fixed_seed
from ..eager.tensor import Tensor
from .plan import compile as compile_plan
from .run import run_checked, run_parallel, run_sequential
from .scope import global_scope
from .strategy import BuildStrategy, CompiledProgram

__all__ = ["Executor"]


class FeedDtypeError(TypeError, ValueError):
    """A fed array of the wrong dtype: a TypeError, and the ValueError Paddle raises."""


def _fetch_name(item):
    """A fetch_list entry (Variable or name) as a name."""
    if isinstance(item, str):
        return item
    name = getattr(item, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"fetch_list entries must be Variables or names, got "
                        f"{type(item).__name__}")
    return name


def _feed_array(name, value, var):
    """The fed value as an ndarray checked against the data variable's shape and dtype."""
    if isinstance(value, Tensor):
        value = value._data
    elif hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        value = value.numpy()
    if var is None:
        raise ValueError(f"feed contains {name!r}, which is not a variable of the program")
    want = var.dtype.np
    if not isinstance(value, (np.ndarray, np.generic)):
        value = np.asarray(value, dtype=want)
    value = np.asarray(value)
    if value.dtype != want:
        raise FeedDtypeError(f"feed {name!r}: dtype {value.dtype} does not match the "
                             f"variable's dtype {np.dtype(want)}")
    declared = var.shape
    if var.is_data and (len(declared) != value.ndim or any(
            d >= 0 and d != n for d, n in zip(declared, value.shape))):
        raise ValueError(f"feed {name!r}: shape {list(value.shape)} does not match the "
                         f"declared shape {declared} (-1 matches any size)")
    return value


def _verify_then_raise(program, err):
    """Report a Program.verify() failure instead of `err` when the program is malformed."""
    try:
        program.verify()
    except Exception as bad:
        raise bad from err
    raise err


def _one_feed(feed):
    """`feed` as one {name: value} dict: Paddle also takes a list of one dict per place (a
    `DataLoader(return_list=False)` batch); sampan runs on one place."""
    if isinstance(feed, (list, tuple)) and len(feed) == 1 and isinstance(feed[0], dict):
        feed = feed[0]
    if feed and not isinstance(feed, dict):
        raise TypeError(f"feed must be a dict {{name: value}} or a list of one such dict, "
                        f"got {type(feed).__name__}"
                        + (f" of {len(feed)} items" if isinstance(feed, (list, tuple)) else ""))
    return feed or {}


class Executor:
    """Runs static Programs; persistable values live in a Scope between runs."""

    def __init__(self, place=None):
        self.place = place
        self._pools = {}

    def close(self):
        """Release worker threads."""
        for pool in self._pools.values():
            pool.shutdown(wait=True)
        self._pools.clear()

    def _pool(self, workers):
        pool = self._pools.get(workers)
        if pool is None:
            # imported here: concurrent.futures (and logging) cost import time, and only
            # parallel plans need a pool
            from concurrent.futures import ThreadPoolExecutor
            pool = self._pools[workers] = ThreadPoolExecutor(workers - 1, "sampan-exec")
        return pool

    def _compile(self, program, feed, fetch_names, strategy, checked):
        if FLAGS["FLAGS_static_verify"]:
            program.verify()
        if strategy.debug_graphviz_path:
            _draw_once(program, strategy.debug_graphviz_path)
        try:
            return compile_plan(program, tuple(feed), fetch_names, strategy, checked)
        except (KeyError, ValueError, TypeError) as err:
            _verify_then_raise(program, err)

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=True,
            use_prune=False, build_strategy=None, exec_strategy=None):
        """Run `program` (default: the default main program); returns the fetched values.
        (`use_prune` is accepted: only the ops the fetches need run anyway.)"""
        program, build_strategy, exec_strategy = _unpack(program, build_strategy,
                                                         exec_strategy)
        feed = _one_feed(feed)
        scope = scope if scope is not None else global_scope()
        _refresh_learning_rate(program, scope)
        if fetch_list is None:
            fetch_list = []
        elif not isinstance(fetch_list, (list, tuple)):  # one Variable or name, as Paddle
            fetch_list = [fetch_list]
        fetch_names = [_fetch_name(f) for f in fetch_list]
        nan_check = FLAGS["FLAGS_check_nan_inf"]
        checked = bool(nan_check or build_strategy.debug_poison_freed)
        plan = self._compile(program, feed, fetch_names, build_strategy, nan_check)
        regs = plan.template[:]
        _load(plan, regs, feed, scope)
        workers = 1 if FLAGS["FLAGS_new_executor_sequential_run"] or not exec_strategy \
            else exec_strategy.num_threads
        seeding = fixed_seed(program.random_seed) if program.random_seed else nullcontext()
        with seeding:
            if checked:
                run_checked(plan, regs, nan_check)
            elif workers > 1 and plan.parallel.worth:  # the cost model: docs/executor.md
                run_parallel(plan, regs, self._pool(workers), workers)
            else:
                run_sequential(plan, regs)
        for name, slot in plan.writeback:
            scope._write(name, regs[slot])
        return _results(plan, regs, return_numpy)


_DRAWN = {}


def _draw_once(program, path):
    """BuildStrategy.debug_graphviz_path: write the program's graph there (a .dot file
    unless the path names another format of `static.draw`), once per program version."""
    from ..static.graph_drawing import draw
    path = str(path)
    target = path if os.path.splitext(path)[1] else path + ".dot"
    if _DRAWN.get(target) != (id(program), program.version):
        draw(program, target)
        _DRAWN[target] = (id(program), program.version)


def _refresh_learning_rate(program, scope):
    """Write an LRScheduler's current value into the program's learning-rate variable."""
    attached = getattr(program, "_lr_scheduler", None)
    if attached is not None:
        name, scheduler = attached
        holder = scope.find_var(name)
        if holder is not None:
            current = np.array(holder.get_tensor())
            holder.get_tensor().set(np.full_like(current, scheduler()), None)


def _unpack(program, build_strategy, exec_strategy):
    """(Program, BuildStrategy, ExecutionStrategy) from run()'s arguments."""
    if isinstance(program, CompiledProgram):
        build_strategy = build_strategy or program._build_strategy
        exec_strategy = exec_strategy or program._exec_strategy
        program = program.program
    if program is None:
        from ..static.program_state import default_main_program
        program = default_main_program()
    return program, build_strategy or _DEFAULT_BUILD, exec_strategy


_DEFAULT_BUILD = BuildStrategy()


def _load(plan, regs, feed, scope):
    """Put feeds and scope values into the register file; errors name what is missing."""
    for name, slot, var in plan.feed_specs:
        regs[slot] = _feed_array(name, feed[name], var)
    for name, slot, is_data, persistable in plan.externals:
        value = scope._read(name)
        if value is None:
            raise ValueError(_missing_message(name, is_data, persistable))
        regs[slot] = value


def _missing_message(name, is_data, persistable):
    """Why variable `name` has no value at the start of a run."""
    if is_data:
        return f"missing feed for data variable {name!r}, which the fetched values need"
    if persistable:
        return (f"persistable variable {name!r} is not initialized in the scope; run the "
                f"startup program first")
    return f"variable {name!r} has no value: it is not fed, not in the scope, and no op writes it"


def _results(plan, regs, return_numpy):
    """Fetched values as ndarrays (or eager Tensors); persistables are copied so later
    in-place updates never reach arrays already returned, and values kernels left in
    another memory order (channels-last convolutions) are returned contiguous."""
    values = list(plan.fetch_get(regs))
    for k in plan.fetch_copies:
        values[k] = values[k].copy()
    for k, value in enumerate(values):
        if value.__class__ is np.ndarray and not value.flags.c_contiguous:
            values[k] = np.ascontiguousarray(value)
    if return_numpy:
        return values
    from ..eager.tensor import wrap
    return [wrap(v) for v in values]

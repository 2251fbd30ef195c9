"""The instruction loops: fast sequential, checked (NaN/Inf, poisoning) and parallel."""
import numpy as np

from .plan import format_origin
from .straight import failing_instruction, straight_function

__all__ = ["run_sequential", "run_checked", "run_parallel", "OpError"]


class OpError(RuntimeError):
    """A kernel failed (or produced NaN/Inf); the message names the op and its source line."""


def _fail(plan, index, err):
    """Re-raise `err` with the op type and the user's source line."""
    node = plan.nodes[index]
    names = node.type if not node.parts else "+".join(p.type for p in node.parts)
    msg = f"op {names} failed: {type(err).__name__}: {err}\n  {format_origin(node.origin)}"
    try:
        new = type(err)(msg)
    except Exception:
        new = OpError(msg)
    raise new from err


def _store(regs, multi, out, value):
    """Write one instruction's result(s) into the register file."""
    if out >= 0:
        regs[out] = value
    else:
        for s, v in zip(multi[~out], value):
            if s >= 0:
                regs[s] = v


def run_sequential(plan, regs):
    """Run every instruction in order, through the plan's straight-line function
    (generated on the first run: plans only ever run checked or in parallel never pay)."""
    run = plan.__dict__.get("straight")
    if run is None:
        run = plan.straight = straight_function(plan)
    try:
        run(regs)
    except Exception as err:
        index = failing_instruction(run, err)
        if index is None:
            raise
        _fail(plan, index, err)


def _check_finite(plan, index, regs, out):
    """Raise when a floating output of instruction `index` holds NaN or Inf."""
    slots = (out,) if out >= 0 else plan.multi[~out]
    names = plan.bounds[index].out_names
    for s, name in zip(slots, names):
        value = regs[s] if s >= 0 else None
        if (isinstance(value, np.ndarray) and value.dtype.kind in "fc"
                and not np.isfinite(value).all()):
            node = plan.nodes[index]
            raise OpError(f"op {node.type} produced NaN or Inf in output variable {name!r} "
                          f"(FLAGS_check_nan_inf)\n  {format_origin(node.origin)}")


def _held(value):
    """Arrays inside a register value (tensor arrays and gradient stashes nest them)."""
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _held(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _held(item)


def _poison(regs, f, keep):
    """Drop slot f and fill its array with NaN unless live slots or `keep` share it."""
    value = regs[f]
    regs[f] = None
    if (isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.flags.writeable
            and not any(np.shares_memory(value, a)
                        for r in (*regs, *keep) for a in _held(r))):
        value.fill(np.nan)


def run_checked(plan, regs, nan_check):
    """Sequential loop with NaN/Inf checks after each op and optional buffer poisoning.

    Poisoning fills every freed buffer that no live value, feed, scope value or
    constant shares with NaN, so code still reading a freed buffer sees NaN.
    """
    multi, poison = plan.multi, plan.poison
    keep = [r for r in regs if r is not None]
    for fn, args, out, frees, index in plan.code:
        try:
            _store(regs, multi, out, fn(*[regs[a] for a in args]))
        except Exception as err:
            _fail(plan, index, err)
        if nan_check:
            _check_finite(plan, index, regs, out)
        for f in frees:
            _poison(regs, f, keep) if poison else regs.__setitem__(f, None)


class _LaneRun:
    """One parallel run: each lane of the plan's Lanes runs its instructions in order on
    its own thread (lane 0 on the calling one), waiting for other lanes' results through
    one Event per instruction another lane needs."""

    def __init__(self, plan, regs, lanes):
        import threading  # loaded with the first parallel run
        self.plan, self.regs, self.lanes = plan, regs, lanes
        self.done = {i: threading.Event() for i in lanes.signalled}
        self.failed = None  # (instruction, exception) of the first failure

    def lane(self, order):
        """Run one lane; stops early once another lane failed."""
        plan, regs, lanes, done = self.plan, self.regs, self.lanes, self.done
        code, multi, waits, frees = plan.code, plan.multi, lanes.waits, lanes.frees
        for index in order:
            for other in waits[index]:
                done[other].wait()
            if self.failed is not None:
                return
            fn, args, out, _, _ = code[index]
            try:
                _store(regs, multi, out, fn(*[regs[a] for a in args]))
            except Exception as err:
                self.failed = index, err
                for event in done.values():  # wake every waiting lane
                    event.set()
                return
            for f in frees[index]:
                regs[f] = None
            event = done.get(index)
            if event is not None:
                event.set()


def run_parallel(plan, regs, pool, workers):
    """Run the plan's lanes for `workers` threads (`pool` holds workers - 1 of them);
    results are identical to run_sequential."""
    lanes = plan.parallel.lanes(workers)
    run = _LaneRun(plan, regs, lanes)
    futures = [pool.submit(run.lane, order) for order in lanes.order[1:] if order]
    run.lane(lanes.order[0])
    for future in futures:
        future.result()
    if run.failed is not None:
        _fail(plan, *run.failed)

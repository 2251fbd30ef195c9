"""`Optimizer.minimize` in static mode: append backward and update ops to the Program.

Accumulators and the learning rate become persistable variables initialised by the
startup program; each parameter's update is the same registry op the eager `step` runs
(named by `Optimizer._update`), its outputs assigned back to the parameter and the
accumulators.
"""
import numpy as np

from ..core.unique_name import generate
from ..ops._generated import api
from ..static.backward import append_backward
from ..static.program_state import default_startup_program, program_guard
from .lr import LRScheduler

__all__ = ["minimize_static"]


def _persistable(program, startup, name, shape, dtype, value):
    """A persistable variable of main and startup, filled with `value` by the startup."""
    var = program.global_block().create_var(name, shape, dtype, persistable=True)
    startup.global_block().create_var(name, shape, dtype, persistable=True)
    startup.global_block().append_op("full", {}, {"out": [name]},
                                     {"shape": tuple(shape), "fill_value": float(value),
                                      "dtype": var.dtype})
    return var


def _learning_rate_var(opt, program, startup, dtype):
    """The persistable learning-rate variable; a scheduler refreshes it before each run."""
    name = generate("learning_rate")
    var = _persistable(program, startup, name, [1], dtype, opt.get_lr())
    if isinstance(opt._learning_rate, LRScheduler):
        program._lr_scheduler = (name, opt._learning_rate)
    return var


def _state_vars(opt, program, startup, param, group):
    """Accumulator variables of `param` (named like the eager state_dict keys)."""
    state = {}
    for acc, init in opt._accumulators:
        shape = [1] if acc.endswith("_pow_acc") else param.shape
        state[acc] = _persistable(program, startup, opt._key(param, acc), shape, param.dtype,
                                  opt._fill_value(init, group))
    return state


def _group_of(opt, param):
    for group in opt._param_groups:
        if any(p is param or getattr(p, "name", None) == param.name for p in group["params"]):
            return group
    return {"weight_decay": opt._weight_decay, "params": []}


def minimize_static(opt, loss, startup_program=None, parameters=None, no_grad_set=None,
                    reduce_grads=None):
    """Append backward + update ops for `loss`; returns (update ops, params_grads).

    `reduce_grads(params_grads) -> params_grads`, when given, appends ops that combine
    the gradients before clipping and the updates (fleet's average over the ranks)."""
    program = loss.block.program
    startup = startup_program or default_startup_program()
    params_grads = append_backward(loss, parameters, no_grad_set)
    block = program.global_block()
    first_op = len(block.ops)
    with program_guard(program, startup):
        if reduce_grads is not None:
            params_grads = reduce_grads(params_grads)
        if opt._grad_clip is not None:
            params_grads = opt._grad_clip._clip(params_grads)
        lr_var = _learning_rate_var(opt, program, startup, loss.dtype)
        for param, grad in params_grads:
            group = _group_of(opt, param)
            grad = opt._regularized(param, grad, group)
            scale = opt._lr_scale(param, group)
            lr = lr_var if np.isclose(scale, 1.0) else lr_var * scale
            state = _state_vars(opt, program, startup, param, group)
            op, inputs, attrs, targets = opt._update(param, grad, lr, state,
                                                       opt._options(group))
            outs = getattr(api, op)(*inputs, *attrs)
            for value, target in zip(outs if isinstance(outs, (list, tuple)) else (outs,),
                                     targets):
                _write_back(block, value, target.name)
    return block.ops[first_op:], params_grads


def _write_back(block, value, name):
    """Make the persistable variable `name` hold `value` after this step."""
    block.append_op("assign", {"x": [value.name]}, {"out": [name]}, {})

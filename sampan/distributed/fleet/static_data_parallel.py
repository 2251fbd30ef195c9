"""Data parallelism in a static Program: gradients averaged over the ranks by
c_allreduce_avg ops between the backward and the updates, and rank 0's initial parameter
values broadcast by the startup program (c_broadcast ops after the initialisers)."""
from ...ops._generated import api
from ...optimizer.static_minimize import minimize_static
from ...static.program_state import default_startup_program
from ..comm.group import world_group

__all__ = ["minimize_data_parallel"]


def _average_over_ranks(params_grads):
    return [(param, None if grad is None else api.c_allreduce_avg(grad))
            for param, grad in params_grads]


def _broadcast_initial_values(startup, params):
    block = startup.global_block()
    for param in params:
        if block.has_var(param.name):
            block.append_op("c_broadcast", {"x": [param.name]}, {"out": [param.name]},
                            {"ring_id": 0, "root": 0, "use_calc_stream": False})


def minimize_data_parallel(opt, loss, startup_program=None, parameters=None,
                           no_grad_set=None):
    """`opt.minimize(loss)` with gradients averaged over every rank."""
    world_group()  # join the job before the program runs
    startup = startup_program or default_startup_program()
    ops, params_grads = minimize_static(opt, loss, startup, parameters, no_grad_set,
                                        reduce_grads=_average_over_ranks)
    _broadcast_initial_values(startup, [p for p, _ in params_grads])
    return ops, params_grads

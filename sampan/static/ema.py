"""`paddle.static.ExponentialMovingAverage`: shadow averages of a Program's parameters.

`update()` appends ema = decay * ema + (1 - decay) * param (and a step count) to the main
program; `apply(exe)` runs a separate program that backs the parameters up and replaces
them with the bias-corrected averages ema / (1 - decay ** step); `restore(exe)` runs the
program copying the backups back. Averages, backups and counters are persistable
variables of the global scope.
"""
import contextlib

from ..core.unique_name import generate
from ..ops._generated import api
from .control_flow.rules import in_dynamic_mode
from .data import create_global_var
from .framework import Program, Variable
from .program_state import default_main_program, program_guard

__all__ = ["ExponentialMovingAverage"]


def _clone(block, var):
    """A persistable variable of `block` with `var`'s name, shape and dtype."""
    if block.has_var(var.name):
        return block.var(var.name)
    return block.create_var(var.name, var._shape, var.dtype, persistable=True)


class ExponentialMovingAverage:
    """Exponential moving averages of the parameters of the default main program.

    Args:
        decay (float): the averaging rate, in [0, 1].
        thres_steps (Variable|None): a step count; when given the rate used is
            min(decay, (thres_steps + 1) / (thres_steps + 10)), so early averages move fast.
        name (str|None): prefix of the created variables.
    """

    def __init__(self, decay=0.999, thres_steps=None, name=None):
        if in_dynamic_mode():
            raise RuntimeError("In dygraph, don't support ExponentialMovingAverage.")
        if isinstance(decay, bool) or not isinstance(decay, (int, float)) or not (
                0.0 <= decay <= 1.0):
            raise ValueError(f"ExponentialMovingAverage: argument 'decay' must be a number in "
                             f"[0, 1], got {decay!r}")
        if thres_steps is not None and not isinstance(thres_steps, Variable):
            raise TypeError(f"ExponentialMovingAverage: argument 'thres_steps' must be a "
                            f"Variable or None, got {type(thres_steps).__name__}")
        self._decay, self._name = float(decay), name or ""
        self._params = [p for p in default_main_program().global_block().all_parameters()
                        if getattr(p, "do_model_average", True) is not False]
        self._decay_var = self._ema_decay(thres_steps)
        self._step = create_global_var([1], 0, "int64", persistable=True,
                                       name=generate(self._name + "ema_step_counter"))
        self._emas = {p.name: create_global_var(p.shape, 0.0, p.dtype, persistable=True,
                                                name=generate(f"{self._name}{p.name}_ema"))
                      for p in self._params}
        self._backups = {p.name: generate(f"{self._name}{p.name}.ema_tmp")
                         for p in self._params}
        self.apply_program = self._build(self._apply_body)
        self.restore_program = self._build(self._restore_body)

    def _ema_decay(self, thres_steps):
        """The persistable decay rate, lowered to (t + 1) / (t + 10) early on."""
        decay = create_global_var([1], self._decay, "float32", persistable=True,
                                  name=generate(self._name + "scheduled_ema_decay_rate"))
        if thres_steps is not None:
            steps = api.cast(thres_steps, "float32")
            early = api.divide(api.scale(steps, 1.0, 1.0), api.scale(steps, 1.0, 10.0))
            decay._take_over(api.minimum(api.reshape(early, [1]),
                                         api.full([1], self._decay, "float32")))
        return decay

    def _build(self, body):
        """A new Program holding body(block)'s ops over persistable copies of the vars."""
        program = Program()
        with program_guard(program):
            body(program.global_block())
        return program

    def _apply_body(self, block):
        """Back each parameter up, then set it to its bias-corrected average."""
        step = api.cast(_clone(block, self._step), "float32")
        decay_pow = api.elementwise_pow(_clone(block, self._decay_var), step)
        ones = api.full([1], 1.0, "float32")
        denom = api.where(api.greater_than(step, api.full([1], 0.0, "float32")),
                          api.subtract(ones, decay_pow), ones)
        for p in self._params:
            param = _clone(block, p)
            backup = block.create_var(self._backups[p.name], p._shape, p.dtype,
                                      persistable=True)
            backup._take_over(param)
            ema = _clone(block, self._emas[p.name])
            param._take_over(api.divide(ema, api.cast(denom, p.dtype)))

    def _restore_body(self, block):
        """Copy each parameter's backup back."""
        for p in self._params:
            backup = block.create_var(self._backups[p.name], p._shape, p.dtype,
                                      persistable=True)
            _clone(block, p)._take_over(backup)

    def update(self):
        """Append the averaging step to the default main program (call it after
        optimizer.minimize, in the training program)."""
        self._step._take_over(api.increment(self._step, 1.0))
        for p in self._params:
            ema = self._emas[p.name]
            decay = api.cast(self._decay_var, p.dtype)
            keep = api.multiply(ema, decay)
            add = api.multiply(p, api.scale(decay, -1.0, 1.0))
            ema._take_over(api.add(keep, add))

    @contextlib.contextmanager
    def apply(self, executor, need_restore=True):
        """Within the block the parameters hold their averages; restored on exit unless
        `need_restore` is False."""
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor):
        """Put back the parameter values saved by `apply`."""
        executor.run(self.restore_program)

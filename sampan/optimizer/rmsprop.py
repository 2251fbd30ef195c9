"""RMSProp and Adagrad (registry ops `rmsprop`, `adagrad`)."""
from .optimizer import Optimizer

__all__ = ["RMSProp", "Adagrad"]


class RMSProp(Optimizer):
    """ms ← ρ·ms + (1−ρ)·g²; mom ← μ·mom + lr·g/√(ms [− mg²] + ε); p ← p − mom."""

    _accumulators = (("momentum", 0.0), ("mean_square", 0.0), ("mean_grad", 0.0))

    def __init__(self, learning_rate, rho=0.95, epsilon=1e-06, momentum=0.0, centered=False,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho, self._epsilon = float(rho), float(epsilon)
        self._momentum, self._centered = float(momentum), bool(centered)

    def _update(self, param, grad, lr, state, group):
        moment, square, mean = state["momentum"], state["mean_square"], state["mean_grad"]
        return ("rmsprop", (param, square, grad, moment, lr, mean),
                (self._epsilon, self._rho, self._momentum, self._centered),
                (param, moment, square, mean))


class Adagrad(Optimizer):
    """acc ← acc + g²; p ← p − lr·g / (√acc + ε)."""

    _accumulators = (("moment", lambda self: self._initial),)

    def __init__(self, learning_rate, epsilon=1e-06, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value=0.0):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon, self._initial = float(epsilon), float(initial_accumulator_value)

    def _update(self, param, grad, lr, state, group):
        moment = state["moment"]
        return "adagrad", (param, grad, moment, lr), (self._epsilon,), (param, moment)

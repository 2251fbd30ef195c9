"""`decorate`: an optimizer wrapper with Paddle's static-AMP methods over float32 training."""
from .lists import AutoMixedPrecisionLists

__all__ = ["OptimizerWithMixedPrecision", "decorate"]


class OptimizerWithMixedPrecision:
    """Paddle's static-AMP optimizer: `minimize`, `backward`, `apply_gradients`, `amp_init`,
    `get_loss_scaling`, `get_scaled_loss`. Gradients are float32, so they are used unscaled
    and every step is applied (a non-finite gradient shows up in the loss, as without AMP)."""

    def __init__(self, optimizer, amp_lists, init_loss_scaling, use_dynamic_loss_scaling,
                 use_pure_fp16, use_fp16_guard):
        self._optimizer, self._amp_lists = optimizer, amp_lists
        self._init_loss_scaling = float(init_loss_scaling)
        self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
        self._use_pure_fp16, self._use_fp16_guard = use_pure_fp16, use_fp16_guard
        self._scaled_loss = None

    def get_loss_scaling(self):
        """The loss-scaling factor given to decorate (kept, not applied: see the module)."""
        return self._init_loss_scaling

    def get_scaled_loss(self):
        """The loss of the last `minimize`/`backward` (unscaled on the CPU)."""
        return self._scaled_loss

    def amp_init(self, place, scope=None, test_program=None, use_fp16_test=False):
        """Paddle casts parameters to float16 here under pure fp16; they stay float32."""

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 callbacks=None):
        """Append the backward of `loss`; returns (parameter, gradient) pairs."""
        from ..backward import append_backward
        self._scaled_loss = loss
        return append_backward(loss, parameter_list, no_grad_set)

    def apply_gradients(self, params_grads):
        """Append the optimizer's update ops for `params_grads`."""
        return self._optimizer.apply_gradients(params_grads)

    def apply_optimize(self, loss, startup_program, params_grads):
        """`apply_gradients`, under Paddle's name for it."""
        return self.apply_gradients(params_grads)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        """The wrapped optimizer's minimize: returns (optimize ops, params_grads)."""
        self._scaled_loss = loss
        return self._optimizer.minimize(loss, startup_program, parameter_list, no_grad_set)

    def __getattr__(self, name):
        # get_lr, set_lr, state_dict, ... of the wrapped optimizer
        return getattr(self.__dict__["_optimizer"], name)


def decorate(optimizer, amp_lists=None, init_loss_scaling=2.0 ** 15, incr_every_n_steps=1000,
             decr_every_n_nan_or_inf=2, incr_ratio=2.0, decr_ratio=0.8,
             use_dynamic_loss_scaling=True, use_amp_guard=False, use_pure_fp16=False,
             use_fp16_guard=None, use_bf16=False, use_promote=False, **kwargs):
    """Wrap `optimizer` for static mixed-precision training (float32 on the CPU).

    Example:
        opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), init_loss_scaling=128.0)
        opt.minimize(loss)
    """
    if amp_lists is None:
        amp_lists = AutoMixedPrecisionLists(dtype="bfloat16" if use_bf16 else "float16")
    return OptimizerWithMixedPrecision(optimizer, amp_lists, init_loss_scaling,
                                       use_dynamic_loss_scaling, use_pure_fp16, use_fp16_guard)

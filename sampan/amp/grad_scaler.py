"""GradScaler: dynamic loss scaling (eager mode).

The loss is multiplied by the scale before backward; `unscale_` divides the gradients by it
and records whether any is non-finite; `step` then skips the optimizer; `update` halves the
scale after `decr_every_n_nan_or_inf` bad steps and doubles it after `incr_every_n_steps`
good ones.
"""
import numpy as np

from ..eager.grad_mode import no_grad
from ..eager.tensor import Tensor

__all__ = ["GradScaler", "AmpScaler"]

_COUNTERS = ("incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf",
             "incr_count", "decr_count", "use_dynamic_loss_scaling")


class AmpScaler:
    """Loss scaler with Paddle's dynamic loss scaling rule."""

    def __init__(self, enable=True, init_loss_scaling=2.0 ** 15, incr_ratio=2.0,
                 decr_ratio=0.5, incr_every_n_steps=1000, decr_every_n_nan_or_inf=2,
                 use_dynamic_loss_scaling=True):
        if incr_ratio <= 1.0 or not 0.0 < decr_ratio < 1.0:
            raise ValueError("need incr_ratio > 1 and 0 < decr_ratio < 1")
        self._enable = bool(enable)
        self._init_loss_scaling = self._scale = float(init_loss_scaling)
        self.incr_ratio, self.decr_ratio = float(incr_ratio), float(decr_ratio)
        self.incr_every_n_steps = int(incr_every_n_steps)
        self.decr_every_n_nan_or_inf = int(decr_every_n_nan_or_inf)
        self.use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling)
        self.incr_count = self.decr_count = 0
        self._found_inf = False
        self._unscaled = set()

    def is_enable(self):
        """Whether scaling is on."""
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        """Whether the scale adapts to non-finite gradients."""
        return self.use_dynamic_loss_scaling

    def get_loss_scaling(self):
        """The current scale as a float32 tensor."""
        return Tensor(np.array(self._scale, np.float32))

    def get_init_loss_scaling(self):
        """The scale the scaler started from (or was last reset to)."""
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling):
        """Restart from a new scale."""
        self._init_loss_scaling = self._scale = float(new_init_loss_scaling)

    def get_incr_ratio(self):
        """The factor the scale grows by after `incr_every_n_steps` good steps."""
        return self.incr_ratio

    def set_incr_ratio(self, new_incr_ratio):
        """Set the growth factor (> 1)."""
        if new_incr_ratio <= 1.0:
            raise ValueError(f"incr_ratio must be > 1, got {new_incr_ratio}")
        self.incr_ratio = float(new_incr_ratio)

    def get_decr_ratio(self):
        """The factor the scale shrinks by after `decr_every_n_nan_or_inf` bad steps."""
        return self.decr_ratio

    def set_decr_ratio(self, new_decr_ratio):
        """Set the shrink factor (between 0 and 1)."""
        if not 0.0 < new_decr_ratio < 1.0:
            raise ValueError(f"decr_ratio must be in (0, 1), got {new_decr_ratio}")
        self.decr_ratio = float(new_decr_ratio)

    def get_incr_every_n_steps(self):
        """Good steps in a row before the scale grows."""
        return self.incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps):
        """Set the good steps in a row before the scale grows."""
        self.incr_every_n_steps = int(new_incr_every_n_steps)

    def get_decr_every_n_nan_or_inf(self):
        """Bad steps in a row before the scale shrinks."""
        return self.decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf):
        """Set the bad steps in a row before the scale shrinks."""
        self.decr_every_n_nan_or_inf = int(new_decr_every_n_nan_or_inf)

    def scale(self, var):
        """var multiplied by the loss scale (unchanged when disabled)."""
        return var * self._scale if self._enable else var

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale once per step; note non-finite ones."""
        if not self._enable or id(optimizer) in self._unscaled:
            return
        inverse = 1.0 / self._scale
        with no_grad():
            for param in optimizer._parameter_list:
                grad = getattr(param, "grad", None)
                if grad is None:
                    continue
                data = grad.numpy() * np.asarray(inverse, grad.numpy().dtype)
                self._found_inf |= not bool(np.all(np.isfinite(data)))
                param.grad = Tensor(data)
        self._unscaled.add(id(optimizer))

    def step(self, optimizer):
        """Unscale (if not done yet) and run optimizer.step() unless a gradient is non-finite."""
        if not self._enable:
            optimizer.step()
            return
        self.unscale_(optimizer)
        if not self._found_inf:
            optimizer.step()

    def update(self):
        """Adjust the scale from this step's outcome and reset the per-step state."""
        if self._enable and self.use_dynamic_loss_scaling:
            if self._found_inf:
                self.incr_count, self.decr_count = 0, self.decr_count + 1
                if self.decr_count >= self.decr_every_n_nan_or_inf:
                    self._scale *= self.decr_ratio
                    self.decr_count = 0
            else:
                self.incr_count, self.decr_count = self.incr_count + 1, 0
                if self.incr_count >= self.incr_every_n_steps:
                    self._scale *= self.incr_ratio
                    self.incr_count = 0
        self._found_inf = False
        self._unscaled.clear()

    def minimize(self, optimizer, *args, **kwargs):
        """step + update, for a scaled loss whose backward has already run."""
        self.step(optimizer)
        self.update()
        return None, []

    def state_dict(self):
        """The scale and the dynamic-scaling counters (empty when disabled)."""
        if not self._enable:
            return {}
        state = {name: getattr(self, name) for name in _COUNTERS}
        state["scale"] = np.array([self._scale], np.float32)
        return state

    def load_state_dict(self, state_dict):
        """Restore a state_dict."""
        if not self._enable:
            return
        if not state_dict:
            raise RuntimeError("the loaded state_dict is empty: it was saved from a disabled "
                               "scaler")
        self._scale = float(np.asarray(state_dict["scale"]).reshape(-1)[0])
        for name in _COUNTERS:
            setattr(self, name, state_dict[name])


class GradScaler(AmpScaler):
    """paddle.amp.GradScaler: AmpScaler with Paddle's documented defaults."""


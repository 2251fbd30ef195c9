"""`paddle.base.dygraph`: running a block in dynamic (eager) mode."""
import contextlib

from ..core.dispatch import mode_guard
from ..eager.grad_mode import no_grad
from ..eager.mode import EAGER
from ..framework_mode import disable_static as enable_dygraph
from ..framework_mode import enable_static as disable_dygraph
from ..framework_mode import in_dynamic_mode as enabled
from ..tensor.creation import to_tensor as to_variable

__all__ = ["guard", "to_variable", "no_grad", "enabled", "enable_dygraph", "disable_dygraph"]


@contextlib.contextmanager
def guard(place=None):
    """Run the block in dynamic mode (ops run at once), whatever the process mode; `place`
    is accepted for Paddle's signature (sampan computes on the CPU)."""
    with mode_guard(EAGER):
        yield

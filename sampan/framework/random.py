"""`paddle.framework.random`: seeding the random ops of eager code and of static Programs."""
from ..core.random import get_rng_state, seed, set_rng_state
from ..static.program_state import default_main_program, default_startup_program

__all__ = ["seed", "get_rng_state", "set_rng_state"]


def _manual_program_seed(seed_value):
    """Seed the random ops of static Programs (Paddle's helper for tests): sampan's static
    random ops draw from the one global generator, so this seeds it as `paddle.seed` does
    and records the seed on the default main and startup Programs, as Paddle does."""
    seed(seed_value)
    default_main_program().random_seed = seed_value
    default_startup_program().random_seed = seed_value

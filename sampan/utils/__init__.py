"""`paddle.utils`: installation check."""
from .install_check import run_check

__all__ = ["run_check"]

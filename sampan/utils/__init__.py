"""`paddle.utils`: installation check and DLPack exchange (`paddle.utils.dlpack`)."""
from . import dlpack
from .install_check import run_check

__all__ = ["run_check", "dlpack"]

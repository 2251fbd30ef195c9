"""`paddle.utils`: installation check, DLPack exchange (`paddle.utils.dlpack`), the
variable-name counter (`paddle.utils.unique_name`) and `try_import`."""
from ..core import unique_name
from . import dlpack
from .install_check import run_check
from .try_import import try_import

__all__ = ["run_check", "dlpack", "unique_name", "try_import"]

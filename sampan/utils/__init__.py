"""`paddle.utils`: installation check, DLPack exchange (`paddle.utils.dlpack`), the
variable-name counter (`paddle.utils.unique_name`), `try_import` and nested-structure
helpers."""
from ..core import unique_name
from ..static.control_flow.nest import flatten, map_structure, pack as pack_sequence_as
from . import dlpack
from .install_check import run_check
from .try_import import try_import

__all__ = ["run_check", "dlpack", "unique_name", "try_import", "flatten", "map_structure",
           "pack_sequence_as"]

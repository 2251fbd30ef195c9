"""Safe on-disk formats: atomic file replacement and the pickle-free state-tree container.

See docs/file_formats.md for the byte layout and the checks performed on load.
"""

from .atomic import (InterruptedSaveError, atomic_open, atomic_write, atomic_write_all,
                     committed_paths)
from .state_file import (
    DTYPES,
    FORMAT_VERSION,
    MAGIC,
    MAX_DEPTH,
    MAX_HEADER_BYTES,
    MAX_NDIM,
    CorruptFileError,
    dumps_tree,
    load_tree,
    loads_tree,
    save_tree,
)

__all__ = [
    "atomic_open", "atomic_write", "atomic_write_all", "committed_paths",
    "InterruptedSaveError", "CorruptFileError", "save_tree",
    "load_tree", "dumps_tree", "loads_tree", "MAGIC", "FORMAT_VERSION", "MAX_HEADER_BYTES",
    "MAX_DEPTH", "MAX_NDIM", "DTYPES",
]

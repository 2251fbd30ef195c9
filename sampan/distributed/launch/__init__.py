"""`python -m sampan.distributed.launch --nproc_per_node N [--log_dir DIR] script.py ...`:
start N ranks of a script under mpiexec and own their lifetime (docs/distributed.md)."""
from .main import launch, main

__all__ = ["launch", "main"]

"""Entry point of `python -m sampan.distributed.launch`."""
import sys

from .main import main

sys.exit(main())

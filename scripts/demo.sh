#!/usr/bin/env bash
# Run the quickstart demo (creates .venv on first use), then, on a machine with two cores
# or more, data-parallel training on two ranks (examples/data_parallel_digits.py).
source "$(dirname "$0")/_venv.sh"
.venv/bin/python examples/quickstart.py "$@"
if [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
  .venv/bin/python -m sampan.distributed.launch --nproc_per_node 2 examples/data_parallel_digits.py
fi

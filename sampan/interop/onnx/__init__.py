"""ONNX export of sampan programs (`paddle.onnx.export`), built on the `onnx` package.

The exporter sits above the static IR: it reads the inference Program jit.save traces
and maps each op to ONNX nodes through one table (`table.py`, emitters in `ops_*.py`).
Loaded on first use; `onnx` is imported only here (install the `onnx` extra).
"""
from ...core.lazy import lazy_exports

lazy_exports(globals(), {".exporter": ["export", "to_onnx_model"]})

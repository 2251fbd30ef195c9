"""The op table: sampan op type -> emitter, a function `(graph, op)` appending the ONNX
nodes that compute the op and binding its outputs. Emitters register with `@emits` in
the `ops_*` modules; `emitters()` loads them all and returns the table."""
import importlib

__all__ = ["EMITTERS", "emits", "emitters"]

EMITTERS = {}
_MODULES = ("ops_elementwise", "ops_nn", "ops_shape", "ops_indexing", "ops_reduce",
            "ops_control_flow")


def emits(*op_types):
    """Register the decorated emitter for each of `op_types`."""
    def register(emitter):
        for op_type in op_types:
            EMITTERS[op_type] = emitter
        return emitter
    return register


def emitters():
    """The complete table (every `ops_*` module loaded)."""
    for module in _MODULES:
        importlib.import_module(f".{module}", __package__)
    return EMITTERS


def coverage_markdown():
    """The ONNX coverage table of docs/interop.md: every forward op of the registry and
    every other op type the table maps, with whether it exports."""
    from ...ops.registry import OPS
    table = emitters()
    names = sorted({n for n in OPS if not n.endswith("_grad")} | set(table))
    rows = [f"| `{n}` | {'yes' if n in table else '-'} |" for n in names]
    count = sum(n in table for n in names)
    return (f"{count} of {len(names)} op types export.\n\n| sampan op | ONNX |\n|---|---|\n"
            + "\n".join(rows) + "\n")

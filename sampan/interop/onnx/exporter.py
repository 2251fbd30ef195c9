"""paddle.onnx.export: the inference program jit.save would write, as an ONNX model.

The forward method is traced as jit.save traces it (eval mode, pruned to the outputs);
parameters become initializers, `None` dims of the InputSpecs symbolic dims (`batch` for
the first), and each op goes through the op table (`table.py`). Before anything is
written: every op type without a mapping and every op use ONNX cannot express is
reported at once (`UnsupportedOnnxOp`), and the opset is checked against what the ops
need (raised to it, as Paddle's exporter does, unless `auto_upgrade_opset=False`).
"""
import os

from onnx import helper, numpy_helper

from ...serialization import atomic_open
from ...version import full_version
from ..errors import UnsupportedOnnxOp
from .convert import convert_ops, unmapped_ops
from .graph import ExportState, Graph, check, ir_version_for, value_info

__all__ = ["export", "to_onnx_model", "MIN_OPSET", "MAX_OPSET"]

MIN_OPSET, MAX_OPSET = 7, 21
# Paddle's (paddle2onnx's) other export options: accepted; the checker always runs.
_ACCEPTED_CONFIGS = {"enable_onnx_checker", "verbose", "input_names_after_prune"}


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """paddle.onnx.export (documented in sampan/onnx/__init__.py)."""
    if not os.path.basename(os.fspath(path)):
        raise ValueError(f"paddle.onnx.export: path must be dirname/file_prefix, got "
                         f"{path!r} (empty file prefix)")
    output_spec = configs.pop("output_spec", None)
    auto_upgrade = configs.pop("auto_upgrade_opset", True)
    unknown = set(configs) - _ACCEPTED_CONFIGS
    if unknown:
        raise TypeError(f"paddle.onnx.export got unsupported config(s) {sorted(unknown)}")
    from ...jit.save_load import trace_forward
    method, values = trace_forward(layer, input_spec, output_spec, "paddle.onnx.export")
    model = to_onnx_model(method, values, opset_version, auto_upgrade)
    folder = os.path.dirname(os.fspath(path))
    if folder:
        os.makedirs(folder, exist_ok=True)
    with atomic_open(os.fspath(path) + ".onnx") as file:
        file.write(model.SerializeToString())


def to_onnx_model(method, values, opset, auto_upgrade=True):
    """The checked ONNX ModelProto of an ExportedMethod with parameter `values`."""
    if not isinstance(opset, int) or not MIN_OPSET <= opset <= MAX_OPSET:
        raise ValueError(f"paddle.onnx.export: opset_version must be an int from {MIN_OPSET} "
                         f"to {MAX_OPSET}, got {opset!r}")
    missing = unmapped_ops(method.program)
    model, state = _build(method, values, opset)
    if missing or state.problems:
        raise UnsupportedOnnxOp(missing, state.problems)
    if state.needs:
        wanted = max(version for version, _ in state.needs.values())
        if not auto_upgrade or wanted > MAX_OPSET:
            needs = "; ".join(f"{op} needs opset {v} ({why})"
                              for op, (v, why) in sorted(state.needs.items()))
            raise ValueError(f"paddle.onnx.export: opset_version {opset} is too low: {needs}")
        model, state = _build(method, values, wanted)
    check(model)
    return model


def _symbolic(name, shape):
    return [d if d >= 0 else "batch" if k == 0 else f"{name}_dim{k}"
            for k, d in enumerate(shape)]


def _build(method, values, opset):
    """(ModelProto, ExportState) of the method at `opset` (ops without a mapping are
    skipped, so the problems of the others are still collected)."""
    program = method.program
    state = ExportState(program, opset)
    g = Graph(state)
    inputs, initializers = [], []
    for entry in method.inputs:
        name = entry["name"]
        state.taken.add(name)
        g.bind(name, name)
        inputs.append(value_info(name, entry["dtype"], _symbolic(name, entry["shape"])))
    for name in sorted(method.parameters):
        state.taken.add(name)
        g.bind(name, name)
        initializers.append(numpy_helper.from_array(values[name], name))
    convert_ops(g, program.global_block().ops)
    failed = state.problems or state.unmapped
    outputs = [] if failed else _outputs(g, method, set(g.env[n] for n in method.parameters)
                                         | set(e["name"] for e in method.inputs))
    graph = helper.make_graph(g.nodes, "sampan", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              ir_version=ir_version_for(opset), producer_name="sampan",
                              producer_version=full_version)
    return model, state


def _outputs(g, method, sources):
    """Graph outputs named as the program's fetch variables; an output that is an input,
    a parameter or an earlier output goes through an Identity. An output whose dims are
    not to be trusted (an array item) is declared with its rank only."""
    outputs, used = [], set(sources)
    for name in method.outputs:
        value = g.value(name)
        if value in used:
            value = g.node("Identity", [value])
        used.add(value)
        var = g.var(name)
        shape = var._shape
        if name in g.state.shapeless:   # a graph output needs a shape: its rank, no dims
            shape = [-1] * len(shape)
        outputs.append(value_info(value, var.dtype, shape))
    return outputs

"""Paddle inference models (`.json` PIR or `.pdmodel` protobuf, with `.pdiparams`) read
into what `inference.model_format.load_model` returns: ({"forward": SavedMethod},
{name: array}). Every defect of the files is a CorruptFileError naming the file; ops sampan
lacks are one UnsupportedPaddleOp naming all of them."""
import os
import struct

from ...inference.model_format import SavedMethod, read_model_bytes
from ...serialization import CorruptFileError, strict_json
from ...static.verify import verify_program
from ..errors import UnsupportedPaddleOp
from .builder import build_program
from .fold_batch_norm import fold_batch_norms
from .op_table import PIR_OPS, rule_for
from .pir_json import MalformedProgram, parse_pir
from .tensor_stream import read_tensors

__all__ = ["is_paddle_model", "read_paddle_model"]


def is_paddle_model(path):
    """True when `path` holds a Paddle-written program (PIR JSON with a `base_code` header,
    or a protobuf ProgramDesc, whose first byte is field 1 `blocks`: 0x0A) rather than a
    sampan model document."""
    with open(path, "rb") as file:
        raw = file.read(64)
    head = raw.lstrip()
    if head.startswith(b"{"):
        return b'"base_code"' in head
    return raw[:1] == b"\x0a"


def _fail(path, what):
    return CorruptFileError(f"corrupt Paddle model file {os.fspath(path)!r}: {what}")


def _read_graph(path):
    """The PaddleGraph of a model file and its op table."""
    try:
        raw = read_model_bytes(path)
    except ValueError as exc:
        raise _fail(path, exc) from None
    if raw.lstrip().startswith(b"{"):
        try:
            return parse_pir(strict_json.decode(raw)), PIR_OPS
        except (ValueError, MalformedProgram, RecursionError) as exc:
            raise _fail(path, exc) from None
    from .program_desc import parse_program_desc
    try:
        return parse_program_desc(raw), PIR_OPS
    except (ValueError, KeyError, IndexError, struct.error, UnicodeDecodeError,
            AttributeError, TypeError) as exc:
        raise CorruptFileError(
            f"corrupt sampan or Paddle model file {os.fspath(path)!r}: is neither a UTF-8 "
            f"JSON model nor a Paddle ProgramDesc ({type(exc).__name__}: {exc})") from None


def _declared_parameters(graph):
    """{name: TensorType} of the graph's stored (persistable) parameters."""
    return {op.attrs["name"]: op.outputs[0][1] for op in graph.block.ops
            if op.type == "builtin.parameter" and op.attrs.get("persistable", True)}


def _read_params(params_file, declared):
    """{name: array} of the params file, checked against the program's declarations."""
    names = sorted(declared)
    params = {}
    for name, array in zip(names, read_tensors(params_file, len(names))):
        vtype = declared[name]
        if vtype is None or list(array.shape) != vtype.shape or array.dtype.name != vtype.dtype:
            raise CorruptFileError(
                f"corrupt Paddle params file {os.fspath(params_file)!r}: {name!r} is "
                f"{array.dtype} {list(array.shape)}, the program declares {vtype}")
        params[name] = array
    return params


def read_paddle_model(model_file, params_file, inference=False):
    """({"forward": SavedMethod}, {name: array}) of a Paddle inference model.

    `inference=True` (the predictor) also folds inference batch norms into the
    convolutions before them, as Paddle Inference does; jit.load keeps the parameters as
    the file has them, so the layer stays fine-tunable.
    """
    graph, table = _read_graph(model_file)
    missing = {t for t in graph.op_types() if rule_for(table, t) is None}
    if missing:
        raise UnsupportedPaddleOp(os.fspath(model_file), missing)
    params = _read_params(params_file, _declared_parameters(graph))
    if inference:
        fold_batch_norms(graph, params)
    try:
        program, sig = build_program(graph, table)
        verify_program(program)
    except Exception as exc:  # noqa: BLE001 - the IR code on hostile input: a corrupt file
        raise _fail(model_file, f"cannot convert: {type(exc).__name__}: {str(exc)[:500]}") \
            from None
    names = sorted(sig.parameters)
    outputs = [v.name for v in sig.outputs]
    structure = {"var": 0} if len(outputs) == 1 else {
        "list": [{"var": i} for i in range(len(outputs))]}
    doc = {"method": "forward", "methods": ["forward"], "program": None,
           "inputs": [{"name": n, "shape": s, "dtype": d} for n, s, d in sig.inputs],
           "outputs": list(dict.fromkeys(outputs)), "output_structure": structure,
           "parameters": names}
    if len(doc["outputs"]) != len(outputs):
        raise _fail(model_file, "the same value is fetched twice")
    return {"forward": SavedMethod(doc, program)}, params

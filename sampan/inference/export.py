"""Turn traced programs into inference model files (shared by jit.save and
static.save_inference_model)."""
import os

import numpy as np

from ..static.control_flow.nest import flatten
from ..static.framework import Variable
from ..static.serialize import program_to_dict
from ..static.verify import verify_program
from .model_format import (json_model_path, make_document, model_path, params_path,
                           write_model)
from .prune import prune_program
from .structure import encode_structure

__all__ = ["ExportedMethod", "export_method", "save_model"]


class ExportedMethod:
    """One pruned method ready to be written: program dict, signature, parameter names."""

    def __init__(self, name, program, inputs, outputs, structure):
        self.name = name
        self.program = program
        self.inputs = inputs
        self.outputs = outputs
        self.structure = structure
        self.parameters = [v.name for v in program.global_block().vars.values()
                           if v.persistable]


def _output_names(outputs):
    """Unique Variable names of an output structure, in order of appearance."""
    return list(dict.fromkeys(v.name for v in flatten(outputs) if isinstance(v, Variable)))


def export_method(name, program, feed_names, outputs, renames=None):
    """Prune `program` to what `outputs` (a structure of its Variables) needs."""
    fetch = _output_names(outputs)
    pruned, applied = prune_program(program, feed_names, fetch, renames)
    verify_program(pruned)
    block = pruned.global_block()
    feeds = [applied.get(n, n) for n in feed_names]
    inputs = [{"name": n, "shape": block.var(n).shape, "dtype": block.var(n).dtype.name}
              for n in feeds]
    structure = encode_structure(
        outputs, lambda v: fetch.index(v.name) if isinstance(v, Variable) else None)
    return ExportedMethod(name, pruned, inputs, [applied.get(n, n) for n in fetch], structure)


def save_model(prefix, methods, values):
    """Write every ExportedMethod and the union of their parameters ({name: array} in values)."""
    folder = os.path.dirname(os.fspath(prefix))
    if folder:
        os.makedirs(folder, exist_ok=True)
    names = sorted({n for m in methods for n in m.parameters})
    missing = [n for n in names if n not in values]
    if missing:
        raise ValueError(f"no value for persistable variable(s) {missing}: the program reads "
                         f"them but they are not parameters or buffers of the layer/scope")
    method_names = [m.name for m in methods]
    documents = {model_path(prefix, m.name): make_document(
        m.name, method_names, program_to_dict(m.program), m.inputs, m.outputs, m.structure,
        names) for m in methods}
    main = documents.pop(model_path(prefix))
    # the main .pdmodel goes last: a loader reads it first
    files = {json_model_path(prefix): main, **documents, model_path(prefix): main}
    write_model(files, {n: np.ascontiguousarray(values[n]) for n in names}, params_path(prefix))

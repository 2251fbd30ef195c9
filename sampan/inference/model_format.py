"""The inference model files: `<prefix>.pdmodel` (JSON program) and `<prefix>.pdiparams`.

A model file is one JSON document (at most MAX_MODEL_BYTES, UTF-8, no duplicate keys, no
NaN literals)::

    {"format": "sampan.inference_model", "version": 1, "method": "forward",
     "methods": ["forward", ...], "program": <sampan.static.serialize program dict>,
     "inputs": [{"name", "shape", "dtype"}], "outputs": [var names],
     "output_structure": <see structure.py>, "parameters": [names in the params file]}

Extra methods of a Layer live in `<prefix>.<method>.pdmodel` and share the params file, a
state-tree file (sampan.serialization) holding {variable name: array}. Every defect of any
of these files raises `sampan.serialization.CorruptFileError`; nothing is ever executed.
"""
import json
import os
import re

import numpy as np

from ..serialization import (DTYPES, CorruptFileError, InterruptedSaveError, atomic_write_all,
                             committed_paths, dumps_tree, load_tree, strict_json)
from ..static.serialize import program_from_dict
from ..static.verify import verify_program
from .structure import decode_structure

__all__ = ["FORMAT", "VERSION", "MAX_MODEL_BYTES", "MODEL_SUFFIX", "JSON_MODEL_SUFFIX",
           "PARAMS_SUFFIX", "SavedMethod", "model_path", "params_path",
           "make_document", "write_model", "read_method", "read_params", "check_params",
           "load_model", "check_method_name", "resolve_files"]

FORMAT = "sampan.inference_model"
VERSION = 1
MAX_MODEL_BYTES = 64 << 20
_KEYS = {"format", "version", "method", "methods", "program", "inputs", "outputs",
         "output_structure", "parameters"}
_METHOD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}\Z")


class _Malformed(Exception):
    """Internal: a defect found while checking a document."""


class SavedMethod:
    """One loaded method: its verified Program, inputs, outputs and output structure."""

    def __init__(self, doc, program):
        self.name = doc["method"]
        self.methods = doc["methods"]
        self.program = program
        self.inputs = [(i["name"], i["shape"], i["dtype"]) for i in doc["inputs"]]
        self.outputs = doc["outputs"]
        self.parameters = doc["parameters"]
        block = program.global_block()
        self.structure = decode_structure(doc["output_structure"],
                                          [block.var(n) for n in self.outputs])

    def persistables(self):
        """The global-block persistable Variables the program reads from the params file."""
        return [v for v in self.program.global_block().vars.values() if v.persistable]


def check_method_name(name):
    """Raise ValueError unless `name` can be part of a file name (an identifier)."""
    if not isinstance(name, str) or not _METHOD_NAME.match(name):
        raise ValueError(f"method name {name!r} must be a Python identifier")


MODEL_SUFFIX = ".pdmodel"
JSON_MODEL_SUFFIX = ".json"  # Paddle 3's (PIR) program file name
PARAMS_SUFFIX = ".pdiparams"


def model_path(prefix, method="forward"):
    """`prefix.pdmodel` for forward, `prefix.<method>.pdmodel` for other methods."""
    check_method_name(method)
    return f"{prefix}{MODEL_SUFFIX}" if method == "forward" else (
        f"{prefix}.{method}{MODEL_SUFFIX}")


def json_model_path(prefix):
    """`prefix.json`: where Paddle 3 (PIR) saves the forward program; sampan writes the same
    document there too, so code looking for either file name finds the model."""
    return f"{prefix}{JSON_MODEL_SUFFIX}"


def model_prefix(model_file):
    """The prefix of a `.pdmodel` or `.json` model file (None for another name)."""
    for suffix in (MODEL_SUFFIX, JSON_MODEL_SUFFIX):
        if model_file.endswith(suffix):
            return model_file[:-len(suffix)]
    return None


def existing_model_path(prefix):
    """The forward model file of `prefix`: `.pdmodel`, else Paddle 3's `.json` if only that
    exists."""
    legacy, pir = model_path(prefix), json_model_path(prefix)
    return pir if not os.path.isfile(legacy) and os.path.isfile(pir) else legacy


def params_path(prefix):
    """The shared parameter file of a saved model."""
    return f"{prefix}{PARAMS_SUFFIX}"


def resolve_files(path, model_filename=None, params_filename=None):
    """(model file, params file, prefix of the other method files or None); both must exist.

    With `model_filename` / `params_filename`, `path` is the folder holding them.
    """
    path = os.fspath(path)
    if model_filename or params_filename:
        model = (os.path.join(path, model_filename) if model_filename else
                 existing_model_path(os.path.join(path, "model")))
        params = os.path.join(path, params_filename or "model" + PARAMS_SUFFIX)
        prefix = model_prefix(model)
    else:
        model, params, prefix = existing_model_path(path), params_path(path), path
    for file in (model, params):
        if not os.path.isfile(file):
            raise FileNotFoundError(f"saved model file {file!r} does not exist")
    return model, params, prefix


def make_document(method, methods, program_dict, inputs, outputs, structure, parameters):
    """The JSON document of one saved method."""
    return {"format": FORMAT, "version": VERSION, "method": method, "methods": list(methods),
            "program": program_dict, "inputs": inputs, "outputs": list(outputs),
            "output_structure": structure, "parameters": sorted(parameters)}


def _encode(doc):
    """UTF-8 JSON bytes of a document, refusing documents over the size cap."""
    text = json.dumps(doc, allow_nan=False, separators=(",", ":")).encode("utf-8")
    if len(text) > MAX_MODEL_BYTES:
        raise ValueError(f"model file would be {len(text)} bytes, over {MAX_MODEL_BYTES}")
    return text


def write_model(files, params, params_file):
    """Write {model path: document} and the params file as one all-or-nothing save.

    The params file is renamed into place first, then the model files in the order given,
    after a journal beside the params file commits the set (`atomic_write_all`): a loader
    sees the old files or the new ones, and a save that fails part-way puts the old back.
    """
    blobs = {params_file: dumps_tree(dict(params))}
    blobs.update((path, _encode(doc)) for path, doc in files.items())
    atomic_write_all(blobs)


def _fail(path, what):
    """The one error of a malformed file."""
    return CorruptFileError(f"corrupt sampan model file {os.fspath(path)!r}: {what}")


def read_model_bytes(path):
    """The bytes of a model file no larger than MAX_MODEL_BYTES (the size is checked before
    reading); raises ValueError naming the defect."""
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > MAX_MODEL_BYTES:
            raise ValueError(f"{size} bytes exceeds the {MAX_MODEL_BYTES}-byte model size limit")
        raw = file.read(size + 1)
    if len(raw) != size:
        raise ValueError("file size changed while it was read")
    return raw


def _read_json(path):
    """The parsed JSON of a model file no larger than MAX_MODEL_BYTES."""
    try:
        raw = read_model_bytes(path)
    except ValueError as exc:
        raise _Malformed(str(exc)) from None
    try:
        return strict_json.decode(raw)
    except ValueError as exc:
        raise _Malformed(f"the model document {exc}") from None


def _expect(ok, what):
    if not ok:
        raise _Malformed(what)


def _is_name_list(value):
    """True for a list of unique strings."""
    return (type(value) is list and all(type(v) is str for v in value)
            and len(set(value)) == len(value))


def _check_header(doc):
    """Check the document's tag, version and the types of its fields."""
    _expect(type(doc) is dict and doc.get("format") == FORMAT,
            f'missing format tag "{FORMAT}" (not a sampan model file)')
    _expect(type(doc.get("version")) is int and doc["version"] == VERSION,
            f"unsupported version {doc.get('version')!r:.40}; this sampan reads {VERSION}")
    _expect(doc.keys() == _KEYS, f"top-level keys {sorted(doc)!r:.300} are not {sorted(_KEYS)}")
    _expect(_is_name_list(doc["methods"]) and doc["method"] in doc["methods"],
            "method is not one of the listed methods")
    for name in doc["methods"]:
        _expect(_METHOD_NAME.match(name) is not None, f"bad method name {name!r:.60}")
    _expect(_is_name_list(doc["outputs"]), "outputs must be a list of unique names")
    _expect(_is_name_list(doc["parameters"]), "parameters must be a list of unique names")
    _expect(type(doc["inputs"]) is list and all(_is_input(i) for i in doc["inputs"]),
            "inputs must be a list of {name, shape, dtype} with dims >= -1 and a known dtype")
    _expect(_is_name_list([i["name"] for i in doc["inputs"]]), "input names must be unique")


def _is_input(entry):
    """True for a well-formed input description."""
    return (type(entry) is dict and entry.keys() == {"name", "shape", "dtype"}
            and type(entry["name"]) is str and type(entry["dtype"]) is str
            and entry["dtype"] in DTYPES
            and type(entry["shape"]) is list and len(entry["shape"]) <= 64
            and all(type(d) is int and -1 <= d < 2**63 for d in entry["shape"]))


def _build_program(doc):
    """The verified Program of a document.

    The program section is handled by the general IR code; whatever it raises on hostile
    input (it never executes anything) is reported as the one corrupt-file error.
    """
    try:
        program = program_from_dict(doc["program"])
        verify_program(program)
    except Exception as exc:  # noqa: BLE001 - every failure becomes CorruptFileError
        raise _Malformed(f"bad program: {type(exc).__name__}: {str(exc)[:500]}") from None
    return program


def _check_signature(doc, program):
    """Inputs are data variables as declared; outputs and parameters are global variables."""
    block = program.global_block()
    for entry in doc["inputs"]:
        var = block.vars.get(entry["name"])
        _expect(var is not None and var.is_data, f"input {entry['name']!r:.80} is not a data "
                                                 f"variable of the program")
        _expect(list(var._shape) == entry["shape"] and var.dtype.name == entry["dtype"],
                f"input {entry['name']!r:.80} does not match its program variable")
    listed = {entry["name"] for entry in doc["inputs"]}
    unlisted = [v.name for v in block.vars.values() if v.is_data and v.name not in listed]
    _expect(not unlisted, f"data variable(s) {unlisted[:5]!r:.200} are not listed as inputs")
    written = {n for op in block.ops for n in op.output_arg_names}
    for name in doc["outputs"]:
        var = block.vars.get(name)
        _expect(var is not None, f"output {name!r:.80} is not a variable of the program")
        _expect(name in written or var.is_data or var.persistable,
                f"output {name!r:.80} is never computed: no op of the program writes it")
    for var in program.list_vars():
        _expect(all(d < 2**63 for d in var._shape), f"variable {var.name!r:.80} has a dim "
                                                    f"of 2**63 or more")
    for sub_block in program.blocks:
        for op in sub_block.ops:
            overwritten = [n for n in op.output_arg_names
                           if sub_block.has_var_recursive(n) and sub_block.var(n).persistable]
            _expect(not overwritten, f"op {op.type} writes persistable variable(s) "
                                     f"{overwritten[:5]!r:.200}: not an inference program")
    stored = set(doc["parameters"])
    for var in block.vars.values():
        _expect(not var.persistable or var.name in stored,
                f"persistable variable {var.name!r:.80} is not in the parameter list")


def read_method(path, method=None):
    """Load and check one model file; `method` (if given) must be the method it holds."""
    try:
        doc = _read_json(path)
        _check_header(doc)
        _expect(method is None or doc["method"] == method,
                f"holds method {doc['method']!r:.60}, expected {method!r}")
        program = _build_program(doc)
        _check_signature(doc, program)
        return SavedMethod(doc, program)
    except (_Malformed, ValueError) as exc:
        raise _fail(path, exc) from None


def read_params(path, names):
    """{name: array} from a params file that must hold exactly `names`."""
    params = load_tree(path)
    if type(params) is not dict or not all(isinstance(v, np.ndarray) for v in params.values()):
        raise _fail(path, "params file is not a mapping of names to arrays")
    missing, extra = sorted(set(names) - set(params)), sorted(set(params) - set(names))
    if missing or extra:
        raise _fail(path, f"parameters missing {missing[:10]} / unexpected {extra[:10]}")
    return params


def check_params(methods, params, path):
    """Every method's persistable variables match the stored arrays in shape and dtype."""
    for method in methods:
        for var in method.persistables():
            array = params[var.name]
            if list(var._shape) != list(array.shape) or var.dtype.np != array.dtype:
                raise _fail(path, f"parameter {var.name!r} is {list(array.shape)} "
                                  f"{array.dtype} but method {method.name!r} declares "
                                  f"{var.shape} {var.dtype.name}")


def load_model(model_file, params_file, prefix=None, inference=False):
    """({method: SavedMethod}, {name: array}); with `prefix`, the other listed methods too.

    A save interrupted between its renames is read whole from the files it left (see
    `committed_paths`); should its writer finish the renames meanwhile, the load is retried
    on the renamed files. A model Paddle itself wrote (PIR `.json` or protobuf `.pdmodel`)
    is read by `sampan.interop.paddle`, loaded only then; `inference=True` lets that reader
    fold batch norms into convolutions (the parameters then differ from the file's).
    """
    try:
        pending = committed_paths(params_file)
    except InterruptedSaveError as exc:
        raise CorruptFileError(str(exc)) from None
    try:
        return _load_files(model_file, params_file, prefix, inference, pending)
    except FileNotFoundError:
        if not pending:
            raise
        return _load_files(model_file, params_file, prefix, inference, committed_paths(params_file))


def _load_files(model_file, params_file, prefix, inference, pending):
    """`load_model` reading each file from `pending`'s replacement when it has one."""
    def readable(path):
        return pending.get(os.path.abspath(os.fspath(path)), path)

    from ..interop.paddle.model_reader import is_paddle_model
    if is_paddle_model(readable(model_file)):
        from ..interop.paddle.model_reader import read_paddle_model
        return read_paddle_model(readable(model_file), readable(params_file), inference)
    main = read_method(readable(model_file))
    methods = {main.name: main}
    for name in main.methods if prefix is not None else ():
        if name in methods:
            continue
        path = model_path(prefix, name)
        if not os.path.exists(readable(path)):
            raise _fail(model_file, f"lists method {name!r} but {path!r} does not exist")
        method = methods[name] = read_method(readable(path), name)
        if method.methods != main.methods or method.parameters != main.parameters:
            raise _fail(path, f"methods or parameters differ from {os.fspath(model_file)!r}")
    params = read_params(readable(params_file), main.parameters)
    check_params(methods.values(), params, params_file)
    return methods, params

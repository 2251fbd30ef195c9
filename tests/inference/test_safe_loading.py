"""Hostile and malformed model files end in CorruptFileError naming the defect; no code runs."""
import ast
import json
import pathlib
import pickle

import numpy as np
import pytest

import sampan
from sampan import nn
from sampan.inference import Config, create_predictor
from sampan.jit.save_load import load, save
from sampan.serialization import CorruptFileError, dumps_tree, load_tree
from sampan.static import InputSpec

ROOT = pathlib.Path(sampan.__file__).parent


class Small(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return nn.functional.relu(self.fc(x))


@pytest.fixture
def prefix(tmp_path):
    path = tmp_path / "m"
    save(Small(), path, input_spec=[InputSpec([None, 3], "float32", "x")])
    return path


def edit(prefix, change):
    """Apply `change(doc)` to the JSON of prefix.pdmodel."""
    model = pathlib.Path(f"{prefix}.pdmodel")
    doc = json.loads(model.read_text())
    change(doc)
    model.write_text(json.dumps(doc))


def ops(doc):
    return doc["program"]["blocks"][0]["ops"]


def param_vars(doc):
    return [v for v in doc["program"]["blocks"][0]["vars"] if v["persistable"]]


class Evil:
    """A pickle payload that would create the canary file when unpickled."""

    def __init__(self, canary):
        self.canary = str(canary)

    def __reduce__(self):
        return (open, (self.canary, "w"))


@pytest.mark.parametrize("target", ["pdmodel", "pdiparams"])
def test_pickle_payload_is_refused_and_never_runs(prefix, tmp_path, target):
    canary = tmp_path / "canary"
    pathlib.Path(f"{prefix}.{target}").write_bytes(pickle.dumps({"w": Evil(canary)}))
    for loader in (load, lambda p: create_predictor(Config(str(p)))):
        with pytest.raises(CorruptFileError):
            loader(prefix)
    assert not canary.exists()


@pytest.mark.parametrize("op_type", ["os.system", "builtins.eval", "subprocess.Popen",
                                     "__import__('os').system('touch canary')"])
def test_op_type_naming_python_code_is_refused(prefix, tmp_path, op_type):
    edit(prefix, lambda doc: ops(doc)[0].update(type=op_type))
    with pytest.raises(CorruptFileError, match="unknown op type"):
        load(prefix)
    assert not (tmp_path / "canary").exists() and not pathlib.Path("canary").exists()


CASES = {
    "format tag": lambda d: d.update(format="something.else"),
    "unsupported version": lambda d: d.update(version=2),
    "top-level keys": lambda d: d.update(extra=1),
    "bad method name": lambda d: d.update(methods=["forward", "../../etc/passwd"]),
    "inputs must be": lambda d: d["inputs"][0].update(dtype="object"),
    "not a data variable": lambda d: d["inputs"][0].update(name="nope"),
    "does not match its program": lambda d: d["inputs"][0].update(shape=[-1, 4]),
    "not a variable of the program": lambda d: d["outputs"].append("ghost"),
    "out of range": lambda d: d.update(output_structure={"var": 7}),
    "deeper than": lambda d: d.update(output_structure=json.loads("{\"list\": [" * 80 + "]}"
                                                                   * 80)),
    "bad program": lambda d: ops(d)[0]["inputs"].update(x=["undefined_var"]),
    "not in the parameter list": lambda d: d.update(parameters=d["parameters"][:1]),
    "parameters missing": lambda d: d.update(parameters=d["parameters"] + ["extra.w_0"]),
    "infers": lambda d: param_vars(d)[0].update(shape=[3, 5]),
    "lists method": lambda d: d.update(methods=["forward", "other"]),
}


@pytest.mark.parametrize("expected", list(CASES))
def test_each_malformed_document_names_its_defect(prefix, expected):
    edit(prefix, CASES[expected])
    with pytest.raises(CorruptFileError, match=expected):
        load(prefix)


@pytest.mark.parametrize("text,expected", [
    (b"\xff\xfe not utf-8", "UTF-8"), (b"{\"format\": ", "JSON"), (b"[" * 100000, "JSON"),
    (b"{\"a\": 1, \"a\": 2}", "duplicate"), (b"{\"a\": NaN}", "NaN"), (b"", "JSON")])
def test_broken_json_is_refused(prefix, text, expected):
    pathlib.Path(f"{prefix}.pdmodel").write_bytes(text)
    with pytest.raises(CorruptFileError, match=expected):
        load(prefix)


def test_oversized_model_file_is_refused_before_reading(prefix):
    with open(f"{prefix}.pdmodel", "r+b") as file:
        file.truncate(65 << 20)  # sparse: refused by size, never read
    with pytest.raises(CorruptFileError, match="size limit"):
        load(prefix)


def rewrite_params(prefix, change):
    path = f"{prefix}.pdiparams"
    params = load_tree(path)
    change(params)
    pathlib.Path(path).write_bytes(dumps_tree(params))


@pytest.mark.parametrize("change,expected", [
    (lambda p: p.pop(next(iter(p))), "missing"),
    (lambda p: p.update(stowaway=np.zeros(2, "float32")), "unexpected"),
    (lambda p: p.update({k: np.zeros((7,), "float32") for k in list(p)[:1]}), "declares"),
    (lambda p: p.update({k: v.astype("float64") for k, v in list(p.items())[:1]}), "declares"),
])
def test_params_must_match_the_program(prefix, change, expected):
    rewrite_params(prefix, change)
    with pytest.raises(CorruptFileError, match=expected):
        load(prefix)


def test_params_file_must_be_a_flat_mapping(prefix):
    pathlib.Path(f"{prefix}.pdiparams").write_bytes(dumps_tree([np.zeros(3)]))
    with pytest.raises(CorruptFileError, match="mapping"):
        load(prefix)


BANNED_MODULES = {"pickle", "_pickle", "cPickle", "marshal", "dill", "shelve", "importlib",
                  "joblib", "cloudpickle"}
BANNED_NAMES = {"eval", "exec", "__import__", "compile"}
SCANNED = ["jit/save_load.py", "jit/translated_layer.py", "inference", "serialization",
           "static/serialize.py", "static/io.py", "interop", "interop/paddle"]


def sources():
    """The loaders' modules (writers, which may use pickle to write, are not loaders)."""
    for entry in SCANNED:
        path = ROOT / entry
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        yield from (f for f in files if not f.name.endswith("_writer.py"))


@pytest.mark.parametrize("path", list(sources()), ids=lambda p: str(p.relative_to(ROOT)))
def test_loader_sources_never_execute_code(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not {a.name.split(".")[0] for a in node.names} & BANNED_MODULES
        elif isinstance(node, ast.ImportFrom):
            assert (node.module or "").split(".")[0] not in BANNED_MODULES
        elif isinstance(node, ast.Name):
            assert node.id not in BANNED_NAMES, f"{path}:{node.lineno} uses {node.id}"
        elif isinstance(node, ast.Attribute):
            assert node.attr not in BANNED_NAMES | {"loads", "load"} or not (
                isinstance(node.value, ast.Name) and node.value.id in BANNED_MODULES)
        elif isinstance(node, ast.keyword) and node.arg == "allow_pickle":
            assert isinstance(node.value, ast.Constant) and node.value.value is False

"""Structural mutations of saved model documents and the outcome of loading each mutant
through every reader: `jit.load` + a forward, `static.load_inference_model` + an Executor
run, and the predictor + a run; of a model saved by `jit.save` (a Layer with a tensor `if`)
and one saved by `static.save_inference_model` (a static program with a while loop).

Used by test_model_validation.py (a fixed, derandomized sample) and runnable as a script
for a larger measure:

    python -m tests.jit.model_mutations 5000     # from the checkout root
"""
import json
import random
import signal
import sys
from pathlib import Path

import numpy as np

import sampan as paddle
from sampan import nn, static
from sampan.inference import Config, create_predictor
from sampan.jit.save_load import load, save
from sampan.serialization import CorruptFileError
from sampan.static import InputSpec

REPLACEMENTS = [None, 0, -1, 1, 2**40, 1.5, "", "x", "linear_0.w_0", True, False, [], {},
                [[[[0]]]], {"__block__": 0}, {"__block__": 9}, {"__dtype__": "float32"}]


class Net(nn.Layer):
    """A small model with a batch norm (many attributes), a tensor `if` (a cond op with
    sub-blocks) and a concat (a list input)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1D(6)
        self.head = nn.Linear(12, 2)

    def forward(self, x):
        h = nn.functional.relu(self.bn(self.fc(x)))
        if h.mean() > 0:
            h = h * 2.0
        else:
            h = h - 1.0
        return self.head(paddle.concat([h, h], axis=1))


def save_base(folder):
    """Save Net with jit.save under folder/base; the model document and the params bytes."""
    folder = Path(folder)
    save(Net(), folder / "base", input_spec=[InputSpec([None, 4], "float32", "x")])
    return (json.loads((folder / "base.pdmodel").read_text()),
            (folder / "base.pdiparams").read_bytes())


def save_static_base(folder):
    """Save a static program (fc, a while loop, a tensor array) with save_inference_model."""
    folder = Path(folder)
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 4], "float32")
            h = static.nn.fc(x, 4, activation="tanh")
            i = paddle.full([1], 0, "int64")
            _, h = static.nn.while_loop(lambda i, h: i < 3,
                                        lambda i, h: [i + 1, paddle.tanh(h) * 0.5], [i, h])
            out = static.nn.fc(h, 2)
        exe = static.Executor()
        with static.scope_guard(static.Scope()):
            exe.run(startup)
            static.save_inference_model(str(folder / "static"), [x], [out], exe, program=main)
    finally:
        paddle.disable_static()
    return (json.loads((folder / "static.pdmodel").read_text()),
            (folder / "static.pdiparams").read_bytes())


BASES = {"jit": save_base, "static": save_static_base}


def _paths(node, path=()):
    """Every (path, value) in a JSON tree, the root excluded."""
    items = node.items() if isinstance(node, dict) else (
        enumerate(node) if isinstance(node, list) else ())
    for key, value in items:
        yield path + (key,), value
        yield from _paths(value, path + (key,))


def _parent(doc, path):
    for key in path[:-1]:
        doc = doc[key]
    return doc


def mutate_document(doc, rng):
    """A copy of doc with one structural change: a key deleted or renamed, a value replaced
    by one of another type, a list item dropped or duplicated, a string swapped for another
    of the document. Returns (mutant, description)."""
    mutant = json.loads(json.dumps(doc))
    paths = list(_paths(mutant))
    path, value = paths[rng.randrange(len(paths))]
    parent, key = _parent(mutant, path), path[-1]
    kind = rng.choice(["delete", "rename", "replace", "drop", "duplicate", "swap"])
    if kind == "delete" and isinstance(parent, dict):
        del parent[key]
    elif kind == "rename" and isinstance(parent, dict):
        parent[key + rng.choice(["_", "x", "s"])] = parent.pop(key)
    elif kind in ("drop", "duplicate") and isinstance(value, list) and value:
        index = rng.randrange(len(value))
        value.insert(index, value[index]) if kind == "duplicate" else value.pop(index)
    elif kind == "swap":
        strings = [v for _, v in paths if isinstance(v, str)]
        parent[key] = rng.choice(strings)
    else:
        kind = "replace"
        parent[key] = rng.choice(REPLACEMENTS)
    return mutant, f"{kind} at {'/'.join(map(str, path))}"


class _Hang(BaseException):
    """A reader still running after RUN_SECONDS (a mutant whose loop never ends)."""


RUN_SECONDS = 10


def _alarm(signum, frame):
    raise _Hang()


def _outcome(step):
    """'ok', 'clean' (CorruptFileError), 'endless' (still running after RUN_SECONDS: a
    well-formed program whose loop no longer ends) or 'other: <type>' for running step()."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(RUN_SECONDS)
    try:
        step()
    except _Hang:
        return "endless"
    except CorruptFileError:
        return "clean"
    except Exception as exc:  # noqa: BLE001 - the measure classifies every other failure
        return f"other: {type(exc).__name__}: {str(exc)[:120]}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return "ok"


def _run_jit(prefix, x):
    load(prefix)(x)


def _run_static(prefix, x):
    paddle.enable_static()
    try:
        exe = static.Executor()
        with static.scope_guard(static.Scope()):
            program, feeds, fetches = static.load_inference_model(str(prefix), exe)
            exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)
    finally:
        paddle.disable_static()


def _run_predictor(prefix, x):
    predictor = create_predictor(Config(f"{prefix}.pdmodel", f"{prefix}.pdiparams"))
    predictor.run([x])


READERS = {"jit": _run_jit, "static": _run_static, "predictor": _run_predictor}


def load_outcomes(folder, document, params):
    """How each reader handles a model (document, params bytes): {reader: 'ok', 'clean'
    (CorruptFileError) or 'other: ...'}; a reader must refuse a bad model when it loads it,
    so an error at the run after a successful load is also 'other'."""
    folder = Path(folder)
    (folder / "m.pdmodel").write_text(json.dumps(document))
    (folder / "m.pdiparams").write_bytes(params)
    return reader_outcomes(folder / "m")


def reader_outcomes(prefix):
    """{reader: outcome} of loading the model files at `prefix` and running them on a
    [2, 4] batch."""
    x = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    return {name: _outcome(lambda: run(prefix, x)) for name, run in READERS.items()}


def measure(count, seed=0, folder=None, base="jit"):
    """Outcome counts {(reader, outcome): n} over `count` mutants of a base model ("jit" or
    "static"), and the first example of each bad outcome."""
    import tempfile
    folder = Path(folder or tempfile.mkdtemp(prefix="sampan_mutants_"))
    doc, params = BASES[base](folder)
    rng = random.Random(seed)
    counts, examples = {}, {}
    for _ in range(count):
        mutant, what = mutate_document(doc, rng)
        outcomes = load_outcomes(folder, mutant, params)
        for reader, result in outcomes.items():
            label = result if result in ("ok", "clean", "endless") else result[:60]
            counts[(reader, label)] = counts.get((reader, label), 0) + 1
            if result not in ("ok", "clean"):
                examples.setdefault((reader, result[:60]), (what, result))
        if len({o == "ok" for o in outcomes.values()}) > 1:
            counts[("all", "disagree")] = counts.get(("all", "disagree"), 0) + 1
            examples.setdefault(("all", "disagree"), (what, outcomes))
    return counts, examples


if __name__ == "__main__":
    for kind in BASES:
        totals, found = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 500, base=kind)
        for key, n in sorted(totals.items()):
            print(kind, n, *key)
        for key, example in found.items():
            print(kind, key, example)

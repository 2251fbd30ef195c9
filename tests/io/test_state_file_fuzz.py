"""paddle.load on mutated state files: every mutant loads (with tags of valid types) or
raises CorruptFileError, nothing else. Byte-level mutations (flips, truncations, inserted
bytes, inflated numbers and length fields, the header re-checksummed so the deeper checks
run) and structural ones of the header JSON (keys deleted or renamed, values replaced by
other types, list items dropped or duplicated, strings swapped), which reach the tag checks.

Runnable as a script for a larger measure:  python -m tests.io.test_state_file_fuzz 5000
"""
import json
import random
import struct
import sys
import zlib

import numpy as np

import sampan as paddle
from sampan.eager.tensor import Tensor
from sampan.serialization import CorruptFileError

from ..jit.model_mutations import mutate_document

STATE = {"w": paddle.create_parameter([2, 3], "float32"),
         "t": paddle.to_tensor([1.0, 2.0], stop_gradient=False),
         "a": np.arange(4, dtype="int64"), "s": np.float32(2.5), "step": 3,
         "nested": [np.zeros((2,), "float16"), {"k": "text"}]}


def _base(folder):
    paddle.save(STATE, folder / "base.pdparams")
    return (folder / "base.pdparams").read_bytes()


def _split(data):
    """(header JSON bytes, data section) of a state file."""
    length = struct.unpack_from("<Q", data, 16)[0]
    start = 24 + length + (-(24 + length) % 8)
    return data[24:24 + length], data[start:]


def _frame(header, payload):
    """A state file around `header` with a fresh checksum and padding."""
    prefix = struct.pack("<8sIIQ", b"SAMPANST", 1, zlib.crc32(header), len(header))
    return prefix + header + b"\0" * (-(24 + len(header)) % 8) + payload


def mutate_state(data, rng):
    """One mutant of state-file bytes and a description."""
    header, payload = _split(data)
    kind = rng.choice(["structure", "structure", "flip", "truncate", "insert", "number"])
    if kind == "structure":
        doc, what = mutate_document(json.loads(header), rng)
        return _frame(json.dumps(doc).encode(), payload), what
    index = rng.randrange(len(data))
    if kind == "flip":
        return data[:index] + bytes([data[index] ^ rng.randrange(1, 256)]) + data[index + 1:], kind
    if kind == "truncate":
        return data[:index], kind
    if kind == "insert":
        return data[:index] + rng.randbytes(8) + data[index:], kind
    text = header.decode()
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    at = rng.choice(digits)
    value = str(rng.choice([0, -1, 2**31, 2**63, 10**12, rng.randrange(100)]))
    return _frame((text[:at] + value + text[at + 1:]).encode(), payload), kind


def _valid(tree):
    """Every leaf of a loaded tree is of a type paddle.save writes, with a valid tag."""
    if isinstance(tree, dict):
        return all(isinstance(k, (str, int)) and _valid(v) for k, v in tree.items())
    if isinstance(tree, (list, tuple)):
        return all(_valid(v) for v in tree)
    if isinstance(tree, Tensor):
        return isinstance(tree.stop_gradient, bool) and (tree.name is None or
                                                         isinstance(tree.name, str))
    return tree is None or isinstance(tree, (bool, int, float, str, np.ndarray, np.generic))


def outcome(path):
    """'ok', 'clean' or 'other: ...' of paddle.load(path)."""
    try:
        tree = paddle.load(path)
    except CorruptFileError:
        return "clean"
    except Exception as exc:  # noqa: BLE001 - the measure classifies every other failure
        return f"other: {type(exc).__name__}: {str(exc)[:120]}"
    return "ok" if _valid(tree) else "other: invalid leaf"


def measure(count, folder, seed=0):
    """{outcome: n} over `count` mutants, and the first example of each bad outcome."""
    base, rng = _base(folder), random.Random(seed)
    counts, examples = {}, {}
    for _ in range(count):
        data, what = mutate_state(base, rng)
        (folder / "m.pdparams").write_bytes(data)
        result = outcome(folder / "m.pdparams")
        key = result if result in ("ok", "clean") else result[:60]
        counts[key] = counts.get(key, 0) + 1
        if key not in ("ok", "clean"):
            examples.setdefault(key, what)
    return counts, examples


def test_mutated_state_files_load_or_fail_cleanly(tmp_path):
    counts, examples = measure(1500, tmp_path, seed=3)
    assert set(counts) <= {"ok", "clean"}, examples
    assert counts["clean"] > 1000


if __name__ == "__main__":
    import pathlib
    import tempfile
    totals, found = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 1000,
                            pathlib.Path(tempfile.mkdtemp()))
    print(totals, found)

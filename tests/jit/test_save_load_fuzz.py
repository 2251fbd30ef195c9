"""Fuzzed model files (flips, truncations, inflated sizes) load or raise CorruptFileError only,
fast and within a memory bound."""
import json
import re
import shutil
import signal
import struct
import tempfile
import tracemalloc
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sampan import nn
from sampan.jit.save_load import load, save
from sampan.serialization import CorruptFileError
from sampan.static import InputSpec

from .model_mutations import reader_outcomes

# Parsing JSON into Python objects costs a fixed allowance on top of 2x the file sizes.
PARSE_ALLOWANCE = 256 << 10


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1D(6)
        self.head = nn.Linear(6, 2)

    def forward(self, x):
        return self.head(nn.functional.relu(self.bn(self.fc(x))))


FOLDER = Path(tempfile.mkdtemp(prefix="sampan_fuzz_"))
save(Net(), FOLDER / "base", input_spec=[InputSpec([None, 4], "float32", "x")])
MODEL = (FOLDER / "base.pdmodel").read_bytes()
PARAMS = (FOLDER / "base.pdiparams").read_bytes()
load(FOLDER / "base")  # the loader's lazily imported modules load here, outside any measure
MODEL_NUMBERS = [m.span() for m in re.finditer(rb"-?\d+", MODEL)]
MODEL_STRINGS = [m.span(1) for m in re.finditer(rb'"([^"]+)"', MODEL)]
HEADER_LEN = struct.unpack_from("<Q", PARAMS, 16)[0]
HEADER = PARAMS[24:24 + HEADER_LEN]
DATA = PARAMS[24 + HEADER_LEN + (-(24 + HEADER_LEN) % 8):]
HEADER_NUMBERS = [m.span() for m in re.finditer(rb"-?\d+", HEADER)]


def teardown_module():
    shutil.rmtree(FOLDER, ignore_errors=True)


def reframe(header):
    """A params file around `header` with a fresh checksum, so the deeper checks run."""
    prefix = struct.pack("<8sIIQ", b"SAMPANST", 1, zlib.crc32(header), len(header))
    return prefix + header + b"\0" * (-(24 + len(header)) % 8) + DATA


def splice(data, span, text):
    return data[:span[0]] + text + data[span[1]:]


def mutate(base, kind, position, value):
    """Generic byte-level mutations of either file."""
    index = position % max(len(base), 1)
    if kind == "flip":
        return base[:index] + bytes([base[index] ^ (value % 255 + 1)]) + base[index + 1:]
    if kind == "truncate":
        return base[:index]
    return base[:index] + (value % 2**64).to_bytes(8, "little") + base[index:]


def mutate_model(kind, position, value):
    if kind == "number":
        return splice(MODEL, MODEL_NUMBERS[position % len(MODEL_NUMBERS)], str(value).encode())
    if kind == "string":
        start, end = MODEL_STRINGS[position % len(MODEL_STRINGS)]
        index = start + value % (end - start)
        return MODEL[:index] + bytes([(MODEL[index] + 1) % 127 or 65]) + MODEL[index + 1:]
    return mutate(MODEL, kind, position, value)


def mutate_params(kind, position, value):
    if kind == "length":
        return PARAMS[:16] + struct.pack("<Q", value % 2**64) + PARAMS[24:]
    if kind == "number":
        span = HEADER_NUMBERS[position % len(HEADER_NUMBERS)]
        return reframe(splice(HEADER, span, str(value).encode()))
    if kind == "header_flip":
        index = position % len(HEADER)
        return reframe(HEADER[:index] + bytes([HEADER[index] ^ (value % 255 + 1)])
                       + HEADER[index + 1:])
    return mutate(PARAMS, kind, position, value)


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang("load took more than 5 seconds")


def check_load(model, params, folder):
    """Load mutated files: CorruptFileError or success, within the 5 s alarm (a hang guard,
    not a timing: CI machines are slow and shared), bounded allocation; then every reader
    (jit.load + forward, load_inference_model + run, the predictor + run) loads and runs
    them or refuses them with CorruptFileError, all alike."""
    (folder / "m.pdmodel").write_bytes(model)
    (folder / "m.pdiparams").write_bytes(params)
    budget = 2 * (len(model) + len(params)) + PARSE_ALLOWANCE
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(5)
    tracemalloc.start()
    try:
        load(folder / "m")
    except CorruptFileError as exc:
        assert "corrupt sampan" in str(exc)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert peak <= budget, f"allocated {peak} bytes for {len(model) + len(params)} bytes of files"
    outcomes = reader_outcomes(folder / "m")
    assert set(outcomes.values()) in ({"ok"}, {"clean"}), outcomes


values = st.integers(-2**70, 2**70) | st.sampled_from([0, -1, 1, 2**31 - 1, 2**63 - 1, 10**12])
def fuzz_settings(examples):
    return settings(max_examples=examples, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def folder():
    path = FOLDER / "case"
    path.mkdir()
    return path


@fuzz_settings(600)
@given(st.sampled_from(["flip", "truncate", "insert", "number", "string"]),
       st.integers(0, 2**32), values)
def test_mutated_model_file(folder, kind, position, value):
    check_load(mutate_model(kind, position, value), PARAMS, folder)


@fuzz_settings(500)
@given(st.sampled_from(["flip", "truncate", "insert", "length", "number", "header_flip"]),
       st.integers(0, 2**32), values)
def test_mutated_params_file(folder, kind, position, value):
    check_load(MODEL, mutate_params(kind, position, value), folder)


def test_unmutated_files_load(folder):
    check_load(MODEL, PARAMS, folder)
    assert json.loads(MODEL)["format"] == "sampan.inference_model"

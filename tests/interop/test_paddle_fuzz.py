"""Mutated Paddle-format files (bit flips, truncations, inserted bytes, inflated sizes and
numbers) load or raise the documented errors only, quickly and within a memory bound."""
import pathlib
import random
import re
import struct
import time
import tracemalloc

import numpy as np
import pytest

import sampan as paddle
from sampan.interop import UnsupportedPaddleOp
from sampan.interop.paddle.tensor_stream import read_tensors
from sampan.interop.paddle.wire import varint_bytes
from sampan.serialization import CorruptFileError

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
CASES = {"pir": ("pir/resnet_tiny", ".json"), "pir_if": ("pir/mlp_if", ".json"),
         "pir_while": ("pir/while_loop", ".json"), "legacy": ("legacy/resnet_tiny", ".pdmodel")}
ALLOWED = (CorruptFileError, UnsupportedPaddleOp)
PARSE_ALLOWANCE = 4 << 20   # Python objects of a parsed program, on top of 2x the files


def mutate(data, rng):
    data = bytearray(data)
    kind = rng.choice(["flip", "truncate", "insert", "number", "size"])
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        del data[rng.randrange(len(data)):]
    elif kind == "insert":
        at = rng.randrange(len(data))
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    elif kind == "number":
        spans = [m.span() for m in re.finditer(rb"-?\d+", bytes(data))] or [(0, 1)]
        start, end = rng.choice(spans)
        data[start:end] = str(rng.choice([-(2**63), -1, 0, 2**31, 2**62, 10**30])).encode()
    else:   # inflate a little-endian u32 or u64 somewhere (the params' size fields)
        at = rng.randrange(max(1, len(data) - 8))
        data[at:at + 8] = struct.pack("<Q", rng.choice([2**31, 2**40, 2**62, 2**64 - 1]))
    return bytes(data)


def load_all_ways(prefix, suffix):
    paddle.jit.load(str(prefix))
    paddle.inference.create_predictor(paddle.inference.Config(f"{prefix}{suffix}",
                                                              f"{prefix}.pdiparams"))


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("target", ["model", "params"])
def test_mutated_files_fail_cleanly(tmp_path, case, target):
    name, suffix = CASES[case]
    model = (FIXTURES / f"{name}{suffix}").read_bytes()
    params = (FIXTURES / f"{name}.pdiparams").read_bytes()
    prefix = tmp_path / "m"
    load_all_ways(FIXTURES / name, suffix)   # imports happen outside the measurement
    rng = random.Random(f"{case}-{target}")
    for _ in range(60):
        files = {suffix: model, ".pdiparams": params}
        key = suffix if target == "model" else ".pdiparams"
        files[key] = mutate(files[key], rng)
        for ext, data in files.items():
            pathlib.Path(f"{prefix}{ext}").write_bytes(data)
        tracemalloc.start()
        start = time.process_time()  # CPU time: a busy machine does not count
        try:
            load_all_ways(prefix, suffix)
        except ALLOWED:
            pass
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        assert time.process_time() - start < 10
        assert peak < 2 * (len(files[suffix]) + len(files[".pdiparams"])) + PARSE_ALLOWANCE


@pytest.mark.parametrize("declared", [2**31, 2**40, 2**62])
def test_declared_sizes_beyond_the_file_are_refused_before_allocating(tmp_path, declared):
    path = tmp_path / "p.pdiparams"
    desc = b"\x08\x05\x10" + varint_bytes(declared)
    path.write_bytes(struct.pack("<IQIi", 0, 0, 0, len(desc)) + desc + b"\0" * 16)
    tracemalloc.start()
    try:
        with pytest.raises(CorruptFileError, match="remain"):
            read_tensors(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_lod_and_descriptor_sizes_are_checked(tmp_path):
    path = tmp_path / "p.pdiparams"
    good = (FIXTURES / "pir" / "mlp_if.pdiparams").read_bytes()
    assert len(read_tensors(FIXTURES / "pir" / "mlp_if.pdiparams")) == 6
    cases = {struct.pack("<IQ", 0, 1) + struct.pack("<Q", 2**60): "LoD level 0 needs",
             struct.pack("<IQ", 0, 10**6): "LoD level",
             struct.pack("<IQIi", 0, 0, 0, 2**30): "descriptor size",
             struct.pack("<IQIi", 0, 0, 0, -5): "descriptor size",
             struct.pack("<IQIi", 7, 0, 0, 1): "tensor version",
             good + b"\0": "needs"}
    for data, message in cases.items():
        path.write_bytes(data)
        with pytest.raises(CorruptFileError, match=message):
            read_tensors(path)


def test_params_file_holding_a_pickle_or_a_sampan_file_is_refused(tmp_path):
    for data in (b"\x80\x04K\x01.", b"SAMPANST" + b"\0" * 40):
        path = tmp_path / "p.pdiparams"
        path.write_bytes(data)
        with pytest.raises(CorruptFileError):
            read_tensors(path, 1)
    assert np.array_equal(read_tensors(FIXTURES / "pir" / "mlp_if.pdiparams")[0],
                          np.zeros(3, "float32"))

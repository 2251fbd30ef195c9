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
from sampan.interop.paddle.wire import field_bytes, varint_bytes
from sampan.serialization import CorruptFileError

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
CASES = {"pir": ("pir/resnet_tiny", ".json"), "pir_if": ("pir/mlp_if", ".json"),
         "pir_while": ("pir/while_loop", ".json"), "legacy": ("legacy/resnet_tiny", ".pdmodel"),
         "legacy_cf": ("legacy/static_control_flow", ".pdmodel"),
         "legacy_array": ("legacy/static_tensor_array", ".pdmodel"),
         "pir_array": ("pir/list_loop", ".json")}
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


# -- hand-made legacy programs with sub-blocks (ProgramDesc fields by number) -------------
def message(*fields):
    return b"".join(field_bytes(number, value) for number, value in fields)


def var(name, dtype=5, dims=(-1, 3)):
    tensor = message((1, dtype), *[(2, d) for d in dims])
    return message((1, name), (2, message((1, 7), (3, message((1, tensor))))))


def op(kind, ins, outs, sub_block=None, attrs=()):
    """An OpDesc; `attrs` are (name, AttrType, value field number, value)."""
    slots = [(1, message((1, k), *[(2, n) for n in v])) for k, v in ins.items()]
    slots += [(2, message((1, k), *[(2, n) for n in v])) for k, v in outs.items()]
    attrs = [(4, message((1, name), (2, kind), (field, value)))
             for name, kind, field, value in attrs]
    if sub_block is not None:
        attrs.append((4, message((1, "sub_block"), (2, 8), (12, sub_block))))
    return message(*slots, (3, kind), *attrs)


def block(idx, ops, variables=()):
    return message((1, idx), (2, idx - 1), *[(3, v) for v in variables], *[(4, o) for o in ops])


FEED = op("feed", {"X": ["feed"]}, {"Out": ["x"]})
TRUE = op("fill_constant", {}, {"Out": ["c"]},
          attrs=[("dtype", 0, 3, 0), ("value", 1, 4, 1.0), ("shape", 3, 6, b"")])
HEAD = [var("x"), var("c", 0, ())]


def a_while(sub_block, reads="x"):
    return op("while", {"X": [reads], "Condition": ["c"]}, {"Out": ["x", "c"]}, sub_block)


def a_body(extra=()):
    return block(1, [op("relu", {"X": ["x"]}, {"Out": ["x"]}),
                     op("logical_not", {"X": ["c"]}, {"Out": ["c"]}), *extra])


HOSTILE = {
    "sub_block out of range": ([block(0, [FEED, TRUE, a_while(7)], HEAD), a_body()],
                               "sub_block 7 is not a block"),
    "sub_block is the main block": ([block(0, [FEED, TRUE, a_while(0)], HEAD)],
                                    "sub_block 0 is not a block"),
    "a cycle of blocks": ([block(0, [FEED, TRUE, a_while(1)], HEAD),
                           a_body([a_while(1)])], "block 1 is the sub_block of two ops"),
    "a missing variable": ([block(0, [FEED, TRUE, a_while(1)], HEAD),
                            a_body([op("relu", {"X": ["nope"]}, {"Out": ["x"]})])],
                           "reads variable 'nope'"),
    "a loop that never ends": ([block(0, [FEED, TRUE, a_while(1)], HEAD),
                                block(1, [op("relu", {"X": ["x"]}, {"Out": ["x"]})])],
                               "never writes its condition 'c'"),
    "a result one branch only sets": (
        [block(0, [FEED, TRUE, op("conditional_block", {"Cond": ["c"], "Input": ["x"]},
                                  {"Out": ["y"]}, 1, [("is_scalar_condition", 6, 10, 1)]),
                   op("fetch", {"X": ["y"]}, {"Out": ["fetch"]})], HEAD + [var("y")]),
         block(1, [op("relu", {"X": ["x"]}, {"Out": ["y"]})])], "set by one branch only"),
    "blocks nested too deep": ([block(0, [FEED, TRUE, a_while(1)], HEAD)] + [
        block(k, [op("logical_not", {"X": ["c"]}, {"Out": ["c"]}), a_while(k + 1)])
        for k in range(1, 200)] + [a_body()], "nest deeper than 64"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_sub_blocks_are_refused_clearly(tmp_path, case):
    blocks, message_part = HOSTILE[case]
    prefix = tmp_path / "m"
    pathlib.Path(f"{prefix}.pdmodel").write_bytes(b"".join(field_bytes(1, b) for b in blocks))
    pathlib.Path(f"{prefix}.pdiparams").write_bytes(b"")
    with pytest.raises(CorruptFileError, match=re.escape(message_part)):
        paddle.jit.load(str(prefix))


def test_hand_made_while_program_runs(tmp_path):
    """The same builder as the hostile cases, well formed: x = relu(x) once, then the body
    turns the condition off (so a hostile case's error is about its one defect)."""
    prefix = tmp_path / "m"
    blocks = [block(0, [FEED, TRUE, a_while(1), op("fetch", {"X": ["x"]}, {"Out": ["fetch"]})],
                    HEAD), a_body()]
    pathlib.Path(f"{prefix}.pdmodel").write_bytes(b"".join(field_bytes(1, b) for b in blocks))
    pathlib.Path(f"{prefix}.pdiparams").write_bytes(b"")
    x = np.array([[-1.0, 2.0, -3.0]], "float32")
    assert paddle.jit.load(str(prefix))(paddle.to_tensor(x)).numpy().tolist() == [[0, 2, 0]]

"""Pickles aimed at the restricted unpickler of `paddle.load` files: every one ends in
CorruptFileError, runs nothing, allocates no more than the file, and returns quickly."""
import io
import os
import pickle
import struct
import tracemalloc

import numpy as np
import pytest

import sampan as paddle
from sampan.interop.paddle.checkpoint import loads_checkpoint
from sampan.serialization import CorruptFileError


class Canary:
    """Pickles to a call of open(path, 'w'): a file appears if the reader runs it."""

    def __init__(self, path, func=open):
        self.path, self.func = str(path), func

    def __reduce__(self):
        return self.func, (self.path, "w")


def proto(body, protocol=4):
    return bytes([0x80, protocol]) + body + b"."


def unicode(text):
    raw = text.encode()
    return b"\x8c" + bytes([len(raw)]) + raw


def stack_global(module, name):
    return unicode(module) + unicode(name) + b"\x93"


ARRAY_PREFIX = (stack_global("numpy._core.multiarray", "_reconstruct")
                + stack_global("numpy", "ndarray") + b"K\x00\x85C\x01b\x87R")


def array_state(shape, code, data, order=b"<"):
    dims = b"(" + b"".join(b"J" + struct.pack("<i", d) for d in shape) + b"t"
    dtype = (stack_global("numpy", "dtype") + unicode(code) + b"\x89\x88\x87R"
             + b"(K\x03" + unicode(order.decode()) + b"NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb")
    return ARRAY_PREFIX + b"(K\x01" + dims + dtype + b"\x89" + bytes_op(data) + b"tb"


def bytes_op(data):
    return b"B" + struct.pack("<I", len(data)) + data


PAYLOADS = {
    "open global via STACK_GLOBAL": (stack_global("builtins", "open") + unicode("CANARY")
                                     + unicode("w") + b"\x86R", "refused global builtins.open"),
    "os.system via GLOBAL": (b"cos\nsystem\n" + unicode("touch CANARY") + b"\x85R",
                             "refused global os.system"),
    "eval": (stack_global("builtins", "eval") + unicode("1") + b"\x85R", "refused global"),
    "numpy.load": (stack_global("numpy", "load") + unicode("x") + b"\x85R", "refused global"),
    "INST opcode": (b"(S'CANARY'\nios\nsystem\n", "refused opcode INST"),
    "OBJ opcode": (b"(cbuiltins\nopen\nS'CANARY'\no", "refused global"),
    "NEWOBJ": (stack_global("collections", "OrderedDict") + b")\x81", "refused opcode NEWOBJ"),
    "EXT1": (b"\x82\x01", "refused opcode EXT1"),
    "persistent id": (unicode("x") + b"Q", "refused opcode BINPERSID"),
    "reduce of a non-callable": (b"K\x01)R", "REDUCE of something other"),
    "reconstruct of another class": (stack_global("numpy._core.multiarray", "_reconstruct")
                                     + stack_global("numpy", "dtype") + b"K\x00\x85C\x01b\x87R",
                                     "only build numpy.ndarray"),
    "object dtype": (array_state([1], "O8", b"\x00" * 8), "dtype"),
    "string dtype": (array_state([1], "U1", b"\x00" * 4), "dtype"),
    "size mismatch": (array_state([1000], "f4", b"\x00" * 8), "needs 4000 bytes"),
    "negative dim": (array_state([-1], "f4", b""), "dims >= 0"),
    "bool bytes": (array_state([2], "b1", b"\x00\x07"), "bool array"),
    "build of a dict": (b"}}b", "BUILD of a dict"),
    "huge BINBYTES8": (b"\x8e" + struct.pack("<Q", 1 << 62) + b"xx", "malformed pickle"),
    "huge BINUNICODE8": (b"\x8d" + struct.pack("<Q", 1 << 40), "malformed pickle"),
    "memo read before write": (b"h\x05", "memo entry 5"),
    "unhashable key": (b"}]K\x01s", "dict key of type list"),
    "append to dict": (b"}K\x01a", "APPEND onto a dict"),
    "stack underflow": (b"0", "stack underflow"),
    "two values": (b"K\x01K\x02", "exactly one value"),
    "deep nesting": (b"]" * 300 + b"a" * 299, "deeper than 256"),
    "cycle": (b"]\x94h\x00a", "holds itself"),
    "bare dtype": (stack_global("numpy", "dtype"), "not a value"),
    "unfinished array": (ARRAY_PREFIX, "never given its data"),
    "codecs with another encoding": (stack_global("_codecs", "encode") + unicode("x")
                                     + unicode("rot13") + b"\x86R", "latin1"),
    "out-of-band buffer": (b"\x97", "refused opcode NEXT_BUFFER"),
    "huge int text": (b"I" + b"9" * 100000 + b"\n", "malformed pickle"),
}


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_hostile_payload_is_refused(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    body, message = PAYLOADS[name]
    path = tmp_path / "evil.pdparams"
    path.write_bytes(proto(body))
    tracemalloc.start()
    try:
        with pytest.raises(CorruptFileError, match=message):
            paddle.load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * path.stat().st_size + (1 << 20)
    assert not (tmp_path / "CANARY").exists()


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
@pytest.mark.parametrize("func", [open, os.system, print])
def test_pickled_calls_never_run(tmp_path, protocol, func):
    canary = tmp_path / "canary"
    path = tmp_path / "x.pdparams"
    path.write_bytes(pickle.dumps({"w": np.ones(3), "evil": Canary(canary, func)}, protocol))
    with pytest.raises(CorruptFileError, match="refused global"):
        paddle.load(path)
    assert not canary.exists()


def test_shared_references_do_not_blow_up():
    # each level holds the previous list twice: 2**60 paths, 60 objects
    body = b"]\x94"
    for level in range(1, 60):
        body += b"0]\x94(h" + bytes([level - 1]) + b"h" + bytes([level - 1]) + b"e"
    value = loads_checkpoint(proto(body))
    assert value[0] is value[1]


def test_truncations_of_a_real_checkpoint_all_fail_cleanly(tmp_path):
    data = pickle.dumps({"w": np.arange(12.0).reshape(3, 4), "b": [1, 2.5, "x"]}, protocol=4)
    assert loads_checkpoint(data)["b"] == [1, 2.5, "x"]
    for cut in range(1, len(data)):
        with pytest.raises(CorruptFileError):
            loads_checkpoint(data[:cut])


def test_stdlib_pickles_of_plain_data_load(tmp_path):
    for protocol in (2, 3, 4, 5):
        data = pickle.dumps({"w": np.eye(2, dtype="float64"), "f": np.asfortranarray(
            np.arange(6, dtype="int16").reshape(2, 3)), "s": {1: (None, True)}}, protocol)
        value = loads_checkpoint(data)
        np.testing.assert_array_equal(value["w"], np.eye(2))
        np.testing.assert_array_equal(value["f"], np.arange(6).reshape(2, 3))
        assert value["s"] == {1: (None, True)}

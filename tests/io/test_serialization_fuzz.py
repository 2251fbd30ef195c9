"""Truncated and mutated state files must raise CorruptFileError (or load correctly), nothing else."""

import re
import struct
import time
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sampan.serialization import CorruptFileError, dumps_tree, load_tree, loads_tree

from .test_serialization import Tagged, from_record, to_record

TREE = {
    "w": Tagged(np.arange(6, dtype=np.float32).reshape(2, 3),
                {"kind": "parameter", "name": "linear_0.w_0", "stop_gradient": False}),
    "mask": np.array([True, False, True]),
    "step": 7, "lr": 0.125, "name": "adam", "none": None,
    "nested": [(np.zeros((), np.complex64), np.zeros((0, 2), np.int16)),
               {3: np.array([1, 2], ">i8"), "h": np.ones(3, np.float16)}],
}
BASE = dumps_tree(TREE, leaf_to_record=to_record)
HEADER_LEN = struct.unpack_from("<Q", BASE, 16)[0]
DATA_START = 24 + HEADER_LEN + (-(24 + HEADER_LEN) % 8)
HEADER = BASE[24:24 + HEADER_LEN]
NUMBERS = [m.span() for m in re.finditer(rb"-?\d+", HEADER)]


def skeleton(tree):
    """Everything about a loaded tree except array values: types, keys, scalars, dtypes, shapes."""
    if isinstance(tree, Tagged):
        return ("tagged", tree.tag, skeleton(tree.array))
    if isinstance(tree, np.ndarray):
        return ("array", tree.dtype.str, tree.shape)
    if isinstance(tree, dict):
        return ("dict", [(key, skeleton(value)) for key, value in tree.items()])
    if isinstance(tree, (list, tuple)):
        return (type(tree).__name__, [skeleton(item) for item in tree])
    return (type(tree).__name__, tree)


EXPECTED = skeleton(loads_tree(BASE, record_to_leaf=from_record))


def reframe(header):
    """Rebuild BASE around a replacement header with a fresh checksum and padding."""
    prefix = struct.pack("<8sIIQ", b"SAMPANST", 1, zlib.crc32(header), len(header))
    return prefix + header + b"\0" * (-(24 + len(header)) % 8) + BASE[DATA_START:]


def mutate(kind, position, value):
    """Apply one mutation; return (bytes, what a successful load may look like)."""
    if kind == "flip":
        index = position % len(BASE)
        data = BASE[:index] + bytes([BASE[index] ^ (value % 255 + 1)]) + BASE[index + 1:]
        return data, "same" if index >= DATA_START else "never"
    if kind == "truncate":
        return BASE[:position % len(BASE)], "never"
    if kind == "length":
        return BASE[:16] + struct.pack("<Q", value % 2**64) + BASE[24:], "same"
    if kind == "insert":
        index = position % (len(BASE) + 1)
        return BASE[:index] + (value % 2**64).to_bytes(8, "little") + BASE[index:], "never"
    if kind == "header_flip":
        index = position % HEADER_LEN
        header = HEADER[:index] + bytes([HEADER[index] ^ (value % 255 + 1)]) + HEADER[index + 1:]
        return reframe(header), "any"
    start, end = NUMBERS[position % len(NUMBERS)]
    return reframe(HEADER[:start] + str(value).encode() + HEADER[end:]), "any"


mutations = st.tuples(
    st.sampled_from(["flip", "truncate", "length", "insert", "header_flip", "inflate"]),
    st.integers(0, 2**32),
    st.integers(-2**70, 2**70) | st.sampled_from([0, 1, 2**31, 2**32, 2**63, 10**12, -1]),
)


@settings(derandomize=True, max_examples=1000, deadline=None)
@given(mutations)
def test_mutated_files_fail_cleanly(mutation):
    data, allowed = mutate(*mutation)
    started = time.process_time()  # CPU time: a busy machine does not count
    try:
        tree = loads_tree(data, record_to_leaf=from_record)
    except CorruptFileError:
        tree = None
    assert time.process_time() - started < 1.0
    if tree is not None:
        assert allowed != "never", mutation
        assert allowed == "any" or skeleton(tree) == EXPECTED


def test_truncation_at_every_offset_is_detected():
    for length in range(len(BASE)):
        with pytest.raises(CorruptFileError):
            loads_tree(BASE[:length])
    assert skeleton(loads_tree(BASE, record_to_leaf=from_record)) == EXPECTED


def test_truncated_files_on_disk_are_detected(tmp_path):
    path = tmp_path / "cut.pdparams"
    for length in (0, 23, 24, DATA_START - 1, DATA_START, len(BASE) - 1):
        path.write_bytes(BASE[:length])
        with pytest.raises(CorruptFileError, match="cut.pdparams"):
            load_tree(path)


def test_every_single_flip_outside_the_data_is_detected():
    for index in range(DATA_START):
        flipped = BASE[:index] + bytes([BASE[index] ^ 0x20]) + BASE[index + 1:]
        with pytest.raises(CorruptFileError):
            loads_tree(flipped)

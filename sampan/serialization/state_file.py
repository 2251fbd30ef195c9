"""Safe binary container for a nested tree of containers, scalars and NumPy arrays.

Layout (all integers little-endian; full description in docs/file_formats.md)::

    offset 0   8 bytes   magic b"SAMPANST"
    offset 8   u32       format version (1)
    offset 12  u32       CRC-32 of the header bytes
    offset 16  u64       header length H in bytes
    offset 24  H bytes   UTF-8 JSON header: {"nodes": [...]} -- the tree in pre-order
    ...        0-7 bytes zero padding up to a multiple of 8
    data start           raw little-endian array bytes, contiguous, in node order

Loading never unpickles, evaluates or imports anything, checks every declared size against the
real file size before allocating, and reports every defect as `CorruptFileError`.
"""

import io
import json
import os
import struct
import zlib

import numpy as np

from . import strict_json
from .atomic import atomic_write

__all__ = [
    "CorruptFileError", "save_tree", "load_tree", "dumps_tree", "loads_tree",
    "MAGIC", "FORMAT_VERSION", "MAX_HEADER_BYTES", "MAX_DEPTH", "MAX_NDIM", "DTYPES",
]

MAGIC = b"SAMPANST"
FORMAT_VERSION = 1
MAX_HEADER_BYTES = 64 << 20
MAX_DEPTH = 256
MAX_NDIM = 64
DTYPES = {
    name: np.dtype(name).newbyteorder("<")
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64",
                 "float16", "float32", "float64", "complex64", "complex128")
}

_PREFIX = struct.Struct("<8sIIQ")
_ALIGN = 8
_INT64_MAX = 2**63 - 1
_SCALAR_TYPES = (type(None), bool, int, float, str)
_KEY_TYPES = (str, int)


class CorruptFileError(ValueError):
    """A file or byte string is not a well-formed sampan state file; the message says why."""


class _Malformed(Exception):
    """Internal: a defect found while parsing; turned into CorruptFileError naming the source."""


# ----------------------------------------------------------------------------- public API


def save_tree(obj, path, *, leaf_to_record=None):
    """Write ``obj`` to ``path`` atomically (old file intact if anything fails)."""
    head, arrays = _encode(obj, leaf_to_record)
    atomic_write(path, lambda file: _emit(file, head, arrays))


def dumps_tree(obj, *, leaf_to_record=None):
    """Return the state-file bytes of ``obj``."""
    head, arrays = _encode(obj, leaf_to_record)
    buffer = io.BytesIO()
    _emit(buffer, head, arrays)
    return buffer.getvalue()


def load_tree(path, *, record_to_leaf=None):
    """Read the tree stored at ``path``; array leaves go through ``record_to_leaf(array, tag)``,
    which raises ValueError for a tag it refuses (reported as CorruptFileError)."""
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        return _load(file, size, repr(os.fspath(path)), record_to_leaf)


def loads_tree(data, *, record_to_leaf=None):
    """Read a tree from state-file bytes produced by `dumps_tree`."""
    data = bytes(data)
    return _load(io.BytesIO(data), len(data), "<bytes>", record_to_leaf)


# ----------------------------------------------------------------------------- saving


def _encode(obj, leaf_to_record):
    """Return (prefix + header + padding bytes, little-endian arrays in data order)."""
    nodes, arrays = _flatten(obj, leaf_to_record)
    header = json.dumps({"nodes": nodes}, allow_nan=False, separators=(",", ":")).encode("ascii")
    if len(header) > MAX_HEADER_BYTES:
        raise ValueError(f"state file header would be {len(header)} bytes, over the "
                         f"{MAX_HEADER_BYTES}-byte limit; store fewer or larger leaves")
    prefix = _PREFIX.pack(MAGIC, FORMAT_VERSION, zlib.crc32(header), len(header))
    return prefix + header + bytes(_padding(len(header))), arrays


def _emit(file, head, arrays):
    """Write the head and the raw bytes of every array to ``file``."""
    file.write(head)
    for array in arrays:
        file.write(memoryview(array.reshape(-1).view(np.uint8)))


def _flatten(obj, leaf_to_record):
    """Walk ``obj`` depth-first without recursion; return (pre-order header nodes, arrays)."""
    nodes, arrays, offset = [], [], 0
    stack = [(obj, (), 0)]
    while stack:
        value, path, depth = stack.pop()
        if type(value) in _SCALAR_TYPES:
            nodes.append({"k": "float", "v": value.hex()} if type(value) is float else value)
            continue
        if isinstance(value, (dict, list, tuple)):
            if depth >= MAX_DEPTH:
                raise ValueError(f"containers nested deeper than {MAX_DEPTH} levels (a reference "
                                 f"cycle?) at {_path_text(path)}")
            node, children = _container_node(value, path)
            nodes.append(node)
            stack.extend((child, path + (key,), depth + 1) for key, child in reversed(children))
            continue
        array, tag = _record(value, path, leaf_to_record)
        node = {"k": "array", "dtype": array.dtype.name, "shape": list(array.shape),
                "offset": offset, "nbytes": array.nbytes}
        if tag is not None:
            node["tag"] = tag
        nodes.append(node)
        arrays.append(array)
        offset += array.nbytes
    return nodes, arrays


def _container_node(value, path):
    """Return the header node of a dict/list/tuple and its (key, child) pairs in order."""
    if isinstance(value, dict):
        for key in value:
            if type(key) not in _KEY_TYPES:
                raise TypeError(f"dict key {key!r} of type {type(key).__name__} at "
                                f"{_path_text(path)} is not supported; keys must be str or int")
        return {"k": "dict", "keys": list(value)}, list(value.items())
    kind = "tuple" if isinstance(value, tuple) else "list"
    return {"k": kind, "n": len(value)}, list(enumerate(value))


def _record(value, path, leaf_to_record):
    """Turn a non-container leaf into (C-contiguous little-endian array, tag) or raise TypeError."""
    record = leaf_to_record(value) if leaf_to_record is not None else None
    if record is None:
        if not isinstance(value, np.ndarray):
            raise TypeError(f"cannot save object of type {type(value).__qualname__} at "
                            f"{_path_text(path)}")
        record = (value, None)
    if not (isinstance(record, tuple) and len(record) == 2 and isinstance(record[0], np.ndarray)):
        raise TypeError(f"leaf_to_record must return (np.ndarray, tag) or None, got "
                        f"{type(record).__name__} for the leaf at {_path_text(path)}")
    array, tag = record
    dtype = DTYPES.get(array.dtype.name)
    if dtype is None:
        raise TypeError(f"array dtype {array.dtype} at {_path_text(path)} is not supported; "
                        f"allowed: {', '.join(DTYPES)}")
    _check_tag(tag, path)
    return np.asarray(array, dtype=dtype, order="C"), tag


def _check_tag(tag, path):
    """Raise TypeError unless ``tag`` is None or a dict surviving a JSON round trip unchanged."""
    if tag is None:
        return
    try:
        survives = type(tag) is dict and json.loads(json.dumps(tag, allow_nan=False)) == tag
    except (TypeError, ValueError, RecursionError):
        survives = False
    if not survives:
        raise TypeError(f"tag of the leaf at {_path_text(path)} must be a dict of plain JSON "
                        f"values (str keys, lists not tuples, finite floats), got {tag!r:.200}")


def _path_text(path):
    """Render a key path like tree['layers'][0]['w'], abbreviating long paths and keys."""
    parts = [f"[{key!r:.40}]" for key in path]
    if len(parts) > 8:
        parts = parts[:4] + ["[...]"] + parts[-3:]
    return "tree" + "".join(parts)


def _padding(header_length):
    """Number of zero bytes after a header of ``header_length`` bytes."""
    return -(_PREFIX.size + header_length) % _ALIGN


# ----------------------------------------------------------------------------- loading


def _load(file, size, name, record_to_leaf):
    """Validate and read a whole state file from ``file`` of ``size`` bytes."""
    try:
        ops, specs = _read_layout(file, size)
        arrays = [_read_array(file, *spec[:3]) for spec in specs]
    except _Malformed as exc:
        raise CorruptFileError(f"corrupt sampan state file {name}: {exc}") from None
    if record_to_leaf is None:
        return _assemble(ops, arrays)
    leaves = []
    for k, (array, spec) in enumerate(zip(arrays, specs)):
        try:
            leaves.append(record_to_leaf(array, spec[3]))
        except ValueError as exc:  # the caller refuses this leaf's tag
            raise CorruptFileError(f"corrupt sampan state file {name}: array {k}: {exc}") \
                from None
    return _assemble(ops, leaves)


def _read_layout(file, size):
    """Check prefix, padding, checksum and header; return (ops, array specs)."""
    prefix = file.read(_PREFIX.size)
    if len(prefix) < _PREFIX.size:
        raise _Malformed(f"{size} bytes is shorter than the {_PREFIX.size}-byte fixed prefix")
    magic, version, checksum, length = _PREFIX.unpack(prefix)
    if magic != MAGIC:
        raise _Malformed(f"bad magic {magic!r}, expected {MAGIC!r} (not a sampan state file)")
    if version != FORMAT_VERSION:
        raise _Malformed(f"unsupported format version {version}; this sampan reads "
                         f"version {FORMAT_VERSION}")
    if length > MAX_HEADER_BYTES:
        raise _Malformed(f"declared header length {length} exceeds the "
                         f"{MAX_HEADER_BYTES}-byte limit")
    data_start = _PREFIX.size + length + _padding(length)
    if data_start > size:
        raise _Malformed(f"declared header length {length} does not fit in a "
                         f"{size}-byte file")
    raw = file.read(data_start - _PREFIX.size)
    if len(raw) != data_start - _PREFIX.size:
        raise _Malformed("file ended inside the header")
    header, padding = memoryview(raw)[:length], raw[length:]
    if padding.count(0) != len(padding):
        raise _Malformed("padding after the header is not zero bytes")
    if zlib.crc32(header) != checksum:
        raise _Malformed("header checksum mismatch (header bytes were modified or damaged)")
    return _parse_nodes(_parse_header(header), size - data_start)


def _parse_header(header):
    """Decode the JSON header strictly; return its node list."""
    try:
        document = strict_json.decode(bytes(header))
    except ValueError as exc:
        raise _Malformed(f"header {exc}") from None
    if type(document) is not dict or document.keys() != {"nodes"}:
        raise _Malformed('header must be a JSON object with exactly the key "nodes"')
    nodes = document["nodes"]
    if type(nodes) is not list or not nodes:
        raise _Malformed('header "nodes" must be a non-empty list')
    return nodes


def _parse_nodes(nodes, data_size):
    """Check the pre-order node list forms one tree within the depth limit; return (ops, specs)."""
    ops, specs, offset = [], [], 0
    open_slots = [1]  # children still expected by each enclosing container; [0] is the root slot
    for index, node in enumerate(nodes):
        if not open_slots:
            raise _Malformed(f"node {index}: extra node after the end of the tree")
        open_slots[-1] -= 1
        try:
            op = _parse_node(node, len(open_slots) - 1, offset, data_size)
        except _Malformed as exc:
            raise _Malformed(f"node {index}: {exc}") from None
        if op[0] == "array":
            offset += op[1][2]
            specs.append(op[1])
            op = ("array", len(specs) - 1)
        ops.append(op)
        open_slots.append(_child_count(op))
        while open_slots and open_slots[-1] == 0:
            open_slots.pop()
    if open_slots:
        raise _Malformed("header ends inside a container (fewer nodes than declared children)")
    if offset != data_size:
        raise _Malformed(f"{data_size - offset} trailing bytes after the last array")
    return ops, specs


def _parse_node(node, depth, offset, data_size):
    """Validate one header node at ``depth`` enclosing containers; return its op."""
    if type(node) in (type(None), bool, int, str):
        return ("value", node)
    if type(node) is not dict:
        raise _Malformed(f"unexpected JSON {type(node).__name__} where a node was expected")
    kind = node.get("k")
    if kind == "float":
        return ("value", _parse_float(node))
    if kind == "array":
        return ("array", _parse_array(node, offset, data_size))
    if kind not in ("list", "tuple", "dict"):
        raise _Malformed(f"unknown node kind {kind!r:.60}")
    if depth >= MAX_DEPTH:
        raise _Malformed(f"containers nested deeper than {MAX_DEPTH} levels")
    if kind == "dict":
        return ("dict", _parse_dict_keys(node))
    _check_keys(node, {"k", "n"})
    if not _is_count(node["n"]):
        raise _Malformed(f"{kind} child count {node['n']!r:.60} is not a non-negative int")
    return (kind, node["n"])


def _parse_float(node):
    """Return the float of a {"k": "float", "v": hex-string} node."""
    _check_keys(node, {"k", "v"})
    text = node["v"]
    if type(text) is not str or len(text) > 64:
        raise _Malformed("float value must be a short hexadecimal string")
    try:
        return float.fromhex(text)
    except (ValueError, OverflowError):
        raise _Malformed(f"bad hexadecimal float {text!r}") from None


def _parse_dict_keys(node):
    """Return the validated key list of a dict node (unique str/int keys)."""
    _check_keys(node, {"k", "keys"})
    keys = node["keys"]
    if type(keys) is not list or any(type(key) not in _KEY_TYPES for key in keys):
        raise _Malformed("dict keys must be a list of strings and integers")
    if len(set(keys)) != len(keys):
        raise _Malformed("dict keys are not unique")
    return keys


def _parse_array(node, offset, data_size):
    """Validate an array node that must start at ``offset``; return (dtype, shape, nbytes, tag)."""
    _check_keys(node, {"k", "dtype", "shape", "offset", "nbytes"}, {"tag"})
    dtype = DTYPES.get(node["dtype"]) if type(node["dtype"]) is str else None
    if dtype is None:
        raise _Malformed(f"array dtype {node['dtype']!r:.60} is not one of {', '.join(DTYPES)}")
    shape = node["shape"]
    count = _element_count(shape, dtype.itemsize)
    nbytes = node["nbytes"]
    if not _is_count(nbytes) or nbytes != count * dtype.itemsize:
        raise _Malformed(f"array nbytes {nbytes!r:.60} does not match shape {shape!r:.200} "
                         f"of {node['dtype']} ({count * dtype.itemsize} bytes)")
    if not _is_count(node["offset"]) or node["offset"] != offset:
        raise _Malformed(f"array offset {node['offset']!r:.60} is not {offset}, the end of "
                         f"the previous array (arrays must be contiguous and in order)")
    if offset + nbytes > data_size:
        raise _Malformed(f"array bytes [{offset}, {offset + nbytes}) run past the "
                         f"{data_size}-byte data section")
    tag = node.get("tag")
    if "tag" in node and type(tag) is not dict:
        raise _Malformed("array tag must be a JSON object")
    return dtype, tuple(shape), nbytes, tag


def _element_count(shape, itemsize):
    """Validate a JSON shape; return its element count (exact, no overflow)."""
    if type(shape) is not list or len(shape) > MAX_NDIM:
        raise _Malformed(f"array shape must be a list of at most {MAX_NDIM} dims")
    if not all(_is_count(dim) and dim <= _INT64_MAX for dim in shape):
        raise _Malformed(f"array shape {shape!r:.200} has a negative, non-int or huge dim")
    count, nonzero = 1, 1
    for dim in shape:
        count *= dim
        nonzero *= dim or 1
    if nonzero * itemsize > _INT64_MAX:
        raise _Malformed(f"array shape {shape!r:.200} is too large to represent")
    return count


def _check_keys(node, required, optional=frozenset()):
    """Raise unless the node object has all ``required`` keys and nothing beyond ``optional``."""
    keys = node.keys()
    if not (required <= keys and keys <= required | optional):
        allowed = sorted(required) + [f"{key}?" for key in sorted(optional)]
        raise _Malformed(f"{node['k']} node has keys {sorted(keys)!r:.200}, expected {allowed}")


def _is_count(value):
    """True for a non-negative int that is not a bool."""
    return type(value) is int and value >= 0


def _child_count(op):
    """Number of child nodes that follow a node in pre-order."""
    kind, payload = op
    if kind == "dict":
        return len(payload)
    return payload if kind in ("list", "tuple") else 0


def _read_array(file, dtype, shape, nbytes):
    """Read one validated array from the current file position; return it in native byte order."""
    array = np.empty(nbytes // dtype.itemsize, dtype)
    if file.readinto(memoryview(array.view(np.uint8))) != nbytes:
        raise _Malformed("file ended inside the array data")
    if dtype.kind == "b" and array.view(np.uint8).max(initial=0) > 1:
        raise _Malformed("bool array holds bytes other than 0 and 1")
    return array.reshape(shape).astype(dtype.newbyteorder("="), copy=False)


def _assemble(ops, leaves):
    """Build the tree from pre-order ops by evaluating them right to left with a value stack."""
    stack = []
    for kind, payload in reversed(ops):
        if kind == "value":
            stack.append(payload)
        elif kind == "array":
            stack.append(leaves[payload])
        else:
            items = [stack.pop() for _ in range(_child_count((kind, payload)))]
            stack.append(dict(zip(payload, items)) if kind == "dict"
                         else tuple(items) if kind == "tuple" else items)
    return stack.pop()

"""Paddle's tensor stream: the `.pdiparams` file of an inference model (and the values of
`save_combine`), read and written without Paddle.

Each tensor is stored, little-endian, as::

    u32 version (0) | u64 lod_level | lod_level x (u64 nbytes, nbytes of size_t offsets)
    | u32 version (0) | i32 desc_size | TensorDesc protobuf (1: data type, 2: dims)
    | raw data, C order

back to back with no names: the names are those of the program's persistable variables,
sorted. Every declared size is checked against the bytes that remain before anything is
allocated, so a file can never make the reader allocate more than its own size.
"""
import os
import struct

import numpy as np

from ...serialization import CorruptFileError, atomic_open
from .wire import WireError, field_bytes, fields, signed64

__all__ = ["PADDLE_DTYPES", "DTYPE_CODES", "read_tensors", "tensors_bytes", "write_tensors",
           "decode_tensor_desc", "tensor_desc_bytes"]

# Paddle's VarType.Type codes of the dtypes sampan holds (bfloat16 has no NumPy dtype).
PADDLE_DTYPES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32",
                 6: "float64", 20: "uint8", 21: "int8", 23: "complex64", 24: "complex128"}
DTYPE_CODES = {name: code for code, name in PADDLE_DTYPES.items()}
MAX_DESC_BYTES = 1 << 16
MAX_NDIM = 64


class _Malformed(Exception):
    """Internal: a defect, turned into CorruptFileError naming the file."""


def decode_tensor_desc(raw):
    """(dtype name, dims) of a TensorDesc message; raises ValueError when malformed."""
    code, dims = None, []
    for number, kind, value in fields(raw):
        if number == 1 and kind == 0:
            code = value
        elif number == 2 and kind == 0:
            dims.append(signed64(value))
        elif number == 2 and kind == 2:   # packed dims
            dims.extend(signed64(v) for _, _, v in fields(_packed_as_fields(value)))
        if len(dims) > MAX_NDIM:
            raise ValueError(f"more than {MAX_NDIM} dims")
    if code not in PADDLE_DTYPES:
        raise ValueError(f"unsupported Paddle data type code {code}")
    return PADDLE_DTYPES[code], dims


def _packed_as_fields(value):
    """A packed varint run re-keyed as field-1 varints, so `fields` can decode it."""
    out, pos, data = bytearray(), 0, bytes(value)
    while pos < len(data):
        end = pos
        while end < len(data) and data[end] & 0x80:
            end += 1
        out += b"\x08" + data[pos:end + 1]
        pos = end + 1
    return bytes(out)


def tensor_desc_bytes(dtype, shape):
    """The TensorDesc message of an array's dtype and shape."""
    return field_bytes(1, DTYPE_CODES[dtype]) + b"".join(field_bytes(2, d) for d in shape)


class _Reader:
    """Sequential reads from a file that never go past its size."""

    def __init__(self, file, size):
        self.file, self.size, self.pos = file, size, 0

    def remaining(self):
        return self.size - self.pos

    def take(self, count, what):
        if count > self.remaining():
            raise _Malformed(f"{what} needs {count} bytes, {self.remaining()} remain")
        raw = self.file.read(count)
        if len(raw) != count:
            raise _Malformed("file changed size while it was read")
        self.pos += count
        return raw

    def unpack(self, fmt, what):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))[0]

    def fill(self, array, what):
        if array.nbytes > self.remaining():
            raise _Malformed(f"{what} needs {array.nbytes} bytes, {self.remaining()} remain")
        view = memoryview(array.reshape(-1).view(np.uint8))
        if self.file.readinto(view) != array.nbytes:
            raise _Malformed("file changed size while it was read")
        self.pos += array.nbytes


def _read_one(reader, index):
    """The next tensor of the stream."""
    what = f"tensor {index}"
    if reader.unpack("<I", f"{what} version") != 0:
        raise _Malformed(f"{what}: unsupported tensor version")
    lod_level = reader.unpack("<Q", f"{what} LoD level")
    if lod_level > MAX_NDIM:
        raise _Malformed(f"{what}: LoD level {lod_level} exceeds {MAX_NDIM}")
    for level in range(lod_level):
        nbytes = reader.unpack("<Q", f"{what} LoD size")
        if nbytes % 8:
            raise _Malformed(f"{what}: LoD level {level} is {nbytes} bytes, not whole offsets")
        reader.take(nbytes, f"{what} LoD level {level}")   # LoD is irrelevant to inference
    if reader.unpack("<I", f"{what} descriptor version") != 0:
        raise _Malformed(f"{what}: unsupported descriptor version")
    desc_size = reader.unpack("<i", f"{what} descriptor size")
    if not 0 <= desc_size <= MAX_DESC_BYTES:
        raise _Malformed(f"{what}: descriptor size {desc_size} out of range")
    try:
        dtype, dims = decode_tensor_desc(reader.take(desc_size, f"{what} descriptor"))
    except (ValueError, WireError) as exc:
        raise _Malformed(f"{what}: bad descriptor: {exc}") from None
    if any(d < 0 for d in dims):
        raise _Malformed(f"{what}: negative dim in {dims}")
    count = 1
    for d in dims:
        count *= d
    nbytes = count * np.dtype(dtype).itemsize
    if nbytes > reader.remaining():
        raise _Malformed(f"{what}: {dtype} {dims} needs {nbytes} bytes, {reader.remaining()} "
                         f"remain")
    array = np.empty(dims, np.dtype(dtype).newbyteorder("<"))
    reader.fill(array, what)
    if dtype == "bool" and array.view(np.uint8).max(initial=0) > 1:
        raise _Malformed(f"{what}: bool data holds bytes other than 0 and 1")
    return array.astype(array.dtype.newbyteorder("="), copy=False)


def read_tensors(path, count=None):
    """The arrays of a tensor-stream file, in order; with `count`, exactly that many.

    Raises CorruptFileError naming the file and the defect.
    """
    path = os.fspath(path)
    try:
        with open(path, "rb") as file:
            reader = _Reader(file, os.fstat(file.fileno()).st_size)
            arrays = []
            while reader.remaining() and (count is None or len(arrays) < count):
                arrays.append(_read_one(reader, len(arrays)))
            if count is not None and len(arrays) != count:
                raise _Malformed(f"holds {len(arrays)} tensors, the program needs {count}")
            if reader.remaining():
                raise _Malformed(f"{reader.remaining()} bytes follow the last tensor")
            return arrays
    except _Malformed as exc:
        raise CorruptFileError(f"corrupt Paddle params file {path!r}: {exc}") from None


def tensors_bytes(arrays):
    """The tensor-stream encoding of a sequence of arrays."""
    out = []
    for array in arrays:
        array = np.ascontiguousarray(array)
        if array.dtype.name not in DTYPE_CODES:
            raise TypeError(f"Paddle's params file cannot hold dtype {array.dtype}")
        desc = tensor_desc_bytes(array.dtype.name, array.shape)
        out += [struct.pack("<IQIi", 0, 0, 0, len(desc)), desc,
                array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()]
    return b"".join(out)


def write_tensors(path, arrays):
    """Write arrays as a tensor-stream file, atomically."""
    with atomic_open(os.fspath(path)) as file:
        file.write(tensors_bytes(arrays))

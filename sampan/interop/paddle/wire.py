"""A small reader and writer of the protobuf wire format (no `protobuf` dependency).

Only what Paddle's `TensorDesc` and `ProgramDesc` need: varints, 64- and 32-bit fixed
fields and length-delimited fields. Every length is checked against the bytes that remain,
so a message can never make the reader allocate more than the message itself.
"""
import struct

__all__ = ["WireError", "fields", "varint_bytes", "field_bytes", "signed64", "MAX_VARINT_BYTES"]

MAX_VARINT_BYTES = 10
VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5


class WireError(ValueError):
    """The bytes are not a well-formed protobuf message."""


def _varint(data, pos):
    """(value, new position) of the varint at data[pos]."""
    value = shift = 0
    for count in range(MAX_VARINT_BYTES):
        if pos >= len(data):
            raise WireError("message ends inside a varint")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            if value >= 1 << 64:
                raise WireError("varint exceeds 64 bits")
            return value, pos
        shift += 7
    raise WireError(f"varint longer than {MAX_VARINT_BYTES} bytes")


def fields(data):
    """Yield (field number, wire type, value) of a message: ints for varint and fixed
    fields, a memoryview for length-delimited ones."""
    data = memoryview(data)
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, kind = key >> 3, key & 7
        if number == 0:
            raise WireError("field number 0")
        if kind == VARINT:
            value, pos = _varint(data, pos)
        elif kind in (FIXED64, FIXED32):
            size = 8 if kind == FIXED64 else 4
            if pos + size > len(data):
                raise WireError("message ends inside a fixed-size field")
            value = int.from_bytes(data[pos:pos + size], "little")
            pos += size
        elif kind == LENGTH:
            size, pos = _varint(data, pos)
            if size > len(data) - pos:
                raise WireError(f"field {number} declares {size} bytes, {len(data) - pos} "
                                f"remain")
            value = data[pos:pos + size]
            pos += size
        else:
            raise WireError(f"unsupported wire type {kind} (field {number})")
        yield number, kind, value


def signed64(value):
    """A varint read as a two's-complement int64."""
    return value - (1 << 64) if value >= 1 << 63 else value


def varint_bytes(value):
    """The varint encoding of a non-negative int, or of a negative int64."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field_bytes(number, value):
    """One encoded field: an int as a varint, bytes/str as length-delimited, a float as
    fixed32 (protobuf `float`)."""
    if isinstance(value, bool) or isinstance(value, int):
        return varint_bytes(number << 3 | VARINT) + varint_bytes(int(value))
    if isinstance(value, float):
        return varint_bytes(number << 3 | FIXED32) + struct.pack("<f", value)
    raw = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    return varint_bytes(number << 3 | LENGTH) + varint_bytes(len(raw)) + raw

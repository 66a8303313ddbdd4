"""A reader for the numeric arrays of MATLAB 5 .mat files (the Flowers labels), without scipy.

A .mat (version 5) file is a 128-byte header, then data elements, each a tag (type, byte count) and its data
padded to 8 bytes; an element may be zlib-compressed (miCOMPRESSED) around a matrix (miMATRIX), which holds
its flags (class), dimensions, name and real part, stored column-major. Only numeric, real, non-sparse
matrices are read; cells, structs, sparse and complex arrays are skipped.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

__all__ = ["read_mat"]

MI_TYPES = {1: "i1", 2: "u1", 3: "i2", 4: "u2", 5: "i4", 6: "u4", 7: "f4", 9: "f8", 12: "i8", 13: "u8"}
MI_MATRIX, MI_COMPRESSED = 14, 15
MX_CLASSES = {6: "f8", 7: "f4", 8: "i1", 9: "u1", 10: "i2", 11: "u2", 12: "i4", 13: "u4", 14: "i8", 15: "u8"}


def _elements(data: bytes, endian: str, path: str):
    """(type, payload) of each data element in `data`."""
    pos = 0
    while pos + 8 <= len(data):
        kind, size = struct.unpack(endian + "II", data[pos : pos + 8])
        if kind >> 16:  # the small element format: size and type share one word, data in the next four bytes
            kind, size = kind & 0xFFFF, kind >> 16
            yield kind, data[pos + 4 : pos + 4 + size]
            pos += 8
            continue
        if pos + 8 + size > len(data):
            raise ValueError(f"read_mat: {path} is truncated")
        yield kind, data[pos + 8 : pos + 8 + size]
        pos += 8 + size + (-size % 8 if kind != MI_COMPRESSED else 0)


def _matrix(payload: bytes, endian: str, path: str):
    """(name, array) of one miMATRIX element, or None when it is not a plain numeric real array."""
    parts = list(_elements(payload, endian, path))
    if len(parts) < 4:
        return None
    flags = struct.unpack(endian + "I", parts[0][1][:4])[0]
    cls, is_complex = flags & 0xFF, bool(flags & 0x800)
    if cls not in MX_CLASSES or is_complex:
        return None
    dims = np.frombuffer(parts[1][1], dtype=endian + "i4")
    name = parts[2][1].decode("ascii", "replace")
    kind, real = parts[3]
    if kind not in MI_TYPES:
        return None
    values = np.frombuffer(real, dtype=endian + MI_TYPES[kind]).astype(MX_CLASSES[cls])
    return name, values.reshape(tuple(int(d) for d in dims), order="F")


def read_mat(path: str) -> dict:
    """The numeric arrays of a MATLAB 5 .mat file, by name (as `scipy.io.loadmat` gives them)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 128 or data[126:128] not in (b"IM", b"MI"):
        raise ValueError(f"read_mat: {path} is not a MATLAB 5 .mat file")
    endian = "<" if data[126:128] == b"IM" else ">"
    arrays = {}
    for kind, payload in _elements(data[128:], endian, path):
        if kind == MI_COMPRESSED:
            inner = list(_elements(zlib.decompress(payload), endian, path))
            kind, payload = inner[0] if inner else (None, b"")
        if kind == MI_MATRIX:
            found = _matrix(payload, endian, path)
            if found is not None:
                arrays[found[0]] = found[1]
    return arrays

"""PNG files without Pillow: a reader for 8-bit, non-interlaced PNGs and a writer, on zlib and numpy.

Read: gray (color type 0), RGB (2), palette (3, returned as palette indices, as PIL's mode 'P'), gray+alpha (4)
and RGBA (6), bit depth 8. Each row of a PNG is stored "filtered" against its left and upper neighbours; the
None, Sub and Up filters are undone with numpy over a whole row, while Average and Paeth depend on the pixel
just decoded to their left, so those rows are undone pixel by pixel (as the format defines them).
Write: uint8 HW / HW1 / HW3 / HW4 arrays, with the Up filter, written atomically (a temporary file, then renamed:
static/files.py).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from minipaddle.static.files import atomic_write

__all__ = ["read_png", "decode_png", "write_png"]

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # color type -> samples per pixel


def _chunks(data: bytes, path: str):
    pos = len(SIGNATURE)
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"read_png: {path} is corrupt (bad checksum in its {kind.decode('latin1')} chunk)")
        yield kind, body
        pos += 12 + length


def read_png(path: str) -> np.ndarray:
    """The PNG image at `path` as a uint8 array: HW for gray and palette images, HWC otherwise."""
    with open(path, "rb") as f:
        return decode_png(f.read(), path)


def decode_png(data: bytes, path: str = "the PNG data") -> np.ndarray:
    """The PNG image in `data` (the bytes of a .png file); `path` names it in error messages."""
    if not data.startswith(SIGNATURE):
        raise ValueError(f"read_png: {path} is not a PNG file")
    header, compressed = None, []
    for kind, body in _chunks(data, path):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"read_png: {path} has no IHDR chunk")
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or color_type not in CHANNELS or interlace:
        raise ValueError(f"read_png: {path} is a PNG this reader does not handle (bit depth {depth}, color type "
                         f"{color_type}, interlace {interlace}); supported: 8-bit, non-interlaced, color types "
                         "0, 2, 3, 4, 6")  # fmt: skip
    channels = CHANNELS[color_type]
    raw = np.frombuffer(zlib.decompress(b"".join(compressed)), dtype=np.uint8)
    stride = width * channels
    if raw.size != height * (stride + 1):
        raise ValueError(f"read_png: {path} holds {raw.size} bytes of pixels, expected {height * (stride + 1)}")
    rows = raw.reshape(height, stride + 1)
    pixels = _unfilter(rows[:, 0], rows[:, 1:].astype(np.int32), channels)
    shape = (height, width) if channels == 1 else (height, width, channels)
    return pixels.astype(np.uint8).reshape(shape)


def _unfilter(filters: np.ndarray, rows: np.ndarray, bpp: int) -> np.ndarray:
    out = np.zeros_like(rows)
    previous = np.zeros(rows.shape[1], dtype=np.int32)
    for y, kind in enumerate(filters):
        row = rows[y]
        if kind == 0:  # None
            cur = row
        elif kind == 1:  # Sub: each byte adds the decoded byte bpp to its left, a running sum per channel
            cur = np.cumsum(row.reshape(-1, bpp), axis=0).reshape(-1) % 256
        elif kind == 2:  # Up
            cur = (row + previous) % 256
        elif kind in (3, 4):  # Average, Paeth: pixel by pixel
            cur = row.copy()
            left = np.zeros(bpp, dtype=np.int32)
            up_left = np.zeros(bpp, dtype=np.int32)
            for x in range(0, len(row), bpp):
                up = previous[x : x + bpp]
                if kind == 3:
                    pred = (left + up) // 2
                else:
                    p = left + up - up_left
                    pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - up_left)
                    pred = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, up_left))
                cur[x : x + bpp] = (row[x : x + bpp] + pred) % 256
                left, up_left = cur[x : x + bpp], up
        else:
            raise ValueError(f"read_png: unknown row filter {kind}")
        out[y] = cur
        previous = cur
    return out


def write_png(path: str, image) -> None:
    """Write a uint8 image (HW, HW1, HW3 or HW4) as a PNG. The file appears whole or not at all."""
    img = np.asarray(image)
    if img.dtype != np.uint8:
        raise TypeError(f"write_png: expected a uint8 image, got {img.dtype}")
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[..., 0]
    channels = 1 if img.ndim == 2 else img.shape[2]
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}.get(channels)
    if img.ndim not in (2, 3) or color_type is None:
        raise ValueError(f"write_png: expected an HW, HW1, HW2, HW3 or HW4 image, got shape {list(img.shape)}")
    h, w = img.shape[:2]
    rows = img.reshape(h, w * channels).astype(np.int16)
    up = np.diff(rows, axis=0, prepend=np.zeros((1, rows.shape[1]), np.int16)) % 256  # the Up filter
    filtered = np.hstack([np.full((h, 1), 2, np.uint8), up.astype(np.uint8)])

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    data = (SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(filtered.tobytes(), 6)) + chunk(b"IEND", b""))  # fmt: skip
    atomic_write(path, data)

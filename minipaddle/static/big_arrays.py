"""Paddle's split form of very large arrays in its pickles, both ways (paddle/framework/io_utils.py,
`_unpack_saved_dict` / `_pack_loaded_dict`).

Pickle protocols 2 and 3 cannot hold an object over 4 GiB, so when paddle.save or paddle.static.save writes a dict
with one of them, each top-level array of more than 2**30 - 1 bytes is cut into flat slices `key@@.0`, `key@@.1`,
... listed under the key `UnpackBigParamInfor@@`: {key: {"OriginShape": shape, "slices": [names]}}. Loading joins
them again. Plain numpy, used by framework/paddle_pickle.py (paddle.save) and static/io.py (static.save).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["UNPACK_INFO", "split_big_arrays", "join_big_arrays"]

UNPACK_INFO = "UnpackBigParamInfor@@"


def split_big_arrays(saved: dict, protocol: int, slice_bytes: int = 2**30 - 1) -> dict:
    """`saved` with each array of more than `slice_bytes` cut into flat slices, for protocol 2 and 3 (changed in
    place and returned; other protocols hold any size, and get `saved` as it is)."""
    if protocol not in (2, 3):
        return saved
    info = {}
    for key, value in list(saved.items()):
        if not isinstance(value, np.ndarray):
            continue
        most = int(slice_bytes / value.dtype.itemsize)
        if value.size <= most:
            continue
        flat = value.reshape(-1)
        slices = []
        for i in range(int(math.ceil(value.size / most))):
            slices.append(f"{key}@@.{i}")
            saved[slices[-1]] = flat[i * most : (i + 1) * most]
        del saved[key]
        info[key] = {"OriginShape": value.shape, "slices": slices}
    if info:
        saved[UNPACK_INFO] = info
    return saved


def join_big_arrays(obj: dict) -> dict:
    """`obj` with its split arrays joined again and the slice table removed (changed in place and returned)."""
    info = obj.pop(UNPACK_INFO, None)
    if not isinstance(info, dict):
        return obj
    for key, value in info.items():
        parts = [obj.pop(name) for name in value["slices"]]
        obj[key] = np.concatenate(parts).reshape(value["OriginShape"])
    return obj

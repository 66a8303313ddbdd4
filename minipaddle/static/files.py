"""Static mode's files: parameters as `.npz` bytes, and reading a file with an error that names it.

- `arrays_to_bytes` / `arrays_from_bytes`: a dict name -> numpy array as `.npz` bytes (numpy's zip of `.npy`
  files). Loading refuses pickles, so a file can hold only plain numeric arrays and can never run code.
- `atomic_write(path, data)` (from framework/files.py, where paddle.save's atomic writing lives too): the bytes
  replace the file at `path` all or nothing, so a crash mid-save never leaves half a file (DESIGN.md, wall 4).
"""

from __future__ import annotations

import io
import os
import zipfile

import numpy as np

from minipaddle.framework.files import atomic_write, read_array_member, write_array_member

__all__ = ["atomic_write", "read_file", "arrays_to_bytes", "arrays_from_bytes"]


def read_file(path: str, what: str) -> bytes:
    """The bytes of the file at `path` (a FileNotFoundError that says which file `what` was looked for)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{what}: no file {path!r}")
    with open(path, "rb") as f:
        return f.read()


def arrays_to_bytes(arrays: dict) -> bytes:
    """A dict name -> array as `.npz` bytes (what np.savez writes: a zip of one `.npy` file per array; written
    here directly so that any name works, even one that clashes with np.savez's own arguments)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, a in arrays.items():
            if not isinstance(a, np.ndarray) or a.dtype.kind not in "biufc":
                raise TypeError(f"cannot save {name!r}: expected a numeric numpy array, got {type(a).__name__}")
            write_array_member(zf, name + ".npy", a)
    return buf.getvalue()


def arrays_from_bytes(data: bytes, what: str = "the data") -> dict:
    """The inverse of arrays_to_bytes; a ValueError that names `what` for anything that is not such a file."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"{what} must be bytes, got {type(data).__name__}")
    if not bytes(data[:2]) == b"PK":  # every zip file, so every .npz, starts so
        raise ValueError(f"{what} is not a minipaddle parameter file: it is not an .npz (zip) file")
    try:
        with zipfile.ZipFile(io.BytesIO(bytes(data))) as zf:
            return {name.removesuffix(".npy"): read_array_member(zf, name) for name in zf.namelist()}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise ValueError(
            f"{what} is not a minipaddle parameter file (.npz of named arrays), or it is truncated: {e}"
        ) from None

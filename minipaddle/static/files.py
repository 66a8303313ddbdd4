"""Writing files safely, and arrays as `.npz` (DESIGN.md, wall 4).

- `atomic_write(path, data)`: the bytes go to a temporary file in the same directory, which is flushed to disk
  and then renamed over `path` (os.replace is atomic). A crash at any moment leaves either the old file or the
  new one, never half of one.
- `arrays_to_bytes` / `arrays_from_bytes`: a dict name -> numpy array as `.npz` bytes (numpy's zip of `.npy`
  files). Loading uses `allow_pickle=False`, so a file can hold only plain numeric arrays and can never run code.
"""

from __future__ import annotations

import io
import os
import uuid
import zipfile

import numpy as np


def atomic_write(path: str, data: bytes) -> None:
    """Replace the file at `path` with `data`, all or nothing."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{uuid.uuid4().hex}.tmp")
    # os.open with mode 0o666 lets the umask decide the permissions, as open() would (mkstemp makes 0o600 files)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


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
            with zf.open(name + ".npy", "w", force_zip64=True) as f:
                np.lib.format.write_array(f, a, allow_pickle=False)
    return buf.getvalue()


def arrays_from_bytes(data: bytes, what: str = "the data") -> dict:
    """The inverse of arrays_to_bytes; a ValueError that names `what` for anything that is not such a file."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"{what} must be bytes, got {type(data).__name__}")
    if not bytes(data[:2]) == b"PK":  # every zip file, so every .npz, starts so
        raise ValueError(f"{what} is not a minipaddle parameter file: it is not an .npz (zip) file")
    try:
        npz = np.load(io.BytesIO(bytes(data)), allow_pickle=False)
        with npz:
            return {name: npz[name] for name in npz.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise ValueError(
            f"{what} is not a minipaddle parameter file (.npz of named arrays), or it is truncated: {e}"
        ) from None

"""Files written safely (DESIGN.md, wall 4), numpy arrays as members of a zip archive, and static mode's `.npz`
parameter files.

- `atomic_file(path)` / `atomic_write(path, data)`: what is written goes to a temporary file in the target's
  directory, which is flushed to disk and then renamed over `path` (os.replace is atomic). A crash at any moment
  leaves either the old file or the new one, never half of one.
- `write_array_member` / `read_array_member`: one numpy array as a `.npy` member of a zip archive (what both
  paddle.save's archive and static mode's `.npz` parameter files are made of). Pickles are refused both ways,
  so a file can hold only plain arrays and loading it can never run code.
- `arrays_to_bytes` / `arrays_from_bytes`: a dict name -> numpy array as `.npz` bytes (numpy's zip of `.npy`
  files), and `read_file(path, what)`: a file's bytes, with an error that names it.

paddle.save (framework/io.py), the static-mode files (static/io.py) and vision's downloads and PNG files all write
and read through here: it stands on the static floor, the lowest of theirs.
"""

from __future__ import annotations

import contextlib
import io
import os
import uuid
import zipfile
from collections.abc import Iterator

import numpy as np

__all__ = [
    "atomic_file",
    "atomic_write",
    "read_array_member",
    "write_array_member",
    "read_file",
    "arrays_to_bytes",
    "arrays_from_bytes",
]

# A .npy header is at most 64 KiB, so a member gets zip64 sizes when its array is within that of zip's 2 GiB limit.
_NPY_HEADER_ROOM = 1 << 16


@contextlib.contextmanager
def atomic_file(path: str) -> Iterator[io.BufferedWriter]:
    """A binary file to write in place of the file at `path`, all or nothing: it replaces `path` only when the
    `with` block ends without an error (parent directories are created)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{uuid.uuid4().hex}.tmp")
    # os.open with mode 0o666 lets the umask decide the permissions, as open() would (mkstemp makes 0o600 files)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    _fsync_directory(directory)


def atomic_write(path: str, data: bytes) -> None:
    """Replace the file at `path` with `data`, all or nothing."""
    with atomic_file(path) as f:
        f.write(data)


def _fsync_directory(directory: str) -> None:
    """Make the rename itself durable (POSIX); some systems cannot open a directory, which is fine."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_array_member(zf: zipfile.ZipFile, name: str, a: np.ndarray) -> None:
    """Write array `a` as the `.npy` member `name` of the open archive `zf` (never as a pickle)."""
    a = np.asarray(a)
    with zf.open(name, "w", force_zip64=a.nbytes > zipfile.ZIP64_LIMIT - _NPY_HEADER_ROOM) as member:
        np.lib.format.write_array(member, a, allow_pickle=False)


def read_array_member(zf: zipfile.ZipFile, name: str) -> np.ndarray:
    """The array stored as the `.npy` member `name` of `zf` (zipfile checks its CRC; a pickle is refused)."""
    return np.load(io.BytesIO(zf.read(name)), allow_pickle=False)


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

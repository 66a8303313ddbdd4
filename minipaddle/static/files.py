"""Files written safely (DESIGN.md, wall 4), numpy arrays as members of a zip archive, and static mode's `.npz`
parameter files.

- `atomic_file(path)` / `atomic_write(path, data)`: what is written goes to a temporary file in the target's
  directory, which is flushed to disk and then renamed over `path` (os.replace is atomic). A crash at any moment
  leaves either the old file or the new one, never half of one.
- `write_array_member` / `read_array_member`: one numpy array as a `.npy` member of a zip archive (what both
  paddle.save's archive and static mode's `.npz` parameter files are made of). Pickles are refused both ways,
  so a file can hold only plain arrays and loading it can never run code.
- `write_file_set(prefix, files)` / `check_file_set(prefix)`: several files saved as one checkpoint (a manifest
  `<prefix>.pdset` is the commit point), so a load after a crash sees the whole old set or the whole new one.
- `arrays_to_bytes` / `arrays_from_bytes`: a dict name -> numpy array as `.npz` bytes (numpy's zip of `.npy`
  files), and `read_file(path, what)`: a file's bytes, with an error that names it.

paddle.save (framework/io.py), the static-mode files (static/io.py) and vision's downloads and PNG files all write
and read through here: it stands on the static floor, the lowest of theirs.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import re
import uuid
import zipfile
from collections.abc import Iterator

import numpy as np

__all__ = [
    "atomic_file",
    "atomic_write",
    "read_array_member",
    "npy_from_bytes",
    "write_array_member",
    "read_file",
    "arrays_to_bytes",
    "arrays_from_bytes",
    "write_file_set",
    "check_file_set",
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


# Limits of the readers of saved files, checked against what a file declares before anything is allocated: a
# crafted file must not make a load allocate terabytes or recurse until Python gives up.
MAX_NESTING = 100  # containers inside containers, in a pickle or a zip's JSON index (a checkpoint nests ~5)
MAX_INFLATION = 100  # how many times its compressed size a zip member may inflate to (zip bombs reach ~1000)


def read_array_member(zf: zipfile.ZipFile, name: str, what: str = "the archive") -> np.ndarray:
    """The array stored as the `.npy` member `name` of `zf` (zipfile checks its CRC; a pickle is refused).

    minipaddle stores members uncompressed; a compressed one may declare at most MAX_INFLATION times its
    compressed size, and the .npy header's shape must account for exactly the member's bytes: each checked before
    inflating or allocating (a ValueError naming `what`, the member and the limit)."""
    info = zf.getinfo(name)
    if info.compress_type == zipfile.ZIP_STORED and info.file_size != info.compress_size:
        raise ValueError(f"{what}: member {name!r} is stored uncompressed but declares {info.file_size} bytes "
                         f"in {info.compress_size}")  # fmt: skip
    if info.file_size > MAX_INFLATION * max(info.compress_size, 1):
        raise ValueError(f"{what}: member {name!r} would inflate from {info.compress_size} to {info.file_size} "
                         f"bytes, more than {MAX_INFLATION} times; refused before inflating it")  # fmt: skip
    return npy_from_bytes(zf.read(name), f"{what}: member {name!r}")


def npy_from_bytes(data: bytes, what: str) -> np.ndarray:
    """The array of `.npy` bytes, its header checked first: the shape it declares must fill exactly the bytes
    that follow (a header claiming terabytes in a small file is refused before numpy allocates)."""
    f = io.BytesIO(data)
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        shape, _fortran, dtype = np.lib.format.read_array_header_1_0(f)
    else:
        shape, _fortran, dtype = np.lib.format.read_array_header_2_0(f)
    declared = math.prod(shape) * dtype.itemsize
    left = len(data) - f.tell()
    if not dtype.hasobject and declared != left:
        raise ValueError(f"{what}: its .npy header declares shape {list(shape)} of {dtype} ({declared} bytes), "
                         f"but {left} bytes follow; refused before allocating")  # fmt: skip
    return np.load(io.BytesIO(data), allow_pickle=False)


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
            return {name.removesuffix(".npy"): read_array_member(zf, name, what) for name in zf.namelist()}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise ValueError(
            f"{what} is not a minipaddle parameter file (.npz of named arrays), or it is truncated: {e}"
        ) from None


# ---- a set of files, saved and loaded as one ---------------------------------------------------------------------
#
# A checkpoint made of several files (model.pdparams + model.pdopt, or model.pdmodel + model.pdiparams + .info)
# is only right when all its files come from the same save. Each file is written to a temporary name beside its
# target and fsynced; then the manifest `<prefix>.pdset` (JSON: each file's name, size and sha256, the temporary
# it waits in, a generation number) replaces the old one atomically: that rename is the commit point. Only then
# are the temporaries renamed into place. A kill before the commit leaves the old set and its manifest untouched
# (the new temporaries are removed by the next save); a kill after it leaves a manifest whose files are still in
# their temporaries, and the next load or save finishes the renames. The files themselves stay in Paddle's formats.

SET_SUFFIX = ".pdset"
SET_FORMAT = "minipaddle-file-set"
_TMP_NAME = re.compile(r"^\.(?P<target>.+)\.[0-9a-f]{32}\.tmp$")


def write_file_set(prefix: str, files: dict, absent: tuple = (), what: str = "save") -> None:
    """Save the files `{suffix: bytes or writer(f)}` at `prefix + suffix` as one set, all or nothing.

    `absent` names suffixes of the same set that this save does not write (e.g. `.pdopt` of a model without
    optimizer state): an old file there would mix with the new set, so it is removed once the set is committed.
    """
    directory = os.path.dirname(os.path.abspath(prefix))
    os.makedirs(directory, exist_ok=True)
    old = _read_manifest(prefix, what)
    if old is not None:
        _finish(prefix, old, what, strict=False)  # a save killed after its commit: finish its renames first
    _remove_stale_temporaries(prefix, tuple(files) + tuple(absent) + (SET_SUFFIX,))
    entries = {}
    try:
        for suffix, content in files.items():
            tmp = os.path.join(directory, f".{os.path.basename(prefix + suffix)}.{uuid.uuid4().hex}.tmp")
            entries[suffix] = _write_temporary(tmp, content)
        manifest = {
            "format": SET_FORMAT,
            "version": 1,
            "generation": (old or {}).get("generation", 0) + 1,
            "files": entries,
            "absent": list(absent),
        }
        atomic_write(prefix + SET_SUFFIX, json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8"))
    except BaseException:  # not committed: the old set stays as it was
        for entry in entries.values():
            with contextlib.suppress(OSError):
                os.remove(os.path.join(directory, entry["tmp"]))
        raise
    _finish(prefix, manifest, what)


def check_file_set(prefix: str, what: str = "load") -> None:
    """Make sure the files at `prefix` are one whole set before a load reads them.

    Without a manifest (files written by Paddle itself, or one at a time) there is nothing to check. With one,
    each file must have the size and sha256 it names; a file still waiting in its temporary (a save killed after
    its commit) is moved into place first. A file that matches neither is a ValueError naming it.
    """
    manifest = _read_manifest(prefix, what)
    if manifest is not None:
        _finish(prefix, manifest, what)


def _write_temporary(tmp: str, content) -> dict:
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(content, (bytes, bytearray)):
                f.write(content)
            else:
                content(f)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    size, digest = _size_and_digest(tmp)
    return {"tmp": os.path.basename(tmp), "size": size, "sha256": digest}


def _size_and_digest(path: str) -> tuple:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def _matches(path: str, entry: dict) -> bool:
    if not os.path.isfile(path) or os.path.getsize(path) != entry["size"]:
        return False
    return _size_and_digest(path)[1] == entry["sha256"]


def _finish(prefix: str, manifest: dict, what: str, strict: bool = True) -> None:
    """Bring the files in line with a committed manifest (renaming temporaries into place), or refuse (when
    `strict`; a save about to replace the set only wants the renames done)."""
    directory = os.path.dirname(os.path.abspath(prefix))
    moved = False
    wrong = []
    for suffix, entry in manifest["files"].items():
        target = prefix + suffix
        tmp = os.path.join(directory, entry["tmp"])
        if os.path.isfile(tmp) and _matches(tmp, entry):
            os.replace(tmp, target)
            moved = True
        elif not _matches(target, entry):
            wrong.append(target)
    if wrong and strict:
        raise ValueError(
            f"{what}: the files {wrong} do not belong to the checkpoint set described by {prefix + SET_SUFFIX} "
            f"(generation {manifest['generation']}: their size or sha256 differs, or they are missing): they are "
            "truncated, damaged, or from another save, and would mix two saves; save again, or delete the .pdset "
            "file if these files were written on purpose by something else"
        )
    for suffix in manifest.get("absent", ()):
        if os.path.exists(prefix + suffix):  # left from an older set: it would mix with this one
            os.remove(prefix + suffix)
            moved = True
    if moved:
        _fsync_directory(directory)


def _read_manifest(prefix: str, what: str):
    path = prefix + SET_SUFFIX
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    try:
        manifest = json.loads(data.decode("utf-8"))
        files = manifest["files"]
        ok = manifest.get("format") == SET_FORMAT and isinstance(manifest.get("generation"), int)
        ok = ok and isinstance(files, dict) and isinstance(manifest.get("absent", []), list)
        for suffix, entry in files.items():
            ok = ok and isinstance(entry, dict) and isinstance(entry.get("size"), int)
            ok = ok and isinstance(entry.get("sha256"), str) and isinstance(entry.get("tmp"), str)
            ok = ok and _TMP_NAME.match(entry["tmp"]) is not None and os.sep not in entry["tmp"]
            ok = ok and isinstance(suffix, str) and os.sep not in suffix
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise ValueError(f"{what}: {path} is not a minipaddle checkpoint-set manifest (or it is damaged)")
    if manifest.get("version", 1) > 1:
        raise ValueError(f"{what}: {path} is of version {manifest['version']}; this minipaddle reads version 1")
    return manifest


def _remove_stale_temporaries(prefix: str, suffixes: tuple) -> None:
    """Remove what killed saves to these files left behind (`.name.<hex>.tmp`, a full-size file each)."""
    directory = os.path.dirname(os.path.abspath(prefix))
    targets = {os.path.basename(prefix + s) for s in suffixes}
    for name in os.listdir(directory):
        m = _TMP_NAME.match(name)
        if m and m.group("target") in targets:
            with contextlib.suppress(OSError):
                os.remove(os.path.join(directory, name))

"""paddle.save and paddle.load, in a format that cannot run code when loaded.

Paddle itself pickles, and unpickling a file can run any code its author put in it. minipaddle writes a zip
archive instead: a JSON index that describes the object's structure, and one numpy .npy file per array, read back
with `np.load(..., allow_pickle=False)`. docs/save_format.md describes the format byte by byte.

    minipaddle.json      {"format": "minipaddle-save", "version": 1, "root": <node>}
    arrays/0.npy         the first array (a Tensor's or a numpy array's values)
    arrays/1.npy         ...

Saving is atomic (framework/files.py): the archive is written to a temporary file in the target's directory,
flushed to disk, then renamed over the target, so a crash mid-save leaves the previous file as it was. Loading
checks everything it reads (the zip's CRC-32 of every member, the index's format and version, every array) and
says clearly when a file is truncated, corrupted, a pickle, or something else.
"""

from __future__ import annotations

import io
import json
import math
import os
import threading
import warnings
import zipfile
import zlib
from collections import OrderedDict

import numpy as np

from minipaddle.core.state import STATE, in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.framework.files import atomic_file, read_array_member, write_array_member
from minipaddle.framework.program_file import is_program, read_program_file, save_program

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue"]

FORMAT = "minipaddle-save"
VERSION = 1
INDEX = "minipaddle.json"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


# ---- encoding: Python object -> (JSON node, arrays) -----------------------------------------------------------


class _Encoder:
    """Turns an object into a JSON-able node, collecting its arrays. `where` names the part being encoded."""

    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []

    def array(self, a: np.ndarray, where: str) -> str:
        if a.dtype.hasobject:
            raise TypeError(f"paddle.save: {where} is a numpy array of Python objects, which only pickle can store")
        self.arrays.append(a)
        return f"arrays/{len(self.arrays) - 1}.npy"

    def encode(self, obj, where: str):
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, int):
            return int(obj)
        if isinstance(obj, float):
            return float(obj) if math.isfinite(obj) else {"type": "float", "value": repr(float(obj))}
        if isinstance(obj, complex):
            return {"type": "complex", "real": self.encode(obj.real, where), "imag": self.encode(obj.imag, where)}
        if isinstance(obj, Tensor):
            return {"type": "tensor", "array": self.array(obj.numpy(), where), "name": obj.name}
        if isinstance(obj, np.ndarray):
            return {"type": "ndarray", "array": self.array(obj, where)}
        if isinstance(obj, np.generic):
            return {"type": "numpy_scalar", "array": self.array(np.asarray(obj), where)}
        if isinstance(obj, (dict, OrderedDict)):
            kind = "ordered_dict" if isinstance(obj, OrderedDict) else "dict"
            items = [[self.key(k, where), self.encode(v, f"{where}[{k!r}]")] for k, v in obj.items()]
            return {"type": kind, "items": items}
        if isinstance(obj, (list, tuple, set)):
            kind = "list" if isinstance(obj, list) else "tuple" if isinstance(obj, tuple) else "set"
            return {"type": kind, "items": [self.encode(v, f"{where}[{i}]") for i, v in enumerate(obj)]}
        _refuse(obj, where)

    def key(self, k, where: str):
        """A dict key: a str, number, bool, None or a tuple of those (what can be hashed and written as JSON)."""
        if isinstance(k, (str, int, float, bool, type(None))) or (isinstance(k, tuple)):
            return self.encode(k, f"a key of {where}")
        raise TypeError(
            f"paddle.save: {where} has a key of type {type(k).__name__}; keys must be str, numbers or tuples"
        )


def _refuse(obj, where: str):
    from minipaddle import nn

    layer = getattr(nn, "Layer", None)
    if layer is not None and isinstance(obj, layer):
        raise ValueError(
            f"paddle.save: {where} is a Layer ({type(obj).__name__}); save its state_dict() instead: "
            "paddle.save(model.state_dict(), 'model.pdparams')"
        )
    raise TypeError(
        f"paddle.save: {where} is a {type(obj).__name__}, which minipaddle cannot save without pickle; it saves "
        "Tensors, numpy arrays, numbers, strings, None, and dicts, lists, tuples and sets of those"
    )


# ---- saving ------------------------------------------------------------------------------------------------


def save(obj, path, protocol: int = 4, **configs) -> None:
    """Save an object to `path`: a Layer's or an optimizer's state_dict, a Tensor, or nested dicts/lists/tuples
    of Tensors, numpy arrays and plain Python values.

    The file is a zip of .npy arrays with a JSON index (docs/save_format.md); loading it never runs code.
    The write is atomic: a temporary file in the same directory, flushed, then renamed over `path`.

    Args:
        obj: what to save.
        path: a file name (parent directories are created), or a writable binary file object such as io.BytesIO.
        protocol: Paddle's pickle protocol (2 to 4). minipaddle never pickles; the value is only checked.
        configs: `pickle_protocol` (an old name for protocol) is accepted.

    Example:
        >>> paddle.save(model.state_dict(), "checkpoints/model.pdparams")
        >>> paddle.save(adam.state_dict(), "checkpoints/adam.pdopt")
    """
    for key in configs:
        if key not in ("use_binary_format", "pickle_protocol"):
            raise ValueError(f"paddle.save: the config {key!r} is not supported (supported: pickle_protocol)")
    if configs.get("use_binary_format"):
        raise ValueError("paddle.save: use_binary_format (Paddle's C++ tensor format) is not supported by minipaddle")
    if configs.get("pickle_protocol") is not None:
        warnings.warn("paddle.save: 'pickle_protocol' is deprecated; use 'protocol'", DeprecationWarning, stacklevel=2)
        protocol = configs["pickle_protocol"]
    if not isinstance(protocol, int) or isinstance(protocol, bool):
        raise ValueError(f"paddle.save: protocol must be an int, got {type(protocol).__name__}")
    if not 1 < protocol < 5:
        raise ValueError(f"paddle.save: protocol must be 2, 3 or 4, got {protocol}")

    if is_program(obj):  # a static Program: its description, as paddle 2.6 saves it (framework/program_file.py)
        save_program(obj, _check_path(path))
        return
    index, arrays = _encode(obj)  # refuse unsavable objects before touching the disk
    _write(path, index, arrays)


def _encode(obj) -> tuple[bytes, list]:
    encoder = _Encoder()
    root = encoder.encode(obj, "obj")
    index = json.dumps({"format": FORMAT, "version": VERSION, "root": root}, allow_nan=False).encode("utf-8")
    return index, encoder.arrays


def _check_path(path):
    if hasattr(path, "write"):
        return path
    path = os.fspath(path)
    if os.path.basename(path) == "":
        raise ValueError(f"paddle.save: path must name a file (dirname/filename), got {path!r}")
    return path


def _write(path, index: bytes, arrays: list) -> None:
    path = _check_path(path)
    if hasattr(path, "write"):
        _write_archive(path, index, arrays)
        return
    with atomic_file(path) as f:
        _write_archive(f, index, arrays)


def _write_archive(f, index: bytes, arrays: list) -> None:
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr(INDEX, index)
        for i, a in enumerate(arrays):
            write_array_member(zf, f"arrays/{i}.npy", a)


# ---- saving in the background ------------------------------------------------------------------------------
#
# The save threads still running live in core/state.py (STATE.async_saves), with the rest of minipaddle's state.


def async_save(obj, path, protocol: int = 4, sync_other_task: bool = False, **configs) -> None:
    """Save like `paddle.save`, in a background thread, so training goes on while the file is written.

    The values are copied when async_save is called, so changing the parameters afterwards does not change what
    is saved. The write is atomic like paddle.save's. Wait for every pending save with
    `paddle.clear_async_save_task_queue()`; it raises the first error a background save met.

    Args:
        obj (dict|Tensor): a state_dict (nested dicts allowed) or a Tensor.
        path (str|BytesIO): where to save, as for paddle.save.
        protocol (int): checked like paddle.save's (2 to 4); minipaddle never pickles.
        sync_other_task (bool): wait for the pending saves before starting this one.
        configs: accepted for paddle.save's sake and ignored, with a warning (as in Paddle).

    Example:
        >>> paddle.async_save(model.state_dict(), "model.pdparams")
        >>> # ... train on ...
        >>> paddle.clear_async_save_task_queue()   # wait until the file is written
    """
    if not in_dynamic_mode():
        raise ValueError("paddle.async_save: async_save is not supported in static mode; use paddle.save")
    if not isinstance(obj, (dict, Tensor)):
        raise TypeError(f"paddle.async_save: obj must be a dict (a state_dict) or a Tensor, got {type(obj).__name__}")
    if configs:
        warnings.warn(
            f"paddle.async_save: configs {sorted(configs)} are not supported in async mode and are ignored",
            stacklevel=2,
        )
    if not isinstance(protocol, int) or isinstance(protocol, bool) or not 1 < protocol < 5:
        raise ValueError(f"paddle.async_save: protocol must be 2, 3 or 4, got {protocol!r}")
    index, arrays = _encode(obj)
    arrays = [a.copy() for a in arrays]  # a snapshot: the thread writes the values as they are now
    path = _check_path(path)
    if sync_other_task:
        clear_async_save_task_queue()

    error: list = []

    def write() -> None:
        try:
            _write(path, index, arrays)
        except Exception as e:  # handed to clear_async_save_task_queue, which raises it in the caller's thread
            error.append(e)

    thread = threading.Thread(target=write, name="paddle.async_save", daemon=False)
    thread.start()
    STATE.async_saves.append((thread, error))


def clear_async_save_task_queue() -> None:
    """Wait until every save started by `paddle.async_save` has finished. Raises the first error one of them met
    (after waiting for all).

    Example:
        >>> paddle.async_save(layer.state_dict(), "layer.pdparams")
        >>> paddle.clear_async_save_task_queue()
    """
    errors = []
    while STATE.async_saves:
        thread, error = STATE.async_saves.pop(0)
        thread.join()
        errors.extend(error)
    if errors:
        raise RuntimeError(f"paddle.async_save: a background save failed: {errors[0]}") from errors[0]


# ---- loading -----------------------------------------------------------------------------------------------


class _BadFile(ValueError):
    """A file that is not a readable minipaddle save file (the message says why)."""


def load(path, **configs):
    """Load what `paddle.save` wrote. Tensors come back as Tensors (stop_gradient=True, with their saved names),
    tuples as tuples, numpy arrays as numpy arrays.

    Args:
        path: the file name, or a readable binary file object.
        configs: `return_numpy=True` returns numpy arrays in place of Tensors.

    Raises ValueError when the file is missing, truncated, corrupted, a pickle (such as a file saved by
    PaddlePaddle itself: minipaddle never unpickles, since that can run code), or not a minipaddle save file.

    Example:
        >>> model.set_state_dict(paddle.load("checkpoints/model.pdparams"))
    """
    for key in configs:
        if key not in ("return_numpy", "keep_name_table", "model_filename", "params_filename"):
            raise ValueError(f"paddle.load: the config {key!r} is not supported (supported: return_numpy)")
        if key in ("model_filename", "params_filename"):
            raise ValueError(f"paddle.load: {key} is for loading paddle.jit.save models, which paddle.load does not do")
    if configs.get("keep_name_table"):
        raise ValueError(
            "paddle.load: keep_name_table: minipaddle's files have no name table (each Tensor keeps its name)"
        )
    return_numpy = bool(configs.get("return_numpy", False))

    if hasattr(path, "read"):
        f = path if path.seekable() else io.BytesIO(path.read())
        return _read_archive(f, "the file object", return_numpy)
    path = os.fspath(path)
    if not os.path.isfile(path):
        hint = ""
        for suffix in (".pdparams", ".pdopt"):
            if os.path.isfile(path + suffix):
                hint = f"; did you mean {path + suffix!r}? Give the full file name"
        raise ValueError(f"paddle.load: the file {path!r} does not exist{hint}")
    program = read_program_file(path)  # a saved static Program comes back as a Program (framework/program_file.py)
    if program is not None:
        return program
    with open(path, "rb") as f:
        return _read_archive(f, repr(path), return_numpy)


def _read_archive(f, label: str, return_numpy: bool):
    start = f.tell()
    _sniff(f.read(8), label)
    f.seek(start)
    try:
        with zipfile.ZipFile(f) as zf:
            if INDEX not in zf.namelist():
                raise _BadFile(
                    f"paddle.load: {label} is a zip archive but not a minipaddle save file (it has no {INDEX}; "
                    f"it holds {zf.namelist()[:5]}); a numpy .npz file is read with numpy.load"
                )
            index = json.loads(zf.read(INDEX).decode("utf-8"))
            _check_index(index, label)
            return _Decoder(zf, return_numpy).decode(index["root"])
    except _BadFile:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError, OSError) as e:
        raise ValueError(f"paddle.load: {label} is truncated or corrupted and cannot be read ({e})") from e


def _sniff(data: bytes, label: str) -> None:
    """Refuse, by its first bytes, a file that is not a zip archive, naming what it looks like."""
    if data[:4] in _ZIP_MAGIC:
        return
    if not data:
        raise _BadFile(f"paddle.load: {label} is empty")
    if data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        raise _BadFile(
            f"paddle.load: {label} is a Python pickle (for example a file saved by PaddlePaddle's own paddle.save "
            "or by torch.save). minipaddle never unpickles: loading a pickle can run any code written into it. "
            "Re-save the data with minipaddle, or convert it where you trust the file (with PaddlePaddle: "
            "numpy.savez('x.npz', **{k: v.numpy() for k, v in paddle.load(path).items()}))"
        )
    if data[:6] == b"\x93NUMPY":
        raise _BadFile(
            f"paddle.load: {label} is a numpy .npy file, not a minipaddle save file; read it with numpy.load"
        )
    raise _BadFile(f"paddle.load: {label} is not a minipaddle save file (it does not start with a zip header)")


def _check_index(index, label: str) -> None:
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise _BadFile(f"paddle.load: {label} is a zip archive with {INDEX}, but not in the {FORMAT!r} format")
    version = index.get("version")
    if not isinstance(version, int) or version < 1:
        raise _BadFile(f"paddle.load: {label} has an invalid format version {version!r}")
    if version > VERSION:
        raise _BadFile(
            f"paddle.load: {label} was written in format version {version}, newer than this minipaddle reads "
            f"({VERSION}); update minipaddle"
        )
    if "root" not in index:
        raise _BadFile(f"paddle.load: {label} has no 'root' in its index")


class _Decoder:
    """Rebuilds the object from the index, reading each array from its zip member (CRC-checked by zipfile)."""

    def __init__(self, zf: zipfile.ZipFile, return_numpy: bool) -> None:
        self.zf = zf
        self.return_numpy = return_numpy

    def array(self, name: str) -> np.ndarray:
        if not isinstance(name, str) or not name.startswith("arrays/"):
            raise ValueError(f"the index names an invalid array member {name!r}")
        return read_array_member(self.zf, name)

    def decode(self, node):
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if not isinstance(node, dict) or "type" not in node:
            raise ValueError(f"the index holds an unexpected entry {node!r:.60}")
        kind = node["type"]
        if kind == "tensor":
            a = self.array(node["array"])
            if self.return_numpy:
                return a
            t = Tensor(a)
            if node.get("name") is not None:
                t.name = node["name"]
            return t
        if kind == "ndarray":
            return self.array(node["array"])
        if kind == "numpy_scalar":
            return self.array(node["array"])[()]
        if kind in ("dict", "ordered_dict"):
            pairs = [(self.key(k), self.decode(v)) for k, v in node["items"]]
            return OrderedDict(pairs) if kind == "ordered_dict" else dict(pairs)
        if kind in ("list", "tuple", "set"):
            items = [self.decode(v) for v in node["items"]]
            return items if kind == "list" else tuple(items) if kind == "tuple" else set(items)
        if kind == "float":
            return float(node["value"])
        if kind == "complex":
            return complex(self.decode(node["real"]), self.decode(node["imag"]))
        raise ValueError(f"the index holds an entry of unknown type {kind!r}")

    def key(self, node):
        k = self.decode(node)
        if isinstance(k, (list, dict, set)):
            raise ValueError(f"the index holds an unhashable dict key {k!r:.60}")
        return k

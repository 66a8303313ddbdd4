"""paddle.save and paddle.load: Paddle 2.6's own pickled files, read without running code, and minipaddle's zip.

Two formats, told apart on loading by their first bytes, never by the file's name (docs/save_format.md):

- Paddle's (the default for saving): the pickle that paddle 2.6's paddle.save writes and its paddle.load reads
  (framework/paddle_pickle.py). minipaddle writes it from plain dicts, lists and numpy arrays only, and reads it
  through one restricted unpickler (static/pickle_reader.py) that builds numpy arrays, numpy scalars and
  containers and refuses every other name before anything is built: loading never runs code.
- minipaddle's own (`paddle.save(obj, path, format="minipaddle")`): a zip archive of a JSON index and one numpy
  .npy file per array, read with `np.load(..., allow_pickle=False)`:

    minipaddle.json      {"format": "minipaddle-save", "version": 1, "root": <node>}
    arrays/0.npy         the first array (a Tensor's or a numpy array's values)
    arrays/1.npy         ...

Saving is atomic (static/files.py): the file is written to a temporary file in the target's directory,
flushed to disk, then renamed over the target, so a crash mid-save leaves the previous file as it was. Loading
checks what it reads and says clearly when a file is truncated, corrupted, refused, or something else.
"""

from __future__ import annotations

import io
import json
import math
import os
import pickle
import re
import threading
import warnings
import zipfile
import zlib
from collections import OrderedDict

import ml_dtypes
import numpy as np

from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.framework.paddle_pickle import dump_paddle, load_paddle, paddle_object
from minipaddle.framework.program_file import is_program, read_program_file, save_program
from minipaddle.nn.layer.layers import Layer
from minipaddle.static.files import MAX_INFLATION, MAX_NESTING, atomic_file, read_array_member, write_array_member
from minipaddle.static.pickle_reader import RefusedPickle, is_pickle

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue"]

FORMAT = "minipaddle-save"
VERSION = 1
INDEX = "minipaddle.json"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
FORMATS = ("paddle", "minipaddle")


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
            if obj.dtype.name == "bfloat16":  # .npy has no bfloat16: its bits as uint16, marked
                return {"type": "tensor", "array": self.array(obj.numpy().view(np.uint16), where), "name": obj.name,
                        "dtype": "bfloat16"}  # fmt: skip
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
    if isinstance(obj, Layer):
        raise ValueError(
            f"paddle.save: {where} is a Layer ({type(obj).__name__}); save its state_dict() instead: "
            "paddle.save(model.state_dict(), 'model.pdparams')"
        )
    raise TypeError(
        f"paddle.save: {where} is a {type(obj).__name__}, which no file can hold without running code when loaded; "
        "paddle.save saves Tensors, numpy arrays, numbers, strings, None, and dicts, lists, tuples and sets of those"
    )


# ---- saving ------------------------------------------------------------------------------------------------


def save(obj, path, protocol: int = 4, **configs) -> None:
    """Save an object to `path`: a Layer's or an optimizer's state_dict, a Tensor, or nested dicts/lists/tuples
    of Tensors, numpy arrays and plain Python values.

    By default the file is Paddle 2.6's own format (the pickle its paddle.save writes), so real PaddlePaddle's
    paddle.load reads it and gets the same objects; `format="minipaddle"` writes minipaddle's zip of .npy arrays
    with a JSON index instead (docs/save_format.md). paddle.load reads both, and neither runs code when loaded.
    The write is atomic: a temporary file in the same directory, flushed, then renamed over `path`.

    Args:
        obj: what to save.
        path: a file name (parent directories are created), or a writable binary file object such as io.BytesIO.
        protocol: the pickle protocol of Paddle's format (2, 3 or 4; with 2 and 3, arrays over 1 GiB are split
            into slices as Paddle does).
        configs: `format` ("paddle" or "minipaddle"); `pickle_protocol` (an old name for protocol).

    Example:
        >>> paddle.save(model.state_dict(), "checkpoints/model.pdparams")
        >>> paddle.save(adam.state_dict(), "checkpoints/adam.pdopt")
        >>> paddle.save(model.state_dict(), "model.zip.pdparams", format="minipaddle")
    """
    if is_program(obj):  # a static Program: its description, as paddle 2.6 saves it (framework/program_file.py)
        fmt = configs.get("format", "paddle")
        if fmt not in FORMATS:
            raise ValueError(f"paddle.save: format must be one of {FORMATS}, got {fmt!r}")
        save_program(obj, _check_path(path), json=fmt == "minipaddle")
        return
    writer = _prepare(obj, protocol, configs, "save")  # refuse unsavable objects before touching the disk
    _write(_check_path(path), writer)


def save_writer(obj, protocol: int = 4, **configs):
    """What paddle.save(obj, path) would write, as a function writer(file): for a save of several files as one
    set (static/files.py write_file_set), whose files are written to temporaries first."""
    return _prepare(obj, protocol, configs, "save")


def _prepare(obj, protocol, configs: dict, fn: str, snapshot: bool = False):
    """Check the arguments and turn `obj` into plain data now; returns a function that writes it to a file."""
    for key in configs:
        if key not in ("use_binary_format", "pickle_protocol", "format"):
            raise ValueError(f"paddle.{fn}: the config {key!r} is not supported (supported: format, pickle_protocol)")
    if configs.get("use_binary_format"):
        raise ValueError(f"paddle.{fn}: use_binary_format (Paddle's C++ tensor format) is not supported by minipaddle")
    if configs.get("pickle_protocol") is not None:
        warnings.warn(f"paddle.{fn}: 'pickle_protocol' is deprecated; use 'protocol'", DeprecationWarning, stacklevel=3)
        protocol = configs["pickle_protocol"]
    if not isinstance(protocol, int) or isinstance(protocol, bool):
        raise ValueError(f"paddle.{fn}: protocol must be an int, got {type(protocol).__name__}")
    if not 1 < protocol < 5:
        raise ValueError(f"paddle.{fn}: protocol must be 2, 3 or 4, got {protocol}")
    fmt = configs.get("format", "paddle")
    if fmt not in FORMATS:
        raise ValueError(f"paddle.{fn}: format must be one of {FORMATS}, got {fmt!r}")
    if fmt == "minipaddle":
        index, arrays = _encode(obj)
        if snapshot:  # async_save: the thread writes the values as they are now
            arrays = [a.copy() for a in arrays]
        return lambda f: _write_archive(f, index, arrays)
    plain = paddle_object(obj, protocol, _refuse)
    if snapshot:
        plain = _copy_arrays(plain)
    return lambda f: dump_paddle(plain, f, protocol)


def _copy_arrays(obj):
    if isinstance(obj, np.ndarray):
        return obj.copy()
    if isinstance(obj, dict):
        return type(obj)((k, _copy_arrays(v)) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set)):
        return type(obj)(_copy_arrays(v) for v in obj)
    return obj


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


def _write(path, writer) -> None:
    if hasattr(path, "write"):
        writer(path)
        return
    with atomic_file(path) as f:
        writer(f)


def _write_archive(f, index: bytes, arrays: list) -> None:
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr(INDEX, index)
        for i, a in enumerate(arrays):
            write_array_member(zf, f"arrays/{i}.npy", a)


# ---- saving in the background ------------------------------------------------------------------------------
#
# The save threads still running: (thread, [its error]), emptied by clear_async_save_task_queue.
_ASYNC_SAVES: list = []


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
    ignored = sorted(set(configs) - {"format"})
    if ignored:
        warnings.warn(
            f"paddle.async_save: configs {ignored} are not supported in async mode and are ignored",
            stacklevel=2,
        )
    if not isinstance(protocol, int) or isinstance(protocol, bool) or not 1 < protocol < 5:
        raise ValueError(f"paddle.async_save: protocol must be 2, 3 or 4, got {protocol!r}")
    kept = {k: v for k, v in configs.items() if k == "format"}
    writer = _prepare(obj, protocol, kept, "async_save", snapshot=True)
    path = _check_path(path)
    if sync_other_task:
        clear_async_save_task_queue()

    error: list = []

    def write() -> None:
        try:
            _write(path, writer)
        except Exception as e:  # handed to clear_async_save_task_queue, which raises it in the caller's thread
            error.append(e)

    thread = threading.Thread(target=write, name="paddle.async_save", daemon=False)
    thread.start()
    _ASYNC_SAVES.append((thread, error))


def clear_async_save_task_queue() -> None:
    """Wait until every save started by `paddle.async_save` has finished. Raises the first error one of them met
    (after waiting for all).

    Example:
        >>> paddle.async_save(layer.state_dict(), "layer.pdparams")
        >>> paddle.clear_async_save_task_queue()
    """
    errors = []
    while _ASYNC_SAVES:
        thread, error = _ASYNC_SAVES.pop(0)
        thread.join()
        errors.extend(error)
    if errors:
        raise RuntimeError(f"paddle.async_save: a background save failed: {errors[0]}") from errors[0]


# ---- loading -----------------------------------------------------------------------------------------------


class _BadFile(ValueError):
    """A file that is not a readable minipaddle save file (the message says why)."""


def load(path, **configs):
    """Load what `paddle.save` wrote, in either format (told apart by the file's first bytes): Paddle's own
    pickle (also files written by real PaddlePaddle 2.x) or minipaddle's zip. Tensors come back as Tensors
    (stop_gradient=True, with their saved names), tuples as tuples.

    A Paddle pickle is read by a restricted unpickler that builds only numpy arrays, numpy scalars and plain
    containers, and refuses anything else by name before building it: loading never runs code.

    Args:
        path: the file name, or a readable binary file object.
        configs: `return_numpy=True` returns numpy arrays in place of Tensors; `keep_name_table=True` keeps
            Paddle's `StructuredToParameterName@@` entry of a state dict.

    Raises ValueError when the file is missing, truncated, corrupted, refused (a pickle naming anything beyond
    arrays and containers), or not a paddle.save file.

    Example:
        >>> model.set_state_dict(paddle.load("checkpoints/model.pdparams"))
    """
    for key in configs:
        if key not in ("return_numpy", "keep_name_table", "model_filename", "params_filename"):
            raise ValueError(f"paddle.load: the config {key!r} is not supported (supported: return_numpy)")
        if key in ("model_filename", "params_filename"):
            raise ValueError(f"paddle.load: {key} is for loading paddle.jit.save models, which paddle.load does not do")
    return_numpy = bool(configs.get("return_numpy", False))
    keep_name_table = bool(configs.get("keep_name_table", False))

    if hasattr(path, "read"):
        f = path if path.seekable() else io.BytesIO(path.read())
        return _read(f, "the file object", return_numpy, keep_name_table)
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
        return _read(f, repr(path), return_numpy, keep_name_table)


def _read(f, label: str, return_numpy: bool, keep_name_table: bool):
    start = f.tell()
    head = f.read(8)
    f.seek(start)
    if is_pickle(head):
        return _read_pickle(f, label, return_numpy, keep_name_table)
    _sniff(head, label)
    if keep_name_table:
        raise ValueError(f"paddle.load: keep_name_table: {label} is minipaddle's zip format, which has no name table")
    return _read_archive(f, label, return_numpy)


def _read_pickle(f, label: str, return_numpy: bool, keep_name_table: bool):
    try:
        return load_paddle(f, return_numpy, keep_name_table)
    except RefusedPickle as e:
        raise ValueError(f"paddle.load: {label} is refused: {e}") from None
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise ValueError(
            f"paddle.load: {label} is a pickle that is truncated or corrupted and cannot be read "
            f"({type(e).__name__}: {e})"
        ) from None


def _read_archive(f, label: str, return_numpy: bool):
    try:
        with zipfile.ZipFile(f) as zf:
            if INDEX not in zf.namelist():
                raise _BadFile(
                    f"paddle.load: {label} is a zip archive but not a minipaddle save file (it has no {INDEX}; "
                    f"it holds {zf.namelist()[:5]}); a numpy .npz file is read with numpy.load"
                )
            index = _read_index(zf, label)
            _check_index(index, label)
            return _Decoder(zf, return_numpy, label).decode(index["root"])
    except _BadFile:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError, OSError) as e:
        raise ValueError(f"paddle.load: {label} is truncated or corrupted and cannot be read ({e})") from e


def _read_index(zf: zipfile.ZipFile, label: str):
    """The JSON index, its size and nesting bounded before it is parsed (json recurses once per level)."""
    info = zf.getinfo(INDEX)
    if info.file_size > MAX_INFLATION * max(info.compress_size, 1):
        raise _BadFile(
            f"paddle.load: {label}: its index would inflate from {info.compress_size} to {info.file_size} bytes, "
            f"more than {MAX_INFLATION} times; refused before inflating it"
        )
    text = zf.read(INDEX).decode("utf-8")
    depth = deepest = 0
    for c in re.findall(r"[][{}]", re.sub(r'"(?:[^"\\\\]|\\\\.)*"', '""', text)):  # brackets outside strings
        depth += 1 if c in "[{" else -1
        deepest = max(deepest, depth)
    if deepest > 2 * MAX_NESTING + 2:  # each container is two JSON levels (its node and its items)
        raise _BadFile(f"paddle.load: {label}: its index nests {deepest} levels deep, more than the "
                       f"{MAX_NESTING} containers a load accepts")  # fmt: skip
    return json.loads(text)


def _sniff(data: bytes, label: str) -> None:
    """Refuse, by its first bytes, a file that is neither a zip archive nor a pickle, naming what it looks like."""
    if data[:4] in _ZIP_MAGIC:
        return
    if not data:
        raise _BadFile(f"paddle.load: {label} is empty")
    if data[:6] == b"\x93NUMPY":
        raise _BadFile(f"paddle.load: {label} is a numpy .npy file, not a paddle.save file; read it with numpy.load")
    raise _BadFile(
        f"paddle.load: {label} is not a paddle.save file (it starts neither with a pickle of protocol 2 to 5, "
        "as Paddle writes, nor with a zip header, as minipaddle's own format)"
    )


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

    def __init__(self, zf: zipfile.ZipFile, return_numpy: bool, label: str = "the archive") -> None:
        self.zf = zf
        self.return_numpy = return_numpy
        self.label = label

    def array(self, name: str) -> np.ndarray:
        if not isinstance(name, str) or not name.startswith("arrays/"):
            raise ValueError(f"the index names an invalid array member {name!r}")
        return read_array_member(self.zf, name, f"paddle.load: {self.label}")

    def decode(self, node):
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if not isinstance(node, dict) or "type" not in node:
            raise ValueError(f"the index holds an unexpected entry {node!r:.60}")
        kind = node["type"]
        if kind == "tensor":
            a = self.array(node["array"])
            if node.get("dtype") == "bfloat16" and a.dtype == np.uint16:
                a = a.view(ml_dtypes.bfloat16)
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

"""The one restricted pickle reader: Paddle's pickled files (.pdparams, .pdopt, .pdiparams.info) without running code.

Unpickling normally imports and calls whatever the file names (`os.system`, `builtins.exec`, any class's
constructor), so loading a pickle runs its author's code. Every global a pickle uses goes through
`Unpickler.find_class(module, name)` before anything is built, so this reader answers from a short allow-list
and refuses every other name there (as PyTorch's `torch.load(weights_only=True)` does):

    numpy arrays     numpy(._core|.core).multiarray._reconstruct, numpy.ndarray (only as _reconstruct's argument),
                     numpy.dtype (not of Python objects), numpy(._core|.core).numeric._frombuffer
    numpy scalars    numpy(._core|.core).multiarray.scalar (not of Python objects)
    containers       collections.OrderedDict; builtins tuple, list, dict, set, frozenset, complex
    bytes (proto 2)  _codecs.encode(text, "latin1"): how Python 3 writes bytes in protocol 2
    Paddle's LoDTensor: builtins.eval("data", {"data": array}): static mode's pickle of a LoDTensor; the stand-in
                     returns the array and evaluates nothing

Dicts, lists, tuples, strings, numbers, None and booleans have their own pickle opcodes and need no global.
After loading, every array and numpy scalar is checked once more: one of Python objects is refused.
"""

from __future__ import annotations

import builtins
import collections
import io
import math
import pickle

import numpy as np

from minipaddle.static.files import MAX_NESTING

__all__ = ["RefusedPickle", "restricted_load", "restricted_loads", "is_pickle"]


class RefusedPickle(pickle.UnpicklingError, ValueError):
    """A pickle that asks for something other than arrays, numbers and containers (a file that could run code)."""


class _NdarrayName:
    """What `numpy.ndarray` resolves to: only `_reconstruct` accepts it; calling it builds nothing."""

    def __init__(self, *args, **kwargs) -> None:
        raise RefusedPickle("the pickle calls numpy.ndarray directly; only numpy's own array pickling is allowed")


def _plain_dtype(dt) -> np.dtype:
    dt = np.dtype(dt)
    if dt.hasobject:
        raise RefusedPickle(f"the pickle holds a numpy array or scalar of Python objects (dtype {dt}); refused")
    return dt


def _dtype(*args):
    if not args or not isinstance(args[0], str):
        raise RefusedPickle(f"the pickle builds numpy.dtype{args!r:.60}; only a dtype named by a string is allowed")
    return _plain_dtype(np.dtype(*args))


# numpy's pickles start each array empty (`_reconstruct(ndarray, (0,), b'b')`) and then set its data, whose length
# numpy checks against the shape; an array started larger would be allocated before any check.
MAX_START_BYTES = 2**20


def _reconstruct(cls, shape, typecode):
    if cls is not _NdarrayName:
        raise RefusedPickle(f"the pickle rebuilds a numpy array of class {cls!r:.60}; only numpy.ndarray is allowed")
    dtype = np.dtype(typecode)
    if not isinstance(shape, tuple) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise RefusedPickle(f"the pickle starts a numpy array of shape {shape!r:.60}, not a tuple of sizes")
    if math.prod(shape) * dtype.itemsize > MAX_START_BYTES:
        raise RefusedPickle(
            f"the pickle starts a numpy array of shape {list(shape)} ({dtype}), larger than the {MAX_START_BYTES} "
            "bytes numpy's own pickles start with; refused before allocating"
        )
    return np.ndarray.__new__(np.ndarray, shape, dtype)


def _scalar(dtype, data=None):
    if not isinstance(dtype, np.dtype) or not isinstance(data, (bytes, bytearray)):
        raise RefusedPickle("the pickle builds a numpy scalar from something other than a dtype and its bytes")
    return np.frombuffer(bytes(data), dtype=_plain_dtype(dtype), count=1)[0]


def _frombuffer(buffer, dtype, shape, order):
    if not isinstance(buffer, (bytes, bytearray)):
        raise RefusedPickle("the pickle builds a numpy array from something other than bytes")
    a = np.frombuffer(bytes(buffer), dtype=_plain_dtype(dtype)).reshape(shape, order=order)
    return a.copy(order="K")


def _encode(text, encoding="utf-8"):
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise RefusedPickle("the pickle calls _codecs.encode other than for protocol 2's bytes (latin1)")
    return text.encode("latin1")


def _lodtensor_eval(source, scope=None, *rest):
    """Paddle's static-mode LoDTensor pickles as eval('data', {'data': array}); this returns the array unevaluated."""
    if source != "data" or rest or not isinstance(scope, dict) or set(scope) != {"data"}:
        raise RefusedPickle("the pickle calls builtins.eval (it would run code); refused")
    if not isinstance(scope["data"], np.ndarray):
        raise RefusedPickle("the pickle's LoDTensor holds something other than a numpy array")
    return scope["data"]


_NUMPY_CORE = ("numpy.core.multiarray", "numpy._core.multiarray")
_NUMPY_NUMERIC = ("numpy.core.numeric", "numpy._core.numeric")
_BUILTINS = ("builtins", "__builtin__")
_CONTAINERS = ("tuple", "list", "dict", "set", "frozenset", "complex")
_ALLOWED = {
    **{(m, "_reconstruct"): _reconstruct for m in _NUMPY_CORE},
    **{(m, "scalar"): _scalar for m in _NUMPY_CORE},
    **{(m, "_frombuffer"): _frombuffer for m in _NUMPY_NUMERIC},
    ("numpy", "ndarray"): _NdarrayName,
    ("numpy", "dtype"): _dtype,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("_codecs", "encode"): _encode,
    **{(b, "eval"): _lodtensor_eval for b in _BUILTINS},
    **{(b, n): getattr(builtins, n) for b in _BUILTINS for n in _CONTAINERS},
}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        found = _ALLOWED.get((module, name))
        if found is None:
            raise RefusedPickle(
                f"the pickle asks for {module}.{name}, which is not a numpy array, a number or a container; "
                "refused before anything was built (loading it could run code)"
            )
        return found

    def persistent_load(self, pid):
        raise RefusedPickle("the pickle refers to a persistent object (as torch.save's files do); refused")


def _check_built(obj, depth: int = 0) -> None:
    """Refuse an object array or scalar that slipped through (a structured dtype's fields, say)."""
    if depth > MAX_NESTING:
        raise RefusedPickle(f"the pickle nests containers more than {MAX_NESTING} deep (the limit of a load)")
    if isinstance(obj, (np.ndarray, np.generic)):
        _plain_dtype(obj.dtype)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _check_built(k, depth + 1)
            _check_built(v, depth + 1)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            _check_built(v, depth + 1)


def restricted_load(f):
    """Unpickle from the binary file `f` through the allow-list above (RefusedPickle for anything else)."""
    obj = _Unpickler(f, encoding="latin1").load()
    _check_built(obj)
    return obj


def restricted_loads(data: bytes):
    return restricted_load(io.BytesIO(data))


def is_pickle(head: bytes) -> bool:
    """Whether these first bytes start a pickle of protocol 2 or newer (what Paddle writes)."""
    return head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")

"""What `spawn` hands its ranks: the function as a reference (module and qualified name) and its arguments as
JSON, in a file that every rank reads. Reading it imports the function's module, the same code the parent runs,
and builds nothing else: no pickle is loaded (a pickle would run whatever code its bytes name).

The function must be importable by name: defined at the top level of a module, or of the parent's main script
(the ranks then load that script as `__mp_main__`, without its `if __name__ == '__main__':` block, as
multiprocessing's spawn does). Lambdas, functions defined inside functions, bound methods, partials and other
callable objects are refused with a clear error, as paddle's spawn refuses what it cannot pickle.

Arguments are data: None, bool, int, float, complex, str, bytes, lists, tuples, dicts (any such keys), numpy
arrays and scalars (not of Python objects), paddle Tensors (sent as their values; a rank gets a Tensor back
with the same stop_gradient), and functions, classes and modules' builtin functions (by reference, as `func`).
Anything else is refused at spawn, naming where it sits in `args`.
"""

from __future__ import annotations

import base64
import importlib
import inspect
import json
import os
import runpy
import sys
import types

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.tensor.creation import to_tensor

__all__ = ["decode_args", "encode", "encode_args", "load", "reference", "resolve"]

_TAG = "__spawn__"  # every non-JSON value is {"__spawn__": kind, ...}


def reference(func, what: str = "func") -> dict:
    """{"module", "qualname"} naming `func`, after checking that the name leads back to this very object."""
    name = getattr(func, "__qualname__", None)
    module = getattr(func, "__module__", None)
    if not isinstance(name, str) or not isinstance(module, str) or not _by_name(func):
        raise TypeError(
            f"spawn: {what} must be a function or class defined at the top level of a module, so the ranks can "
            f"import it by name; got {type(func).__name__} {func!r:.80} (bound methods, functools.partial and "
            "callable objects cannot be sent: wrap the call in a top-level function)"
        )
    if "<lambda>" in name or "<locals>" in name:
        kind = "a lambda" if "<lambda>" in name else "defined inside another function"
        raise TypeError(
            f"spawn: {what} {module}.{name} is {kind}, so the ranks cannot import it by name (it is not "
            "picklable either, which is why paddle's spawn refuses it too); define it at the top level of a module"
        )
    if module == "__main__" and getattr(sys.modules.get("__main__"), "__file__", None) is None:
        raise TypeError(
            f"spawn: {what} {name!r} is defined in an interactive session (a notebook or the REPL), where the ranks "
            "cannot find it; write it to a .py file and import it from there"
        )
    found = _lookup(sys.modules.get(module) or importlib.import_module(module), name)
    if found is not func:
        raise TypeError(
            f"spawn: {what} {module}.{name} does not lead back to the object given (it was redefined or replaced "
            "after its definition); the ranks import it by that name"
        )
    return {"module": module, "qualname": name}


def _by_name(func) -> bool:
    """A function, a class, or a builtin function of a module (not a method bound to an object)."""
    if inspect.isfunction(func) or inspect.isclass(func):
        return True
    return inspect.isbuiltin(func) and (func.__self__ is None or inspect.ismodule(func.__self__))


def resolve(ref: dict):
    """The object a `reference` names, imported here (the main script must have been loaded first)."""
    return _lookup(importlib.import_module(ref["module"]), ref["qualname"])


def _lookup(module: types.ModuleType, qualname: str):
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def encode_args(value, where: str = "args"):
    """`value` as JSON-able data (see the module docstring); TypeError naming `where` for anything else."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if type(value) in (int, float):  # (json writes and reads NaN and Infinity too)
        return value
    if isinstance(value, complex):
        return _tagged("complex", [value.real, value.imag])
    if isinstance(value, (bytes, bytearray)):
        return _tagged("bytes", base64.b64encode(bytes(value)).decode("ascii"))
    if isinstance(value, list):
        return [encode_args(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return _tagged("tuple", [encode_args(v, f"{where}[{i}]") for i, v in enumerate(value)])
    if isinstance(value, dict):
        return _tagged("dict", [[encode_args(k, f"{where} key"), encode_args(v, f"{where}[{k!r}]")]
                                for k, v in value.items()])  # fmt: skip
    if isinstance(value, (np.ndarray, np.generic)):
        return _tagged("ndarray" if isinstance(value, np.ndarray) else "scalar", **_array(np.asarray(value), where))
    if isinstance(value, Tensor):
        return _tagged("tensor", stop_gradient=bool(value.stop_gradient), **_array(value.numpy(), where))
    if _by_name(value):
        return _tagged("ref", **reference(value, where))
    raise TypeError(
        f"spawn: {where} is a {type(value).__name__}, which cannot be sent to the ranks; arguments must be data "
        "(None, numbers, str, bytes, lists, tuples, dicts, numpy arrays, Tensors) or top-level functions and "
        "classes. Build other objects inside func, from such arguments."
    )


def decode_args(value):
    """The inverse of `encode_args`."""
    if isinstance(value, list):
        return [decode_args(v) for v in value]
    if not isinstance(value, dict):
        return value
    kind = value[_TAG]
    if kind == "tuple":
        return tuple(decode_args(v) for v in value["items"])
    if kind == "dict":
        return {decode_args(k): decode_args(v) for k, v in value["items"]}
    if kind == "complex":
        return complex(*value["items"])
    if kind == "bytes":
        return base64.b64decode(value["items"])
    if kind == "ref":
        return resolve(value)
    array = np.frombuffer(base64.b64decode(value["data"]), dtype=np.dtype(value["dtype"]))
    array = array.reshape(tuple(value["shape"])).copy()  # writable, owning its memory
    if kind == "scalar":
        return array[()]
    if kind == "tensor":
        return to_tensor(array, stop_gradient=value["stop_gradient"])
    return array


def _tagged(kind: str, items=None, **fields) -> dict:
    out = {_TAG: kind, **fields}
    if items is not None:
        out["items"] = items
    return out


def _array(a: np.ndarray, where: str) -> dict:
    if a.dtype.hasobject or a.dtype.fields is not None:
        raise TypeError(f"spawn: {where} is a numpy array of dtype {a.dtype}; only plain numeric arrays can be sent")
    data = base64.b64encode(a.tobytes(order="C")).decode("ascii")
    return {"dtype": a.dtype.str, "shape": list(a.shape), "data": data}


def encode(func, args: tuple) -> str:
    """The JSON text the ranks need to run `func(*args)` (TypeError for what cannot be sent)."""
    main = sys.modules.get("__main__")
    payload = {
        "func": reference(func),
        "main_file": os.path.abspath(main.__file__) if func.__module__ == "__main__" else None,
        "args": encode_args(tuple(args)),
    }
    return json.dumps(payload)


def load(path: str):
    """(func, args) from a file holding what `encode` wrote (the parent's main script is loaded first when func
    lives there)."""
    with open(path) as f:
        payload = json.load(f)
    if payload["main_file"]:
        _load_parent_main(payload["main_file"])
    return resolve(payload["func"]), decode_args(payload["args"])


def _load_parent_main(main_file: str) -> None:
    """Load the parent's main script under the name `__mp_main__` (its `if __name__ == '__main__':` block does
    not run), as multiprocessing's spawn does, and make it this process's `__main__` so the reference resolves."""
    namespace = runpy.run_path(main_file, run_name="__mp_main__")
    module = types.ModuleType("__mp_main__")
    module.__dict__.update(namespace)
    sys.modules["__main__"] = sys.modules["__mp_main__"] = module

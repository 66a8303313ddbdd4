"""Paddle 2.6's own paddle.save format (a pickle), written without pickling any object of ours and read through
the restricted reader (static/pickle_reader.py). Paddle's rules, from python/paddle/framework/io.py:

Saving
- A *state dict* (a dict whose values are all Tensors, or dicts holding no Tensor, such as an optimizer's
  `LR_Scheduler` entry) is pickled as a plain dict with each Tensor replaced by its numpy array, plus the key
  `StructuredToParameterName@@`: {key: tensor.name}.
- With protocol 2 or 3 (whose objects cannot pass 4 GiB), a top-level array of more than 2**30 - 1 bytes is cut
  into flat slices `key@@.0`, `key@@.1`, ... listed under `UnpackBigParamInfor@@` (static/big_arrays.py).
- Anything else (a Tensor, a list, a dict mixing Tensors and numbers) is pickled as it is, each Tensor as the tuple
  (name, numpy array).

Loading
- Split arrays are joined again. A dict with the name table: the arrays it lists become Tensors with those
  names, and the table is dropped (kept with keep_name_table=True).
- Otherwise, if the object holds any (str, array) tuple, those tuples become Tensors (their name, their values);
  if not, every numpy array in it becomes a Tensor. return_numpy=True gives the arrays instead.

minipaddle writes only what the restricted reader admits back: numpy arrays and scalars of plain dtypes, and
dicts, OrderedDicts, lists, tuples, sets of those and of str, bytes, numbers, booleans and None.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict

import ml_dtypes
import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.static.big_arrays import UNPACK_INFO, join_big_arrays, split_big_arrays
from minipaddle.static.pickle_reader import restricted_load

__all__ = ["dump_paddle", "load_paddle", "NAME_TABLE", "UNPACK_INFO"]

NAME_TABLE = "StructuredToParameterName@@"
_CONTAINERS = (dict, OrderedDict, list, tuple)


# ---- saving --------------------------------------------------------------------------------------------------


def _holds_tensor(obj) -> bool:
    if isinstance(obj, Tensor):
        return True
    if type(obj) in (dict, OrderedDict):
        return any(_holds_tensor(v) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_holds_tensor(v) for v in obj)
    return False


def is_state_dict(obj) -> bool:
    """Paddle's `_is_state_dict`: every value a Tensor, or a dict with no Tensor inside."""
    if not isinstance(obj, dict):
        return False
    for value in obj.values():
        if isinstance(value, dict):
            if any(_holds_tensor(v) for v in value.values()):
                return False
        elif not isinstance(value, Tensor):
            return False
    return True


def saved_array(t: Tensor) -> np.ndarray:
    """The array Paddle saves for a Tensor: a copy of its values; bfloat16 as its raw bits in uint16, which is how
    Paddle holds bfloat16 on the host (and what its bfloat16 Tensor.numpy() gives)."""
    a = np.array(t.numpy())
    return a.view(np.uint16) if t.dtype.name == "bfloat16" else a


def _plain(obj, where: str, refuse):
    """A copy of `obj` made of builtins and numpy only, each Tensor as (name, array); `refuse` raises for the rest."""
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
        return obj
    if isinstance(obj, Tensor):
        return (obj.name, saved_array(obj))
    if isinstance(obj, (np.ndarray, np.generic)):
        if obj.dtype.hasobject:
            raise TypeError(f"paddle.save: {where} is a numpy array of Python objects, which paddle.load refuses")
        return obj
    if isinstance(obj, dict):
        items = [(_plain(k, f"a key of {where}", refuse), _plain(v, f"{where}[{k!r}]", refuse)) for k, v in obj.items()]
        return OrderedDict(items) if isinstance(obj, OrderedDict) else dict(items)
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = [_plain(v, f"{where}[{i}]", refuse) for i, v in enumerate(obj)]
        return type(obj)(items) if type(obj) in (list, tuple, set, frozenset) else list(items)
    refuse(obj, where)


def paddle_object(obj, protocol: int, refuse):
    """What Paddle's paddle.save pickles for `obj` (builtins and numpy only)."""
    if is_state_dict(obj):
        saved, names = {}, {}
        for key, value in obj.items():
            if isinstance(value, Tensor):
                saved[key] = saved_array(value)
                names[key] = value.name
            else:
                saved[key] = _plain(value, f"obj[{key!r}]", refuse)
        saved[NAME_TABLE] = names
        return split_big_arrays(saved, protocol)
    return _plain(obj, "obj", refuse)


def dump_paddle(obj, f, protocol: int) -> None:
    """Pickle the plain object from paddle_object into the binary file `f`."""
    pickle.Pickler(f, protocol).dump(obj)


# ---- loading -------------------------------------------------------------------------------------------------


def _tensor(a: np.ndarray, name, return_numpy: bool):
    if return_numpy:
        return a
    a = np.array(a)
    if a.dtype == np.uint16:  # Paddle's bfloat16 bits (minipaddle has no uint16 tensors; Paddle loads them as bf16)
        a = a.view(ml_dtypes.bfloat16)
    t = Tensor(a)
    if name:
        t.name = name
    return t


def _is_named_array(obj) -> bool:
    return type(obj) is tuple and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray)


def _contains(obj, test) -> bool:
    if test(obj):
        return True
    if type(obj) in (dict, OrderedDict):
        return any(_contains(v, test) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_contains(v, test) for v in obj)
    return False


def _convert(obj, test, make):
    """Paddle's `_parse_every_object`: `make(x)` for every x with `test(x)`, through dicts, lists, tuples, sets."""
    if test(obj):
        return make(obj)
    if type(obj) in (dict, OrderedDict):
        return type(obj)((k, _convert(v, test, make)) for k, v in obj.items())
    if type(obj) in (list, tuple, set):
        return type(obj)(_convert(v, test, make) for v in obj)
    return obj


def from_paddle_object(obj, return_numpy: bool = False, keep_name_table: bool = False):
    """What Paddle's paddle.load returns for the unpickled object `obj`."""
    if isinstance(obj, dict):
        obj = join_big_arrays(obj)
        if NAME_TABLE in obj:
            table = obj[NAME_TABLE]
            for key, name in table.items():
                if isinstance(obj.get(key), np.ndarray):
                    obj[key] = _tensor(obj[key], name, return_numpy)
            if not keep_name_table:
                del obj[NAME_TABLE]
            return obj
    if _contains(obj, _is_named_array):
        return _convert(obj, _is_named_array, lambda t: _tensor(t[1], t[0], return_numpy))
    return _convert(obj, lambda a: isinstance(a, np.ndarray), lambda a: _tensor(a, None, return_numpy))


def load_paddle(f, return_numpy: bool = False, keep_name_table: bool = False):
    """Read a Paddle paddle.save file from the binary file `f` through the restricted reader."""
    return from_paddle_object(restricted_load(f), return_numpy, keep_name_table)

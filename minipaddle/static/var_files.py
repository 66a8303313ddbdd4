"""The older files of Paddle's `save_vars` / `save_params` / `save_persistables`, which paddle 2.6's static.load and
load_program_state fall back to when there is no `.pdparams`:

- a directory holding one file per variable, named as the variable (a name with '/' is a sub-directory), each file
  one tensor in Paddle's stream format (what the `save` op writes: the same bytes as one tensor of a .pdiparams);
- one file holding several variables one after another (the `save_combine` op, as in a .pdiparams), in the order
  of their names, sorted: the variables must then be named (var_list), as the file holds no names.

Both are read by static/pdmodel.py's read_pdiparams, which builds only numpy arrays and runs nothing.
"""

from __future__ import annotations

import os
import warnings

from minipaddle.static.files import read_file
from minipaddle.static.pdmodel import read_pdiparams

__all__ = ["var_file_names", "read_var_dir", "read_combined"]

_WHICH = "please make sure it was saved with save_params, save_persistables or save_vars"


def var_file_names(dirname: str) -> list:
    """The variable names a save_vars directory holds: every file's path relative to it, with '/'."""
    names = []
    for root, _dirs, files in os.walk(dirname):
        for f in files:
            names.append(os.path.relpath(os.path.join(root, f), dirname).replace(os.sep, "/"))
    return sorted(names)


def _read_one(path: str, name: str, fn: str) -> dict:
    try:
        return read_pdiparams(read_file(path, fn), [(name, None, None)], f"{fn}: the variable file {path}")
    except ValueError as e:
        raise RuntimeError(f"{fn}: failed to load variable {name!r} from {path}, {_WHICH}: {e}") from None


def read_var_dir(dirname: str, names: list, fn: str, strict: bool = True) -> dict:
    """{name: array} of the variables `names` from a save_vars directory. strict=False: a file that is not a
    variable file is skipped with a RuntimeWarning (as Paddle's load_program_state does when it loads every file of
    the directory)."""
    out = {}
    for name in names:
        path = os.path.join(dirname, *name.split("/"))
        try:
            out.update(_read_one(path, name, fn))
        except (RuntimeError, FileNotFoundError, OSError) as e:
            if strict:
                raise
            warnings.warn(f"{fn}: skipped {path}: {e}", RuntimeWarning, stacklevel=3)
    return out


def read_combined(path: str, names: list, fn: str) -> dict:
    """{name: array} of the variables `names` from one save_combine file, which holds them sorted by name."""
    order = sorted(set(names))
    try:
        return read_pdiparams(read_file(path, fn), [(n, None, None) for n in order], f"{fn}: {path}")
    except ValueError as e:
        raise RuntimeError(f"{fn}: failed to load {order} from {path}, {_WHICH} and filename, and that var_list "
                           f"names exactly the variables saved: {e}") from None  # fmt: skip

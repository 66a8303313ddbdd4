"""Saving and loading static Programs and their values: paddle.static.save/load, the inference model, and the
in-memory forms (serialize_* / deserialize_*).

Files (DESIGN.md, wall 4): every file is Paddle 2.6's own. static.save's `.pdparams`/`.pdopt` are pickles of
{name: numpy array}, read back through the one restricted reader (static/pickle_reader.py); a `.pdmodel` is a
ProgramDesc protobuf (static/pdmodel.py, with the op translation table in static/paddle_ops.py) and a `.pdiparams`
Paddle's parameter stream. A Program Paddle's format cannot hold here is written as minipaddle's JSON Program
(static/serialize.py) with a warning, and `format="minipaddle"` asks for minipaddle's own files (the JSON and
`.npz` archives of named arrays, static/files.py, read with allow_pickle=False); loads tell the formats apart by
their bytes. Loading a file never runs code. Every file is written to a temporary file first and renamed into
place, so a crash mid-save leaves the previous file.

    paddle.static.save(main, "ckpt/model")        -> model.pdparams (parameters), .pdopt (other persistable state:
                                                     optimizer moments, learning rate), .pdmodel (the Program),
                                                     which paddle 2.6's static.load reads
    paddle.static.load(main, "ckpt/model", exe)   <- puts the values into the global scope
    paddle.static.save_inference_model("infer/m", [x], [y], exe)
                                                  -> m.pdmodel (only the ops from x to y, in inference mode, with the
                                                     feed and fetch ops) and m.pdiparams (the parameters they read),
                                                     which paddle 2.6 loads and runs
    program, feed_names, fetch_targets = paddle.static.load_inference_model("infer/m", exe)
"""

from __future__ import annotations

import json
import os
import pickle
import warnings

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.static.big_arrays import join_big_arrays, split_big_arrays
from minipaddle.static.executor import Executor, global_scope
from minipaddle.static.files import (
    arrays_from_bytes,
    arrays_to_bytes,
    atomic_write,
    check_file_set,
    read_file,
    write_file_set,
)
from minipaddle.static.master_weights import restart_master_weights
from minipaddle.static.pdmodel import (
    is_pdmodel,
    persistable_specs,
    read_pdiparams,
    read_pdmodel,
    write_pdiparams,
    write_pdmodel,
    write_program_desc,
)
from minipaddle.static.pickle_reader import RefusedPickle, restricted_loads
from minipaddle.static.program import Program, Variable, default_main_program
from minipaddle.static.prune import prune
from minipaddle.static.serialize import program_to_bytes, read_program
from minipaddle.static.var_files import read_combined, read_var_dir, var_file_names

__all__ = [
    "save", "load", "load_program_state", "set_program_state", "normalize_program", "serialize_program",
    "serialize_persistables", "deserialize_program", "deserialize_persistables", "save_to_file", "load_from_file",
    "save_inference_model", "load_inference_model", "save_vars", "load_vars",
]  # fmt: skip

_SUFFIXES = (".pdparams", ".pdopt", ".pdmodel")


# ---- checking arguments ----------------------------------------------------------------------------------------


def _program_arg(program, fn: str) -> Program:
    program = default_main_program() if program is None else getattr(program, "program", program)
    if not isinstance(program, Program):
        raise TypeError(f"{fn}: program must be a paddle.static.Program, got {type(program).__name__}")
    return program


def _vars_arg(value, arg: str, fn: str) -> list:
    """A Variable or a list of Variables, as a list (Paddle's check for feed_vars and fetch_vars)."""
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if not values or not all(isinstance(v, Variable) for v in values):
        raise TypeError(f"{fn}: {arg} must be a Variable or a non-empty list of Variables, got {value!r}")
    return values


def _executor_arg(executor, fn: str, optional: bool = False) -> None:
    if not (isinstance(executor, Executor) or (optional and executor is None)):
        raise TypeError(f"{fn}: executor must be a paddle.static.Executor, got {type(executor).__name__}")


def _kwargs_arg(kwargs: dict, allowed: tuple, fn: str) -> None:
    unknown = sorted(set(kwargs) - set(allowed))
    if unknown:
        raise TypeError(f"{fn}: unexpected keyword argument(s) {unknown}; it takes {list(allowed)}")


def _path_prefix(path_prefix, fn: str) -> str:
    if not isinstance(path_prefix, str):
        raise TypeError(f"{fn}: path_prefix must be a string, got {type(path_prefix).__name__}")
    if path_prefix.endswith(("/", os.sep)) or os.path.basename(path_prefix) == "":
        raise ValueError(f"{fn}: path_prefix must be 'directory/name' (the files get .pdmodel/.pdiparams added), "
                         f"got the directory {path_prefix!r}")  # fmt: skip
    return os.path.abspath(os.path.normpath(path_prefix))


def _model_prefix(model_path, fn: str) -> str:
    if not isinstance(model_path, str):
        raise TypeError(f"{fn}: model_path must be a string, got {type(model_path).__name__}")
    for suffix in _SUFFIXES:
        if model_path.endswith(suffix):
            return model_path[: -len(suffix)]
    return model_path


# ---- which variables, and their values ---------------------------------------------------------------------------


def _persistables(program: Program) -> dict:
    """name -> Variable for the program's persistable variables (parameters and other state), all blocks."""
    return {v.name: v for v in program.list_vars() if v.persistable}


def _values_of(variables, scope, fn: str) -> dict:
    """name -> array from the scope, for each variable (a RuntimeError for one without a value)."""
    values = {}
    for v in variables:
        if v.name not in scope.vars:
            raise RuntimeError(f"{fn}: variable {v.name!r} has no value in the scope; run the startup program first")
        values[v.name] = np.asarray(scope.vars[v.name])
    return values


def _same_but_unit_dims(declared: tuple, stored: tuple) -> bool:
    """Whether two shapes hold the same values in the same order, differing only in dimensions of size 1."""
    return all(s >= 0 for s in declared) and [d for d in declared if d != 1] == [d for d in stored if d != 1]


def _int8_weight(var: Variable) -> bool:
    """Whether `var` is a float variable that only dequantize_linear ops read (a weight frozen to int8 levels)."""
    readers = [op for b in var.block.program.blocks for op in b.ops if var.name in op.input_names()]
    return var.dtype.np.kind == "f" and bool(readers) and all(op.type == "dequantize_linear" for op in readers)


def _check_value(var: Variable, value: np.ndarray, fn: str, source: str) -> np.ndarray:
    """`value` for `var`: a ValueError when its shape or dtype does not fit the variable.

    Paddle's load_combine keeps whatever shape a file holds, and Paddle's own writers store a few values shaped
    otherwise than they declare them: PostTrainingQuantization(onnx_format=True) writes a per-channel weight scale
    declared [C] as [1, C] and an output scale declared [1] as [] (it sets them from `np.array([value])`). A value
    that differs from its variable only in dimensions of size 1 is taken with the declared shape, so the kernels
    see what the Program says (and a file minipaddle writes back has the declared shape, which Paddle reads).
    Likewise its QuantWeightPass stores int8 levels in a weight declared float32: a variable only
    dequantize_linear ops read takes the int8 dtype of its file."""
    shape = tuple(var.shape)
    if value.shape != shape and _same_but_unit_dims(shape, value.shape):
        value = value.reshape(shape)
    if value.ndim != len(shape) or any(s not in (-1, d) for s, d in zip(shape, value.shape)):
        raise ValueError(f"{fn}: {var.name!r} has shape {list(shape)} in the program, but shape {list(value.shape)} "
                         f"in {source}")  # fmt: skip
    if value.dtype == np.uint16 and var.dtype.name == "bfloat16":  # Paddle's bfloat16 bits (pickled_arrays)
        value = value.view(var.dtype.np)
    if value.dtype == np.int8 and value.dtype != var.dtype.np and _int8_weight(var):
        # (Paddle's QuantWeightPass stores a weight's int8 levels under the float variable it declared)
        var._data = np.broadcast_to(np.zeros((), np.int8), var._data.shape)
    if value.dtype != var.dtype.np:
        raise ValueError(f"{fn}: {var.name!r} is {var.dtype.name} in the program, but {value.dtype} in {source}")
    return value


def _put(program: Program, variables, arrays: dict, scope, fn: str, source: str) -> None:
    """Write each variable's array from `arrays` into the scope (a ValueError naming any that is missing), then
    restart the float32 master weights of the parameters written (static/master_weights.py)."""
    missing = [v.name for v in variables if v.name not in arrays]
    if missing:
        raise ValueError(f"{fn}: no values for {missing} in {source}")
    checked = {v.name: _check_value(v, arrays[v.name], fn, source) for v in variables}
    for name, value in checked.items():  # all checked before any is written: a failed load changes nothing
        scope.vars[name] = np.array(value)
    restart_master_weights(program, scope, checked)


# ---- paddle.static.save / load ---------------------------------------------------------------------------------


def save(program, model_path, protocol=4, **configs) -> None:
    """Save a Program's parameters, its other persistable state, and the Program itself, as paddle 2.6 does.

    Writes Paddle 2.6's files, which its paddle.static.load reads: `model_path.pdparams` (a pickle of
    {name: numpy array} of the parameters), `model_path.pdopt` (the same of the other persistable variables:
    optimizer state, learning rate) and `model_path.pdmodel` (the Program as Paddle's ProgramDesc protobuf; a
    Program with ops Paddle's format cannot hold here, such as the backward and optimizer ops of a training
    Program, is written in minipaddle's JSON form instead, with a warning naming the op). The three are one set:
    a crash at any moment leaves the whole old set or the whole new one (with the manifest `model_path.pdset`,
    docs/save_format.md). `format="minipaddle"` writes minipaddle's own files (.npz archives and the JSON Program).

    Args:
        program: the Program whose variables to save (values come from the global scope).
        model_path: 'directory/name'; the directory is created if needed.
        protocol: the pickle protocol, 2 to 4 (with 2 and 3, arrays over 1 GiB are split, as Paddle does).
        format: (keyword) "paddle" (default) or "minipaddle".

    Example:
        >>> paddle.static.save(paddle.static.default_main_program(), "./ckpt/model")
    """
    program = _program_arg(program, "save")
    prefix = _model_prefix(model_path, "save")
    if os.path.basename(prefix) == "":
        raise ValueError(f"save: model_path must be 'directory/name', got {model_path!r}")
    _kwargs_arg(configs, ("pickle_protocol", "format"), "save")
    if "pickle_protocol" in configs:  # Paddle's older name, which wins as in Paddle
        protocol = configs["pickle_protocol"]
    if isinstance(protocol, bool) or not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise ValueError(f"save: protocol must be an int from 2 to 4, got {protocol!r}")
    fmt = configs.get("format", "paddle")
    if fmt not in ("paddle", "minipaddle"):
        raise ValueError(f"save: format must be 'paddle' or 'minipaddle', got {fmt!r}")
    scope = global_scope()
    state = _persistables(program)
    params = _values_of([v for v in state.values() if v.is_parameter], scope, "save")
    others = _values_of([v for v in state.values() if not v.is_parameter and not v.is_data], scope, "save")
    if fmt == "minipaddle":
        files = {".pdparams": arrays_to_bytes(params), ".pdopt": arrays_to_bytes(others),
                 ".pdmodel": program_to_bytes(program)}  # fmt: skip
    else:
        files = {".pdparams": pickled_arrays(params, protocol), ".pdopt": pickled_arrays(others, protocol),
                 ".pdmodel": program_bytes(program, "save")}  # fmt: skip
    write_file_set(prefix, files, what="save")  # one set: never new parameters beside an old Program


def pickled_arrays(arrays: dict, protocol: int) -> bytes:
    """{name: array} as the pickle paddle 2.6's static.save writes: a plain dict of numpy arrays (split when over
    1 GiB with protocol 2 or 3), which the restricted reader admits back; a bfloat16 array as its bits in uint16,
    as Paddle holds bfloat16 on the host (numpy has no bfloat16 of its own)."""
    arrays = {n: a.view(np.uint16) if isinstance(a, np.ndarray) and a.dtype.name == "bfloat16" else a
              for n, a in arrays.items()}  # fmt: skip
    for name, a in arrays.items():
        if not isinstance(a, np.ndarray) or a.dtype.kind not in "biufc":
            raise TypeError(f"cannot save {name!r}: expected a numeric numpy array, got {type(a).__name__}")
    return pickle.dumps(split_big_arrays(arrays, protocol), protocol=protocol)


def program_bytes(program: Program, fn: str) -> bytes:
    """The whole Program as Paddle's ProgramDesc bytes, or minipaddle's JSON (with a warning naming the op) when
    Paddle's format cannot hold it here."""
    try:
        return write_program_desc(program)
    except NotImplementedError as e:
        warnings.warn(f"{fn}: writing minipaddle's JSON program, not Paddle's ProgramDesc: {e}", stacklevel=3)
        return program_to_bytes(program)


def _read_arrays(path: str, fn: str) -> dict:
    """{name: array} from a .pdparams/.pdopt file: Paddle's pickle (through the restricted reader, which builds
    only numpy arrays and plain containers) or minipaddle's older .npz, told apart by the bytes."""
    data = read_file(path, fn)
    if data[:2] == b"PK":
        return arrays_from_bytes(data, f"{fn}: {path}")
    if data[:1] != b"\x80":
        raise ValueError(f"{fn}: {path} is neither a Paddle checkpoint (a pickle) nor a minipaddle .npz")
    obj = join_big_arrays(dict(_read_pickled_dict(data, path, fn, "checkpoint", "named arrays")))
    # a paddle.save'd state dict has the name table too (and an optimizer's its LR_Scheduler): only arrays count
    return {k: v for k, v in obj.items() if isinstance(k, str) and isinstance(v, np.ndarray)}


def _read_state(prefix: str, fn: str, need_opt: bool = True) -> dict:
    check_file_set(prefix, fn)
    arrays = _read_arrays(prefix + ".pdparams", fn)
    if need_opt or os.path.isfile(prefix + ".pdopt"):
        arrays.update(_read_arrays(prefix + ".pdopt", fn))
    return arrays


def _names(var_list, fn: str) -> list:
    if not isinstance(var_list, (list, tuple)):
        raise TypeError(f"{fn}: var_list must be a list of Variables or names, got {type(var_list).__name__}")
    for v in var_list:
        if not isinstance(v, (Variable, str)):
            raise TypeError(f"{fn}: var_list must hold Variables or names, got {type(v).__name__}")
    return [v if isinstance(v, str) else v.name for v in var_list]


def load(program, model_path, executor=None, var_list=None) -> None:
    """Load what `save` wrote into the global scope: the program's parameters and other persistable variables.

    Reads Paddle 2.6's `.pdparams`/`.pdopt` pickles (written by paddle's static.save or minipaddle's, through the
    restricted reader) and minipaddle's older `.npz` files, told apart by their bytes.

    Args:
        program: the Program whose variables to load.
        model_path: the prefix given to `save` (a path ending in .pdparams/.pdopt/.pdmodel also works).
        executor: accepted for Paddle compatibility (values go to the global scope).
        var_list: load only these Variables (or names); default: every persistable variable of the program.

    Without a `.pdparams`, model_path may be what Paddle's save_vars / save_params / save_persistables wrote, as
    paddle 2.6's static.load reads it: a directory of one file per variable (the program's variables that have a
    file are loaded, those of var_list only when it is given), or one combined file (var_list must then name its
    variables). The executor is then required, as in Paddle.

    A shape or dtype that does not fit the program, or a variable missing from the files, is a ValueError, and
    then nothing is loaded.
    """
    program = _program_arg(program, "load")
    _executor_arg(executor, "load", optional=True)
    prefix = _model_prefix(model_path, "load")
    if not os.path.exists(prefix + ".pdparams") and os.path.exists(model_path):
        _load_saved_vars(program, model_path, executor, var_list)
        return
    state = _persistables(program)
    if var_list is not None:
        wanted = _names(var_list, "load")
        unknown = [n for n in wanted if n not in state]
        if unknown:
            raise ValueError(f"load: var_list names {unknown}, which are not persistable variables of the program")
        state = {n: state[n] for n in wanted}
    need_opt = any(not v.is_parameter for v in state.values())
    _put(program, state.values(), _read_state(prefix, "load", need_opt), global_scope(), "load",
         f"the files {prefix}.*")  # fmt: skip


def load_program_state(model_path, var_list=None) -> dict:
    """The values that `save` wrote, as a dict name -> numpy array (parameters and other persistable state), from
    Paddle's pickles or minipaddle's older `.npz` files.

    Args:
        model_path: the prefix given to `save`; or, without a `.pdparams`, a directory that Paddle's save_vars
            wrote (one file per variable: all of them are read, or those of var_list), or one combined file that it
            wrote (var_list required: the file holds no names).
        var_list: only these Variables (or names); default: everything in the files.
    """
    prefix = _model_prefix(model_path, "load_program_state")
    if not os.path.exists(prefix + ".pdparams") and os.path.exists(model_path):
        return _saved_vars_state(model_path, var_list)
    state = _read_state(prefix, "load_program_state", need_opt=False)
    if var_list is None:
        return state
    names = _names(var_list, "load_program_state")
    missing = [n for n in names if n not in state]
    if missing:
        raise ValueError(f"load_program_state: the files {prefix}.* have no values for {missing}")
    return {n: state[n] for n in names}


def _load_saved_vars(program: Program, model_path: str, executor, var_list) -> None:
    """static.load of Paddle's save_vars files (no .pdparams): a directory of per-variable files, whose files
    named as program variables are loaded (those of var_list only, when given), or one combined file, whose
    variables var_list must name. As in Paddle, an executor is required."""
    fn = "load"
    if executor is None:
        raise ValueError(f"{fn}: executor is required when loading files saved with save_params, save_persistables "
                         f"or save_vars (there is no {_model_prefix(model_path, fn)}.pdparams)")  # fmt: skip
    wanted = None if var_list is None else _names(var_list, fn)
    variables = {v.name: v for v in program.list_vars()}
    if os.path.isdir(model_path):
        files = set(var_file_names(model_path))
        chosen = [v for n, v in variables.items() if n in files and (wanted is None or n in wanted)]
        unused = sorted(files - {v.name for v in chosen})
        if unused:
            warnings.warn(f"{fn}: variable files {unused} in {model_path} not used", UserWarning, stacklevel=3)
        arrays = read_var_dir(model_path, [v.name for v in chosen], fn)
    else:
        if wanted is None:
            raise ValueError(f"{fn}: var_list is required when loading one file saved with save_params, "
                             "save_persistables or save_vars (the file holds no names)")  # fmt: skip
        unknown = [n for n in wanted if n not in variables]
        if unknown:
            raise LookupError(f"{fn}: var_list names {unknown}, which are not variables of the program")
        chosen = [variables[n] for n in wanted]
        arrays = read_combined(model_path, wanted, fn)
    _put(program, chosen, arrays, global_scope(), fn, model_path)


def _chosen_vars(main_program, vars, predicate, fn: str) -> tuple:
    """(program, variables) for save_vars/load_vars: `vars` if given, else the program's variables for which
    `predicate` holds (all of them without one), as paddle 2.6 chooses."""
    program = _program_arg(main_program, fn)
    if vars is None:
        if predicate is not None and not callable(predicate):
            raise TypeError(f"{fn}: predicate must be a function of a Variable, got {type(predicate).__name__}")
        return program, [v for v in program.list_vars() if predicate is None or predicate(v)]
    chosen = list(vars) if isinstance(vars, (list, tuple)) else [vars]
    for v in chosen:
        if not isinstance(v, Variable):
            raise TypeError(f"{fn}: vars must be static Variables, got {type(v).__name__}")
    return program, chosen


def save_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None) -> None:
    """Save variables' values from the global scope as paddle 2.6's save_vars does: one file per variable in
    `dirname` (named as the variable), or all of them in `dirname/filename`, sorted by name (Paddle's tensor
    stream, which paddle's load_vars and static.load read).

    Args:
        executor: the Executor (required, as in Paddle).
        dirname (str): the directory to write into.
        main_program: whose variables to choose from when `vars` is None (default: the default main Program).
        vars: the Variables to save; default: those of main_program for which `predicate` holds.
        predicate: a function Variable -> bool.
        filename: one file for all of them instead of one file each.
    """
    fn = "save_vars"
    _executor_arg(executor, fn)
    if not isinstance(dirname, str) or not dirname:
        raise TypeError(f"{fn}: dirname must be a directory path (a non-empty str), got {dirname!r}")
    _, chosen = _chosen_vars(main_program, vars, predicate, fn)
    values = _values_of(chosen, global_scope(), fn)
    if filename:
        os.makedirs(dirname, exist_ok=True)
        atomic_write(os.path.join(dirname, filename), write_pdiparams(values))
        return
    for name, value in values.items():
        path = os.path.join(dirname, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(path, write_pdiparams({name: value}))


def load_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None) -> None:
    """Load what save_vars (minipaddle's or paddle 2.6's) wrote into the global scope, the variables chosen as
    save_vars chooses them. A shape or dtype that does not fit, or a missing file, is an error and then nothing is
    loaded; the float32 master weights of parameters loaded restart from them (static/master_weights.py)."""
    fn = "load_vars"
    _executor_arg(executor, fn)
    if not isinstance(dirname, str) or not dirname:
        raise TypeError(f"{fn}: dirname must be a directory path (a non-empty str), got {dirname!r}")
    program, chosen = _chosen_vars(main_program, vars, predicate, fn)
    names = [v.name for v in chosen]
    if filename:
        arrays = read_combined(os.path.join(dirname, filename), names, fn)
    else:
        arrays = read_var_dir(dirname, names, fn)
    _put(program, chosen, arrays, global_scope(), fn, dirname)


def _saved_vars_state(model_path: str, var_list) -> dict:
    """load_program_state of Paddle's save_vars files: a directory (every file, or those of var_list) or one
    combined file (var_list required)."""
    fn = "load_program_state"
    names = None if var_list is None else _names(var_list, fn)
    if os.path.isdir(model_path):
        if names is None:  # every file that is a variable file; others are skipped with a warning, as in Paddle
            return read_var_dir(model_path, var_file_names(model_path), fn, strict=False)
        return read_var_dir(model_path, names, fn)
    if names is None:
        raise ValueError(f"{fn}: var_list can not be None when model_path is a file ({model_path})")
    return read_combined(model_path, names, fn)


def set_program_state(program, state_dict) -> None:
    """Put the values of `state_dict` (name -> array or Tensor) into the global scope, for the program's
    persistable variables. Entries the program has no variable for are skipped with a warning.

    Example:
        >>> paddle.static.set_program_state(main, paddle.static.load_program_state("./ckpt/model"))
    """
    program = _program_arg(program, "set_program_state")
    if not isinstance(state_dict, dict):
        raise TypeError(f"set_program_state: state_dict must be a dict, got {type(state_dict).__name__}")
    state = _persistables(program)
    arrays = {k: (v.numpy() if isinstance(v, Tensor) else np.asarray(v)) for k, v in state_dict.items()}
    used = [state[n] for n in arrays if n in state]
    _put(program, used, arrays, global_scope(), "set_program_state", "state_dict")
    unused = [n for n in arrays if n not in state]
    if unused:
        warnings.warn(f"set_program_state: the program has no persistable variables {unused}; they were not set",
                      stacklevel=2)  # fmt: skip


# ---- inference models -------------------------------------------------------------------------------------------


def normalize_program(program, feed_vars, fetch_vars, **kwargs) -> Program:
    """The inference form of `program`: only the ops from feed_vars to fetch_vars, backward and optimizer ops
    removed, dropout and batch_norm in inference mode (what save_inference_model saves)."""
    if not isinstance(program, Program):
        raise TypeError(f"normalize_program: program must be a paddle.static.Program, got {type(program).__name__}")
    _kwargs_arg(kwargs, ("skip_prune_program",), "normalize_program")
    options = {**kwargs, "program": program}
    return _inference_parts(feed_vars, fetch_vars, options, "normalize_program", ("program", "skip_prune_program"))[0]


def _inference_parts(feed_vars, fetch_vars, kwargs: dict, fn: str, allowed: tuple) -> tuple:
    """(pruned program, feed names, fetch names) from the arguments shared by the inference-model functions."""
    _kwargs_arg(kwargs, allowed, fn)
    feeds = [v.name for v in _vars_arg(feed_vars, "feed_vars", fn)]
    fetch_vars = _vars_arg(fetch_vars, "fetch_vars", fn)
    fetches = [v.name for v in fetch_vars]
    # Without program=, the Program the fetched Variables belong to. (Paddle takes the default main program,
    # which is the same one unless the Variables were built under program_guard.)
    program = _program_arg(kwargs.get("program") or fetch_vars[0].block.program, fn)
    try:
        pruned = program.clone(for_test=True) if kwargs.get("skip_prune_program") else prune(program, feeds, fetches)
    except ValueError as e:
        raise ValueError(f"{fn}: {str(e).removeprefix('prune: ')}") from None
    return pruned, feeds, fetches


def serialize_program(feed_vars, fetch_vars, **kwargs) -> bytes:
    """The inference Program from feed_vars to fetch_vars as bytes (the content of a .pdmodel file): Paddle's
    ProgramDesc protobuf, or minipaddle's JSON (with a warning) for a Program Paddle's format cannot hold here.

    Args:
        feed_vars, fetch_vars: a Variable or a list of Variables.
        program: (keyword) the Program to take them from; default: the one fetch_vars belong to.
    """
    pruned, feeds, fetches = _inference_parts(feed_vars, fetch_vars, kwargs, "serialize_program",
                                              ("program", "legacy_format"))  # fmt: skip
    return _model_and_params(pruned, feeds, fetches, "serialize_program", with_params=False)[0]


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs) -> bytes:
    """The values of the parameters the inference Program from feed_vars to fetch_vars reads, as bytes (the
    content of a .pdiparams file: Paddle's stream, or an .npz beside a JSON program), from the global scope."""
    _executor_arg(executor, "serialize_persistables")
    pruned, feeds, fetches = _inference_parts(feed_vars, fetch_vars, kwargs, "serialize_persistables", ("program",))
    return _model_and_params(pruned, feeds, fetches, "serialize_persistables", warn=False)[1]


def _model_and_params(pruned, feeds, fetches, fn: str, fmt: str = "paddle", with_params=True, warn=True) -> tuple:
    """(.pdmodel bytes, .pdiparams bytes): Paddle's files, or minipaddle's JSON and .npz when `fmt` asks for them
    or Paddle's format cannot hold the Program (an op without a writer, control flow on a variable)."""
    if fmt == "paddle":
        try:
            model, names = write_pdmodel(pruned, feeds, fetches)
        except NotImplementedError as e:
            if warn:
                warnings.warn(f"{fn}: writing minipaddle's JSON program, not Paddle's .pdmodel: {e}", stacklevel=3)
        else:
            if not with_params:
                return model, None
            variables = {v.name: v for v in pruned.list_vars()}
            return model, write_pdiparams(_values_of([variables[n] for n in names], global_scope(), fn))
    model = program_to_bytes(pruned, feeds, fetches)
    if not with_params:
        return model, None
    return model, arrays_to_bytes(_values_of(_persistables(pruned).values(), global_scope(), fn))


def deserialize_program(data) -> Program:
    """The Program in `data` (bytes from serialize_program or a .pdmodel file: Paddle's ProgramDesc, whose ops
    are translated into minipaddle's, or minipaddle's JSON; told apart by the bytes).

    A ValueError says so when the data is not a program, is damaged, or was written by a newer minipaddle; a
    NotImplementedError names a Paddle op outside the translation table.
    """
    if isinstance(data, (bytes, bytearray)) and is_pdmodel(data):
        return read_pdmodel(data, "deserialize_program: the data")[0]
    return read_program(data, "deserialize_program: the data")[0]


def deserialize_persistables(program, data, executor) -> None:
    """Put the values in `data` (bytes from serialize_persistables or a .pdiparams file: Paddle's stream or an
    .npz) into the global scope, for the persistable variables of `program`."""
    if not isinstance(program, Program):
        raise TypeError(f"deserialize_persistables: program must be a Program, got {type(program).__name__}")
    _executor_arg(executor, "deserialize_persistables")
    arrays = _read_params(program, data, "the data", "deserialize_persistables")
    _put(program, _persistables(program).values(), arrays, global_scope(), "deserialize_persistables", "the data")


def save_to_file(path, content) -> None:
    """Write bytes to a file (atomically: a crash never leaves half a file)."""
    if not isinstance(path, str):
        raise TypeError(f"save_to_file: path must be a string, got {type(path).__name__}")
    if not isinstance(content, bytes):
        raise TypeError(f"save_to_file: content must be bytes, got {type(content).__name__}")
    atomic_write(path, content)


def load_from_file(path) -> bytes:
    """The bytes of a file."""
    if not isinstance(path, str):
        raise TypeError(f"load_from_file: path must be a string, got {type(path).__name__}")
    return read_file(path, "load_from_file")


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, **kwargs) -> None:
    """Save what inference needs: the Program cut down to the ops from feed_vars to fetch_vars (in inference
    mode), and the parameters those ops read.

    Writes Paddle 2.6's own files, which paddle 2.6's load_inference_model, jit.load and inference predictor
    read: `path_prefix.pdmodel` (a ProgramDesc protobuf, each minipaddle op written as Paddle's through the table
    in static/paddle_ops.py, with Paddle's version and op version map) and `path_prefix.pdiparams` (its parameter
    stream). A Program that Paddle's format cannot hold here (an op outside the table, control flow on a
    variable) is written in minipaddle's JSON form instead, with a warning naming the op; `format="minipaddle"`
    asks for the JSON form (and .npz parameters) always. The JSON is what `program.to_json()` gives too.

    Args:
        path_prefix: 'directory/name'.
        feed_vars, fetch_vars: a Variable or a list of Variables: the model's inputs and outputs.
        executor: the Executor (values come from the global scope).
        program: (keyword) the Program; default: the one fetch_vars belong to.
        format: (keyword) "paddle" (default) or "minipaddle".

    Example:
        >>> paddle.static.save_inference_model("./infer/mnist", [image], [predict], exe)
    """
    prefix, files = inference_model_files(path_prefix, feed_vars, fetch_vars, executor, **kwargs)
    # one set; a .pdiparams.info left by an older paddle.jit.save to this prefix would describe other parameters
    absent = (".pdiparams.info",) + ((".pdiparams",) if ".pdiparams" not in files else ())
    write_file_set(prefix, files, absent=absent, what="save_inference_model")


def inference_model_files(path_prefix, feed_vars, fetch_vars, executor, **kwargs) -> tuple:
    """(prefix, {".pdmodel": bytes, ".pdiparams": bytes}): what save_inference_model writes (paddle.jit.save adds
    its `.pdiparams.info` and writes the three as one set). A Paddle-format model without parameters has no
    `.pdiparams`, as Paddle writes it."""
    prefix = _path_prefix(path_prefix, "save_inference_model")
    _executor_arg(executor, "save_inference_model")
    for suffix in (".pdmodel", ".pdiparams"):
        if os.path.isdir(prefix + suffix):
            raise ValueError(f"save_inference_model: {prefix + suffix!r} is an existing directory")
    fmt = kwargs.pop("format", "paddle")
    if fmt not in ("paddle", "minipaddle"):
        raise ValueError(f"save_inference_model: format must be 'paddle' or 'minipaddle', got {fmt!r}")
    allowed = ("program", "clip_extra", "legacy_format", "skip_prune_program")
    pruned, feeds, fetches = _inference_parts(feed_vars, fetch_vars, kwargs, "save_inference_model", allowed)
    model, params = _model_and_params(pruned, feeds, fetches, "save_inference_model", fmt)
    if fmt == "paddle" and is_pdmodel(model) and not params:  # as Paddle: a model without parameters has no
        return prefix, {".pdmodel": model}  # .pdiparams (its predictor refuses an empty one)
    return prefix, {".pdmodel": model, ".pdiparams": params}


def _inference_paths(path_prefix, kwargs: dict) -> tuple:
    """(model path, params path): `prefix.pdmodel`/`.pdiparams`, or Paddle's older directory + file names."""
    prefix = _path_prefix(path_prefix, "load_inference_model")
    if not os.path.isdir(os.path.dirname(prefix)):
        raise ValueError(f"load_inference_model: there is no directory {os.path.dirname(prefix)!r}")
    if not kwargs:
        return prefix + ".pdmodel", prefix + ".pdiparams"
    model_name, params_name = kwargs.get("model_filename"), kwargs.get("params_filename")
    if params_name is None:
        raise ValueError("load_inference_model: with a directory as path_prefix, give params_filename too "
                         "(minipaddle keeps all parameters in one file)")  # fmt: skip

    def resolve(name: str, suffix: str) -> str:
        path = os.path.join(prefix, name + suffix)
        return path if os.path.exists(path) else os.path.join(prefix, name)

    return resolve(model_name or "__model__", ".pdmodel"), resolve(params_name, ".pdiparams")


def load_inference_model(path_prefix, executor, **kwargs) -> list:
    """Load an inference model: its Program, and its parameters into the global scope.

    Reads Paddle 2.6's files (a `.pdmodel` ProgramDesc protobuf, whose ops are translated into minipaddle's by
    static/paddle_ops.py, and a `.pdiparams` parameter stream; written by paddle.jit.save, Paddle's
    save_inference_model, or minipaddle's) and minipaddle's JSON form, told apart by their bytes.

    Args:
        path_prefix: the 'directory/name' given to save_inference_model. (Paddle's older forms also work: a
            directory with model_filename= and params_filename=, or None with the two files' bytes as those.)
        executor: the Executor that will run it.

    Returns:
        [program, feed_target_names, fetch_targets]: feed `program` with {name: array} for each feed name and
        fetch `fetch_targets` (Variables).

    Raises NotImplementedError naming the op and the model when a Paddle model holds an op outside the table.

    Example:
        >>> program, feeds, fetches = paddle.static.load_inference_model("./infer/mnist", exe)
        >>> (out,) = exe.run(program, feed={feeds[0]: images}, fetch_list=fetches)
    """
    _executor_arg(executor, "load_inference_model")
    _kwargs_arg(kwargs, ("model_filename", "params_filename"), "load_inference_model")
    info = None
    if path_prefix is None:  # the model and parameters given as bytes
        model, params = kwargs.get("model_filename"), kwargs.get("params_filename")
        if model is None or params is None:
            raise ValueError("load_inference_model: with path_prefix None, model_filename and params_filename must "
                             "be the bytes of the model and of the parameters")  # fmt: skip
        where = "load_inference_model: the model bytes"
    else:
        model_path, params_path = _inference_paths(path_prefix, kwargs)
        if not kwargs:
            check_file_set(model_path[: -len(".pdmodel")], "load_inference_model")
        model = read_file(model_path, "load_inference_model")
        params = read_file(params_path, "load_inference_model") if os.path.isfile(params_path) else None
        where = f"load_inference_model: {model_path}"
        if os.path.isfile(params_path + ".info"):
            info = _read_info(params_path + ".info")
    source = "the parameter bytes" if path_prefix is None else params_path
    if is_pdmodel(model):
        program, feeds, fetches = read_pdmodel(model, where, info)
    else:
        program, feeds, fetches = read_program(model, where)
    _put(program, _persistables(program).values(), _read_params(program, params, source), global_scope(),
         "load_inference_model", "the parameter file")  # fmt: skip
    block = program.global_block()
    return [program, feeds, [block.var(n) for n in fetches]]


def _read_params(program: Program, params, source: str, fn: str = "load_inference_model") -> dict:
    """The values in a parameter file: Paddle's .pdiparams stream or minipaddle's .npz (told by the bytes)."""
    if params is None:
        if _persistables(program):
            raise FileNotFoundError(f"{fn}: no parameter file {source!r}")
        return {}
    if not isinstance(params, (bytes, bytearray)):
        raise TypeError(f"{fn}: {source} must be bytes, got {type(params).__name__}")
    if bytes(params[:2]) == b"PK":
        return arrays_from_bytes(params, f"{fn}: {source}")
    return read_pdiparams(params, persistable_specs(program), f"{fn}: {source}")


def _read_info(path: str) -> dict:
    """The `.pdiparams.info` pickle ({name: {'structured_name', 'stop_gradient', 'trainable'}}), read through the
    restricted reader (it builds only containers, never code)."""
    data = read_file(path, "load_inference_model")
    if data[:1] == b"{":  # minipaddle's paddle.jit.save writes it as JSON (jit/saving.py), Paddle as a pickle
        try:
            info = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:  # RecursionError: nested past Python's limit
            raise ValueError(f"load_inference_model: {path} is not a readable .pdiparams.info ({e})") from None
        if not isinstance(info, dict):
            raise ValueError(f"load_inference_model: {path} holds a {type(info).__name__}, not a dict of names")
        return info
    return _read_pickled_dict(data, path, "load_inference_model", ".pdiparams.info", "names")


def _read_pickled_dict(data: bytes, path: str, fn: str, what: str, of: str) -> dict:
    """A pickled dict through the restricted reader; refusals and damaged files as ValueErrors naming the file."""
    try:
        obj = restricted_loads(data)
    except RefusedPickle as e:
        raise ValueError(f"{fn}: {path} is refused: {e}") from None
    except Exception as e:  # a truncated or damaged pickle
        raise ValueError(f"{fn}: {path} is not a readable {what}, or it is truncated ({e})") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{fn}: {path} holds a {type(obj).__name__}, not a dict of {of}")
    return obj

"""paddle.onnx.export: a Layer (or function) traced into a Program with its input specs, written as ONNX.

Paddle's export calls paddle2onnx on a jit.save'd model; minipaddle traces the Layer into a Program the same
way (static mode, one `paddle.static.data` per InputSpec, the Program taken in inference form) and translates
it with its own export table (op_table.py), building the file with the onnx package.
"""

from __future__ import annotations

import inspect
import os

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.jit.partial_program import BuildContext
from minipaddle.jit.program_translator import StaticFunction, _StaticModeOn
from minipaddle.nn.layer.layers import Layer
from minipaddle.onnx.convert import program_to_onnx
from minipaddle.static.executor import Executor, Scope, scope_guard
from minipaddle.static.input import InputSpec, data
from minipaddle.static.io import load_inference_model
from minipaddle.static.program import TRAINING_FLAG, Program, Variable, program_guard

__all__ = ["export", "export_model", "trace_program"]

_CONFIGS = ("output_spec", "enable_onnx_checker", "auto_update_opset", "verbose")


def _specs(layer, input_spec) -> list:

    if input_spec is None:
        input_spec = getattr(getattr(layer, "forward", layer), "_input_spec", None)
    if input_spec is None:
        raise ValueError("paddle.onnx.export: give input_spec (a list of paddle.static.InputSpec or Tensors); the "
                         "layer's forward carries none")  # fmt: skip
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"paddle.onnx.export: input_spec must be a list of InputSpec or Tensors, got "
                        f"{type(input_spec).__name__}")  # fmt: skip
    fn = layer.forward if hasattr(layer, "forward") else layer
    try:
        params = [p for p in inspect.signature(fn).parameters if p != "self"]
    except (TypeError, ValueError):
        params = []
    specs = []
    for i, s in enumerate(input_spec):
        default = params[i] if i < len(params) else f"x{i}"
        if isinstance(s, InputSpec):
            specs.append((s.name or default, list(s.shape), s.dtype))
        elif isinstance(s, Tensor):
            specs.append((s.name if getattr(s, "name", None) and not s.name.startswith("generated") else default,
                          list(s.shape), s.dtype))  # fmt: skip
        else:
            raise TypeError(f"paddle.onnx.export: input_spec[{i}] must be an InputSpec or Tensor, got "
                            f"{type(s).__name__}")  # fmt: skip
    return specs


def trace_program(layer, input_spec) -> tuple:
    """(program, feed names, fetch names, values): `layer` run once on paddle.static.data inputs, in inference
    form (Program.clone(for_test=True)); values: the persistable variables' arrays (the Layer's parameters and
    buffers, borrowed by the trace as jit's does, and the constants the trace recorded)."""
    specs = _specs(layer, input_spec)
    static_fn = _to_static_function(layer)
    if static_fn is not None:
        return _concrete_program(static_fn, specs)
    main, startup = Program(), Program()
    # The parameters and buffers enter the Program as persistable Variables (their arrays taken as they are),
    # not as constants copied into op attributes (VGG's 130M weights as Python floats: minutes and gigabytes).
    with program_guard(main, startup), _StaticModeOn(), BuildContext(main) as ctx:
        if isinstance(layer, Layer):
            ctx.guard(layer)
        xs = [data(name, [-1 if d is None else d for d in shape], dtype) for name, shape, dtype in specs]
        out = layer(*xs)
    outs = _flatten(out)
    if not outs or not all(isinstance(o, Variable) for o in outs):
        raise TypeError("paddle.onnx.export: the layer must return a Tensor or a list/tuple of Tensors")
    values = {v.name: t.numpy() for t, v in ctx.captured}
    values.update(_constants_to_weights(main))
    program = main.clone(for_test=True)
    return program, [name for name, _, _ in specs], [o.name for o in outs], values


def _to_static_function(layer):
    """The StaticFunction behind `layer` (a to_static function, or a Layer whose forward is one), else None."""
    fn = getattr(layer, "forward", layer)
    return fn if isinstance(fn, StaticFunction) else None


def _concrete_program(static_fn, specs) -> tuple:
    """A to_static function's Program for these specs, as jit.save takes it: Python `if`/`while` on tensors are
    `cond`/`while` ops with sub-blocks there (exported as ONNX If/Loop); its parameters' values are the weights."""
    concrete = static_fn.concrete_program_specify_input_spec([InputSpec(s, d, n) for n, s, d in specs])
    values = {v.name: t.numpy() for t, v in concrete.parameters}
    program = concrete.main_program.clone(for_test=True)
    for name in values:
        program.global_block().var(name).persistable = True
    return program, [v.name for v in concrete.inputs], [v.name for v in concrete.outputs], values


def _flatten(out) -> list:
    """The layer's outputs in order, nested lists and tuples flattened (an LSTM returns (y, (h, c)))."""
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flatten(o)]
    return [out]


def _constants_to_weights(program) -> dict:
    """Turn the trace's constants (a Layer's parameters arrive as assign_value ops holding their values) into
    persistable variables with arrays, in place: later passes then copy a name, not millions of numbers."""

    block = program.global_block()
    values, ops = {}, []
    for op in block.ops:
        a = op.attrs
        if op.type == "assign_value" and op.output_names() != [TRAINING_FLAG] and "complex" not in str(a["dtype"]):
            (name,) = op.output_names()
            values[name] = np.asarray(a["values"], dtype=np.dtype(a["dtype"])).reshape(a["shape"])
            block.var(name).persistable = True
        else:
            ops.append(op)
    block.ops = ops
    program._version += 1
    return values


def _save(model, path: str) -> str:
    import onnx

    if not isinstance(path, str):
        raise TypeError(f"paddle.onnx.export: path must be a string, got {type(path).__name__}")
    if os.path.basename(path) == "":
        raise ValueError(f"paddle.onnx.export: path must be 'directory/name' (.onnx is added), got {path!r}")
    save_file = path if path.endswith(".onnx") else path + ".onnx"
    os.makedirs(os.path.dirname(os.path.abspath(save_file)), exist_ok=True)
    tmp = save_file + ".tmp"
    onnx.save(model, tmp)
    os.replace(tmp, save_file)  # a crash mid-write never leaves half a file
    return save_file


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """Export a Layer (or a function) to ONNX: writes `path + '.onnx'`.

    Args:
        layer: the paddle.nn.Layer (or function) to export; it runs once on symbolic inputs.
        path: 'directory/name'; the file is `name.onnx`.
        input_spec: a list of paddle.static.InputSpec (or Tensors: their shapes and dtypes); None in a shape is a
            symbolic ONNX dimension.
        opset_version: the ONNX opset to target (9 to 17; default 9, as paddle). An op that needs a later opset
            raises it, as paddle2onnx's auto_upgrade_opset (auto_update_opset=False makes that an error).
        **configs: enable_onnx_checker (default True: onnx.checker.check_model), auto_update_opset, verbose.

    Example:
        >>> paddle.onnx.export(model, "lenet", [paddle.static.InputSpec([None, 1, 28, 28], "float32", "x")])
    """
    unknown = sorted(set(configs) - set(_CONFIGS))
    if unknown:
        raise TypeError(f"paddle.onnx.export: unexpected config(s) {unknown}; it takes {list(_CONFIGS)}")
    if configs.get("output_spec") is not None:
        raise ValueError("paddle.onnx.export: output_spec (pruning outputs) is not supported; return only the outputs "
                         "to export from the layer")  # fmt: skip
    if not isinstance(path, str):
        raise TypeError(f"paddle.onnx.export: path must be a string, got {type(path).__name__}")
    if os.path.basename(path) == "":
        raise ValueError(f"paddle.onnx.export: path must be 'directory/name' (.onnx is added), got {path!r}")
    program, feeds, fetches, values = trace_program(layer, input_spec)
    model = program_to_onnx(program, feeds, fetches, values, opset_version,
                            auto_upgrade=configs.get("auto_update_opset", True),
                            check=configs.get("enable_onnx_checker", True))  # fmt: skip
    return _save(model, path)


def export_model(model_file: str, params_file: str, save_file: str, opset_version: int = 9, **configs) -> str:
    """A saved inference model (.pdmodel + .pdiparams, from save_inference_model or jit.save) as ONNX, like
    paddle2onnx's `export(model_file, params_file, save_file, opset_version)`. Returns the file written."""

    scope = Scope()
    with open(model_file, "rb") as f:
        model_bytes = f.read()
    with open(params_file, "rb") as f:
        params_bytes = f.read()
    with scope_guard(scope):
        program, feeds, fetch_vars = load_inference_model(None, Executor(), model_filename=model_bytes,
                                                          params_filename=params_bytes)  # fmt: skip
    values = {n: np.asarray(v) for n, v in scope.vars.items()}
    model = program_to_onnx(program, feeds, [v.name for v in fetch_vars], values, opset_version,
                            auto_upgrade=configs.get("auto_update_opset", True))  # fmt: skip
    return _save(model, save_file)

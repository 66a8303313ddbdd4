"""`paddle.jit.save`: a converted Layer or function as an inference model.

    paddle.jit.save(layer, "out/model", input_spec=[InputSpec([None, 784], "float32")])
      -> out/model.pdmodel          the Program (inference mode: dropout off, batch norm on running statistics)
         out/model.pdiparams        the parameters and buffers it reads
         out/model.pdiparams.info   for each saved variable, its structured name ('fc.weight'), stop_gradient
                                    and trainable: a protocol-2 pickle of plain dicts, as Paddle writes it (its
                                    jit.load unpickles it); minipaddle reads it with the restricted reader

The files are written by paddle.static.save_inference_model (static/io.py), so
paddle.static.load_inference_model and paddle.jit.load both read them, and loading never runs code. A Layer's
other to_static methods are saved beside forward as `model.<method>.pdmodel` / `.pdiparams`.
"""

from __future__ import annotations

import inspect
import os
import pickle
import sys
import types

from minipaddle.core.tensor import Tensor
from minipaddle.jit import logging_utils
from minipaddle.jit.program_translator import _SWITCH, StaticFunction
from minipaddle.nn import Layer
from minipaddle.static.executor import Executor, Scope, scope_guard
from minipaddle.static.files import write_file_set
from minipaddle.static.input import InputSpec
from minipaddle.static.io import inference_model_files

INFO_SUFFIX = ".pdiparams.info"
_CONFIGS = ("output_spec", "with_hook", "combine_params", "clip_extra", "skip_forward", "input_names_after_prune",
            "skip_prune_program")  # fmt: skip


def _prefix(path) -> str:
    if not isinstance(path, str):
        raise TypeError(f"jit.save: path must be a string, got {type(path).__name__}")
    if not os.path.basename(path):
        raise ValueError(
            "The input path MUST be format of dirname/file_prefix [dirname\\file_prefix in Windows system], but "
            f"received file_prefix is empty string (path {path!r})."
        )
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    return path


def _input_spec(input_spec):
    if input_spec is None:
        return None
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"jit.save: input_spec must be a list or tuple, got {type(input_spec).__name__}")
    return [InputSpec.from_tensor(s) if isinstance(s, Tensor) else s for s in input_spec]


def save(layer, path, input_spec=None, **configs) -> None:
    """Save a Layer (converted or not) or a converted function as an inference model at the prefix `path`.

    Args:
        layer: a Layer (its forward is converted on the fly when it is not a StaticFunction; then input_spec is
            needed unless the forward was called before), a StaticFunction, or a plain function.
        path: 'directory/prefix': writes prefix.pdmodel, prefix.pdiparams and prefix.pdiparams.info.
        input_spec: InputSpecs (or Tensors) for forward's inputs.
        configs: as paddle 2.6's, each with its meaning here:
            output_spec (list): the outputs to keep (indices or output Variables of the traced Program); the
                Program is pruned to them.
            with_hook (bool): trace the Layer's forward pre/post hooks into the Program (on by itself when the
                Layer has hooks, as Paddle); output_spec cannot be given then (Paddle's RuntimeError).
            skip_forward (bool): save only the Layer's other to_static methods, not forward.
            skip_prune_program (bool): keep every op of the traced Program, not only those the outputs need.
            input_names_after_prune (list of str): the feeds to keep, by the names of input_spec's InputSpecs
                (for outputs that do not need every input).
            clip_extra (bool): True (Paddle's default) writes ops without their extra attributes, which is all
                minipaddle writes; False is refused: in paddle 2.6.2 it adds to every op `op_callstack` (the
                Python stack that built it) and `with_quant_attr`, which minipaddle's ops do not record.
            combine_params (bool): refused when True: paddle 2.6.2 then writes, besides each method's files, the
                parameters of all methods in one more .pdiparams and the property values in a `.meta` Property
                protobuf, both at the prefix of the last method saved (`path.<method>`), whose own .pdiparams
                it thereby replaces, so its jit.load fails on such a Layer ("Not allowed to load partial data
                via load_combine_op"); minipaddle writes each method with its own .pdiparams.
            to_static functions with property=True are values, not Programs: they are not saved (as Paddle
            without combine_params).

    Example:
        >>> paddle.jit.save(net, "./infer/net", input_spec=[paddle.static.InputSpec([None, 4], "float32")])
    """

    if not _SWITCH["enabled"]:
        raise RuntimeError("jit.save: to_static is disabled (paddle.jit.enable_to_static(False)); enable it to save")
    for key in ("model_filename", "params_filename"):
        if key in configs:
            raise ValueError(f"jit.save: the config {key!r} is not allowed (the files are named after path)")
    unknown = set(configs) - set(_CONFIGS)
    if unknown:
        raise ValueError(f"jit.save: unknown configs {sorted(unknown)}; known: {', '.join(_CONFIGS)}")
    _check_configs(configs)
    prefix = _prefix(path)
    spec = _input_spec(input_spec)
    if isinstance(layer, Layer):
        _save_layer(_unwrapped(layer), prefix, spec, configs)
    elif isinstance(layer, StaticFunction):
        _write(prefix, layer.concrete_program_specify_input_spec(spec), None, dict(configs, input_spec=spec))
    elif inspect.isfunction(layer):
        concrete = StaticFunction(layer, spec).concrete_program_specify_input_spec(spec)
        _write(prefix, concrete, None, dict(configs, input_spec=spec))
    else:
        raise TypeError(f"jit.save: layer must be a Layer, a to_static function or a function, got "
                        f"{type(layer).__name__}")  # fmt: skip


def _unwrapped(layer: Layer) -> Layer:
    """The Layer a DataParallel wraps (Paddle saves `DataParallel._layers`: the wrapper's forward(*inputs) has no
    spec to trace), else `layer` itself. Only a real DataParallel is unwrapped (a user's Layer may well keep a
    LayerList in `self._layers`); its module is loaded only by using it, so one not loaded means none exists."""
    data_parallel = sys.modules.get("minipaddle.distributed.data_parallel")
    if data_parallel is not None and isinstance(layer, data_parallel.DataParallel):
        return layer._layers
    return layer


def _check_configs(configs: dict) -> None:
    for key in ("with_hook", "combine_params", "clip_extra", "skip_forward", "skip_prune_program"):
        if key in configs and not isinstance(configs[key], bool):
            raise TypeError(f"jit.save: the config {key!r} must be a bool, got {type(configs[key]).__name__}")
    names = configs.get("input_names_after_prune")
    if names is not None and not (isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names)):
        raise TypeError(f"jit.save: input_names_after_prune must be a list of str, got {names!r}")
    if configs.get("combine_params"):
        raise NotImplementedError(
            "jit.save: combine_params=True (all methods' parameters in one more .pdiparams and the property values "
            "in a .meta file, written by paddle 2.6.2 at the last method's prefix in place of its own parameters) is "
            "not built in minipaddle; each to_static method is saved with its own .pdiparams"
        )
    if configs.get("clip_extra") is False:
        raise NotImplementedError(
            "jit.save: clip_extra=False asks to keep ops' extra attributes (paddle 2.6.2 adds op_callstack, the "
            "Python stack that built each op, and with_quant_attr), which minipaddle's ops do not record; leave "
            "clip_extra at its default (True)"
        )


def _save_layer(layer, prefix: str, spec, configs: dict) -> None:
    forward = layer.__dict__.get("forward") or layer.forward
    if not isinstance(forward, StaticFunction):  # a plain Layer: converted for this save only
        forward = StaticFunction(types.MethodType(type(layer).forward, layer), spec)
    methods = {n: getattr(layer, n, None) for n in sorted(dir(layer)) if n != "forward"}
    # (functions with property=True are values, not Programs: Paddle skips them too)
    others = [n for n, f in methods.items() if isinstance(f, StaticFunction) and not f._property]
    if others and spec is not None:
        raise ValueError("jit.save: input_spec must be None when the Layer has to_static methods besides forward")
    with_hook = bool(configs.get("with_hook")) or bool(layer._forward_pre_hooks or layer._forward_post_hooks)
    if with_hook and configs.get("output_spec") is not None:
        raise RuntimeError(
            "Currently not support specify output_spec while founding pre/post hooks in your outermost layer."
        )  # (Paddle's words)
    was_training = layer.training
    layer.eval()  # the inference Program: dropout off, batch norm on its running statistics
    try:
        if not configs.get("skip_forward"):
            concrete = forward.concrete_program_specify_input_spec(spec, with_hook=with_hook)
            _write(prefix, concrete, layer, dict(configs, input_spec=spec))
        for name in others:
            _write(f"{prefix}.{name}", getattr(layer, name).concrete_program_specify_input_spec(None), layer, configs)
    finally:
        if was_training:
            layer.train()


def _write(prefix: str, concrete, layer, configs: dict) -> None:

    outputs = _outputs(concrete, configs.get("output_spec"))
    inputs = _inputs(concrete, configs.get("input_spec"), configs.get("input_names_after_prune"))
    scope = Scope()
    for t, v in concrete.parameters:
        scope.vars[v.name] = t.numpy()
    options = {"program": concrete.main_program}
    if configs.get("skip_prune_program"):
        options["skip_prune_program"] = True
    with scope_guard(scope):
        prefix, files = inference_model_files(prefix, inputs, outputs, Executor(), **options)
    no_params = () if ".pdiparams" in files else (".pdiparams",)  # a model without parameters has none
    if layer is None:
        logging_utils.warn("jit.save: a function was saved; it has no parameters, so no .pdiparams.info is written")
        write_file_set(prefix, files, absent=(INFO_SUFFIX, *no_params), what="jit.save")
        return
    names = {id(t): n for n, t in list(layer.named_parameters()) + list(layer.named_buffers())}
    info = {}
    for t, v in concrete.parameters:
        entry = {"structured_name": names.get(id(t), v.name), "stop_gradient": bool(t.stop_gradient)}
        if getattr(t, "trainable", None) is not None and v.is_parameter:
            entry["trainable"] = bool(t.trainable)
        info[v.name] = entry
    # only str / bool in dicts: the pickle has no globals, so Paddle's pickle.load and our restricted reader agree
    files[INFO_SUFFIX] = pickle.dumps(dict(sorted(info.items())), protocol=2)
    write_file_set(prefix, files, absent=no_params, what="jit.save")  # one save's files, never a mix


def _inputs(concrete, input_spec, names_after_prune) -> list:
    """The feed Variables: all of the traced Program's inputs, or those input_names_after_prune names (they must
    be names of input_spec's InputSpecs, as in Paddle)."""
    if names_after_prune is None:
        return list(concrete.inputs)
    spec_names = {s.name for s in input_spec or () if isinstance(s, InputSpec)}
    by_name = {v.name: v for v in concrete.inputs}
    kept = []
    for n in names_after_prune:
        if n not in spec_names or n not in by_name:
            raise ValueError(
                f"jit.save: input_names_after_prune names {n!r}, which is not the name of an InputSpec in "
                f"input_spec (InputSpec names: {sorted(spec_names)})"
            )
        kept.append(by_name[n])
    return kept


def _outputs(concrete, output_spec) -> list:
    outputs = list(concrete.outputs)
    if output_spec is None:
        return outputs
    if not isinstance(output_spec, (list, tuple)):
        raise TypeError(f"jit.save: output_spec must be a list, got {type(output_spec).__name__}")
    by_name = {v.name: v for v in outputs}
    chosen = []
    for o in output_spec:
        if isinstance(o, int) and 0 <= o < len(outputs):
            chosen.append(outputs[o])
        elif getattr(o, "name", o) in by_name:
            chosen.append(by_name[getattr(o, "name", o)])
        else:
            raise ValueError(f"jit.save: output_spec entry {o!r} is not an output of the traced Program "
                             f"(outputs: {sorted(by_name)}; or give their indices)")  # fmt: skip
    return chosen

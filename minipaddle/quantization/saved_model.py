"""Saving quantized models for inference, in Paddle 2.6's two formats.

A model converted by the 2.6 API (`QAT.convert` / `PTQ.convert`) is saved by `paddle.jit.save` itself: its
quantize_linear / dequantize_linear ops and their scales are in the traced Program. ImperativeQuantAware's (and
ImperativePTQ's) save_quantized_model does what Paddle's does: `paddle.jit.save` the model (here into a temporary
folder), load it back with `load_inference_model`, rewrite the Program, and save it with `save_inference_model`:

- the legacy format (onnx_format=False, `gather_scales`): the fake quant-dequant ops stay; each op that reads a
  fake-quantized value gets the scale as a quantization attribute (OpDesc.quant_attrs, written into the .pdmodel
  as Paddle's op attributes) `{Slot}{index}_threshold` (a list for per-channel weights) and `with_quant_attr`;
  the output scales recorded by moving_average_abs_max_scale (accum / state of its statistics) become
  `out_threshold` and `{OutSlot}0_threshold` on the op that made the output, and those ops are removed;
- onnx_format=True (`to_quantize_linear`): Paddle's ReplaceFakeQuantDequantPass makes each fake quant-dequant op
  quantize_linear + dequantize_linear with its scale and a zero point, and QuantWeightPass stores the weights as
  int8 levels read by a dequantize_linear alone (the passes of minipaddle.static.quantization).
Both are written as Paddle's .pdmodel, which paddle 2.6's load_inference_model and predictor run.
"""

from __future__ import annotations

import contextlib
import os
import tempfile

import numpy as np

import minipaddle.static as S
from minipaddle.core.state import unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.jit.saving import save as jit_save
from minipaddle.nn.layer.layers import Layer
from minipaddle.ops.fake_quant import channel_abs_max
from minipaddle.static.builder import flat_inputs
from minipaddle.static.input import InputSpec
from minipaddle.static.program import Program
from minipaddle.static.quantization import IrGraph, QuantWeightPass, ReplaceFakeQuantDequantPass

__all__ = ["load_saved_layer", "save_quantized_model", "gather_scales", "to_quantize_linear"]

FAKE_QDQ = ("fake_quantize_dequantize_abs_max", "fake_channel_wise_quantize_dequantize_abs_max",
            "fake_quantize_dequantize_moving_average_abs_max")  # fmt: skip
OUT_SCALE = "moving_average_abs_max_scale"
# Paddle's slot names, for the threshold attributes of the ops quantization meets (others: x -> X, y -> Y).
PADDLE_SLOTS = {"conv2d": ("Input", "Filter"), "conv2d_transpose": ("Input", "Filter"), "matmul": ("X", "Y")}


def load_saved_layer(layer: Layer, input_spec, fn: str = "save_quantized_model") -> tuple:
    """`paddle.jit.save` `layer` into a temporary folder and load it back in static mode, as Paddle's
    save_quantized_model does. Returns (program, feed names, fetch Variables, scope): the scope holds the values
    of the program's persistable variables. `layer._customized_attrs` (ImperativePTQ's output thresholds) go onto
    the ops each such layer builds (Paddle's Layer._set_op_attrs)."""
    if not isinstance(layer, Layer):
        raise TypeError(f"{fn}: model must be a paddle.nn.Layer, got {type(layer).__name__}")
    if input_spec is None:
        raise ValueError(f"{fn}: give input_spec, e.g. [paddle.static.InputSpec([None, 1, 28, 28], 'float32')]")
    specs = list(input_spec) if isinstance(input_spec, (list, tuple)) else [input_spec]
    for spec in specs:
        if not isinstance(spec, (InputSpec, Tensor)):
            raise TypeError(f"{fn}: input_spec must hold paddle.static.InputSpec, got {type(spec).__name__}")
    hooks = [h for sub in layer.sublayers(include_self=True) if getattr(sub, "_customized_attrs", None)
             for h in _attrs_hooks(sub)]  # fmt: skip
    scope = S.Scope()
    try:
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "model")
            with _static_mode(False):
                jit_save(layer, prefix, input_spec=specs)
            with _static_mode(True), S.scope_guard(scope):
                program, feeds, fetches = S.load_inference_model(prefix, S.Executor())
    finally:
        for h in hooks:
            h.remove()
    return program, feeds, fetches, scope


@contextlib.contextmanager
def _static_mode(on: bool):
    was = S.in_static_mode()
    (S.enable_static if on else S.disable_static)()
    try:
        yield
    finally:
        (S.enable_static if was else S.disable_static)()


def _attrs_hooks(layer: Layer) -> list:
    """Hooks that put `layer._customized_attrs` (its output thresholds) on the ops its forward appends, as Paddle's
    Layer._set_op_attrs does; they are quantization notes, so they go into each op's quant_attrs."""
    start = []

    def before(_, inputs):
        start.append(len(S.default_main_program().current_block().ops))

    def after(_, inputs, outputs):
        for op in S.default_main_program().current_block().ops[start.pop() :]:
            op.quant_attrs.update(layer._customized_attrs)

    return [layer.register_forward_pre_hook(before), layer.register_forward_post_hook(after)]


def save_program(program, feeds, fetches, scope, path: str) -> None:
    """save_inference_model of a rewritten Program whose values are in `scope`."""
    block = program.global_block()
    with _static_mode(True), S.scope_guard(scope):
        S.save_inference_model(path, [block.var(n) for n in feeds], [block.var(getattr(f, "name", f))
                               for f in fetches], S.Executor(), program=program)  # fmt: skip


def save_quantized_model(model: Layer, path: str, input_spec=None, onnx_format=False, activation_bits=8,
                         **config) -> None:  # fmt: skip
    """ImperativeQuantAware's save: the model in the legacy format (fake ops + threshold attributes) or, with
    onnx_format, with quantize_linear / dequantize_linear ops."""
    unknown = sorted(set(config) - {"clip_extra", "output_spec"})
    if unknown:
        raise TypeError(f"save_quantized_model: unexpected keyword argument(s) {unknown}")
    program, feeds, fetches, scope = load_saved_layer(model, input_spec)
    program = _fold_scale_assigns(program)
    names = [f.name for f in fetches]
    if onnx_format:
        program = to_quantize_linear(program, scope, activation_bits)
    else:
        program, names = gather_scales(program, scope, names)
    save_program(program, feeds, names, scope, path)


# ---- rewriting the traced Program --------------------------------------------------------------------------------


def _writers(block) -> dict:
    return {n: op for op in block.ops for n in op.output_names()}


def _fold_scale_assigns(program: Program) -> Program:
    """A weight quanter writes its scale into its parameter with an assign op; let the fake op write the parameter
    itself (its OutScale output, as Paddle's program has it) and drop the assign."""
    new = program.clone()
    block = new.global_block()
    writers, drop = _writers(block), set()
    for i, op in enumerate(block.ops):
        if op.type != "assign":
            continue
        (src,), (dst,) = flat_inputs(op), op.output_names()
        writer = writers.get(src)
        if writer is not None and writer.type in FAKE_QDQ and writer.outputs["Out"][1] == src:
            writer.outputs["Out"][1] = dst
            drop.add(i)
    block.ops = [op for i, op in enumerate(block.ops) if i not in drop]
    return new


def _scale_of(op, scope) -> np.ndarray:
    """The scale value a fake op or output-scale op stands for (from the scope): the stored scale of a
    moving-average quanter, accum / state of an output-scale op's statistics (what its layer's scale holds),
    the abs-max of a weight."""
    if op.type == "fake_quantize_dequantize_moving_average_abs_max":
        return np.asarray(scope.vars[op.inputs["in_scale"][0]])
    if op.type == OUT_SCALE:
        accum, state = (op.inputs[k][0] for k in ("in_accum", "in_state"))
        if accum is None or state is None or accum not in scope.vars:
            raise ValueError(f"save_quantized_model: the output scale of {op.outputs['Out'][0]!r} has no statistics")
        accum, state = np.asarray(scope.vars[accum]), np.asarray(scope.vars[state])
        return np.where(state > 0, accum / np.where(state > 0, state, 1), np.zeros_like(accum))
    name = op.outputs["Out"][1]
    if name in scope.vars:
        return np.asarray(scope.vars[name])
    x = scope.vars[flat_inputs(op)[0]]  # a weight whose scale was never stored: its abs-max now
    axis = op.attrs.get("quant_axis", -1)
    return channel_abs_max(x, axis) if "channel" in op.type else np.abs(x).max()


def _naive(value: np.ndarray):
    """A float for one value, a list of floats for several (Paddle's fp_numpy_to_naive)."""
    value = np.asarray(value, np.float64).reshape(-1)
    return float(value[0]) if value.size == 1 else [float(v) for v in value]


def _paddle_slot(op_type: str, slot: str, position: int) -> str:
    names = PADDLE_SLOTS.get(op_type)
    if names is not None and position < len(names):
        return names[position]
    return slot[:1].upper() + slot[1:]


def gather_scales(program: Program, scope, fetch_names: list) -> tuple:
    """The legacy format: thresholds as op attributes, output-scale ops removed. Returns (program, fetch names)."""
    new = program.clone()
    block = new.global_block()
    writers = _writers(block)
    for op in block.ops:  # input thresholds
        if op.type in FAKE_QDQ or op.type == OUT_SCALE:
            continue
        for position, (slot, names) in enumerate(op.inputs.items()):
            for index, name in enumerate(names):
                writer = writers.get(name)
                if writer is not None and (writer.type in FAKE_QDQ or writer.type == OUT_SCALE):
                    op.quant_attrs[f"{_paddle_slot(op.type, slot, position)}{index}_threshold"] = _naive(
                        _scale_of(writer, scope)
                    )
                    op.quant_attrs["with_quant_attr"] = True
    renames, keep = {}, []
    for op in block.ops:  # output thresholds
        if op.type != OUT_SCALE:
            keep.append(op)
            continue
        x, out = flat_inputs(op)[0], op.outputs["Out"][0]
        scale = _naive(_scale_of(op, scope))
        producer = writers.get(x)
        if producer is not None:
            producer.quant_attrs["Out0_threshold"] = scale
            producer.quant_attrs["out_threshold"] = scale
            producer.quant_attrs["with_quant_attr"] = True
        renames[out] = renames.get(x, x)
    for op in keep:
        op.inputs = {slot: [renames.get(n, n) for n in names] for slot, names in op.inputs.items()}
    block.ops = keep
    for op in keep:  # a matmul / conv whose inputs are not all fake-quantized is left in float by an int8 engine
        if op.type in PADDLE_SLOTS and not all(
            writers.get(n) is not None and writers[n].type in FAKE_QDQ for n in flat_inputs(op)[:2]
        ):
            op.quant_attrs["skip_quant"] = True
            op.quant_attrs["with_quant_attr"] = True
    return new, [renames.get(n, n) for n in fetch_names]


def to_quantize_linear(program: Program, scope, bit_length=8) -> Program:
    """onnx_format, as Paddle's save_quantized_model: ReplaceFakeQuantDequantPass turns each fake quant-dequant op
    (and each output observer) into quantize_linear + dequantize_linear, then QuantWeightPass stores the weights
    as int8 levels read by a dequantize_linear alone. First each op's OutScale is made the persistable variable
    holding its scale, as in Paddle's traced Program (`_name_out_scales`)."""
    graph = IrGraph(_name_out_scales(program, scope), for_test=True)
    ReplaceFakeQuantDequantPass(scope, quant_bits=bit_length).apply(graph)
    QuantWeightPass(scope).apply(graph)
    return graph.to_program()


def _name_out_scales(program: Program, scope) -> Program:
    """Each fake quant-dequant op and observer writes its scale into a persistable OutScale variable, the one the
    onnx passes read. In Paddle's traced Program that is the quanter's scale parameter; minipaddle's test-mode
    kernels write a temporary there: a moving-average quanter writes its in_scale parameter instead (the value it
    holds at test time), a weight quanter whose scale was never stored and an observer (whose statistics give its
    scale as accum / state) get a new persistable variable with the value."""
    new = program.clone()
    block = new.global_block()
    for op in block.ops:
        if op.type not in FAKE_QDQ and op.type != OUT_SCALE:
            continue
        name = op.outputs["Out"][1]
        if block.var(name).persistable and name in scope.vars:
            continue
        if op.type == "fake_quantize_dequantize_moving_average_abs_max":
            op.outputs["Out"][1] = op.inputs["in_scale"][0]
            continue
        value = np.asarray(_scale_of(op, scope), np.float32).reshape(-1)
        name = unique_name(f"{flat_inputs(op)[0]}@scale")
        block.create_var(name, value.shape, "float32", persistable=True)
        scope.vars[name] = value
        op.outputs["Out"][1] = name
    return new

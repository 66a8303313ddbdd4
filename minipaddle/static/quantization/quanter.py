"""quant_aware / convert: static QAT in two calls (Paddle 2.6's paddle/static/quantization/quanter.py).

    train_q = quant_aware(train_program, place, config)                 # a CompiledProgram, trains as before
    test_q = quant_aware(test_program, place, config, for_test=True)    # a Program reading the trained scales
    ... exe.run(train_q, ...) ...
    infer = convert(test_q, place, config)                               # frozen, for save_inference_model

quant_aware applies, to the Program's graph:
1. QuantizationTransformPassV2 (onnx_format, the default) or QuantizationTransformPass on the config's ops that
   have weights (default conv2d, depthwise_conv2d, mul: Paddle's static fc is mul; minipaddle's matmul stands for
   mul and matmul_v2 alike, so it is quantized when either is listed);
2. AddQuantDequantForResidual on the residual adds (after a transform, in both formats: the legacy format gets
   quantize_linear pairs there too, as in Paddle);
3. AddQuantDequantPassV2 / AddQuantDequantPass on the config's ops without weights, if it lists any;
4. OutScaleForTrainingPass (output scales, for both formats).
convert: onnx_format: QuantWeightPass (weights become int8) + AddQuantDequantForInferencePass (observer pairs on
outputs); legacy: OutScaleForInferencePass (out_threshold attributes) + QuantizationFreezePass, and with save_int8
also ConvertToInt8Pass (the second Program returned).

User functions (user_functions.py): their parameters train with optimizer_func's optimizer, the network's
with the Program's own. Paddle 2.6.2's quant_aware(for_test=True) cannot take one (its sub-graphs are made with
for_test False, so the test graph is minimized as a training graph and fails); here the test graph gets the
function's forward ops, as Paddle's pass gives a test IrGraph. Paddle's training grad ops of an op with a function
read values the forward op did not (the un-quantized input: tests/golden/quantization/make_user_func_golden.py);
minipaddle's gradients are those of the forward ops.

Control flow: as Paddle, every pass is applied to each block's sub-graph (IrGraph.all_sub_graphs), so the ops of
cond / while_loop branches are quantized inside their blocks. Paddle's loop bug is kept, since it decides which
residual adds get their pair: quant_aware applies the residual pass with `for subgraph in sub_graphs:
residual_pass.apply(sub_graph)`, so the last sub-graph of the transform loop gets it once per sub-graph and the
others never (with one block, once, as intended).

Training Programs: Paddle's passes rewire an existing backward (conv2d_grad reads the dequantized weight).
minipaddle builds its backward from the grad rules, so a Program that already holds `minimize`'s ops is taken
apart: its forward ops are quantized, then the same optimizer's `minimize` appends backward and updates again
(the pairs pass gradients straight through, so the gradients are Paddle's). Optimizer state and the learning
rate keep their variables. One place where they are not: Paddle's AddQuantDequantPassV2 also points the grad ops
of the ops it quantizes at dequantized variables, so with is_full_quantize its pool2d_grad compares the pool's
input with its output quantized again at the next op's scale, finds no maximum, and the layers below a max pool
get no gradient at all (tests/quantization/test_quant_aware.py); minipaddle's gradients stay straight-through.
"""

from __future__ import annotations

import copy

from minipaddle.static.backward import append_backward
from minipaddle.static.executor import Executor, global_scope
from minipaddle.static.framework import CompiledProgram
from minipaddle.static.program import (
    ROLE_BACKWARD,
    ROLE_FORWARD,
    ROLE_OPTIMIZE,
    Program,
    _drop_unused_vars,
    program_guard,
)
from minipaddle.static.quantization.freeze import ConvertToInt8Pass, QuantizationFreezePass
from minipaddle.static.quantization.ir_graph import IrGraph
from minipaddle.static.quantization.mapping_table import load_dict, save_dict
from minipaddle.static.quantization.onnx_format import AddQuantDequantForInferencePass, QuantWeightPass
from minipaddle.static.quantization.op_types import (
    PADDLE_ACT_QUANTIZATION_OPS,
    SUPPORT_ACT_QUANTIZATION_OPS,
    SUPPORT_WEIGHT_QUANTIZATION_OPS,
)
from minipaddle.static.quantization.out_scale import OutScaleForInferencePass, OutScaleForTrainingPass
from minipaddle.static.quantization.post_training import PostTrainingQuantizationProgram
from minipaddle.static.quantization.residual import AddQuantDequantForResidual
from minipaddle.static.quantization.transform import AddQuantDequantPass, QuantizationTransformPass
from minipaddle.static.quantization.transform_v2 import AddQuantDequantPassV2, QuantizationTransformPassV2
from minipaddle.static.quantization.user_functions import static_mode

__all__ = ["convert", "quant_aware"]

WEIGHT_QUANTIZATION_TYPES = ["abs_max", "channel_wise_abs_max", "range_abs_max", "moving_average_abs_max"]
WEIGHT_QUANTIZATION_TYPES_TENSORRT = ["channel_wise_abs_max"]
ACTIVATION_QUANTIZATION_TYPES = ["abs_max", "range_abs_max", "moving_average_abs_max"]
ACTIVATION_QUANTIZATION_TYPES_TENSORRT = ["range_abs_max", "moving_average_abs_max"]
VALID_DTYPES = ["int8"]
TRANSFORM_PASS_OP_TYPES = list(SUPPORT_WEIGHT_QUANTIZATION_OPS)
QUANT_DEQUANT_PASS_OP_TYPES = list(PADDLE_ACT_QUANTIZATION_OPS)
TENSORRT_OP_TYPES = ["mul", "conv2d", "pool2d", "depthwise_conv2d", "elementwise_add", "leaky_relu"]

_quant_config_default = {
    "weight_quantize_type": "channel_wise_abs_max",
    "activation_quantize_type": "moving_average_abs_max",
    "weight_bits": 8,
    "activation_bits": 8,
    "not_quant_pattern": ["skip_quant"],  # ops whose name scope holds one of these stay in float
    "quantize_op_types": ["conv2d", "depthwise_conv2d", "mul"],
    "dtype": "int8",
    "window_size": 10000,  # of 'range_abs_max'
    "moving_rate": 0.9,
    "for_tensorrt": False,  # True: quantize_op_types becomes TENSORRT_OP_TYPES
    "is_full_quantize": False,  # True: every op type the passes know
    "onnx_format": True,  # quantize_linear / dequantize_linear pairs (False: the legacy fake ops)
    "quant_post_first": False,  # calibrate with post-training quantization first (not in minipaddle)
    "scale_trainable": True,  # False: the scales stay as they are (the passes run in test mode)
}


def _parse_configs(user_config: dict) -> dict:
    """The defaults updated with `user_config`, checked (Paddle asserts; these raise ValueError / TypeError).

    Two choices where Paddle is silent or loose: an unknown key is refused (Paddle ignores it, so a typo such as
    'weight_bit' silently trains with 8 bits), and without for_tensorrt the activation type is checked against
    the activation types (Paddle's code checks it against the weight types, accepting 'channel_wise_abs_max',
    which its transform pass then refuses)."""
    who = "quant_aware"
    unknown = sorted(set(user_config) - set(_quant_config_default))
    if unknown:
        raise ValueError(f"{who}: unknown config key(s) {unknown}; the keys are {sorted(_quant_config_default)}")
    configs = copy.deepcopy(_quant_config_default)
    configs.update(user_config)
    for key in ("for_tensorrt", "is_full_quantize", "onnx_format", "quant_post_first", "scale_trainable"):
        if not isinstance(configs[key], bool):
            raise TypeError(f"{who}: config '{key}' must be a bool, got {configs[key]!r}")
    if configs["for_tensorrt"]:
        platform, weight_types = "TensorRT", WEIGHT_QUANTIZATION_TYPES_TENSORRT
        activation_types = ACTIVATION_QUANTIZATION_TYPES_TENSORRT
    else:
        platform, weight_types = "PaddleLite", WEIGHT_QUANTIZATION_TYPES
        activation_types = ACTIVATION_QUANTIZATION_TYPES
    for kind, allowed in (("weight", weight_types), ("activation", activation_types)):
        value = configs[f"{kind}_quantize_type"]
        if value not in allowed:
            raise ValueError(f"{who}: unknown {kind}_quantize_type {value!r}; {platform} supports {allowed}")
    for key in ("weight_bits", "activation_bits"):
        value = configs[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{who}: config '{key}' must be an int, got {value!r}")
        if not 1 <= value <= 16:
            raise ValueError(f"{who}: config '{key}' must be between 1 and 16, got {value}")
    pattern = configs["not_quant_pattern"]
    if not isinstance(pattern, (list, str)):
        raise TypeError(f"{who}: config 'not_quant_pattern' must be a list or a str, got {pattern!r}")
    if not isinstance(configs["quantize_op_types"], list):
        raise TypeError(f"{who}: config 'quantize_op_types' must be a list, got {configs['quantize_op_types']!r}")
    if configs["for_tensorrt"]:
        configs["quantize_op_types"] = list(TENSORRT_OP_TYPES)
    elif configs["is_full_quantize"]:
        configs["quantize_op_types"] = TRANSFORM_PASS_OP_TYPES + QUANT_DEQUANT_PASS_OP_TYPES
    else:
        supported = TRANSFORM_PASS_OP_TYPES + QUANT_DEQUANT_PASS_OP_TYPES
        for op_type in configs["quantize_op_types"]:
            if op_type not in supported:
                raise ValueError(f"{who}: op type {op_type!r} is not supported; supported: {supported}")
    if not isinstance(configs["dtype"], str):
        raise TypeError(f"{who}: config 'dtype' must be a str, got {configs['dtype']!r}")
    if configs["dtype"] not in VALID_DTYPES:
        raise ValueError(f"{who}: config 'dtype' can only be {' '.join(VALID_DTYPES)}, got {configs['dtype']!r}")
    window = configs["window_size"]
    if isinstance(window, bool) or not isinstance(window, int):
        raise TypeError(f"{who}: config 'window_size' (of 'range_abs_max') must be an int, got {window!r}")
    if not isinstance(configs["moving_rate"], float):  # (as Paddle: 1 is refused, 1.0 taken)
        raise TypeError(f"{who}: config 'moving_rate' must be a float, got {configs['moving_rate']!r}")
    return configs


def _config(config, who: str) -> dict:
    if config is None:
        return _quant_config_default  # (as Paddle: the defaults, not copied, not checked)
    if not isinstance(config, dict):
        raise TypeError(f"{who}: config must be a dict, got {type(config).__name__}")
    return _parse_configs(config)


def _split_training(program: Program, who: str):
    """(forward Program, (optimizer, loss name) or None) of a Program that may hold minimize's ops."""
    block = program.global_block()
    if all(op.role == ROLE_FORWARD for op in block.ops):
        return program, None
    optimizers = list({id(o): o for _, o in program.lr_feeds}.values())
    # append_backward starts from d(loss)/d(loss) = full_like(loss, 1): its first backward op names the loss
    seed = next((op for op in block.ops if op.role == ROLE_BACKWARD), None)
    loss = seed.input_names()[0] if seed is not None and seed.type == "full_like" else None
    if len(optimizers) != 1 or loss not in block.vars:
        raise ValueError(
            f"{who}: the Program has backward/optimizer ops but not the ops of one optimizer's minimize(loss), "
            "which minipaddle can rebuild after quantizing; pass the forward Program and call "
            "optimizer.minimize(loss) on the result (the quantize ops pass gradients straight through)"
        )
    forward = program.clone()
    for b in forward.blocks:
        b.ops = [op for op in b.ops if op.role == ROLE_FORWARD]
    # the blocks backward made (cond / while gradients) come after the forward ones: dropped, made again later
    while len(forward.blocks) > 1 and not forward.blocks[-1].ops:
        forward.blocks.pop()
    _drop_unused_vars(forward)
    return forward, (optimizers[0], loss)


def _rebuild_training(program: Program, training, user_parameters: list, scope, place) -> None:
    """Append the backward for the loss and the optimizer's update ops again (its state keeps its variables);
    the parameters of user functions get the updates of their own optimizer (optimizer_func's), as in Paddle."""
    optimizer, loss = training
    startup = Program()
    owner = {name: opt for opt, names in user_parameters for name in names}
    with static_mode(), program_guard(program, startup):
        params_grads = append_backward(program.global_block().var(loss))
        with program.role(ROLE_OPTIMIZE):
            optimizer.apply_gradients([(p, g) for p, g in params_grads if p.name not in owner])
            for user_optimizer in {id(o): o for o in owner.values()}.values():
                user_optimizer.apply_gradients([(p, g) for p, g in params_grads if owner.get(p.name) is user_optimizer])
    if startup.global_block().ops:  # (state the first minimize did not create: started here, in the scope)
        Executor(place).run(startup, scope=scope)


def _calibrated(program, config, calib_config, scope, executor, scale_dict, who):
    """quant_post_first: (the test Program calibrated by PostTrainingQuantizationProgram and quantized, not
    frozen, as an IrGraph; the scales it found, or the scale_dict given), as Paddle's quant_aware does."""
    if not isinstance(calib_config, dict):
        raise TypeError(f"{who}: calib_config must be a dict, got {type(calib_config).__name__}")
    calib = dict(calib_config)  # (Paddle writes quantizable_op_type into the caller's dict; a copy here)
    calib.setdefault("quantizable_op_type", config["quantize_op_types"])
    fixed = {"freeze_model": False, "skip_tensor_list": [], "same_scale_tensor_list": [], "batch_nums": 10,
             "scale_dict": scale_dict, "return_graph": True}  # fmt: skip
    clash = sorted(set(calib) & set(fixed))
    if clash:  # (Paddle: a TypeError, the keyword given twice)
        raise TypeError(f"{who}: calib_config must not set {clash}: quant_post_first sets them")
    ptq = PostTrainingQuantizationProgram(Executor() if executor is None else executor, program, scope=scope,
                                          **fixed, **calib)  # fmt: skip
    graph = ptq.quantize()
    return graph, ptq._scale_dict if ptq._scale_dict is not None else dict(ptq.thresholds)


def quant_aware(
    program,
    place,
    config=None,
    scope=None,
    for_test=False,
    weight_quantize_func=None,
    act_quantize_func=None,
    weight_preprocess_func=None,
    act_preprocess_func=None,
    optimizer_func=None,
    executor=None,
    return_program=False,
    calib_config={},  # noqa: B006 (Paddle's default, never changed here)
    draw_graph=False,
    return_scale_dict=False,
    scale_dict=None,
    model_type=None,
    pattern_ops=None,
):
    """Add quantize and dequantize ops to `program` for quantization-aware training or testing.

    Args:
        program (Program): the training Program (after `optimizer.minimize(loss)`, or only its forward ops) or
            the test Program (`main.clone(for_test=True)`); it is not changed.
        place: accepted for Paddle's signature (minipaddle runs on the CPU).
        config (dict|None): the quantization config; None takes the defaults (keys and defaults: see
            `_quant_config_default`: channel_wise_abs_max weights, moving_average_abs_max activations, 8 bits,
            conv2d / depthwise_conv2d / mul, onnx_format True).
        scope (Scope|None): where the scales, states and accums start (default: the global scope).
        for_test (bool): True for a test Program (its ops read the stored scales).
        return_program (bool): return a Program rather than a CompiledProgram for training.
        return_scale_dict (bool): also return scale_dict, model_type and pattern_ops as given.
        scale_dict (dict|None): start values of the output scales by variable name.
        weight_quantize_func, act_quantize_func, weight_preprocess_func, act_preprocess_func (function|None):
            user functions in paddle ops, inserted before the quantized ops (user_functions.py: a preprocess
            function's output is quantized by the pass, a quantize function replaces the pass's ops);
        optimizer_func (function|None): makes the optimizer of the functions' parameters (training);
        executor (Executor|None): runs the functions' startup Programs (needed with a function);
        calib_config (dict): with config 'quant_post_first' and for_test, the arguments of
            PostTrainingQuantizationProgram (feed_list, fetch_list, data_loader, algo, ...): the test Program is
            calibrated and quantized by it, and its observers start from the calibrated scales;
        draw_graph (bool): write the quantized graph as ./graph.pdf.dot (IrGraph.draw: and
        ./graph.pdf.pdf with Graphviz's dot); model_type, pattern_ops: returned as given.

    Returns:
        CompiledProgram (training) or Program (for_test or return_program); with return_scale_dict the tuple
        (program, scale_dict, model_type, pattern_ops).

    Examples:
        .. code-block:: python

            train_q = paddle.static.quantization.quant_aware(main, paddle.CPUPlace())
            test_q = paddle.static.quantization.quant_aware(test, paddle.CPUPlace(), for_test=True)
    """
    who = "quant_aware"
    if not isinstance(program, Program):
        raise TypeError(f"{who}: program must be a paddle.static.Program, got {type(program).__name__}")
    config = _config(config, who)
    if scale_dict is not None and not isinstance(scale_dict, dict):
        raise TypeError(f"{who}: scale_dict must be a dict, got {type(scale_dict).__name__}")
    scope = global_scope() if not scope else scope
    is_test = True if for_test else not config["scale_trainable"]
    forward, training = _split_training(program, who)
    if training is not None and for_test:
        raise ValueError(f"{who}: for_test=True takes a test Program (main.clone(for_test=True)), and this one "
                         "has backward/optimizer ops")  # fmt: skip
    if config["quant_post_first"] and for_test:
        graph, scale_dict = _calibrated(program, config, calib_config, scope, executor, scale_dict, who)
        transform_ops = quant_dequant_ops = []
    else:
        graph = IrGraph(forward, for_test=for_test)
        op_types = config["quantize_op_types"]
        transform_ops = [t for t in op_types if t in TRANSFORM_PASS_OP_TYPES]
        # (Paddle's names minipaddle has no op for would match nothing: the pass is given the others)
        quant_dequant_ops = [t for t in op_types
                             if t not in TRANSFORM_PASS_OP_TYPES and t in SUPPORT_ACT_QUANTIZATION_OPS]  # fmt: skip
    sub_graphs = graph.all_sub_graphs(for_test=for_test)
    if transform_ops:
        transform = QuantizationTransformPassV2 if config["onnx_format"] else QuantizationTransformPass
        transform_pass = transform(
            scope=scope, place=place, weight_bits=config["weight_bits"], activation_bits=config["activation_bits"],
            activation_quantize_type=config["activation_quantize_type"],
            weight_quantize_type=config["weight_quantize_type"], window_size=config["window_size"],
            moving_rate=config["moving_rate"], quantizable_op_type=transform_ops,
            skip_pattern=config["not_quant_pattern"], weight_quantize_func=weight_quantize_func,
            act_quantize_func=act_quantize_func, weight_preprocess_func=weight_preprocess_func,
            act_preprocess_func=act_preprocess_func, optimizer_func=optimizer_func, executor=executor,
            is_test=is_test,
        )  # fmt: skip
        for sub_graph in sub_graphs:
            transform_pass.apply(sub_graph)
        residual_pass = AddQuantDequantForResidual(scope, place, quant_bits=config["activation_bits"], is_test=is_test)
        for _ in sub_graphs:  # (Paddle's loop: see the module's note)
            residual_pass.apply(sub_graphs[-1])
    if quant_dequant_ops:
        add_pass = AddQuantDequantPassV2 if config["onnx_format"] else AddQuantDequantPass
        quant_dequant_pass = add_pass(
            scope=scope, place=place, moving_rate=config["moving_rate"], quant_bits=config["activation_bits"],
            skip_pattern=config["not_quant_pattern"], quantizable_op_type=quant_dequant_ops, is_test=is_test,
        )  # fmt: skip
        for sub_graph in sub_graphs:
            quant_dequant_pass.apply(sub_graph)
    out_scale_pass = OutScaleForTrainingPass(scope, place, moving_rate=config["moving_rate"], is_test=is_test,
                                             scale_dict=scale_dict)  # fmt: skip
    for sub_graph in sub_graphs:
        out_scale_pass.apply(sub_graph)
    if (weight_preprocess_func or act_preprocess_func) and not for_test and not config["onnx_format"]:
        for sub_graph in sub_graphs:  # (Paddle's loop: the last sub-graph's table is the file's)
            save_dict(sub_graph.out_node_mapping_table)
    if draw_graph:  # (as Paddle: ./graph.pdf.dot, and ./graph.pdf.pdf where Graphviz's dot is installed)
        graph.draw("./", "graph.pdf")
    quant_program = graph.to_program()
    if training is not None:
        _rebuild_training(quant_program, training, graph.user_parameters, scope, place)
    if not (for_test or return_program):
        quant_program = CompiledProgram(quant_program)
    if return_scale_dict:
        return quant_program, scale_dict, model_type, pattern_ops
    return quant_program


def convert(program, place, config=None, scope=None, save_int8=False):
    """Turn a trained test Program from `quant_aware(..., for_test=True)` into the inference Program.

    Args:
        program (Program): the quantized test Program; it is not changed (the scope's weights are).
        place: accepted for Paddle's signature (minipaddle runs on the CPU).
        config (dict|None): the config given to quant_aware (None: the defaults).
        scope (Scope|None): holds the trained weights and scales (default: the global scope).
        save_int8 (bool): also return the Program with int8 weights (legacy format only: onnx_format already
            stores int8 weights).

    Returns:
        The frozen Program, or (frozen Program, int8 Program) with save_int8.
    """
    who = "convert"
    if not isinstance(program, Program):
        raise TypeError(f"{who}: program must be a paddle.static.Program (quant_aware's for_test result), "
                        f"got {type(program).__name__}")  # fmt: skip
    config = _config(config, who)
    # Paddle asserts this after its passes have already rewritten the scope's weights to int8: checked first here
    if save_int8 and config["onnx_format"]:
        raise ValueError(f"{who}: with onnx_format=True the weights are already saved as int8, so save_int8 "
                         "must be False")  # fmt: skip
    scope = global_scope() if not scope else scope
    test_graph = IrGraph(program, for_test=True)
    table = None if config["onnx_format"] else load_dict()  # (mapping_table.py; Paddle reads it for the legacy form)
    if table is not None:
        # Given to the sub-graphs too, so the freeze pass finds a weight behind a weight_preprocess_func (Paddle's
        # sub-graphs are new objects that never see it, and its freeze pass fails with a KeyError there).
        test_graph.out_node_mapping_table = table
    sub_graphs = test_graph.all_sub_graphs(for_test=True)
    if config["onnx_format"]:
        passes = [QuantWeightPass(scope, place),
                  AddQuantDequantForInferencePass(scope, place, quant_bits=config["activation_bits"])]  # fmt: skip
    else:
        passes = [OutScaleForInferencePass(scope),
                  QuantizationFreezePass(scope, place, weight_bits=config["weight_bits"],
                                         activation_bits=config["activation_bits"],
                                         weight_quantize_type=config["weight_quantize_type"])]  # fmt: skip
    for one_pass in passes:
        for sub_graph in sub_graphs:
            one_pass.apply(sub_graph)
    frozen = test_graph.to_program()
    if not save_int8:
        return frozen
    int8_pass = ConvertToInt8Pass(scope, place)
    for sub_graph in sub_graphs:
        int8_pass.apply(sub_graph)
    return frozen, test_graph.to_program()

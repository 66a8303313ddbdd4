"""paddle.static.quantization: Paddle 2.6's static-graph quantization passes over an IrGraph of a Program.

graph = IrGraph(main, for_test=False)                       # main: the forward Program (see transform.py)
QuantizationTransformPass(scope, place, activation_quantize_type="moving_average_abs_max",
                          weight_quantize_type="channel_wise_abs_max").apply(graph)
AddQuantDequantPass(scope, place).apply(graph)
OutScaleForTrainingPass(scope, place).apply(graph)
train = graph.to_program()                                  # then minimize(loss) inside it, and train
...
QuantizationFreezePass(scope, place, weight_quantize_type="channel_wise_abs_max").apply(test_graph)
OutScaleForInferencePass(scope).apply(test_graph)
ConvertToInt8Pass(scope, place).apply(test_graph)

onnx_format (quantize_linear / dequantize_linear): QuantizationTransformPassV2 and AddQuantDequantPassV2 in
place of the first two (transform_v2.py); QuantWeightPass (onnx_format.py) freezes the weights to int8 and
AddQuantDequantForInferencePass puts pairs on the outputs (convert(onnx_format=True)); ReplaceFakeQuantDequantPass
turns fake quantize-dequantize ops into pairs. TransformForMobilePass (mobile.py) renames a frozen legacy graph's
fake ops to paddle-mobile's quantize / dequantize.

quant_aware(program, place, config) / convert(test_program, place, config) (quanter.py) run these passes in
Paddle's order from one config dict; AddQuantDequantForResidual (residual.py) quantizes residual adds' shortcuts.
"""

from minipaddle.static.quantization.freeze import ConvertToInt8Pass, QuantizationFreezePass, quant_tensor
from minipaddle.static.quantization.ir_graph import IrGraph, IrNode
from minipaddle.static.quantization.mobile import TransformForMobilePass
from minipaddle.static.quantization.onnx_format import (
    AddQuantDequantForInferencePass,
    QuantWeightPass,
    ReplaceFakeQuantDequantPass,
)
from minipaddle.static.quantization.out_scale import OutScaleForInferencePass, OutScaleForTrainingPass
from minipaddle.static.quantization.post_training import PostTrainingQuantization, PostTrainingQuantizationProgram
from minipaddle.static.quantization.quanter import convert, quant_aware
from minipaddle.static.quantization.residual import AddQuantDequantForResidual
from minipaddle.static.quantization.transform import AddQuantDequantPass, QuantizationTransformPass
from minipaddle.static.quantization.transform_v2 import AddQuantDequantPassV2, QuantizationTransformPassV2

__all__ = [
    "AddQuantDequantForInferencePass", "AddQuantDequantForResidual", "AddQuantDequantPass", "AddQuantDequantPassV2",
    "ConvertToInt8Pass", "IrGraph",
    "IrNode",
    "OutScaleForInferencePass", "OutScaleForTrainingPass", "PostTrainingQuantization",
    "PostTrainingQuantizationProgram", "QuantizationFreezePass",
    "QuantizationTransformPass", "QuantizationTransformPassV2", "QuantWeightPass", "ReplaceFakeQuantDequantPass",
    "TransformForMobilePass",
    "convert", "quant_aware", "quant_tensor",
]  # fmt: skip

"""paddle.inference: load a saved model, optimize it with IR passes, run it (Config, create_predictor).

    config = paddle.inference.Config("lenet.pdmodel", "lenet.pdiparams")
    predictor = paddle.inference.create_predictor(config)
    h = predictor.get_input_handle(predictor.get_input_names()[0])
    h.reshape(images.shape); h.copy_from_cpu(images)
    predictor.run()
    logits = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()

config.py      Config and its pass list (PassBuilder)
predictor.py   create_predictor, Predictor, PredictorPool, the optimization log (PassStep)
handle.py      the input/output handles (paddle.inference.Tensor)
passes/        the IR passes by paddle's names
enums.py       DataType, PlaceType, PrecisionType, get_version
mixed_precision.py  convert_to_mixed_precision
xpu.py         XpuConfig (paddle's fields; there is no XPU here, so Config.enable_xpu raises paddle's error)
internal_utils.py  InternalUtils (TensorRT settings: stored, no effect, as on paddle's CPU build)
"""

from minipaddle.inference.config import Config, PassBuilder
from minipaddle.inference.enums import (
    DataType,
    PlaceType,
    PrecisionType,
    get_num_bytes_of_data_type,
    get_trt_compile_version,
    get_trt_runtime_version,
    get_version,
)
from minipaddle.inference.handle import Tensor
from minipaddle.inference.internal_utils import InternalUtils
from minipaddle.inference.mixed_precision import convert_to_mixed_precision
from minipaddle.inference.predictor import PassStep, Predictor, PredictorPool, create_predictor
from minipaddle.inference.xpu import XpuConfig

__all__ = [
    "Config", "DataType", "PassBuilder", "PassStep", "PlaceType", "PrecisionType", "Predictor", "PredictorPool",
    "Tensor", "convert_to_mixed_precision", "create_predictor", "get_num_bytes_of_data_type", "get_trt_compile_version",
    "get_trt_runtime_version", "get_version", "XpuConfig", "InternalUtils",
]  # fmt: skip

"""PostTrainingQuantization: calibrate a saved float model on sample data and save it quantized (no training).

As paddle 2.6's (paddle/static/quantization/post_training_quantization.py):
1. load the inference model (model_dir, model_filename, params_filename);
2. run it on `batch_nums` calibration batches, reading the inputs and outputs of the quantizable ops (conv2d, mul,
   and `quantizable_op_type`) and the outputs of the observer ops (elementwise_add, relu, pool2d, reshape2, ...);
3. choose a threshold per variable: weights by abs-max (per channel for 'channel_wise_abs_max'); activations by
   `algo`: 'abs_max' (the largest |x| seen), 'avg' (the mean over batches of each sample's max |x|, averaged),
   'mse' / 'emd' (the scale s * max|x|, s = 0.3, 0.32, ..., 1.0, of least error), 'KL' / 'hist' (from a
   2048-bin histogram of |x|: the KL cut, or the hist_percent quantile), 'min_max' (min and max kept as
   attributes, the Program otherwise unchanged);
4. insert fake quant ops with QuantizationTransformPass / AddQuantDequantPass on a test graph, write the
   thresholds into their scale variables, freeze (QuantizationFreezePass), and note each op's output threshold
   (`out_threshold`, `{Slot}0_threshold`, quantization_type 'post_<algo>').
`save_quantized_model(path)` writes `path/model.pdmodel` + `.pdiparams` with save_inference_model.

minipaddle reads a Paddle model into its own ops: Paddle's mul reads its weight through a reshape (to [in, out]),
which is removed here when it changes nothing, so the weight reaches the matmul as Paddle's mul has it.
"""

from __future__ import annotations

import os

import numpy as np

from minipaddle.static.executor import Executor, global_scope, scope_guard
from minipaddle.static.io import load_inference_model, save_inference_model
from minipaddle.static.program import Program
from minipaddle.static.quantization.cal_kl_threshold import cal_kl_threshold
from minipaddle.static.quantization.freeze import QuantizationFreezePass
from minipaddle.static.quantization.ir_graph import IrGraph
from minipaddle.static.quantization.onnx_format import AddQuantDequantForInferencePass, QuantWeightPass
from minipaddle.static.quantization.op_types import (
    CHANNELWISE_AXIS1,
    PADDLE_OUTPUT_SLOT,
    SUPPORT_ACT_QUANTIZATION_OPS,
    SUPPORT_QUANTIZATION_OPS,
    SUPPORT_WEIGHT_QUANTIZATION_OPS,
    is_one_of,
    paddle_type,
)
from minipaddle.static.quantization.out_scale import _measured_outputs
from minipaddle.static.quantization.transform import AddQuantDequantPass, QuantizationTransformPass
from minipaddle.static.quantization.transform_v2 import AddQuantDequantPassV2, QuantizationTransformPassV2

__all__ = ["PostTrainingQuantization", "PostTrainingQuantizationProgram"]

_ALGOS = ("KL", "hist", "avg", "mse", "emd", "abs_max", "min_max")
_HISTOGRAM_BINS = 2048


class PostTrainingQuantization:
    """Post-training (static) quantization of a saved inference model; see the module docstring.

    Args:
        executor (Executor): runs the calibration batches.
        model_dir (str): the folder of the saved float model; model_filename / params_filename name its files.
        scope (Scope|None): where the weights live (default: the global scope).
        batch_generator / sample_generator / data_loader: the calibration data. data_loader: a DataLoader (or any
            callable or iterable) yielding feed dicts, or lists of arrays in the order of the model's feeds;
            sample_generator: a callable yielding one sample (a tuple, one array per feed) at a time, batched by
            batch_size; batch_generator: a callable yielding whole batches.
        batch_size (int): samples per batch for sample_generator (10). batch_nums (int|None): batches to use.
        algo (str): 'KL' (default), 'hist', 'avg', 'mse', 'emd', 'abs_max' or 'min_max'.
        hist_percent (float): the quantile of algo 'hist' (0.99999).
        quantizable_op_type (list): Paddle op types to quantize ([] = Paddle's default: conv2d, depthwise_conv2d,
            conv2d_transpose, mul, matmul, matmul_v2 with weights; mul, matmul, matmul_v2 on activations).
        is_full_quantize (bool): every supported op type.
        activation_bits, weight_bits (int): 8 (they must be equal, as in Paddle).
        activation_quantize_type (str): 'range_abs_max' (default), 'moving_average_abs_max' or 'abs_max'.
        weight_quantize_type (str): 'channel_wise_abs_max' (default) or 'abs_max'.
        freeze_model (bool): freeze after inserting the fake ops (True).
        skip_tensor_list (list|None): ops reading these variables are not quantized.
        scale_dict (dict|None): thresholds by variable name, used instead of the calibrated ones.
        return_graph (bool): quantize() returns an IrGraph instead of the Program.
        onnx_format (bool): as Paddle 2.6, quantize_linear / dequantize_linear pairs instead of the fake ops: the
            V2 passes, QuantWeightPass (int8 weights) and AddQuantDequantForInferencePass (a pair on every
            calibrated output), no threshold attributes.

    round_type='adaround', bias_correction, optimize_model, is_use_cache_file / cache_dir,
    same_scale_tensor_list, deploy_backend and algo 'ptf' are Paddle's too; minipaddle raises NotImplementedError.
    """

    def __init__(self, executor, model_dir, scope=None, model_filename=None, params_filename=None,
                 batch_generator=None, sample_generator=None, data_loader=None, batch_size=10, batch_nums=None,
                 algo="KL", hist_percent=0.99999, quantizable_op_type=[], round_type="round",  # noqa: B006
                 learning_rate=0.001, is_full_quantize=False, bias_correction=False, activation_bits=8, weight_bits=8,
                 activation_quantize_type="range_abs_max", weight_quantize_type="channel_wise_abs_max",
                 onnx_format=False, freeze_model=True, optimize_model=False, is_use_cache_file=False,
                 skip_tensor_list=None, same_scale_tensor_list=None, cache_dir=None, scale_dict=None,
                 return_graph=False, deploy_backend=None):  # fmt: skip
        who = "PostTrainingQuantization"
        if not isinstance(executor, Executor):
            raise TypeError(f"{who}: executor must be a static Executor, got {type(executor).__name__}")
        if sum(x is not None for x in (batch_generator, sample_generator, data_loader)) != 1:
            raise ValueError(f"{who}: give exactly one of data_loader, sample_generator and batch_generator")
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"{who}: batch_size must be a positive int, got {batch_size!r}")
        if batch_nums is not None and (not isinstance(batch_nums, int) or batch_nums <= 0):
            raise ValueError(f"{who}: batch_nums must be a positive int or None, got {batch_nums!r}")
        if algo == "ptf":
            raise NotImplementedError(f"{who}: algo 'ptf' is not supported in minipaddle")
        if algo not in _ALGOS:
            raise ValueError(f"{who}: algo must be one of {list(_ALGOS) + ['ptf']}, got {algo!r}")
        if activation_quantize_type not in ("range_abs_max", "moving_average_abs_max", "abs_max"):
            raise ValueError(f"{who}: activation_quantize_type must be 'range_abs_max', 'moving_average_abs_max' or "
                             f"'abs_max', got {activation_quantize_type!r}")  # fmt: skip
        if weight_quantize_type not in ("abs_max", "channel_wise_abs_max"):
            raise ValueError(f"{who}: weight_quantize_type must be 'abs_max' or 'channel_wise_abs_max', got "
                             f"{weight_quantize_type!r}")  # fmt: skip
        if activation_bits != weight_bits:
            raise ValueError(f"{who}: activation_bits and weight_bits must be the same, got {activation_bits} and "
                             f"{weight_bits}")  # fmt: skip
        unsupported = {"round_type='adaround'": round_type != "round", "bias_correction": bias_correction,
                       "onnx_format with algo 'min_max'": onnx_format and algo == "min_max",
                       "optimize_model": optimize_model,
                       "is_use_cache_file": is_use_cache_file, "same_scale_tensor_list": same_scale_tensor_list,
                       "deploy_backend": deploy_backend is not None}  # fmt: skip
        for what, given in unsupported.items():
            if given:
                raise NotImplementedError(f"{who}: {what} is not supported in minipaddle")
        for op in quantizable_op_type:
            if op not in SUPPORT_QUANTIZATION_OPS:
                raise ValueError(f"{who}: {op!r} is not supported for quantization")
        self._executor, self._scope = executor, global_scope() if scope is None else scope
        self._model_dir, self._model_filename, self._params_filename = model_dir, model_filename, params_filename
        self._batch_generator, self._sample_generator = batch_generator, sample_generator
        self._data_loader = data_loader
        self._batch_size, self._batch_nums = batch_size, batch_nums
        self._algo, self._hist_percent = algo, float(hist_percent)
        self._bits = int(weight_bits)
        self._activation_quantize_type, self._weight_quantize_type = activation_quantize_type, weight_quantize_type
        self._freeze_model, self._return_graph = freeze_model, return_graph
        self._onnx_format = bool(onnx_format)
        self._skip_tensor_list, self._scale_dict = skip_tensor_list, scale_dict
        types = list(SUPPORT_QUANTIZATION_OPS) if is_full_quantize else list(quantizable_op_type)
        self._weight_ops = [t for t in types if t in SUPPORT_WEIGHT_QUANTIZATION_OPS] if types else list(
            SUPPORT_WEIGHT_QUANTIZATION_OPS)  # fmt: skip
        self._act_ops = [t for t in types if t in SUPPORT_ACT_QUANTIZATION_OPS] if types else ["mul", "matmul",
                                                                                               "matmul_v2"]  # fmt: skip
        self._observer_ops = list(SUPPORT_ACT_QUANTIZATION_OPS)
        self._program = self._feed_list = self._fetch_list = None
        self.thresholds: dict = {}  # variable -> threshold (weights: per channel lists for channel_wise_abs_max)
        self.min_max: dict = {}  # algo 'min_max': variable -> [min, max]
        self._best_loss: dict = {}  # algo mse / emd: variable -> the least error seen

    # ---- the steps ----

    def quantize(self):
        """Calibrate and quantize; returns the quantized Program (an IrGraph with return_graph=True)."""
        self._load_model_data()
        weights, activations = self._collect_target_varnames()
        for name in weights:
            self.thresholds[name] = self._weight_threshold(name)
        batches = list(self._batches())
        if not batches:
            raise ValueError("PostTrainingQuantization.quantize: the calibration data gave no batch")
        if self._algo in ("KL", "hist"):
            self._histogram_thresholds(batches, activations)
        else:
            sums: dict = {}
            for feed in batches:
                for name, value in zip(activations, self._run(feed, activations)):
                    if value.size:
                        self._sample(name, np.asarray(value), sums)
            if self._algo == "avg":
                self.thresholds.update({n: float(np.mean(v)) for n, v in sums.items()})
        if self._algo == "min_max":
            self._save_input_threshold(weights)
        else:
            self._update_program()
        self._save_output_threshold()
        return IrGraph(self._program, for_test=True) if self._return_graph else self._program

    def save_quantized_model(self, save_model_path, model_filename=None, params_filename=None):
        """Write the quantized model to `save_model_path/model.pdmodel` (or `model_filename`) and `.pdiparams`."""
        if self._program is None:
            raise RuntimeError("PostTrainingQuantization.save_quantized_model: call quantize() first")
        name = "model" if model_filename is None else model_filename.rsplit(".pdmodel", 1)[0]
        block = self._program.global_block()
        feeds = [block.var(n) for n in self._feed_list]
        fetches = [block.var(v if isinstance(v, str) else v.name) for v in self._fetch_list]
        with scope_guard(self._scope):
            save_inference_model(os.path.join(save_model_path, name), feeds, fetches, self._executor,
                                 program=self._program)  # fmt: skip

    # ---- loading and collecting ----

    def _load_model_data(self) -> None:
        with scope_guard(self._scope):
            program, feeds, fetches = load_inference_model(self._model_dir, self._executor,
                                                           model_filename=self._model_filename,
                                                           params_filename=self._params_filename)  # fmt: skip
        self._program = _without_identity_reshapes(program, self._scope)
        self._feed_list, self._fetch_list = feeds, fetches

    def _collect_target_varnames(self) -> tuple:
        """(weights, activations): the inputs and outputs of the quantizable ops and the outputs of the
        observers; what parameters alone compute (minipaddle's reshaped biases) is neither."""
        graph = IrGraph(self._program, for_test=True)
        const = graph.constant_names()
        persistable = {n for n, v in self._program.global_block().vars.items() if v.persistable}
        weights, activations = {}, []
        skip = set(self._skip_tensor_list or ())
        for op in self._program.global_block().ops:
            ins = [n for n in op.input_names() if n is not None]
            if skip & set(ins):
                op.scope = f"{op.scope}/skip_quant"  # (Paddle sets op_namescope; the passes read the scope)
            if is_one_of(op, self._weight_ops) or is_one_of(op, self._act_ops):
                names = ins + _measured_outputs(graph, op)
            elif is_one_of(op, self._observer_ops):
                names = _measured_outputs(graph, op)
            else:
                continue
            for n in names:
                if n in persistable:
                    weights.setdefault(n, op)
                elif n not in const and n not in activations:
                    activations.append(n)
        return weights, activations

    def _batches(self):
        feeds = list(self._feed_list)
        count = 0
        for batch in _batch_source(self):
            if isinstance(batch, (list, tuple)) and len(batch) == 1 and isinstance(batch[0], dict):
                batch = batch[0]  # (a static DataLoader yields one feed dict per place)
            if not isinstance(batch, dict):
                batch = dict(zip(feeds, batch if isinstance(batch, (list, tuple)) else [batch]))
            yield {k: np.asarray(v) for k, v in batch.items()}
            count += 1
            if self._batch_nums and count >= self._batch_nums:
                return

    def _run(self, feed: dict, names: list) -> list:
        return self._executor.run(self._program, feed=feed, fetch_list=list(names), scope=self._scope)

    # ---- thresholds ----

    def _weight_threshold(self, name: str):
        w = np.asarray(self._scope.vars[name])
        if self._weight_quantize_type == "abs_max":
            return float(np.max(np.abs(w)))
        axis = 1 if paddle_type(self._weight_op(name)) in CHANNELWISE_AXIS1 else 0
        return [float(v) for v in np.abs(np.moveaxis(w, axis, 0)).reshape(w.shape[axis], -1).max(axis=1)]

    def _weight_op(self, name: str):
        for op in self._program.global_block().ops:
            if name in op.input_names():
                return op
        raise KeyError(name)

    def _sample(self, name: str, x: np.ndarray, sums: dict) -> None:
        """One batch of one activation, for algo abs_max / avg / mse / emd / min_max (Paddle's _sample_*)."""
        bins = 2 ** (self._bits - 1) - 1
        if self._algo == "abs_max":
            self.thresholds[name] = max(self.thresholds.get(name, -np.inf), float(np.max(np.abs(x))))
        elif self._algo == "avg":
            sums.setdefault(name, []).append(float(np.mean(np.max(np.abs(x.reshape(x.shape[0], -1)), axis=1))))
        elif self._algo == "min_max":
            lo, hi = self.min_max.get(name, (np.inf, -np.inf))
            self.min_max[name] = [min(lo, float(np.min(x))), max(hi, float(np.max(x)))]
        else:  # mse / emd: the best scale s * max|x| of this batch, kept if its error beats every earlier batch's
            flat = x.flatten()
            top = float(np.max(np.abs(flat)))
            top = 1e-8 if top == 0.0 else top
            best = self._best_loss.setdefault(name, [float("inf")])
            s = 0.3
            while s <= 1.0:
                scale = s * top
                s += 0.02
                if self._onnx_format:  # (Paddle's onnx_format measures the signed grid quantize_linear uses)
                    qdq = np.clip(np.round(flat / scale * bins), -bins - 1, bins) / bins * scale
                else:
                    qdq = np.round(np.clip(flat, 0.0, scale) / scale * bins) / bins * scale
                if self._algo == "mse":
                    loss = ((flat - qdq) ** 2).mean()
                else:
                    loss = np.abs(np.mean(flat) - np.mean(qdq)) + np.abs(np.std(flat) - np.std(qdq))
                if loss <= best[0]:
                    best[0] = loss
                    self.thresholds[name] = scale

    def _histogram_thresholds(self, batches: list, activations: list) -> None:
        """KL / hist: a first pass finds each activation's range of |x|, a second fills a 2048-bin histogram."""
        ranges: dict = {}
        for feed in batches:
            for name, value in zip(activations, self._run(feed, activations)):
                if value.size:
                    a = np.abs(np.asarray(value))
                    lo, hi = ranges.get(name, (float(np.min(a)), float(np.max(a))))
                    ranges[name] = (min(lo, float(np.min(a))), max(hi, float(np.max(a))))
        hists = {n: list(np.histogram([], bins=_HISTOGRAM_BINS, range=r)) for n, r in ranges.items()}
        for feed in batches:
            for name, value in zip(activations, self._run(feed, activations)):
                if name in hists and np.size(value):
                    hists[name][0] = hists[name][0] + np.histogram(np.abs(np.asarray(value)), bins=hists[name][1])[0]
        for name, (hist, edges) in hists.items():
            width = edges[1] - edges[0]
            if self._algo == "KL":
                self.thresholds[name] = cal_kl_threshold(hist, width, self._bits)
            else:
                self.thresholds[name] = _hist_threshold(hist, edges, self._hist_percent)

    # ---- writing them into the Program ----

    def _update_program(self) -> None:
        graph = IrGraph(self._program, for_test=True)
        transform, add = ((QuantizationTransformPassV2, AddQuantDequantPassV2) if self._onnx_format
                          else (QuantizationTransformPass, AddQuantDequantPass))  # fmt: skip
        transform(self._scope, None, weight_bits=self._bits, activation_bits=self._bits,
                  activation_quantize_type=self._activation_quantize_type,
                  weight_quantize_type=self._weight_quantize_type, quantizable_op_type=self._weight_ops,
                  is_test=True).apply(graph)  # fmt: skip
        add(self._scope, None, quantizable_op_type=self._act_ops, is_test=True).apply(graph)
        scales = self.thresholds if self._scale_dict is None else self._scale_dict
        for name, value in scales.items():
            for key in (f"{name}@scale", f"{name}.quant_dequant@scale"):
                if key in self._scope.vars:  # (Paddle's set_variable_data: only variables that exist)
                    value_ = np.array([value], np.float32)
                    if self._onnx_format:  # (a per-channel scale [1, C] as the [C] its pairs declare, which is saved)
                        value_ = value_.reshape(graph.var(key).shape)
                    self._scope.vars[key] = value_
        if self._onnx_format:  # (Paddle freezes the weights here whatever freeze_model says)
            QuantWeightPass(self._scope).apply(graph)
            AddQuantDequantForInferencePass(self._scope, quant_bits=self._bits,
                                            quantizable_op_type=self._weight_ops + self._act_ops + self._observer_ops,
                                            calibration_range_dict=scales).apply(graph)  # fmt: skip
        elif self._freeze_model:
            QuantizationFreezePass(self._scope, None, weight_bits=self._bits, activation_bits=self._bits,
                                   weight_quantize_type=self._weight_quantize_type).apply(graph)  # fmt: skip
        self._program = graph.to_program()

    def _save_input_threshold(self, weights: dict) -> None:
        """algo min_max: `{input}.min` / `{input}.max` on each quantizable op (weights per channel)."""
        for name in weights:
            w = np.asarray(self._scope.vars[name])
            if self._weight_quantize_type == "abs_max":
                self.min_max[name] = [float(np.min(w)), float(np.max(w))]
            else:
                axis = 1 if paddle_type(self._weight_op(name)) in CHANNELWISE_AXIS1 else 0
                flat = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
                self.min_max[name] = [[float(v) for v in flat.min(axis=1)], [float(v) for v in flat.max(axis=1)]]
        for op in self._program.global_block().ops:
            if is_one_of(op, self._weight_ops) or is_one_of(op, self._act_ops):
                for n in [n for n in op.input_names() if n is not None and n in self.min_max]:
                    op.quant_attrs.update({f"{n}.min": self.min_max[n][0], f"{n}.max": self.min_max[n][1],
                                           "with_quant_attr": True})  # fmt: skip

    def _save_output_threshold(self) -> None:
        """out_threshold and `{Slot}0_threshold` (algo min_max: out_min / out_max) on every quantizable and
        observer op; quantization_type 'post_<algo>' on the quantizable ones. onnx_format writes none: its
        pairs hold the scales (Paddle keeps them in _calibration_scales)."""
        if self._onnx_format:
            return
        graph = IrGraph(self._program, for_test=True)
        const = graph.constant_names()
        kind = "post_" + (self._algo.lower() if self._algo in ("KL", "hist") else self._algo)
        for op in self._program.global_block().ops:
            quantized = is_one_of(op, self._weight_ops) or is_one_of(op, self._act_ops)
            if not (quantized or is_one_of(op, self._observer_ops)):
                continue
            for name in [n for n in _measured_outputs(graph, op) if n not in const]:
                slot = f"{PADDLE_OUTPUT_SLOT.get(op.type, 'Out')}0_threshold"
                if self._algo == "min_max":
                    lo, hi = self.min_max[name]
                    op.quant_attrs.update({"out_min": lo, slot: lo})
                    op.quant_attrs.update({"out_max": hi, slot: hi})  # (Paddle writes max over min)
                else:
                    op.quant_attrs.update({"out_threshold": float(self.thresholds[name]),
                                           slot: float(self.thresholds[name])})  # fmt: skip
                op.quant_attrs["with_quant_attr"] = True
                if quantized:
                    op.quant_attrs["quantization_type"] = kind


class PostTrainingQuantizationProgram(PostTrainingQuantization):
    """PostTrainingQuantization of a Program in memory instead of a saved model (Paddle 2.6's; quant_aware's
    quant_post_first calibrates with it).

    Args: executor, program (the float test Program; it is not changed), feed_list (feed names or Variables),
    fetch_list (Variables or names), then PostTrainingQuantization's from scope on (return_graph defaults to
    True, as Paddle's). As in Paddle no out_threshold attributes are written (the scales are in the scale
    variables and in `thresholds`). Two choices where Paddle's class is loose: the scope is used (Paddle hands it
    to its base class as model_dir, so it calibrates in the global scope), and the data may be any source
    PostTrainingQuantization takes (Paddle's accepts only a paddle.io.DataLoader).
    """

    def __init__(self, executor, program, feed_list=None, fetch_list=None, scope=None, batch_generator=None,
                 sample_generator=None, data_loader=None, batch_size=10, batch_nums=None, algo="KL",
                 hist_percent=0.99999, quantizable_op_type=["conv2d", "depthwise_conv2d", "mul"],  # noqa: B006
                 round_type="round", learning_rate=0.001, is_full_quantize=False, bias_correction=False,
                 activation_bits=8, weight_bits=8, activation_quantize_type="range_abs_max",
                 weight_quantize_type="channel_wise_abs_max", onnx_format=False, freeze_model=True,
                 optimize_model=False, is_use_cache_file=False, skip_tensor_list=None, same_scale_tensor_list=None,
                 cache_dir=None, scale_dict=None, return_graph=True):  # fmt: skip
        who = "PostTrainingQuantizationProgram"
        if not isinstance(program, Program):
            raise TypeError(f"{who}: program must be a paddle.static.Program, got {type(program).__name__}")
        if feed_list is None or fetch_list is None:
            raise ValueError(f"{who}: feed_list and fetch_list must be given (the Program's inputs and outputs)")
        super().__init__(executor, None, scope, None, None, batch_generator, sample_generator, data_loader,
                         batch_size, batch_nums, algo, hist_percent, quantizable_op_type, round_type, learning_rate,
                         is_full_quantize, bias_correction, activation_bits, weight_bits, activation_quantize_type,
                         weight_quantize_type, onnx_format, freeze_model, optimize_model, is_use_cache_file,
                         skip_tensor_list, same_scale_tensor_list, cache_dir, scale_dict, return_graph)  # fmt: skip
        self._given = (program, [f if isinstance(f, str) else f.name for f in feed_list], list(fetch_list))

    def _load_model_data(self) -> None:
        program, self._feed_list, self._fetch_list = self._given
        self._program = program.clone()

    def _save_output_threshold(self) -> None:
        """(Paddle skips it for a Program given in memory.)"""


def _hist_threshold(hist: np.ndarray, edges: np.ndarray, percent: float) -> float:
    """Paddle's _get_hist_scaling_factor: the centre of the bin where the cumulative share reaches `percent`."""
    share = hist / float(sum(hist))
    total, index = 0, 0
    for i in range(len(share)):
        total += share[i]
        if total >= percent:
            index = i + 1
            break
    return (index - 0.5) * (edges[1] - edges[0])


def _batch_source(ptq):
    """The calibration batches as given: a DataLoader (called, as Paddle does) or iterable, a batch generator,
    or a sample generator grouped into batches of batch_size."""
    if ptq._data_loader is not None:
        loader = ptq._data_loader
        return loader() if callable(loader) else iter(loader)
    if ptq._batch_generator is not None:
        return ptq._batch_generator()
    return _grouped(ptq._sample_generator(), ptq._batch_size)


def _grouped(samples, size: int):
    batch = []
    for sample in samples:
        batch.append(sample if isinstance(sample, (list, tuple)) else (sample,))
        if len(batch) == size:
            yield [np.stack(field) for field in zip(*batch)]
            batch = []
    if batch:
        yield [np.stack(field) for field in zip(*batch)]


def _without_identity_reshapes(program, scope):
    """A copy of `program` where a reshape of a parameter to its own shape is gone: its readers read the
    parameter (minipaddle reads Paddle's mul as reshape(weight) -> matmul; the weight must reach the matmul)."""
    program = program.clone()
    block = program.global_block()
    for op in list(block.ops):
        if op.type != "reshape" or len(op.input_names()) != 1:
            continue
        src, out = op.inputs["x"][0], op.outputs["Out"][0]
        v = block.vars.get(src)
        if v is None or not v.persistable or src not in scope.vars:
            continue
        if tuple(np.asarray(scope.vars[src]).shape) != tuple(block.var(out).shape) and -1 not in block.var(out).shape:
            continue
        target = np.asarray(scope.vars[src]).shape
        if len(op.attrs.get("shape", ())) != len(target) or any(
            s not in (-1, t) for s, t in zip(op.attrs["shape"], target)):  # fmt: skip
            continue
        block.ops.remove(op)
        for reader in block.ops:
            for slot, names in reader.inputs.items():
                reader.inputs[slot] = [src if n == out else n for n in names]
        block.vars.pop(out, None)
    return program

"""paddle.inference.Config: where the model is and how the predictor runs it.

    config = paddle.inference.Config("lenet.pdmodel", "lenet.pdiparams")
    config.enable_memory_optim()
    config.switch_ir_debug(True)           # keep the Program after every pass (to draw them)
    config.delete_pass("fc_fuse_pass")
    predictor = paddle.inference.create_predictor(config)

Everything paddle 2.6's CPU Config does that matters on numpy is here and works: the model's files (or bytes),
the IR pass list (pass_builder), memory reuse, the BLAS thread count (through threadpoolctl, applied while the
predictor runs), profiling, summary(). What needs hardware minipaddle does not have says so: `enable_use_gpu`,
`enable_xpu` and the TensorRT switches raise a clear error; `enable_mkldnn` is accepted and recorded (summary()
shows it) but there is no oneDNN engine behind it, so the predictor runs the same numpy kernels either way.
"""

from __future__ import annotations

import os

from minipaddle.inference.enums import PrecisionType
from minipaddle.inference.passes import ANALYSIS_PASSES, DEFAULT_PASSES, IR_PASSES, UNMATCHED
from minipaddle.inference.xpu import XpuConfig

__all__ = ["Config", "PassBuilder"]


class PassBuilder:
    """The IR pass list a Config will run (paddle's PaddlePassBuilder), by name, in order."""

    def __init__(self, passes) -> None:
        self._passes = list(passes)
        self._debug = False

    def all_passes(self) -> list:
        """The pass names, in the order they run."""
        return list(self._passes)

    def analysis_passes(self) -> list:
        """The analysis stages around the IR passes (ir_analysis_pass runs the IR pass list)."""
        return list(ANALYSIS_PASSES)

    def _check_name(self, name, fn: str) -> str:
        if not isinstance(name, str):
            raise TypeError(f"{fn}: the pass name must be a string, got {type(name).__name__}")
        if name not in IR_PASSES and name not in UNMATCHED:
            raise ValueError(f"{fn}: unknown pass {name!r}; minipaddle's passes are {sorted(IR_PASSES)}")
        return name

    def append_pass(self, name: str) -> None:
        """Run pass `name` after the others."""
        self._passes.append(self._check_name(name, "append_pass"))

    def insert_pass(self, idx: int, name: str) -> None:
        """Run pass `name` at position idx of the list."""
        if isinstance(idx, bool) or not isinstance(idx, int) or not 0 <= idx <= len(self._passes):
            raise IndexError(f"insert_pass: idx must be an int from 0 to {len(self._passes)}, got {idx!r}")
        self._passes.insert(idx, self._check_name(name, "insert_pass"))

    def delete_pass(self, name_or_idx) -> None:
        """Remove a pass: by name (every occurrence, as paddle does) or by position."""
        if isinstance(name_or_idx, int) and not isinstance(name_or_idx, bool):
            if not 0 <= name_or_idx < len(self._passes):
                raise IndexError(f"delete_pass: idx must be from 0 to {len(self._passes) - 1}, got {name_or_idx}")
            del self._passes[name_or_idx]
        elif isinstance(name_or_idx, str):
            self._passes = [p for p in self._passes if p != name_or_idx]
        else:
            raise TypeError(f"delete_pass: expected a pass name or an index, got {type(name_or_idx).__name__}")

    def clear_passes(self) -> None:
        self._passes = []

    def turn_on_debug(self) -> None:
        """Keep the Program after every pass (as Config.switch_ir_debug)."""
        self._debug = True

    def __repr__(self) -> str:
        return f"PassBuilder({self._passes})"


class Config:
    """How to load and run an inference model.

    Args:
        Config(): set the model later (set_model, set_prog_file/set_params_file, set_model_buffer).
        Config(model_dir): a directory holding one model (`*.pdmodel` + `*.pdiparams`, or `__model__` +
            `__params__`).
        Config(prog_file, params_file): the two files save_inference_model / jit.save write.

    Example:
        >>> config = paddle.inference.Config("infer/lenet.pdmodel", "infer/lenet.pdiparams")
        >>> predictor = paddle.inference.create_predictor(config)
    """

    Precision = PrecisionType
    Float32, Half, Bfloat16, Int8 = (PrecisionType.Float32, PrecisionType.Half, PrecisionType.Bfloat16,
                                     PrecisionType.Int8)  # fmt: skip

    def __init__(self, *args) -> None:
        self._model_dir = ""
        self._prog_file = ""
        self._params_file = ""
        self._buffers = None  # (model bytes, params bytes) from set_model_buffer
        self._ir_optim = True
        self._ir_debug = False
        self._memory_optim = False
        self._profile = False
        self._glog_info = True
        self._mkldnn = False
        self._mkldnn_cache_capacity = 10
        self._math_threads = 1
        self._xpu_config = XpuConfig()
        self._save_optim_model = False
        self._optim_cache_dir = ""
        self._feed_fetch_ops = False
        self._specify_input_names = True
        self._pass_builder = PassBuilder(DEFAULT_PASSES)
        self._used = False  # one Config backs one predictor (paddle's rule)
        if len(args) == 1:
            self.set_model(args[0])
        elif len(args) == 2:
            self.set_model(args[0], args[1])
        elif args:
            raise TypeError(f"Config: expected (), (model_dir) or (prog_file, params_file), got {len(args)} arguments")

    # ---- the model ----------------------------------------------------------------------------------------------

    def set_model(self, *args) -> None:
        """set_model(model_dir) or set_model(prog_file, params_file)."""
        for a in args:
            if not isinstance(a, str):
                raise TypeError(f"Config.set_model: paths must be strings, got {type(a).__name__}")
        if len(args) == 1:
            self._model_dir, self._prog_file, self._params_file = args[0], "", ""
        elif len(args) == 2:
            self._model_dir, self._prog_file, self._params_file = "", args[0], args[1]
        else:
            raise TypeError(f"Config.set_model: expected (model_dir) or (prog_file, params_file), got {len(args)}")
        self._buffers = None

    def set_prog_file(self, path: str) -> None:
        if not isinstance(path, str):
            raise TypeError(f"Config.set_prog_file: path must be a string, got {type(path).__name__}")
        self._prog_file, self._buffers = path, None

    def set_params_file(self, path: str) -> None:
        if not isinstance(path, str):
            raise TypeError(f"Config.set_params_file: path must be a string, got {type(path).__name__}")
        self._params_file, self._buffers = path, None

    def set_model_buffer(self, prog_buffer, prog_buffer_size: int, params_buffer, params_buffer_size: int) -> None:
        """Load the model from memory: the bytes of the .pdmodel and of the .pdiparams file, with their sizes."""
        bufs = []
        for name, buf, size in (("prog", prog_buffer, prog_buffer_size), ("params", params_buffer, params_buffer_size)):
            if isinstance(buf, str):
                buf = buf.encode("latin-1")
            if not isinstance(buf, (bytes, bytearray)):
                raise TypeError(f"Config.set_model_buffer: {name}_buffer must be bytes, got {type(buf).__name__}")
            if size != len(buf):
                raise ValueError(f"Config.set_model_buffer: {name}_buffer_size is {size}, but the buffer has "
                                 f"{len(buf)} bytes")  # fmt: skip
            bufs.append(bytes(buf))
        self._buffers = tuple(bufs)
        self._model_dir = self._prog_file = self._params_file = ""

    def model_dir(self) -> str:
        return self._model_dir

    def prog_file(self) -> str:
        return self._prog_file

    def params_file(self) -> str:
        return self._params_file

    def model_from_memory(self) -> bool:
        return self._buffers is not None

    def _model_files(self) -> tuple:
        """(prog file, params file) to load, resolving a model directory."""
        if self._prog_file or not self._model_dir:
            if not self._prog_file:
                raise ValueError("create_predictor: the Config names no model; give Config(prog_file, params_file) "
                                 "or call set_model")  # fmt: skip
            return self._prog_file, self._params_file
        d = self._model_dir
        if not os.path.isdir(d):
            raise RuntimeError(f"create_predictor: model_dir {d!r} is not a directory")
        if os.path.exists(os.path.join(d, "__model__")):
            return os.path.join(d, "__model__"), os.path.join(d, "__params__")
        models = sorted(f for f in os.listdir(d) if f.endswith(".pdmodel"))
        if len(models) != 1:
            raise RuntimeError(f"create_predictor: model_dir {d!r} must hold one .pdmodel file (or __model__), "
                               f"found {models}")  # fmt: skip
        prog = os.path.join(d, models[0])
        return prog, prog[: -len(".pdmodel")] + ".pdiparams"

    # ---- devices ------------------------------------------------------------------------------------------------

    def disable_gpu(self) -> None:
        """Run on the CPU (what minipaddle always does)."""

    def use_gpu(self) -> bool:
        return False

    def gpu_device_id(self) -> int:
        return -1

    def enable_use_gpu(self, memory_pool_init_size_mb=100, device_id=0, precision=PrecisionType.Float32) -> None:
        raise RuntimeError("Config.enable_use_gpu: minipaddle runs on the CPU only (numpy); there is no GPU to use. "
                           "Remove the call, or call disable_gpu()")  # fmt: skip

    def enable_xpu(self, l3_size=16777216, l3_locked=False, conv_autotune=False, conv_autotune_file="",
                   transformer_encoder_precision="int16", transformer_encoder_adaptive_seqlen=False,
                   enable_multi_stream=False) -> None:  # fmt: skip
        """paddle 2.6's signature; paddle's CPU build raises this same PreconditionNotMet error."""
        checks = (("l3_size", l3_size, int), ("l3_locked", l3_locked, bool), ("conv_autotune", conv_autotune, bool),
                  ("conv_autotune_file", conv_autotune_file, str),
                  ("transformer_encoder_precision", transformer_encoder_precision, str),
                  ("transformer_encoder_adaptive_seqlen", transformer_encoder_adaptive_seqlen, bool),
                  ("enable_multi_stream", enable_multi_stream, bool))  # fmt: skip
        for name, value, kind in checks:
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"Config.enable_xpu: {name} must be {kind.__name__}, got {type(value).__name__}")
        raise RuntimeError("Config.enable_xpu: (PreconditionNotMet) To use XPU inference, please compile with option "
                           "'WITH_XPU' or 'WITH_LITE & LITE_WITH_XPU' first. minipaddle runs on the CPU only "
                           "(numpy): there is no XPU")  # fmt: skip

    def use_xpu(self) -> bool:
        return False

    def xpu_device_id(self) -> int:
        return 0

    def xpu_config(self) -> XpuConfig:
        """The XPU settings (defaults: XPU was never enabled, as it cannot be here)."""
        return self._xpu_config

    def set_xpu_config(self, config) -> None:
        if not isinstance(config, XpuConfig):
            raise TypeError(f"Config.set_xpu_config: expected a paddle.inference.XpuConfig, got "
                            f"{type(config).__name__}")  # fmt: skip
        raise RuntimeError("Config.set_xpu_config: (PreconditionNotMet) Should call EnableXpu before SetXpuConfig.")

    def set_xpu_device_id(self, device_id=0) -> None:
        if not isinstance(device_id, int) or isinstance(device_id, bool):
            raise TypeError(f"Config.set_xpu_device_id: device_id must be int, got {type(device_id).__name__}")
        raise RuntimeError("Config.set_xpu_device_id: (PreconditionNotMet) Should call EnableXpu before "
                           "SetXpuDeviceId.")  # fmt: skip

    def enable_tensorrt_engine(self, *args, **kwargs) -> None:
        raise RuntimeError("Config.enable_tensorrt_engine: TensorRT needs a GPU; minipaddle runs on the CPU only")

    def tensorrt_engine_enabled(self) -> bool:
        return False

    def enable_onnxruntime(self) -> None:
        raise RuntimeError("Config.enable_onnxruntime: minipaddle's predictor runs its own numpy kernels; export with "
                           "paddle.onnx.export and run the file in onnxruntime instead")  # fmt: skip

    def onnxruntime_enabled(self) -> bool:
        return False

    # ---- oneDNN: accepted, recorded, no engine --------------------------------------------------------------------

    def enable_mkldnn(self) -> None:
        """Accepted for compatibility and shown by summary(); minipaddle has no oneDNN engine, so the predictor runs
        the same numpy kernels and the same pass list (paddle's oneDNN passes would rewrite ops for its kernels)."""
        self._mkldnn = True

    def disable_mkldnn(self) -> None:
        self._mkldnn = False

    def mkldnn_enabled(self) -> bool:
        """False by default: paddle 2.6's x86 wheel says True, minipaddle has no oneDNN (see enable_mkldnn)."""
        return self._mkldnn

    def set_mkldnn_cache_capacity(self, capacity: int = 0) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 0:
            raise ValueError(f"Config.set_mkldnn_cache_capacity: capacity must be an int >= 0, got {capacity!r}")
        self._mkldnn_cache_capacity = capacity

    def disable_mkldnn_fc_passes(self) -> None:
        """Accepted: there are no oneDNN fc passes to disable."""

    # ---- threads ------------------------------------------------------------------------------------------------

    def set_cpu_math_library_num_threads(self, cpu_math_library_num_threads: int) -> None:
        """How many threads the BLAS library (numpy's OpenBLAS or MKL) may use while the predictor runs. Set through
        threadpoolctl around each run() (process-wide in paddle; here only while this predictor computes)."""
        n = cpu_math_library_num_threads
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"Config.set_cpu_math_library_num_threads: expected an int >= 1, got {n!r}")
        self._math_threads = n

    def cpu_math_library_num_threads(self) -> int:
        return self._math_threads

    # ---- optimization -------------------------------------------------------------------------------------------

    def switch_ir_optim(self, x: bool = True) -> None:
        """Run the IR passes (default) or load the Program as saved."""
        self._ir_optim = bool(x)

    def ir_optim(self) -> bool:
        return self._ir_optim

    def switch_ir_debug(self, x: bool = True) -> None:
        """Keep the Program after every pass (paddle writes a .dot file per pass), so each step can be drawn:
        `predictor.pass_log()[i].program`, `viz.draw_passes(predictor)`."""
        self._ir_debug = bool(x)

    def enable_memory_optim(self, x: bool = True) -> None:
        """Let temporaries with disjoint lifetimes share a buffer (memory_optimize_pass after the IR passes)."""
        self._memory_optim = bool(x)

    def delete_pass(self, pass_name: str) -> None:
        """Remove every occurrence of `pass_name` from the IR pass list."""
        if not isinstance(pass_name, str):
            raise TypeError(f"Config.delete_pass: pass_name must be a string, got {type(pass_name).__name__}")
        self._pass_builder.delete_pass(pass_name)

    def pass_builder(self) -> PassBuilder:
        """The IR pass list, to read (all_passes) or edit (append_pass, insert_pass, delete_pass)."""
        return self._pass_builder

    def enable_save_optim_model(self, save_optimized_model: bool = False) -> None:
        """With set_optim_cache_dir(d): the predictor writes its optimized model to d/_optimized.pdmodel/.pdiparams."""
        self._save_optim_model = bool(save_optimized_model)

    def set_optim_cache_dir(self, opt_cache_dir: str) -> None:
        if not isinstance(opt_cache_dir, str):
            raise TypeError(f"Config.set_optim_cache_dir: expected a string, got {type(opt_cache_dir).__name__}")
        self._optim_cache_dir = opt_cache_dir

    # ---- logging and profiling ----------------------------------------------------------------------------------

    def enable_profile(self) -> None:
        """Time every op of every run; `predictor.profile_report()` gives the table (paddle prints it at exit)."""
        self._profile = True

    def disable_glog_info(self) -> None:
        """Stop the `--- Running IR pass [...]` lines on stderr."""
        self._glog_info = False

    def glog_info_disabled(self) -> bool:
        return not self._glog_info

    def switch_use_feed_fetch_ops(self, x: bool = True) -> None:
        self._feed_fetch_ops = bool(x)

    def use_feed_fetch_ops_enabled(self) -> bool:
        return self._feed_fetch_ops

    def switch_specify_input_names(self, x: bool = True) -> None:
        self._specify_input_names = bool(x)

    def specify_input_name(self) -> bool:
        return self._specify_input_names

    def summary(self) -> str:
        """The options as paddle's ASCII table (| Option | Value |, one group of rows per section)."""
        on = {True: "true", False: "false"}
        groups = []
        if self._buffers is None:
            files = [("model_dir", self._model_dir)] if self._model_dir else []
            if self._prog_file:
                files += [("model_file", self._prog_file), ("params_file", self._params_file)]
            groups.append(files)
        else:
            groups.append([("model_from_memory", "true")])
        groups.append([("cpu_math_thread", str(self._math_threads)), ("enable_mkldnn", on[self._mkldnn]),
                       ("mkldnn_cache_capacity", str(self._mkldnn_cache_capacity))])  # fmt: skip
        groups.append([("use_gpu", "false")])
        groups.append([("use_xpu", "false")])
        groups.append([("use_cinn_compiler", "false"), ("save_optimized_model", on[self._save_optim_model]),
                       ("ir_optim", on[self._ir_optim]), ("ir_debug", on[self._ir_debug]),
                       ("memory_optim", on[self._memory_optim]), ("enable_profile", on[self._profile]),
                       ("enable_log", on[self._glog_info]), ("collect_shape_range_info", "false")])  # fmt: skip
        rows = [r for g in groups for r in g]
        w1 = max(len("Option"), *(len(k) for k, _ in rows))
        w2 = max(len("Value"), *(len(v) for _, v in rows))
        rule = f"+{'-' * (w1 + 2)}+{'-' * (w2 + 2)}+\n"
        text = "\n" + rule + f"| {'Option'.ljust(w1)} | {'Value'.ljust(w2)} |\n" + rule
        for g in groups:
            text += "".join(f"| {k.ljust(w1)} | {v.ljust(w2)} |\n" for k, v in g) + rule
        return text

    def __repr__(self) -> str:
        where = self._prog_file or self._model_dir or ("<memory>" if self._buffers else "<no model>")
        return f"<paddle.inference.Config {where}>"

"""convert_to_mixed_precision: a saved float32 model rewritten offline to compute in float16 or bfloat16.

Every op computes in the low dtype except the black list (paddle 2.6's FP16_BLACK_LIST and the ops whose OpDef
says `amp = "black"`, plus `black_list`): their float32 weights are stored in the low dtype, and a `cast` goes in
wherever a value crosses between a low op and a float32 one. With keep_io_types (the default) the model still
takes and returns float32, as paddle's.

    paddle.inference.convert_to_mixed_precision("m.pdmodel", "m.pdiparams", "m16.pdmodel", "m16.pdiparams",
                                                PrecisionType.Half, PlaceType.CPU)
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from minipaddle.core.dtype import from_numpy
from minipaddle.core.op import OPS
from minipaddle.inference.enums import PlaceType, PrecisionType
from minipaddle.ops.low_precision import is_float
from minipaddle.static.executor import Executor, Scope, scope_guard
from minipaddle.static.files import atomic_write
from minipaddle.static.io import load_inference_model, serialize_persistables, serialize_program
from minipaddle.static.program import OpDesc

__all__ = ["convert_to_mixed_precision"]

# paddle 2.6's FP16_BLACK_LIST (= BF16_BLACK_LIST) by minipaddle's op names where they differ
PADDLE_BLACK_LIST = {
    "tan", "acos", "asin", "sinh", "cosh", "atanh", "erfinv", "exp", "expm1", "log", "log10", "log2", "reciprocal",
    "rsqrt", "pow", "square", "sum", "mean", "prod", "cumprod", "cumsum", "renorm", "softmax", "softplus",
    "log_softmax", "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits", "standardize", "logsumexp",
}  # fmt: skip


def _low_dtype(mixed_precision) -> np.dtype:
    if mixed_precision == PrecisionType.Half:
        return np.dtype(np.float16)
    if mixed_precision == PrecisionType.Bfloat16:
        return np.dtype(ml_dtypes.bfloat16)
    raise ValueError(f"convert_to_mixed_precision: mixed_precision must be PrecisionType.Half or Bfloat16, got "
                     f"{mixed_precision!r}")  # fmt: skip


def _names_float32(dtype) -> bool:
    try:
        return dtype is not None and np.dtype(dtype) == np.float32
    except TypeError:
        return False


def convert_to_mixed_precision(model_file: str, params_file: str, mixed_model_file: str, mixed_params_file: str,
                               mixed_precision, backend, keep_io_types=True, black_list=None) -> None:  # fmt: skip
    """Rewrite a saved model (model_file, params_file) to mixed precision and save it as the two mixed_* files.

    Args:
        mixed_precision: PrecisionType.Half (float16) or PrecisionType.Bfloat16 (ml_dtypes' bfloat16; stored in
            Paddle's .pdiparams as data type BF16). Both follow the same rules: paddle 2.6's black list is the
            same for the two (FP16_BLACK_LIST == BF16_BLACK_LIST).
        backend: PlaceType.CPU or GPU (minipaddle computes on the CPU either way).
        keep_io_types: keep float32 inputs and outputs (casts at the edges).
        black_list: op types (minipaddle's names) to keep in float32, besides paddle's black list.
    """

    low = _low_dtype(mixed_precision)
    if backend not in (PlaceType.CPU, PlaceType.GPU):
        raise ValueError(f"convert_to_mixed_precision: backend must be PlaceType.CPU or GPU, got {backend!r}")
    black = PADDLE_BLACK_LIST | {n for n, op in OPS.items() if getattr(op, "amp", None) == "black"}
    black |= set(black_list or ())
    scope = Scope()
    with open(model_file, "rb") as f, open(params_file, "rb") as g:
        model, params = f.read(), g.read()
    with scope_guard(scope):
        program, feeds, fetch_vars = load_inference_model(None, Executor(), model_filename=model,
                                                          params_filename=params)  # fmt: skip
    fetches = [v.name for v in fetch_vars]
    block = program.global_block()
    values = {n: np.asarray(v) for n, v in scope.vars.items()}
    dtype = {n: v.dtype.np for n, v in block.vars.items()}  # each name's dtype as the rewrite goes
    readers: dict = {}
    for op in block.ops:
        for n in op.input_names():
            readers.setdefault(n, []).append(op)

    def is_low(op) -> bool:
        if op.type in black or op.type not in OPS or any(k.endswith("_block") for k in op.attrs):
            return False
        if op.attrs.get("dtype") is not None and not _names_float32(op.attrs["dtype"]):
            return False  # an op making another dtype (a cast to int64, ...) reads its input at full precision
        # a float op (one reading a float32 or an already lowered value) that is not black: computed in the low dtype
        return any(n is not None and dtype.get(n) in (np.float32, low) for n in op.input_names())

    def retype(name: str, dt) -> None:
        v = block.vars[name]
        block.vars[name] = block.create_var(name, v.shape, from_numpy(np.dtype(dt)), v.persistable, v.stop_gradient,
                                            v.is_data, v.is_parameter)  # fmt: skip
        dtype[name] = np.dtype(dt)

    casts: dict = {}
    ops = []

    def cast(name: str, to, like) -> str:
        key = (name, np.dtype(to).name)
        if key not in casts:
            out = f"{name}.cast_{np.dtype(to).name}"
            block.create_var(out, block.var(name).shape, from_numpy(np.dtype(to)))
            dtype[out] = np.dtype(to)
            ops.append(OpDesc("cast", {"x": [name]}, {"Out": [out]}, {"dtype": np.dtype(to)}, like.role, like.scope))
            casts[key] = out
        return casts[key]

    lowered = set()
    for op in block.ops:
        want = low if is_low(op) else np.dtype(np.float32)
        new_inputs = {}
        for slot, names in op.inputs.items():
            renamed = []
            for n in names:
                d = dtype.get(n)
                if n is None or d is None or not is_float(d) or d == want:
                    renamed.append(n)
                elif want == low and n in values and all(is_low(r) for r in readers.get(n, [])) and n not in lowered:
                    values[n] = values[n].astype(low)  # a weight only low ops read: stored in the low dtype
                    retype(n, low)
                    lowered.add(n)
                    renamed.append(n)
                elif d in (np.float32, low):
                    renamed.append(cast(n, want, op))
                else:
                    renamed.append(n)
            new_inputs[slot] = renamed
        op.inputs = new_inputs
        ops.append(op)
        if want == low:
            if _names_float32(op.attrs.get("dtype")):  # a cast (or full_like) to float32 now makes the low dtype
                op.attrs = {**op.attrs, "dtype": low}
            for n in op.output_names():
                if dtype.get(n) == np.float32:
                    retype(n, low)
    if keep_io_types:  # the fetched results back to float32, under their own names
        for n in fetches:
            if dtype.get(n) == low:
                inner = f"{n}.{low.name}"
                block.vars[inner] = block.vars.pop(n)
                block.vars[inner].name = inner
                for op in ops:
                    op.inputs = {s: [inner if x == n else x for x in xs] for s, xs in op.inputs.items()}
                    op.outputs = {s: [inner if x == n else x for x in xs] for s, xs in op.outputs.items()}
                block.create_var(n, block.vars[inner].shape, from_numpy(np.dtype(np.float32)))
                ops.append(OpDesc("cast", {"x": [inner]}, {"Out": [n]}, {"dtype": np.dtype(np.float32)}))
    block.ops = ops
    program._version += 1
    kept = Scope()
    kept.vars.update({n: values[n] for n, v in block.vars.items() if v.persistable and n in values})
    feed_vars, fetch_out = [block.var(n) for n in feeds], [block.var(n) for n in fetches]
    with scope_guard(kept):  # the files as save_inference_model writes them (static/io.py)
        model_bytes = serialize_program(feed_vars, fetch_out, program=program)
        params_bytes = serialize_persistables(feed_vars, fetch_out, Executor(), program=program)
    atomic_write(mixed_params_file, params_bytes)
    atomic_write(mixed_model_file, model_bytes)

"""paddle.inference.XpuConfig: the settings of a Kunlun XPU predictor, with paddle 2.6's fields and defaults.

minipaddle has no XPU (it runs numpy on the CPU), so nothing reads these settings; the class exists so code
written for paddle builds its config the same way and gets paddle's errors where paddle gives them:
Config.enable_xpu(...) raises paddle's "compile with WITH_XPU" RuntimeError, and set_xpu_config /
set_xpu_device_id before enable_xpu raise its "Should call EnableXpu before ..." one. Field types are checked as
paddle's pybind properties check them (a TypeError naming the field), and unknown fields are refused.
"""

from __future__ import annotations

__all__ = ["XpuConfig"]

_POINTER = object()  # a device pointer (context, stream, l3_ptr): any object, None meaning unset

# field -> (type, default), in paddle 2.6.2's order (`dir(paddle.inference.XpuConfig())`, defaults as printed)
_FIELDS = {
    "context": (_POINTER, None),
    "context_gm_size": (int, -1),
    "conv_autotune_file": (str, ""),
    "conv_autotune_file_writeback": (bool, False),
    "conv_autotune_level": (int, 0),
    "device_id": (int, 0),
    "fc_autotune_file": (str, ""),
    "fc_autotune_file_writeback": (bool, False),
    "fc_autotune_level": (int, 0),
    "gemm_compute_precision": (int, 1),
    "l3_autotune_size": (int, 0),
    "l3_ptr": (_POINTER, None),
    "l3_size": (int, 0),
    "quant_post_dynamic_activation_method": (int, 0),
    "quant_post_dynamic_op_types": (list, []),
    "quant_post_dynamic_weight_precision": (int, 1),
    "quant_post_static_gelu_out_threshold": (float, 10.0),
    "stream": (_POINTER, None),
    "transformer_encoder_adaptive_seqlen": (bool, True),
    "transformer_softmax_optimize_level": (int, 0),
}


def _checked(field: str, value):
    kind, _ = _FIELDS[field]
    if kind is _POINTER:
        return value
    if kind is bool:
        if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
            return bool(value)
    elif kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif kind is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif kind is str:
        if isinstance(value, str):
            return value
    elif kind is list:
        if isinstance(value, (list, tuple, set)) and all(isinstance(v, str) for v in value):
            return list(value)
    want = "a list of str" if kind is list else kind.__name__
    raise TypeError(f"XpuConfig.{field}: expected {want}, got {type(value).__name__} {value!r}")


class XpuConfig:
    """The XPU predictor's settings (paddle.inference.XpuConfig): device_id, l3_size, l3_ptr, l3_autotune_size,
    context_gm_size, context, stream, conv/fc autotune levels and files, gemm_compute_precision,
    transformer_softmax_optimize_level, transformer_encoder_adaptive_seqlen, quant_post_* settings.

    Example:
        >>> xpu = paddle.inference.XpuConfig()
        >>> xpu.device_id, xpu.l3_size
        (0, 0)
    """

    __slots__ = tuple(_FIELDS)

    def __init__(self) -> None:
        for field, (_, default) in _FIELDS.items():
            object.__setattr__(self, field, list(default) if isinstance(default, list) else default)

    def __setattr__(self, field: str, value) -> None:
        if field not in _FIELDS:
            raise AttributeError(f"'paddle.inference.XpuConfig' object has no attribute {field!r}")
        object.__setattr__(self, field, _checked(field, value))

    def __repr__(self) -> str:
        return f"<paddle.inference.XpuConfig device_id={self.device_id} l3_size={self.l3_size}>"

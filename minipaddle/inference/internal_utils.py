"""InternalUtils: paddle 2.6's three static setters for TensorRT details, kept on the Config.

On paddle's CPU build they are accepted and stored, and change nothing: they tune the TensorRT engine, which
runs only on a GPU. minipaddle does the same (Config.enable_tensorrt_engine raises, so the stored values are
never used), so that code written for both builds runs here unchanged. Like paddle's pybind class it has no
constructor, and its arguments are checked by type as pybind checks them (a set of str, a str).
"""

from __future__ import annotations

from minipaddle.inference.config import Config

__all__ = ["InternalUtils"]


def _check(fn: str, config, value, kind: type, what: str) -> None:
    ok = isinstance(config, Config) and isinstance(value, kind) and all(isinstance(v, str) for v in value)
    if not ok:
        raise TypeError(f"InternalUtils.{fn}(): incompatible function arguments; expected (Config, {what}), got "
                        f"({type(config).__name__}, {type(value).__name__})")  # fmt: skip


class InternalUtils:
    """TensorRT settings of a Config (no effect on the CPU: there is no TensorRT engine here)."""

    def __new__(cls, *args, **kwargs):
        raise TypeError("paddle.inference.InternalUtils: No constructor defined!")

    @staticmethod
    def disable_tensorrt_half_ops(config: Config, ops: set) -> None:
        """Op types the TensorRT engine must keep in float32 when it runs in half precision."""
        _check("disable_tensorrt_half_ops", config, ops, (set, frozenset), "set[str]")
        config._trt_float32_ops = set(ops)

    @staticmethod
    def set_transformer_posid(config: Config, tensor_name: str) -> None:
        """The input holding the position ids, for TensorRT's fused transformer (varseqlen) plugins."""
        _check("set_transformer_posid", config, tensor_name, str, "str")
        config._transformer_posid = tensor_name

    @staticmethod
    def set_transformer_maskid(config: Config, tensor_name: str) -> None:
        """The input holding the attention mask, for TensorRT's fused transformer (varseqlen) plugins."""
        _check("set_transformer_maskid", config, tensor_name, str, "str")
        config._transformer_maskid = tensor_name

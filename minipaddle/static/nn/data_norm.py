"""paddle.static.nn.data_norm: normalization by running statistics that an optimizer trains.

The statistics are three parameters named as Paddle's (`dn.batch_size`, `dn.batch_sum`, `dn.batch_square_sum`
for the default name "dn"); their gradients are the batch's own count, sum and squared deviations
(ops/data_norm_ops.py), so each optimizer step adds the batch to them.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.nn.initializer import Constant
from minipaddle.nn.param_attr import ParamAttr, make_parameter
from minipaddle.static.nn.common import _act
from minipaddle.tensor.checks import check_tensor

__all__ = ["data_norm"]

_STAT_DEFAULTS = (("batch_size", "batch_size", 1e4), ("batch_sum", "batch_sum", 0.0),
                  ("batch_square_sum", "batch_square", 1e4))  # (parameter suffix, param_attr key, default)  # fmt: skip


def data_norm(input, act=None, epsilon=1e-05, param_attr=None, data_layout="NCHW", in_place=False, name=None,  # noqa: A002
              moving_mean_name=None, moving_variance_name=None, do_model_average_for_mean_and_var=True, slot_dim=-1,
              sync_stats=False, summary_decay_rate=0.9999999, enable_scale_and_shift=False):  # fmt: skip
    """Data normalization: each column of the [N, C] input is normalized by running statistics,

        y = (x - batch_sum / batch_size) * sqrt(batch_size / batch_square_sum),

    kept in three [C] parameters `<name>.batch_size`, `<name>.batch_sum`, `<name>.batch_square_sum` (starting
    at 1e4, 0 and 1e4). Their gradients are this batch's N, sum of x and sum of (x - mean)^2 + N * epsilon, so an
    optimizer step accumulates the batch into them. The gradient of x is dy * sqrt(batch_size / batch_square_sum)
    (the statistics count as constants).

    Args:
        input (Tensor): [N, C] float32 or float64 (Paddle's op takes 2-D inputs only).
        act (str, optional): activation applied to the result.
        epsilon (float, optional): in [0, 0.001]; added N times to the square sum's gradient. Default 1e-5.
        param_attr (dict, optional): the statistics' starting values, keys "batch_size", "batch_sum",
            "batch_square"; with enable_scale_and_shift also "scale_w" and "bias" (starting scale and shift).
        data_layout (str, optional): "NCHW" or "NHWC" (the same for 2-D inputs).
        in_place (bool, optional): Paddle writes y over the input's variable; minipaddle returns a new one.
        name (str, optional): the prefix of the parameters' names. Default "dn" (so two data_norm layers of one
            Program share their statistics unless named apart, as in Paddle).
        moving_mean_name, moving_variance_name, do_model_average_for_mean_and_var: unused, as in Paddle.
        slot_dim (int, optional): > 0: the columns come in slots of slot_dim whose first column is a show number;
            a row's slot with show 0 gives zeros and is left out of the statistics, and each statistic's gradient
            becomes 1, the mean and the mean square (+ count * epsilon) over the rows that show it. Default -1.
        sync_stats, summary_decay_rate: multi-GPU settings, not used on the CPU (as Paddle's CPU kernel).
        enable_scale_and_shift (bool, optional): also y = y * scale_w + bias with two trainable [C] parameters
            `<name>.scale_w`, `<name>.bias`; needs param_attr as a dict.

    Returns:
        Tensor: the normalized input, of its shape and dtype.

    Example:
        >>> paddle.enable_static()
        >>> x = paddle.static.data("x", [-1, 100], "float32")
        >>> hidden = paddle.static.nn.data_norm(input=x)
    """
    fn = "data_norm"
    check_tensor(input, fn, "input")
    if input.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{fn}: input must be float32 or float64, got {input.dtype.name}")
    if input.ndim != 2:
        raise ValueError(f"{fn}: input must be 2-D [N, C], got a {input.ndim}-D input of shape {input.shape}")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"{fn}: data_layout must be 'NCHW' or 'NHWC', got {data_layout!r}")
    channels = input.shape[1]
    if channels <= 0:
        raise ValueError(f"{fn}: input's number of columns must be known, got shape {input.shape}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 0.001:
        raise ValueError(f"{fn}: epsilon must be between 0.0 and 0.001, got {epsilon!r}")
    if isinstance(slot_dim, bool) or not isinstance(slot_dim, int):
        raise TypeError(f"{fn}: slot_dim must be an int, got {type(slot_dim).__name__}")
    if slot_dim > 0 and channels % slot_dim:
        raise ValueError(f"{fn}: input's {channels} columns must be whole slots of slot_dim={slot_dim}")
    starts = param_attr if isinstance(param_attr, dict) and param_attr else {}
    if enable_scale_and_shift and not isinstance(param_attr, dict):
        raise TypeError(f"{fn}: enable_scale_and_shift needs param_attr as a dict (of 'scale_w' and 'bias' starting "
                        f"values), got {type(param_attr).__name__}")  # fmt: skip
    if name is not None and not isinstance(name, str):
        raise TypeError(f"{fn}: name must be a str or None, got {type(name).__name__}")
    prefix = name if name is not None else "dn"

    def parameter(suffix: str, value) -> object:
        attr = ParamAttr(name=f"{prefix}.{suffix}", initializer=Constant(float(value)), trainable=True)
        return make_parameter(prefix, [channels], attr, input.dtype, fn=fn)

    affine = (None, None)
    if enable_scale_and_shift:
        affine = (parameter("scale_w", param_attr.get("scale_w", 1.0)), parameter("bias", param_attr.get("bias", 0.0)))
    stats = [parameter(suffix, starts.get(key, default)) for suffix, key, default in _STAT_DEFAULTS]
    out = ops.data_norm(input, *stats, *affine, epsilon=epsilon, slot_dim=slot_dim if slot_dim > 0 else -1)
    return _act(out, act, fn)

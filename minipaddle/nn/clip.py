"""Gradient clipping: paddle.nn.ClipGradByValue, ClipGradByNorm and ClipGradByGlobalNorm.

A clip object is handed to an optimizer (`paddle.optimizer.SGD(..., grad_clip=paddle.nn.ClipGradByNorm(1.0))`).
At each `step()` the optimizer calls it with the list of (parameter, gradient) pairs and updates with the clipped
gradients it returns; `param.grad` itself is left as backward made it. Parameters whose ParamAttr says
`need_clip=False` pass through unclipped (and do not count towards the global norm). Clipping runs before weight
decay is added, as in paddle 2.6.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import as_tensor
from minipaddle.tensor.checks import check_bool, check_number

__all__ = ["ClipGradBase", "ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm"]


def _skips(param) -> bool:
    """A parameter made with ParamAttr(need_clip=False) is never clipped."""
    return getattr(param, "need_clip", True) is False


def _clip_each(params_grads: list, clip) -> list:
    """(param, clip(grad)) for each pair that has a gradient, one gradient at a time; need_clip=False keeps it."""
    return [(p, g if _skips(p) else _rows_of(g, clip(g))) for p, g in params_grads if g is not None]


def _rows_of(g: Tensor, clipped: Tensor) -> Tensor:
    """`clipped`, sparse as `g` is (nn.Embedding(sparse=True)'s gradient, marked with its rows: Paddle's clip,
    clip_by_norm and multiply of a SelectedRows gradient give SelectedRows, of its merged rows)."""
    if g._selected_rows is not None:
        clipped._selected_rows = g._selected_rows
    return clipped


class ClipGradBase:
    """The base of the gradient clipping strategies: `clip(params_grads)` returns clipped (param, grad) pairs."""

    def __call__(self, params_grads: list) -> list:
        return self._dygraph_clip(params_grads)

    def _dygraph_clip(self, params_grads: list) -> list:
        raise TypeError(
            f"{type(self).__name__} is abstract; use ClipGradByValue, ClipGradByNorm or ClipGradByGlobalNorm"
        )

    def __repr__(self) -> str:
        return str(self)


GradientClipBase = ClipGradBase  # Paddle's older name


class ClipGradByValue(ClipGradBase):
    """Clip every gradient element into [min, max].

    Args:
        max: the upper bound.
        min: the lower bound (default: -max, which needs max > 0).

    Example:
        >>> clip = paddle.nn.ClipGradByValue(min=-1.0, max=1.0)
        >>> sgd = paddle.optimizer.SGD(0.1, parameters=linear.parameters(), grad_clip=clip)
    """

    def __init__(self, max: float, min: float | None = None) -> None:  # noqa: A002 (Paddle's names)
        max = float(check_number(max, "ClipGradByValue", "max"))
        if min is None:
            if not max > 0.0:
                raise ValueError(
                    f"ClipGradByValue: with min=None the bound is [-max, max], so max must be > 0, got {max}"
                )
            min = -max
        self.max = max
        self.min = float(check_number(min, "ClipGradByValue", "min"))

    def __str__(self) -> str:
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"

    def _dygraph_clip(self, params_grads: list) -> list:
        return _clip_each(params_grads, self._clip)

    def _clip(self, g: Tensor) -> Tensor:
        return ops.minimum(ops.maximum(g, as_tensor(self.min, g)), as_tensor(self.max, g))


class ClipGradByNorm(ClipGradBase):
    """Scale each gradient on its own so that its L2 norm is at most `clip_norm`.

        grad = grad * clip_norm / max(norm(grad), clip_norm)

    Args:
        clip_norm: the largest L2 norm a gradient may keep.

    Example:
        >>> clip = paddle.nn.ClipGradByNorm(clip_norm=1.0)
    """

    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = float(check_number(clip_norm, "ClipGradByNorm", "clip_norm"))

    def __str__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"

    def _dygraph_clip(self, params_grads: list) -> list:
        return _clip_each(params_grads, self._clip)

    def _clip(self, g: Tensor) -> Tensor:
        norm = ops.sqrt(_sum_of_squares(g))
        limit = as_tensor(self.clip_norm, norm)
        return ops.multiply(g, ops.divide(limit, ops.maximum(norm, limit)))  # exactly 1 when norm <= limit


class ClipGradByGlobalNorm(ClipGradBase):
    """Scale all gradients together so that the L2 norm of all of them, as one vector, is at most `clip_norm`.

        global_norm = sqrt(sum of ||grad||^2 over every clipped gradient)
        grad        = grad * clip_norm / max(global_norm, clip_norm)

    Args:
        clip_norm: the largest global norm.
        group_name: the group the clip belongs to (used by static mode's per-group clipping).
        auto_skip_clip: if True, leave the gradients untouched when the global norm is within the limit
            (instead of multiplying them by exactly 1).

    Example:
        >>> clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=1.0)
        >>> adam = paddle.optimizer.Adam(parameters=model.parameters(), grad_clip=clip)
    """

    def __init__(self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False) -> None:
        self.clip_norm = float(check_number(clip_norm, "ClipGradByGlobalNorm", "clip_norm"))
        if not isinstance(group_name, str):
            raise TypeError(f"ClipGradByGlobalNorm: group_name must be a str, got {type(group_name).__name__}")
        self.group_name = group_name
        self.auto_skip_clip = check_bool(auto_skip_clip, "ClipGradByGlobalNorm", "auto_skip_clip")

    def __str__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"

    def global_norm(self, params_grads: list) -> Tensor | None:
        """The L2 norm of all clipped gradients together (None when no gradient is clipped), summed as Paddle 2.6
        sums it, by dtype: each gradient's sum of squares (squared_l2_norm) is of the gradient's dtype, a
        float16/bfloat16 one rounded from its float32 sum; the float16 (or bfloat16), float32 and float64 ones are
        added up apart, in their dtype, and those totals in float64 when any gradient is float64, else in float32."""
        groups: dict = {}  # dtype -> the squares of that dtype, in the parameters' order
        for p, g in params_grads:
            if g is not None and not _skips(p):
                s = _sum_of_squares(g)
                groups.setdefault(g.dtype, []).append(s if s.dtype == g.dtype else ops.cast(s, g.dtype))
        if not groups:
            return None
        if dtypes.float16 in groups and dtypes.bfloat16 in groups:
            raise ValueError("ClipGradByGlobalNorm: float16 and bfloat16 gradients cannot be clipped together "
                             "(paddle 2.6 refuses it too)")  # fmt: skip
        wide = dtypes.float64 if dtypes.float64 in groups else dtypes.float32
        order = [d for d in (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64) if d in groups]
        totals = [_added(groups[d]) for d in order]
        return ops.sqrt(_added([t if t.dtype == wide else ops.cast(t, wide) for t in totals]))

    def _dygraph_clip(self, params_grads: list) -> list:
        norm = self.global_norm(params_grads)
        if norm is None:
            return params_grads
        limit = as_tensor(self.clip_norm, norm)
        if self.auto_skip_clip and not norm.item() > self.clip_norm:
            scale = None
        else:
            scale = ops.divide(limit, ops.maximum(norm, limit))
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if scale is not None and not _skips(p):
                factor = scale if scale.dtype == g.dtype else ops.cast(scale, g.dtype)
                g = _rows_of(g, ops.multiply(g, factor))
            out.append((p, g))
        return out


def _sum_of_squares(g: Tensor) -> Tensor:
    """||g||^2 as a 0-d tensor (float16 and bfloat16 are squared and summed in float32, as Paddle's kernels do)."""
    if g.dtype in (dtypes.float16, dtypes.bfloat16):
        g = ops.cast(g, dtypes.float32)
    return ops.sum(ops.multiply(g, g))


def _added(terms: list) -> Tensor:
    """The terms added one after the other in their dtype (Paddle's add_n)."""
    total = terms[0]
    for t in terms[1:]:
        total = ops.add(total, t)
    return total

"""LBFGS: the limited-memory quasi-Newton method, with an optional strong-Wolfe line search (paddle 2.6).

Unlike the other optimizers, LBFGS needs the loss at several points per step, so `step(closure)` takes a
function that recomputes the loss and its gradients (`clear_grad(); loss = f(); loss.backward(); return loss`).
All the parameters are handled as one flat vector x. One step runs up to max_iter iterations of:

1. the direction d = -H g, where H, an approximation of the inverse Hessian, is never formed: the two-loop
   recursion builds H g from the last `history_size` pairs s = x_{k+1} - x_k, y = g_{k+1} - g_k
   (Nocedal & Wright, Algorithm 7.4), starting from the scale H_diag = s.y / y.y;
2. the step length alpha: learning_rate (the first iteration ever: min(1, 1/|g|_1) * learning_rate), or the
   strong-Wolfe line search from there;
3. x = x + alpha d, and the stopping tests: gradient below tolerance_grad, step or loss change below
   tolerance_change, max_eval evaluations of the closure.

The scalars of the recursion (alpha, s.y, H_diag) are Python floats here; the vectors are Tensors.
"""

from __future__ import annotations

import math
import numbers

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import enable_grad, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.tensor.creation import to_tensor, zeros_like
from minipaddle.tensor.manipulation import concat

__all__ = ["LBFGS"]

_ASSIGN = get_op("assign")
_SCALAR_KEYS = ("H_diag",)  # 0-d Tensors in paddle's state_dict, floats here
_SCALAR_LIST_KEYS = ("ro", "al")  # lists of 0-d Tensors in paddle's state_dict (al may hold None)


class LBFGS(Optimizer):
    r"""The L-BFGS method (Nocedal & Wright, Numerical Optimization, 2nd ed., Algorithm 7.5), as paddle 2.6 runs it.

    Args:
        learning_rate: the step length tried first (1.0).
        max_iter: the most iterations in one `step` (20).
        max_eval: the most evaluations of the closure in one `step` (default max_iter * 5 // 4).
        tolerance_grad: stop when every |gradient| is at most this (1e-7).
        tolerance_change: stop when the step, the loss change or the directional derivative is below this (1e-9).
        history_size: how many (s, y) pairs approximate the inverse Hessian (100).
        line_search_fn: None (fixed steps of learning_rate) or 'strong_wolfe'.
        parameters: the Tensors to update (every group's, when a list of parameter-group dicts is given).
        weight_decay, grad_clip: accepted as by every optimizer; as in paddle 2.6, LBFGS's step applies neither.
        name: unused, as in Paddle.

    Returns (from `step`): the loss the closure gave at the step's first evaluation.

    Example:
        >>> x = paddle.to_tensor([-1.2, 1.0], stop_gradient=False)
        >>> opt = paddle.optimizer.LBFGS(parameters=[x], line_search_fn="strong_wolfe")
        >>> def closure():
        ...     opt.clear_grad()
        ...     loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
        ...     loss.backward()
        ...     return loss
        >>> for _ in range(5):
        ...     opt.step(closure)   # x goes to the minimum at [1, 1]
    """

    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None, parameters=None, weight_decay=None, grad_clip=None,
                 name=None) -> None:  # fmt: skip
        if not isinstance(learning_rate, numbers.Real) or isinstance(learning_rate, bool):
            raise TypeError(f"LBFGS: learning_rate must be a float, got {type(learning_rate).__name__}")
        max_iter = _positive_int(max_iter, "max_iter")
        max_eval = max_iter * 5 // 4 if max_eval is None else _positive_int(max_eval, "max_eval")
        history_size = _positive_int(history_size, "history_size")
        for value, arg in ((tolerance_grad, "tolerance_grad"), (tolerance_change, "tolerance_change")):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise TypeError(f"LBFGS: {arg} must be a float, got {type(value).__name__}")
        super().__init__(float(learning_rate), parameters, weight_decay, grad_clip, name)
        self.learning_rate = float(learning_rate)
        self.max_iter, self.max_eval, self.history_size = max_iter, max_eval, history_size
        self.tolerance_grad, self.tolerance_change = float(tolerance_grad), float(tolerance_change)
        self.line_search_fn = line_search_fn
        self.state = {}
        self._params = self._all_params()

    # ---- the parameters as one flat vector ----

    def _gather_flat_grad(self) -> Tensor:
        """Every parameter's gradient (zeros where there is none), flattened and concatenated."""
        views = [(zeros_like(p) if p.grad is None else p.grad).reshape([-1]) for p in self._params]
        return concat(views, axis=0)

    def _add_grad(self, alpha: float, direction: Tensor) -> None:
        """x = x + alpha * direction, written into the parameters in place."""
        offset = 0
        for p in self._params:
            numel = p.size
            step = direction[offset : offset + numel].reshape(p.shape) * alpha
            apply_inplace(_ASSIGN, p, (p + step,))
            offset += numel

    def _set_param(self, values: list) -> None:
        for p, value in zip(self._params, values):
            apply_inplace(_ASSIGN, p, (value,))

    def _directional_evaluate(self, closure, x: list, alpha: float, d: Tensor) -> tuple:
        """(loss, flat gradient) at x + alpha d; the parameters are put back to x afterwards."""
        self._add_grad(alpha, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    # ---- one step ----

    @no_grad()
    def step(self, closure) -> Tensor:
        """Run up to max_iter L-BFGS iterations; `closure` recomputes the loss and its gradients."""
        if not callable(closure):
            raise TypeError(f"LBFGS.step: closure must be a callable returning the loss, got {type(closure).__name__}")
        closure = enable_grad()(closure)
        lr, tolerance_change, history_size = self.learning_rate, self.tolerance_change, self.history_size
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if float(flat_grad.abs().max()) <= self.tolerance_grad:
            return orig_loss

        d, alpha = state.get("d"), state.get("alpha")
        old_yk, old_sk, ro = state.get("old_yk"), state.get("old_sk"), state.get("ro")
        h_diag, prev_flat_grad = state.get("H_diag"), state.get("prev_flat_grad")

        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1

            # the direction: steepest descent at first, then the two-loop recursion over the stored pairs
            if state["n_iter"] == 1:
                d = -flat_grad
                old_yk, old_sk, ro, h_diag = [], [], [], 1.0
            else:
                y = flat_grad - prev_flat_grad
                s = d * alpha
                ys = float(y.dot(s))
                if ys > 1e-10:  # keep only pairs of positive curvature, so that H stays positive definite
                    if len(old_yk) == history_size:
                        old_yk.pop(0), old_sk.pop(0), ro.pop(0)
                    old_yk.append(y)
                    old_sk.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / float(y.dot(y))
                d = _two_loop(flat_grad, old_sk, old_yk, ro, h_diag, state.setdefault("al", [None] * history_size))
            prev_flat_grad = flat_grad.clone()
            prev_loss = loss

            # the step length
            if state["n_iter"] == 1:
                alpha = min(1.0, 1.0 / float(flat_grad.abs().sum())) * lr
            else:
                alpha = lr
            gtd = float(flat_grad.dot(d))  # the directional derivative
            if gtd > -tolerance_change:
                break

            ls_func_evals = 0
            if self.line_search_fn is not None:
                if self.line_search_fn != "strong_wolfe":
                    raise RuntimeError(
                        f"LBFGS.step: only 'strong_wolfe' is supported as line_search_fn, got {self.line_search_fn!r}"
                    )
                x_init = [p.clone() for p in self._params]

                def obj_func(x, step_length, direction):
                    return self._directional_evaluate(closure, x, step_length, direction)

                loss, flat_grad, alpha, ls_func_evals = _strong_wolfe(
                    obj_func, x_init, alpha, d, loss, flat_grad, gtd, tolerance_change=tolerance_change
                )
                self._add_grad(alpha, d)
                opt_cond = float(flat_grad.abs().max()) <= self.tolerance_grad
            else:  # a fixed step; the last iteration does not evaluate the loss there
                self._add_grad(alpha, d)
                opt_cond = False
                if n_iter != self.max_iter:
                    loss = float(closure())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = float(flat_grad.abs().max()) <= self.tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            if opt_cond:
                break
            if float((d * alpha).abs().max()) <= tolerance_change:  # no progress in x
                break
            if abs(loss - prev_loss) < tolerance_change:  # no progress in the loss
                break
            if current_evals >= self.max_eval:
                break

        state.update(d=d, alpha=alpha, old_yk=old_yk, old_sk=old_sk, ro=ro, H_diag=h_diag)
        state.update(prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """LBFGS cannot minimize from one loss: it re-evaluates it. Use `step(closure)` (see the class example)."""
        raise NotImplementedError(
            "LBFGS.minimize: LBFGS does not minimize a given loss; call opt.step(closure) with a closure that "
            "recomputes the loss and calls backward (see paddle.optimizer.LBFGS's example)"
        )

    # ---- state ----

    def state_dict(self) -> dict:
        """{'state': {...}}: the counters func_evals and n_iter, and after a step the direction d, alpha, the stored
        pairs old_sk/old_yk with ro, H_diag, al, prev_flat_grad and prev_loss (scalars as 0-d Tensors, as Paddle).
        The lists are copies, so later steps leave a saved state as it was."""
        packed = {k: list(v) if isinstance(v, list) else v for k, v in self.state.items()}
        dtype = self._params[0].dtype if self._params else None
        for key in _SCALAR_KEYS:
            if key in packed:
                packed[key] = to_tensor(packed[key], dtype=dtype)
        for key in _SCALAR_LIST_KEYS:
            if key in packed:
                packed[key] = [v if v is None else to_tensor(v, dtype=dtype) for v in packed[key]]
        return {"state": packed}

    def set_state_dict(self, state_dict: dict) -> None:
        """Continue from a state saved by `state_dict()` (paddle 2.6 ignores it silently; here it is loaded)."""
        if not isinstance(state_dict, dict) or not isinstance(state_dict.get("state"), dict):
            got = sorted(state_dict) if isinstance(state_dict, dict) else type(state_dict).__name__
            raise TypeError(f"LBFGS.set_state_dict: expected the dict {{'state': {{...}}}} of state_dict(), got {got}")
        state = dict(state_dict["state"])
        for key in _SCALAR_KEYS:
            if key in state:
                state[key] = float(state[key])
        for key in _SCALAR_LIST_KEYS:
            if key in state:
                state[key] = [v if v is None else float(v) for v in state[key]]
        for key in ("old_yk", "old_sk"):
            if key in state:
                state[key] = list(state[key])
        self.state = state

    set_dict = set_state_dict


def _positive_int(value, arg: str) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"LBFGS: {arg} must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"LBFGS: {arg} must be positive, got {value}")
    return int(value)


def _two_loop(flat_grad: Tensor, old_sk: list, old_yk: list, ro: list, h_diag: float, al: list) -> Tensor:
    """-H g by the two-loop recursion over the stored (s, y) pairs, newest first then oldest first."""
    q = -flat_grad
    for i in range(len(old_yk) - 1, -1, -1):
        al[i] = float(old_sk[i].dot(q)) * ro[i]
        q = q - old_yk[i] * al[i]
    r = q * h_diag
    for i in range(len(old_yk)):
        be_i = float(old_yk[i].dot(r)) * ro[i]
        r = r + old_sk[i] * (al[i] - be_i)
    return r


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None) -> float:
    """The minimizer, clamped to `bounds` (default [x1, x2]), of the cubic through (x1, f1) and (x2, f2) with
    slopes g1 and g2 (Nocedal & Wright, formula 3.59); the middle of the bounds when the cubic has none."""
    xmin_bound, xmax_bound = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (xmin_bound + xmax_bound) / 2.0
    d2 = math.sqrt(d2_square)
    if x1 <= x2:
        min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(min_pos, xmin_bound), xmax_bound)


def _strong_wolfe(obj_func, xk, alpha, d, loss, grad, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step length satisfying the strong Wolfe conditions (Nocedal & Wright, Algorithm 3.5 with zoom).

    First widen a bracket [a_prev, alpha] until it holds such a step (or alpha itself is one), then shrink it
    by cubic interpolation. Returns (loss, flat gradient, alpha, evaluations) at the step chosen."""
    d_norm = float(d.abs().max())
    loss_new, grad_new = obj_func(xk, alpha, d)
    ls_func_evals = 1
    gtd_new = float(grad_new.dot(d))

    # bracketing
    t_prev, f_prev, g_prev, gtd_prev = 0.0, loss, grad, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if loss_new > (loss + c1 * alpha * gtd) or (ls_iter > 1 and loss_new >= f_prev):
            bracket, bracket_f = [t_prev, alpha], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [alpha], [loss_new], [grad_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, alpha], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new], [gtd_prev, gtd_new]
            break
        # extrapolate: a longer step, between 1.01 and 10 times the current one
        min_step, max_step = alpha + 0.01 * (alpha - t_prev), alpha * 10
        previous = alpha
        alpha = _cubic_interpolate(t_prev, f_prev, gtd_prev, alpha, loss_new, gtd_new, bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = previous, loss_new, grad_new, gtd_new
        loss_new, grad_new = obj_func(xk, alpha, d)
        ls_func_evals += 1
        gtd_new = float(grad_new.dot(d))
        ls_iter += 1

    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0.0, alpha], [loss, loss_new], [grad, grad_new]

    # zoom: shrink the bracket until a point satisfies the conditions
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:  # the bracket is too small to shrink
            break
        alpha = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        # a trial too close to an end of the bracket twice running (or on it) is moved 10% of the bracket inside
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - alpha, alpha - min(bracket)) < eps:
            if insuf_progress or alpha >= max(bracket) or alpha <= min(bracket):
                if abs(alpha - max(bracket)) < abs(alpha - min(bracket)):
                    alpha = max(bracket) - eps
                else:
                    alpha = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        loss_new, grad_new = obj_func(xk, alpha, d)
        ls_func_evals += 1
        gtd_new = float(grad_new.dot(d))
        ls_iter += 1

        if loss_new > (loss + c1 * alpha * gtd) or loss_new >= bracket_f[low_pos]:
            # not a sufficient decrease, or not below the low end: the trial becomes the high end
            bracket[high_pos], bracket_f[high_pos] = alpha, loss_new
            bracket_g[high_pos], bracket_gtd[high_pos] = grad_new, gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:  # the old low end becomes the high end
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos], bracket_gtd[high_pos] = bracket_g[low_pos], bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = alpha, loss_new
            bracket_g[low_pos], bracket_gtd[low_pos] = grad_new, gtd_new

    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals

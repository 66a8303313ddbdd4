"""`paddle.static.Print` and `paddle.static.py_func`: printing values and calling Python from inside a Program."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE
from minipaddle.static.program import Variable
from minipaddle.tensor.checks import check_tensor


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True, print_tensor_type=True,  # noqa: N802
          print_tensor_shape=True, print_tensor_layout=True, print_tensor_lod=True, print_phase="both"):  # fmt: skip
    """Print `input` whenever the Program runs (in dynamic mode: now), and return it unchanged.

    Args:
        message: text printed before the values. summarize: how many values to print (-1: all).
        print_phase: 'forward', 'backward' (print the gradient) or 'both'.
    """
    check_tensor(input, "Print", "input")
    if print_phase not in ("forward", "backward", "both"):
        raise ValueError(f"Print: print_phase must be 'forward', 'backward' or 'both', got {print_phase!r}")
    attrs = {"message": message or "", "name": input.name if print_tensor_name else "", "summarize": int(summarize),
             "first_n": int(first_n), "phase": print_phase, "show_name": bool(print_tensor_name),
             "show_type": bool(print_tensor_type), "show_shape": bool(print_tensor_shape)}  # fmt: skip
    return ops.print_value(input, **attrs)


def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
    """Run the Python function `func` on numpy arrays as an op of the Program.

    Args:
        func: called with the values of `x` (numpy arrays); returns arrays for `out`.
        x: a Variable or list of Variables.
        out: Variable(s) created beforehand (e.g. with `block.create_var`), giving the outputs' shapes and dtypes.
        backward_func: called with (x values, out values, out gradients); returns the gradients of x.

    A Program holding a py_func cannot be saved: the function is Python code, and a Program is data.
    """
    if not callable(func) or (backward_func is not None and not callable(backward_func)):
        raise TypeError("py_func: func and backward_func must be callable")
    xs = [x] if isinstance(x, Variable) or not isinstance(x, (list, tuple)) else list(x)
    outs = [out] if not isinstance(out, (list, tuple)) else list(out)
    for v in xs + outs:
        check_tensor(v, "py_func")
    if skip_vars_in_backward_input is not None:
        raise ValueError("py_func: skip_vars_in_backward_input is not supported; backward_func gets x, out and dout")
    STATE.py_funcs[id(func)] = func
    if backward_func is not None:
        STATE.py_funcs[id(backward_func)] = backward_func
    attrs = {"func_id": id(func), "backward_id": None if backward_func is None else id(backward_func),
             "out_shapes": tuple(tuple(o.shape) for o in outs), "out_dtypes": tuple(o.dtype.name for o in outs),
             "serializable": False}  # fmt: skip
    result = ops.py_func_call(xs, attrs)
    if not STATE.static_mode:
        return result
    results = result if isinstance(result, tuple) else (result,)
    for r, o in zip(results, outs):  # the values go into the `out` variables the caller made, as in Paddle
        apply_inplace(get_op("assign"), o, (r,))
    return out

"""Check gradients against finite differences: `gradcheck` and `gradgradcheck`.

A grad rule is right when the gradient it computes matches the slope measured by nudging each input a little:

    d f / d x[j]  ~=  (f(x + eps e_j) - f(x - eps e_j)) / (2 eps)

Use float64 inputs: in float32 the rounding error of the nudge is as large as the slope you want to measure.

    >>> x = paddle.to_tensor(np.random.rand(3, 4), stop_gradient=False)      # float64
    >>> paddle.testing.gradcheck(lambda x: (x * x).sum(), [x])
    True
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.autograd import grad as autograd_grad
from minipaddle.core.tensor import Tensor


class GradcheckError(AssertionError):
    """Raised by gradcheck when the analytic gradient disagrees with the numerical one."""


def _as_outputs(out) -> list:
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    for o in outs:
        if not isinstance(o, Tensor):
            raise TypeError(f"gradcheck: the function must return Tensors, got {type(o).__name__}")
    return outs


def _differentiable(inputs) -> list[int]:
    return [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and not t.stop_gradient]


# Complex numbers are checked as pairs of real numbers. A complex output w counts as two real outputs, Re(w) and
# Im(w) (rows: all real parts, then all imaginary parts); a complex input z as two real inputs (columns: all real
# parts, then all imaginary parts). In Paddle's and PyTorch's convention the gradient backward gives for z is
# dL/dRe(z) + i dL/dIm(z), and seeding an output with 1 (or 1j) asks for the gradient of Re(w) (or Im(w)); see
# docs/complex_autograd.md. For real inputs and outputs all of this reduces to the plain Jacobian.


def _is_complex(a: np.ndarray) -> bool:
    return a.dtype.kind == "c"


def _as_real_columns(g: np.ndarray, complex_input: bool) -> np.ndarray:
    """A gradient (flattened) as Jacobian entries: [Re, Im] for a complex input, the real part for a real one."""
    g = g.reshape(-1)
    return np.concatenate([g.real, g.imag]) if complex_input else g.real


def analytic_jacobians(func, inputs) -> list:
    """J[k][i] of shape (out_k.size, in_i.size), by one backward per output element (doubled for complex)."""
    outs = _as_outputs(func(*inputs))
    wrt = [inputs[i] for i in _differentiable(inputs)]
    widths = [t.size * (2 if _is_complex(t.numpy()) else 1) for t in wrt]
    jac = []
    for o in outs:
        data = o.numpy()
        units = (1, 1j) if _is_complex(data) else (1,)
        rows = [np.zeros((o.size * len(units), w)) for w in widths]
        jac.append(rows)
        if o.stop_gradient:
            continue
        for u, unit in enumerate(units):
            for r in range(o.size):
                seed = np.zeros(o.size, dtype=data.dtype)
                seed[r] = unit
                grads = autograd_grad([o], wrt, [Tensor(seed.reshape(data.shape))], retain_graph=True,
                                      allow_unused=True)  # fmt: skip
                for i, g in enumerate(grads):
                    if g is not None:
                        rows[i][u * o.size + r] = _as_real_columns(g.numpy(), _is_complex(wrt[i].numpy()))
    return jac


def numerical_jacobians(func, inputs, eps: float) -> list:
    """The same Jacobians by central differences, nudging one input element (or its imaginary part) at a time."""
    idx = _differentiable(inputs)
    # C order, so that flat[j] below is a view into the array and a nudge really reaches the input
    base = [np.array(t.numpy(), order="C") if isinstance(t, Tensor) else t for t in inputs]

    def run(arrays):
        # Fresh tensors each run; they keep stop_gradient so functions that differentiate inside still can.
        args = [Tensor(a.copy(), stop_gradient=t.stop_gradient) if isinstance(t, Tensor) else a
                for a, t in zip(arrays, inputs)]  # fmt: skip
        flat = [o.numpy().reshape(-1) for o in _as_outputs(func(*args))]
        return [np.concatenate([f.real, f.imag]) if _is_complex(f) else f.copy() for f in flat]

    n_out = len(run(base))
    jac = [[None] * len(idx) for _ in range(n_out)]
    for col, i in enumerate(idx):
        flat = base[i].reshape(-1)
        steps = (eps, eps * 1j) if _is_complex(flat) else (eps,)
        cols = [[] for _ in range(n_out)]
        for step in steps:
            for j in range(flat.size):
                orig = flat[j]
                flat[j] = orig + step
                plus = run(base)
                flat[j] = orig - step
                minus = run(base)
                flat[j] = orig
                for k in range(n_out):
                    cols[k].append((plus[k] - minus[k]) / (2 * eps))
        for k in range(n_out):
            jac[k][col] = np.stack(cols[k], axis=1) if cols[k] else np.zeros((plus[k].size, 0))
    return jac


def gradcheck(func, inputs, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True) -> bool:  # fmt: skip
    """Compare the gradients backward computes for `func(*inputs)` with finite differences.

    Args:
        func: takes the inputs, returns a Tensor or a tuple of Tensors.
        inputs: a list of Tensors (those with stop_gradient=False are checked) and other arguments.
        eps: the nudge size. atol, rtol: how close analytic and numerical must be.
        raise_exception: raise GradcheckError with the first mismatch (default), or return False.

    Returns:
        True when every entry of every Jacobian agrees.
    """
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    idx = _differentiable(inputs)
    if not idx:
        raise ValueError("gradcheck: no input has stop_gradient=False, so there is nothing to check")
    for i in idx:
        if inputs[i].dtype.name not in ("float64", "complex128"):
            raise TypeError(f"gradcheck: input {i} is {inputs[i].dtype.name}; use float64 inputs for a precise check")
    analytic = analytic_jacobians(func, inputs)
    numeric = numerical_jacobians(func, inputs, eps)
    for k, (a_row, n_row) in enumerate(zip(analytic, numeric)):
        for col, (a, n) in enumerate(zip(a_row, n_row)):
            if not np.allclose(a, n, atol=atol, rtol=rtol):
                r, j = np.unravel_index(np.argmax(np.abs(a - n)), a.shape)
                msg = (
                    f"gradcheck: d(output {k})/d(input {idx[col]}) is wrong. At output element {r}, input element "
                    f"{j}: backward gave {a[r, j]:.6g}, finite differences give {n[r, j]:.6g}.\n"
                    f"analytic:\n{a}\nnumerical:\n{n}"
                )
                if raise_exception:
                    raise GradcheckError(msg)
                return False
    return True


def gradgradcheck(func, inputs, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  raise_exception: bool = True, seed: int = 0) -> bool:  # fmt: skip
    """Check second derivatives: gradcheck of `v -> grad(func(x), x, v, create_graph=True)`.

    The output gradient v is fixed (random, from `seed`), so what is checked is the derivative of the
    vector-Jacobian product with respect to the inputs: the double backward of every op in `func`.
    """
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    idx = _differentiable(inputs)
    rng = np.random.default_rng(seed)
    outs = _as_outputs(func(*inputs))
    vs = [Tensor(rng.standard_normal(o.numpy().shape).astype(o.numpy().dtype)) for o in outs]

    def first_grads(*args):
        outs = _as_outputs(func(*args))
        wrt = [args[i] for i in idx]
        grads = autograd_grad(outs, wrt, vs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_grads, inputs, eps, atol, rtol, raise_exception)

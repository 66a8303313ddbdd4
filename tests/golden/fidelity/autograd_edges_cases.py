"""Autograd at the edges, run with either library (`paddle` passed in): which ops pass a (zero) gradient and which
stop it, and what backward and paddle.grad do when no gradient can flow. make_autograd_edges_golden.py records
run_all(paddle 2.6) into autograd_edges.json; tests/autograd/test_autograd_edges.py compares."""

import warnings

import numpy as np


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # minipaddle warns where paddle is silent; the outcome is what is compared
        try:
            return {"value": fn()}
        except (TypeError, ValueError, RuntimeError):
            return {"error": "refused"}


def _grads(gs):
    return [None if g is None else np.asarray(g.numpy()).tolist() for g in gs]


def run_all(paddle):
    out = {}

    def leaf():
        return paddle.to_tensor([[-1.5, 2.2]], stop_gradient=False)

    for name in ("sign", "sgn", "floor", "ceil", "round", "trunc", "frac", "argmax", "argmin"):

        def through(name=name):
            x = leaf()
            y = getattr(paddle, name)(x)
            (g,) = paddle.grad(y.astype("float32").sum(), [x], allow_unused=True)
            return {"stop_gradient": y.stop_gradient, "grad": _grads([g])[0]}

        out[name] = _outcome(through)

    def backward_of_stopped():
        x = leaf()
        paddle.argmax(x).astype("float32").backward()
        return _grads([x.grad])

    def backward_under_no_grad():
        x = leaf()
        with paddle.no_grad():
            loss = (x * 2).sum()
        loss.backward()
        return [loss.stop_gradient] + _grads([x.grad])

    def backward_of_some_stopped():
        x = leaf()
        paddle.autograd.backward([(x * 2).sum(), paddle.argmax(x).astype("float32")])
        return _grads([x.grad])

    def grad_of_stopped(allow_unused):
        x = leaf()
        return _grads(paddle.grad(paddle.argmax(x).astype("float32"), [x], allow_unused=allow_unused))

    def grad_of_detached():
        x = leaf()
        return _grads(paddle.grad((x * 2).detach().sum(), [x], allow_unused=True))

    def grad_of_a_constant():
        x = leaf()
        return _grads(paddle.grad(paddle.to_tensor([1.0]), [x], allow_unused=True))

    out["backward_of_stopped"] = _outcome(backward_of_stopped)
    out["backward_under_no_grad"] = _outcome(backward_under_no_grad)
    out["backward_of_some_stopped"] = _outcome(backward_of_some_stopped)
    out["grad_of_stopped_allow_unused"] = _outcome(lambda: grad_of_stopped(True))
    out["grad_of_stopped"] = _outcome(lambda: grad_of_stopped(False))
    out["grad_of_detached"] = _outcome(grad_of_detached)
    out["grad_of_a_constant"] = _outcome(grad_of_a_constant)
    return out

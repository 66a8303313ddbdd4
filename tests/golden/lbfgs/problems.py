"""The LBFGS cases, written once for both sides: make_golden.py runs them on real Paddle 2.6 and
tests/optimizer/test_lbfgs.py on minipaddle (each passes its own `paddle` module).

A case names an objective (a small quadratic, Rosenbrock, or a two-parameter least squares), the starting values,
the optimizer's keyword arguments and how many times `step(closure)` is called.
"""

import numpy as np

QUAD_A = np.array([[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1], [0.5, 0.2, 2.0, 0.3], [0.0, 0.1, 0.3, 1.0]])
QUAD_B = np.array([1.0, -2.0, 0.5, 3.0])
LSQ_X = np.linspace(-1.0, 1.0, 15).reshape(5, 3)
LSQ_Y = np.array([[0.5, -1.0], [1.5, 0.2], [-0.3, 0.7], [2.0, -0.4], [0.1, 0.9]])

CASES = [
    {"name": "quad_none", "objective": "quadratic", "start": [[0.0, 0.0, 0.0, 0.0]], "dtype": "float64",
     "kwargs": {"learning_rate": 0.3, "max_iter": 10, "history_size": 5}, "steps": 3},
    {"name": "quad_wolfe", "objective": "quadratic", "start": [[0.5, 0.5, -0.5, 0.0]], "dtype": "float64",
     "kwargs": {"line_search_fn": "strong_wolfe", "max_iter": 3}, "steps": 2},
    {"name": "quad_wolfe_f32", "objective": "quadratic", "start": [[1.0, -1.0, 2.0, 0.5]], "dtype": "float32",
     "kwargs": {"line_search_fn": "strong_wolfe", "max_iter": 4}, "steps": 2},
    {"name": "rosen_wolfe", "objective": "rosenbrock", "start": [[-1.2, 1.0]], "dtype": "float64",
     "kwargs": {"line_search_fn": "strong_wolfe", "history_size": 4, "max_iter": 15}, "steps": 3},
    {"name": "rosen_wolfe_max_eval", "objective": "rosenbrock", "start": [[-1.5, 2.0]], "dtype": "float64",
     "kwargs": {"line_search_fn": "strong_wolfe", "max_iter": 50, "max_eval": 12, "history_size": 2}, "steps": 2},
    {"name": "rosen_none", "objective": "rosenbrock", "start": [[-1.2, 1.0]], "dtype": "float64",
     "kwargs": {"learning_rate": 0.001, "max_iter": 8, "history_size": 3}, "steps": 3},
    {"name": "lsq_two_params", "objective": "least_squares", "start": [np.full((3, 2), 0.1).tolist(), [0.0, 0.0]],
     "dtype": "float64", "kwargs": {"line_search_fn": "strong_wolfe", "tolerance_grad": 1e-5, "max_iter": 30},
     "steps": 2},
    {"name": "lsq_tolerance_change", "objective": "least_squares",
     "start": [np.full((3, 2), 0.1).tolist(), [0.0, 0.0]], "dtype": "float64",
     "kwargs": {"learning_rate": 0.5, "tolerance_change": 1e-3, "max_iter": 40}, "steps": 1},
]  # fmt: skip


def make_params(paddle, case):
    """The case's parameters, trainable, with its starting values."""
    params = []
    for value in case["start"]:
        array = np.array(value, dtype=case["dtype"])
        p = paddle.to_tensor(array, dtype=case["dtype"], stop_gradient=False)
        params.append(p)
    return params


def objective(paddle, case, params):
    """The case's loss as a 0-d Tensor of the parameters."""
    kind = case["objective"]
    if kind == "quadratic":
        (x,) = params
        a = paddle.to_tensor(QUAD_A.astype(case["dtype"]))
        b = paddle.to_tensor(QUAD_B.astype(case["dtype"]))
        return 0.5 * paddle.dot(x, paddle.matmul(a, x)) - paddle.dot(b, x)
    if kind == "rosenbrock":
        (x,) = params
        return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] * x[0]) ** 2
    w, bias = params
    data = paddle.to_tensor(LSQ_X.astype(case["dtype"]))
    target = paddle.to_tensor(LSQ_Y.astype(case["dtype"]))
    return ((paddle.matmul(data, w) + bias - target) ** 2).mean()


def run(paddle, case):
    """Run the case: the optimizer, and after each step the loss it returned, the parameters and the counters."""
    params = make_params(paddle, case)
    opt = paddle.optimizer.LBFGS(parameters=params, **case["kwargs"])

    def closure():
        opt.clear_grad()
        loss = objective(paddle, case, params)
        loss.backward()
        return loss

    steps = []
    for _ in range(case["steps"]):
        loss = opt.step(closure)
        state = opt.state_dict()["state"]
        steps.append({
            "loss": float(loss),
            "params": [p.numpy().tolist() for p in params],
            "func_evals": state["func_evals"],
            "n_iter": state["n_iter"],
        })  # fmt: skip
    return opt, steps

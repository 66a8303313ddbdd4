"""Record what paddle 2.6's paddle.incubate.LookAhead and ModelAverage do, step by step, for tests/incubate/.

Run with the reference Paddle, from outside the repo:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/incubate_optim/make_golden.py

Writes cases.json beside this file. Each case: the parameters' start values, the gradient of every step (each step
runs `sum(param * G).backward()`, whose gradient is exactly G; a parameter with G None gets no gradient), and after
each step every parameter's values and the wrapper's state_dict; for ModelAverage also the parameters inside
`apply()` and after it.
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(26)


def vals(shape):
    return rng.standard_normal(shape).astype("float32").tolist()


def make_params(specs):
    params = []
    for name, shape in specs:
        attr = paddle.ParamAttr(name=name, initializer=paddle.nn.initializer.Assign(np.array(vals(shape), "float32")))
        params.append(paddle.create_parameter(shape, "float32", attr=attr))
    return params


def backward(params, grads):
    loss = None
    for p in params:
        g = grads.get(p.name)
        if g is not None:
            term = (p * paddle.to_tensor(g)).sum()
            loss = term if loss is None else loss + term
    loss.backward()


def inner(kind, params):
    if kind == "sgd":
        return paddle.optimizer.SGD(0.1, parameters=params)
    return paddle.optimizer.Adam(0.05, parameters=params)


def state(opt):
    return {k: np.asarray(v.numpy()).tolist() for k, v in opt.state_dict().items()}


def lookahead_case(inner_kind, alpha, k, steps, skip_b_at=()):
    specs = [("w", [3, 2]), ("b", [2])]
    with paddle.utils.unique_name.guard():
        params = make_params(specs)
        start = {p.name: p.numpy().tolist() for p in params}
        opt = paddle.incubate.LookAhead(inner(inner_kind, params), alpha=alpha, k=k)
        grads, expected = [], []
        for i in range(steps):
            g = {"w": vals([3, 2]), "b": None if i in skip_b_at else vals([2])}
            backward(params, g)
            opt.step()
            opt.clear_grad(set_to_zero=False)
            grads.append(g)
            expected.append({"params": {p.name: p.numpy().tolist() for p in params}, "state": state(opt)})
    return {
        "kind": "lookahead",
        "inner": inner_kind,
        "alpha": alpha,
        "k": k,
        "start": start,
        "grads": grads,
        "expected": expected,
    }


def model_average_case(rate, min_w, max_w, steps, skip_b_at=()):
    specs = [("w", [3, 2]), ("b", [2])]
    with paddle.utils.unique_name.guard():
        params = make_params(specs)
        start = {p.name: p.numpy().tolist() for p in params}
        sgd = paddle.optimizer.SGD(0.1, parameters=params)
        ma = paddle.incubate.ModelAverage(rate, parameters=params, min_average_window=min_w, max_average_window=max_w)
        grads, expected = [], []
        for i in range(steps):
            g = {"w": vals([3, 2]), "b": None if i in skip_b_at else vals([2])}
            backward(params, g)
            sgd.step()
            ma.step()
            sgd.clear_grad(set_to_zero=False)
            with ma.apply():
                applied = {p.name: p.numpy().tolist() for p in params}
            grads.append(g)
            expected.append(
                {"params": {p.name: p.numpy().tolist() for p in params}, "applied": applied, "state": state(ma)}
            )
    return {
        "kind": "model_average",
        "rate": rate,
        "min": min_w,
        "max": max_w,
        "start": start,
        "grads": grads,
        "expected": expected,
    }


def main():
    cases = [
        lookahead_case("sgd", 0.2, 3, 7),
        lookahead_case("adam", 0.5, 2, 5, skip_b_at=(0, 3)),
        lookahead_case("sgd", 0.8, 1, 3),
        model_average_case(0.15, 2, 4, 12),
        model_average_case(1.0, 3, 3, 8),
        model_average_case(0.5, 1, 10, 9, skip_b_at=(2, 5)),
    ]
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f)


if __name__ == "__main__":
    main()

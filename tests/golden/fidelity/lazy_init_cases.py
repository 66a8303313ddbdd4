"""paddle.LazyGuard, run with either library (`paddle` passed in): what a Layer made under it looks like before and
after `param.initialize()`; make_lazy_init_golden.py records run_all(paddle 2.6) into lazy_init.json,
tests/nn/test_lazy_init.py compares."""

import numpy as np


def _raises(f) -> str:
    try:
        f()
    except Exception as e:  # noqa: BLE001  (the kind is what is recorded)
        return type(e).__name__
    return "ok"


def run_all(paddle):
    paddle.seed(7)
    eager = paddle.nn.Linear(3, 2)
    paddle.seed(7)
    with paddle.LazyGuard():
        lazy = paddle.nn.Linear(3, 2)
    out = {
        "names": [p.name.split(".")[-1] for p in lazy.parameters()],
        "shapes": [p.shape for p in lazy.parameters()],
        "dtypes": [str(p.dtype).replace("paddle.", "") for p in lazy.parameters()],
        "initialized_before": [p._is_initialized() for p in lazy.parameters()],
        "forward_before_initialize": _raises(lambda: lazy(paddle.ones([1, 3]))),
    }
    paddle.seed(7)  # the draws happen at initialize(): the same seed gives the eager Layer's values
    for p in lazy.parameters():
        p.initialize()
    out["initialized_after"] = [p._is_initialized() for p in lazy.parameters()]
    out["same_values_as_eager"] = all(
        np.array_equal(a.numpy(), b.numpy()) for a, b in zip(lazy.parameters(), eager.parameters())
    )
    out["initialize_twice"] = _raises(lambda: lazy.weight.initialize())
    out["eager_initialize"] = _raises(lambda: eager.weight.initialize())
    out["guard_is_exported_there"] = paddle.nn.initializer.lazy_init.LazyGuard is paddle.LazyGuard
    with paddle.LazyGuard():
        pass
    out["after_the_block_params_are_eager"] = paddle.nn.Linear(2, 2).weight._is_initialized()
    return out

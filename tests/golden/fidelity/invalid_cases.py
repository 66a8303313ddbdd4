"""Invalid arguments, written once and run with either library (`paddle` passed in): whether each call is refused
(an exception) or runs. make_invalid_golden.py records paddle 2.6's verdicts into invalid.json;
tests/tensor/test_invalid_arguments.py checks minipaddle gives the same verdict (where the two differ on purpose,
the test says why)."""

import numpy as np


def run_all(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(np.random.default_rng(0).normal(size=(2, 3)).astype("float32"))
    cases = {
        "softmax axis 2": lambda: F.softmax(x, axis=2),
        "softmax axis -3": lambda: F.softmax(x, axis=-3),
        "log_softmax axis 5": lambda: F.log_softmax(x, axis=5),
        "argmax dtype float32": lambda: paddle.argmax(x, dtype="float32"),
        "argmax dtype int16": lambda: paddle.argmax(x, dtype="int16"),
        "argmin dtype float": lambda: paddle.argmin(x, dtype="float64"),
        "argmax axis 3": lambda: paddle.argmax(x, axis=3),
        "histogram min>max": lambda: paddle.histogram(x, bins=4, min=2, max=1),
        "histogram bins 0": lambda: paddle.histogram(x, bins=0),
        "index_select float index": lambda: paddle.index_select(x, paddle.to_tensor([0.0, 1.0]), axis=1),
        "index_select axis 3": lambda: paddle.index_select(x, paddle.to_tensor([0]), axis=3),
        "allclose dtypes": lambda: paddle.allclose(x, x.astype("float64")),
        "isclose dtypes": lambda: paddle.isclose(x, x.astype("float64")),
        "gather float index": lambda: paddle.gather(x, paddle.to_tensor([0.0])),
        "topk k>n": lambda: paddle.topk(x, k=5),
        "cumsum axis 4": lambda: paddle.cumsum(x, axis=4),
        "sum axis 2": lambda: paddle.sum(x, axis=2),
        "transpose bad perm": lambda: paddle.transpose(x, [0, 0]),
        "reshape bad": lambda: paddle.reshape(x, [4, 2]),
        "concat axis 2": lambda: paddle.concat([x, x], axis=2),
        "matmul bad": lambda: paddle.matmul(x, x),
        "one_hot float": lambda: F.one_hot(x, 3),
        "embedding float ids": lambda: F.embedding(x, paddle.ones([3, 2])),
        "dropout p 2": lambda: F.dropout(x, p=2.0),
        "flip axis 3": lambda: paddle.flip(x, axis=3),
        "squeeze axis 5": lambda: paddle.squeeze(x, axis=5),
        "unsqueeze axis 5": lambda: paddle.unsqueeze(x, axis=5),
        "split bad": lambda: paddle.split(x, 4, axis=1),
        "mean axis 2": lambda: paddle.mean(x, axis=2),
        "pow str": lambda: paddle.pow(x, "2"),
        "clip min>max": lambda: paddle.clip(x, min=2, max=1),
        "linspace num 0": lambda: paddle.linspace(0, 1, 0),
        "arange step 0": lambda: paddle.arange(0, 1, 0),
        "full shape neg": lambda: paddle.full([-2, 3], 1.0),
        "normalize p 0": lambda: F.normalize(x, p=0),
        "layer_norm bad shape": lambda: F.layer_norm(x, [4]),
        "mode bad axis": lambda: paddle.mode(x, axis=3),
        "sort axis 3": lambda: paddle.sort(x, axis=3),
        "where shapes": lambda: paddle.where(paddle.to_tensor([True, False, True]), x, x),
        "nll float label": lambda: F.nll_loss(F.log_softmax(x), paddle.to_tensor([0.0, 1.0])),
        "nll label N1": lambda: F.nll_loss(F.log_softmax(x), paddle.to_tensor([[0], [1]])).shape,
        "cross_entropy label range": lambda: F.cross_entropy(x, paddle.to_tensor([0, 5])),
        "bincount float": lambda: paddle.bincount(x),
        "tile bad": lambda: paddle.tile(x, [0, -1]),
        "expand bad": lambda: paddle.expand(x, [3, 3]),
        "slice bad": lambda: paddle.slice(x, axes=[3], starts=[0], ends=[1]),
        "roll bad axis": lambda: paddle.roll(x, 1, axis=4),
        "diagonal bad": lambda: paddle.diagonal(x, axis1=0, axis2=0),
        "kron ok": lambda: paddle.kron(x, x).shape,
        "unique bad axis": lambda: paddle.unique(x, axis=3),
        "masked_select float mask": lambda: paddle.masked_select(x, x),
        "scatter float index": lambda: paddle.scatter(x, paddle.to_tensor([0.0]), x[:1]),
    }
    verdicts = {}
    for name, fn in cases.items():
        try:
            fn()
            verdicts[name] = "runs"
        except Exception:  # noqa: BLE001  (the verdict is what is compared, not the exception's type)
            verdicts[name] = "refused"
    return verdicts

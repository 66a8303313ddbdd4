"""Record real Paddle 2.6.2 files, once, for tests/framework/test_paddle_files.py and tests/static/test_paddle_models.py
(which then need no Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/paddle_models/make_golden.py [checkpoints|models]

It writes, next to this file:
- checkpoints/: what paddle.save writes: a Layer's state dict (protocol 4 and 2), an Adam state dict with its
  LR_Scheduler entry, a nested object mixing a state dict, a Tensor and a number, a single Tensor, and a
  static-mode LoDTensor (pickled by Paddle as eval('data', {'data': array})). checkpoints/expected.npz holds the
  values each should load as, under "<file>/<key>" (written with numpy, never pickled).
- models/<name>.pdmodel/.pdiparams/.pdiparams.info: paddle.jit.save of small models, and models/<name>.io.npz the
  input fed and the outputs paddle 2.6.2 computed (see MODELS below).
"""

import os
import sys

import numpy as np
import numpy.random  # noqa: F401  (paddle wants numpy.random imported first)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))


def record_checkpoints() -> None:
    out = os.path.join(HERE, "checkpoints")
    os.makedirs(out, exist_ok=True)
    expected = {}
    paddle.seed(7)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    opt = paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(0.1, step_size=1), parameters=net.parameters())
    net(paddle.randn([5, 3])).mean().backward()
    opt.step()
    opt.clear_grad()
    state = net.state_dict()
    for name, protocol in (("linear_bn.pdparams", 4), ("linear_bn_p2.pdparams", 2)):
        paddle.save(state, os.path.join(out, name), protocol=protocol)
        for k, v in state.items():
            expected[f"{name}/{k}"] = v.numpy()
            expected[f"{name}/{k}@name"] = np.array(v.name)
    paddle.save(opt.state_dict(), os.path.join(out, "adam.pdopt"))
    for k, v in opt.state_dict().items():
        if k != "LR_Scheduler":
            expected[f"adam.pdopt/{k}"] = v.numpy()
    paddle.save({"model": state, "epoch": 3, "weight": net[0].weight}, os.path.join(out, "nested.pdparams"))
    paddle.save(net[0].weight, os.path.join(out, "weight.pdtensor"))
    expected["weight.pdtensor/"] = net[0].weight.numpy()
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 2], "float32")
        paddle.static.nn.fc(x, 3)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    (param,) = [v for v in main.list_vars() if list(v.shape) == [2, 3]]
    lod = param.get_value()
    paddle.save(lod, os.path.join(out, "lodtensor.pdtensor"))
    expected["lodtensor.pdtensor/"] = np.array(lod)
    paddle.disable_static()
    np.savez(os.path.join(out, "expected.npz"), **expected)
    print(f"wrote {len(os.listdir(out))} checkpoint files")


if __name__ == "__main__":
    parts = sys.argv[1:] or ["checkpoints"]
    if "checkpoints" in parts:
        record_checkpoints()

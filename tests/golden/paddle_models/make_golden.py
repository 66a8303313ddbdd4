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
  inputs fed and the outputs paddle 2.6.2's load_inference_model + Executor computed (see MODELS below).
  resnet18, vgg11 and mobilenet_v2 have megabytes of weights even at small widths, so their .pdiparams is not kept:
  their parameters are set to `pattern_values(i, shape, kind)` (exact integer arithmetic that the tests repeat;
  i counts the state_dict, whose variable names and kinds are in the .io.npz), the outputs are recorded, and the
  tests write the parameter file themselves (with minipaddle's writer) before loading the model.
"""

import os
import sys

import numpy as np
import numpy.random  # noqa: F401  (paddle wants numpy.random imported first)
import paddle
from patterns import kind_of, pattern_values, static_mlp

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


class MlpBnDropout(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(8, 16)
        self.bn = paddle.nn.BatchNorm1D(16)
        self.drop = paddle.nn.Dropout(0.5)
        self.fc2 = paddle.nn.Linear(16, 4)

    def forward(self, x):
        return paddle.nn.functional.softmax(self.fc2(self.drop(paddle.nn.functional.relu(self.bn(self.fc1(x))))))


class OpsMix(paddle.nn.Layer):
    """Many of the table's ops in one small model: embedding, layer_norm, gelu, transpose, slice, concat, relu6,
    hardswish, flatten, scale, sigmoid, tanh, mean, elementwise ops with broadcasting."""

    def __init__(self):
        super().__init__()
        self.emb = paddle.nn.Embedding(20, 6)
        self.norm = paddle.nn.LayerNorm(6)
        self.fc = paddle.nn.Linear(6, 6)
        self.conv = paddle.nn.Conv2D(2, 4, 3, padding=1, groups=2)
        self.dw = paddle.nn.Conv2D(4, 4, 3, padding=1, groups=4)
        self.pool = paddle.nn.AvgPool2D(2)

    def forward(self, ids, img):
        h = self.norm(self.emb(ids))  # [N, 5, 6]
        h = paddle.nn.functional.gelu(self.fc(h))
        t = paddle.transpose(h, [0, 2, 1])  # [N, 6, 5]
        s = paddle.concat([t[:, 1:4, :], t[:, :2, :] * 2.0 + 1.0], axis=1)  # [N, 5, 5]
        s = paddle.nn.functional.relu6(s * 4.0) + paddle.nn.functional.hardswish(s)
        g = self.pool(self.dw(paddle.tanh(self.conv(img))))  # [N, 4, 2, 2]
        out = paddle.flatten(s, 1)  # [N, 25]
        return out.mean(axis=1, keepdim=True) - paddle.nn.functional.sigmoid(g.flatten(1)), s.max(axis=-1)


class Lstm(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm = paddle.nn.LSTM(4, 8, num_layers=2)
        self.head = paddle.nn.Linear(8, 3)

    def forward(self, x):
        y, (h, c) = self.lstm(x)
        return self.head(y[:, -1]), h


class BiRnn(paddle.nn.Layer):
    """Bidirectional recurrent layers: a 2-layer LSTM, then a GRU, both direction="bidirect"."""

    def __init__(self):
        super().__init__()
        self.lstm = paddle.nn.LSTM(4, 6, num_layers=2, direction="bidirect")
        self.gru = paddle.nn.GRU(12, 5, direction="bidirect")
        self.head = paddle.nn.Linear(10, 3)

    def forward(self, x):
        y, (h, c) = self.lstm(x)
        z, hg = self.gru(y)
        return self.head(z[:, -1]), h, c, hg


class IndexPool(paddle.nn.Layer):
    """Indexing and pooling as paddle 2.6 writes them: strided_slice with negative strides, unsqueeze2 for None,
    gather_nd (from lists and from a mask, with where_index), cumsum, 1-D pools (unsqueeze2 + pool2d /
    max_pool2d_with_index + squeeze2), divisor_override (pool2d + scale), pool3d and max_pool3d_with_index."""

    def forward(self, x, v):
        F = paddle.nn.functional
        views = x[:, ::-1] + x[:, :, 5:0:-1].sum() + x[None, :, 1].sum() + x[:, 3:0:-2].mean()
        gathered = x[:, [2, 0]].sum(axis=1) + x[[1, 0]][:, 0] + paddle.cumsum(x, axis=1)[:, -1]
        masked = x[x > 0.5]
        p1, m1 = F.max_pool1d(x, 2, return_mask=True)
        pools = F.adaptive_avg_pool1d(x, 3) + F.avg_pool1d(x, 2, ceil_mode=True)[:, :, :3] + p1[:, :, :3]
        d = F.avg_pool2d(x.unsqueeze(1), 2, divisor_override=3)
        p3, m3 = F.max_pool3d(v, 2, return_mask=True)
        a3 = F.adaptive_avg_pool3d(v, [1, 2, 3]) + F.avg_pool3d(v, [4, 2, 2], [1, 2, 2])[:, :, :, :, :3]
        return views, gathered, masked, pools, m1, d, p3, m3, a3, paddle.cumsum(v)


class RnnLengths(paddle.nn.Layer):
    """Padded sequences: the rnn op with SequenceLength (a bidirectional LSTM, then a GRU); the lengths fed are
    x1 % 4 + 2 (2 and 5 of 5 steps)."""

    def __init__(self):
        super().__init__()
        self.lstm = paddle.nn.LSTM(4, 6, direction="bidirect")
        self.gru = paddle.nn.GRU(12, 3, num_layers=2)

    def forward(self, x, n):
        lengths = n % 4 + 2
        y, (h, c) = self.lstm(x, sequence_length=lengths)
        z, hg = self.gru(y, sequence_length=lengths)
        return y, h, c, z, hg


class RnnRuntimeSteps(paddle.nn.Layer):
    """The rnn op over a time axis known only at run time (InputSpec [None, None, 4]): a 2-layer LSTM, then a
    bidirectional GRU, over padded sequences of lengths n % 2 + 1 (1 and 2), so the outputs of longer inputs
    that start with the same two steps are these, then zeros."""

    def __init__(self):
        super().__init__()
        self.lstm = paddle.nn.LSTM(4, 6, num_layers=2)
        self.gru = paddle.nn.GRU(6, 3, direction="bidirect")

    def forward(self, x, n):
        lengths = n % 2 + 1
        y, (h, c) = self.lstm(x, sequence_length=lengths)
        z, hg = self.gru(y, sequence_length=lengths)
        return y, h, c, z, hg


def cond_while(x):
    """to_static with a tensor `if` (conditional_block) and a while_loop (while)."""
    if paddle.mean(x) > 0:
        y = x * 2.0
    else:
        y = x - 1.0
    i = paddle.zeros([1], "int64")
    s = paddle.zeros_like(y)

    def cond(i, s):
        return i < 3

    def body(i, s):
        return [i + 1, s + y * 0.5]

    i, s = paddle.static.nn.while_loop(cond, body, [i, s])
    return s + 1.0


def qat_net():
    """A small conv + linear network quantized the way paddle 2.6 does it in-core (paddle.quantization.QAT with
    abs-max fake quanters, a few training steps to set the scales, then convert): quantize_linear and
    dequantize_linear ops in the saved model."""
    from paddle.quantization import QAT, QuantConfig
    from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(1, 4, 3, padding=1)
            self.fc = paddle.nn.Linear(4 * 4 * 4, 5)

        def forward(self, x):
            return self.fc(paddle.flatten(paddle.nn.functional.relu(self.conv(x)), 1))

    quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    qat = QAT(QuantConfig(activation=quanter, weight=quanter))
    net = qat.quantize(Net(), inplace=False)
    net.train()
    for i in range(3):
        net(paddle.to_tensor(make_input(10 + i, [4, 1, 4, 4], "float32") * 2.0))
    net.eval()
    return qat.convert(net, inplace=False)


def vision(name, **kwargs):
    return lambda: getattr(paddle.vision.models, name)(**kwargs)


# name: (build the layer (None: cond_while), input specs, inputs, keep .pdiparams)
MODELS = {
    "lenet": (vision("LeNet"), [([None, 1, 28, 28], "float32")], True),
    "resnet18": (vision("resnet18", num_classes=10), [([None, 3, 32, 32], "float32")], False),
    "mobilenet_v2": (vision("mobilenet_v2", scale=0.25, num_classes=10), [([None, 3, 32, 32], "float32")], False),
    "vgg11": (vision("vgg11", num_classes=0, with_pool=False), [([None, 3, 32, 32], "float32")], False),
    "mlp_bn_dropout": (MlpBnDropout, [([None, 8], "float32")], True),
    "ops_mix": (OpsMix, [([None, 5], "int64"), ([None, 2, 4, 4], "float32")], True),
    "lstm": (Lstm, [([None, 5, 4], "float32")], True),
    "birnn": (BiRnn, [([None, 5, 4], "float32")], True),
    "cond_while": (None, [([None, 3], "float32")], True),
    "quant_qat": (qat_net, [([None, 1, 4, 4], "float32")], True),
    "rnn_lengths": (RnnLengths, [([None, 5, 4], "float32"), ([None], "int64")], True),
    "rnn_runtime_steps": (RnnRuntimeSteps, [([None, None, 4], "float32"), ([None], "int64")], True),
    "index_pool": (IndexPool, [([None, 4, 6], "float32"), ([None, 2, 4, 4, 6], "float32")], True),
}


def make_input(i: int, shape, dtype: str) -> np.ndarray:
    shape = [2 if s is None else s for s in shape]
    if dtype == "int64":
        return (np.arange(int(np.prod(shape))) * 7 % 20).reshape(shape).astype(np.int64)
    return pattern_values(100 + i, shape, "input").astype(dtype)


def record_models(names) -> None:
    out = os.path.join(HERE, "models")
    os.makedirs(out, exist_ok=True)
    for name, (build, specs, keep_params) in MODELS.items():
        if names and name not in names:
            continue
        paddle.seed(2026)
        paddle.disable_static()
        input_spec = [paddle.static.InputSpec(list(shape), dtype, f"x{i}") for i, (shape, dtype) in enumerate(specs)]
        prefix = os.path.join(out, name)
        if build is None:
            paddle.jit.save(paddle.jit.to_static(cond_while, input_spec=input_spec, full_graph=True), prefix)
        else:
            layer = build()
            if not keep_params:
                for i, (key, p) in enumerate(layer.state_dict().items()):
                    p.set_value(pattern_values(i, p.shape, kind_of(key)))
                pattern = {
                    "pattern:names": np.array([p.name for p in layer.state_dict().values()]),
                    "pattern:kinds": np.array([kind_of(k) for k in layer.state_dict()]),
                }
            layer.eval()
            paddle.jit.save(layer, prefix, input_spec=input_spec)
        inputs = [make_input(i, shape, dtype) for i, (shape, dtype) in enumerate(specs)]
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            outputs = exe.run(program, feed=dict(zip(feeds, inputs)), fetch_list=fetches)
        paddle.disable_static()
        arrays = {f"input:{f}": a for f, a in zip(feeds, inputs)}
        arrays.update({f"output:{i}": a for i, a in enumerate(outputs)})
        if not keep_params:
            arrays.update(pattern)  # the parameters in state_dict order: pattern_values(i, shape, kind) for each
        np.savez(prefix + ".io.npz", **arrays)
        if not keep_params:
            os.remove(prefix + ".pdiparams")
        ops = sorted({op.type for b in program.blocks for op in b.ops})
        print(f"{name}: feeds {feeds}, outputs {[o.shape for o in outputs]}, ops {ops}")


def record_static() -> None:
    """static/: paddle.static.save of a static MLP after one Adam step (mlp.pdparams/.pdopt/.pdmodel, the last the
    training Program with its backward and optimizer ops), paddle.save of its forward Program (mlp_test.pdmodel),
    paddle.static.save_vars of its persistables as a directory (mlp_vars/) and as one file (mlp_vars.combined),
    and static/expected.npz: every persistable value ("state:<name>"), the input and the test Program's output, and
    the losses of two more training steps ("output:next_losses")."""
    out = os.path.join(HERE, "static")
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    paddle.seed(11)
    main, startup, test, loss, feed = static_mlp(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe.run(startup)
        exe.run(main, feed=feed, fetch_list=[loss])
        paddle.static.save(main, os.path.join(out, "mlp"))
        # the older layouts paddle.static.load falls back to: one file per persistable variable in a directory,
        # and all of them in one file (save_combine, sorted by name); paddle.static.save_vars writes both
        persistable = paddle.static.io.is_persistable
        paddle.static.save_vars(exe, os.path.join(out, "mlp_vars"), main, predicate=persistable)
        paddle.static.save_vars(exe, out, main, predicate=persistable, filename="mlp_vars.combined")
        paddle.save(test, os.path.join(out, "mlp_test.pdmodel"))
        (result,) = exe.run(test, feed={"x": feed["x"]}, fetch_list=[test.global_block().ops[-1].output_arg_names[0]])
        state = paddle.static.load_program_state(os.path.join(out, "mlp"))
        expected = {f"state:{k}": np.asarray(v) for k, v in state.items()}
        # two more training steps from the saved state: their losses, for a training Program read back and run
        expected["output:next_losses"] = np.array([exe.run(main, feed=feed, fetch_list=[loss])[0] for _ in range(2)])
    expected.update({"input:x": feed["x"], "input:y": feed["y"], "output:test": result})
    paddle.disable_static()
    np.savez(os.path.join(out, "expected.npz"), **expected)
    print(f"static: {sorted(os.listdir(out))}, ops {[op.type for op in test.global_block().ops]}")


if __name__ == "__main__":
    parts = sys.argv[1:] or ["checkpoints", "models", "static"]
    if "static" in parts:
        record_static()
    if "checkpoints" in parts:
        record_checkpoints()
    if "models" in parts:
        record_models([p for p in parts if p in MODELS])  # (model names after "models": only those)

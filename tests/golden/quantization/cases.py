"""Quantization cases written once for both libraries: each function takes a paddle (the real 2.6 one in
make_golden.py, minipaddle in tests/quantization) and returns {name: array}. Loaded by file path, so it imports
nothing from the repository.

- qat20_*: ImperativeQuantAware on LeNet (channel-wise or abs-max weights, moving-average activations, output
  scales), 10 SGD steps from the same weights and data: losses, the first input quanter's scale/state/accum after
  every step, every state_dict entry, and outputs in train and eval mode.
- qat26_*: paddle.quantization.QAT with FakeQuanterWithAbsMaxObserver, 10 steps, then convert: the state, the
  converted integer weights and the converted model's output.
- ptq26_*: paddle.quantization.PTQ with AbsmaxObserver, three calibration batches, convert.
"""

import numpy as np

SEED = 14
STEPS = 10
BATCH = 8


def _module(paddle, name):
    """paddle.<name> (real Paddle's submodules need importing; minipaddle's are there already)."""
    import importlib

    return importlib.import_module(f"{paddle.__name__}.{name}")


def _weights(paddle, net, seed):
    """Give every parameter of `net` values drawn from one numpy generator, in sorted-name order."""
    rng = np.random.default_rng(seed)
    state = net.state_dict()
    values = {}
    for name in sorted(state):
        shape = list(state[name].shape)
        fan_in = shape[0] if len(shape) <= 2 else int(np.prod(shape[1:]))  # Linear weights are [in, out]
        values[name] = (rng.standard_normal(shape) * np.sqrt(1.0 / fan_in)).astype("float32")
    net.set_state_dict({k: paddle.to_tensor(v) for k, v in values.items()})


def _data(seed, steps):
    rng = np.random.default_rng(seed)
    images = rng.standard_normal((steps, BATCH, 1, 28, 28)).astype("float32")
    labels = rng.integers(0, 10, (steps, BATCH, 1)).astype("int64")
    return images, labels


def _train(paddle, net, steps, watch, out, prefix, lr=0.01):
    """`steps` SGD steps on the fixed data; record losses and the watched quanter's statistics per step."""
    images, labels = _data(SEED + 1, steps)
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=net.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()
    losses, history = [], {k: [] for k in ("_scale", "_state", "_accum")}
    net.train()
    for i in range(steps):
        logits = net(paddle.to_tensor(images[i]))
        loss = loss_fn(logits, paddle.to_tensor(labels[i]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()))
        for k in history:
            history[k].append(float(np.array(getattr(watch, k).numpy()).reshape(-1)[0]))
    out[prefix + "losses"] = np.asarray(losses)
    for k, v in history.items():
        out[prefix + "history" + k] = np.asarray(v, "float32")


def _record_state(net, out, prefix):
    for k, v in net.state_dict().items():
        out[prefix + "state." + k] = np.array(v.numpy())  # a copy: later forwards write in place


def _outputs(paddle, net, out, prefix):
    x = paddle.to_tensor(_data(SEED + 2, 1)[0][0])
    net.eval()
    out[prefix + "eval_out"] = net(x).numpy()
    net.train()


def qat20_trained(paddle, weight_type="channel_wise_abs_max", out=None, onnx_format=False):
    """(the ImperativeQuantAware LeNet after the 10 steps, its ImperativeQuantAware); records into `out`."""
    paddle.seed(SEED)
    net = paddle.vision.models.LeNet()
    _weights(paddle, net, SEED)
    quanter = paddle.quantization.ImperativeQuantAware(
        weight_quantize_type=weight_type, activation_quantize_type="moving_average_abs_max", onnx_format=onnx_format
    )
    quanter.quantize(net)
    _train(paddle, net, STEPS, net.features[0]._layer._fake_quant_input, {} if out is None else out,
           f"qat20_{weight_type}.")  # fmt: skip
    return net, quanter


def eval_input():
    """The fixed batch the eval outputs are computed on."""
    return _data(SEED + 2, 1)[0][0]


def qat20_cases(paddle, weight_type="channel_wise_abs_max"):
    out = {}
    net, _ = qat20_trained(paddle, weight_type, out)
    prefix = f"qat20_{weight_type}."
    _record_state(net, out, prefix)
    _outputs(paddle, net, out, prefix)
    return out


def qat26_cases(paddle):
    QAT, QuantConfig = paddle.quantization.QAT, paddle.quantization.QuantConfig
    FakeQuanterWithAbsMaxObserver = _module(paddle, "quantization.quanters").FakeQuanterWithAbsMaxObserver

    paddle.seed(SEED)
    net = paddle.vision.models.LeNet()
    _weights(paddle, net, SEED)
    quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    qat = QAT(QuantConfig(activation=quanter, weight=quanter))
    model = qat.quantize(net, inplace=False)
    out = {}
    _train(paddle, model, STEPS, model.features[0].activation_quanter, out, "qat26.")
    _record_state(model, out, "qat26.")
    _outputs(paddle, model, out, "qat26.")
    model.eval()
    converted = qat.convert(model, inplace=False)
    _record_state(converted, out, "qat26_converted.")
    _outputs(paddle, converted, out, "qat26_converted.")
    kept = qat.convert(model, inplace=False, remain_weight=True)
    _outputs(paddle, kept, out, "qat26_remain_weight.")
    return out


def ptq26_cases(paddle):
    PTQ, QuantConfig = paddle.quantization.PTQ, paddle.quantization.QuantConfig
    AbsmaxObserver = _module(paddle, "quantization.observers").AbsmaxObserver

    paddle.seed(SEED)
    net = paddle.vision.models.LeNet()
    _weights(paddle, net, SEED)
    net.eval()
    observer = AbsmaxObserver(quant_bits=8)
    ptq = PTQ(QuantConfig(activation=observer, weight=observer))
    model = ptq.quantize(net, inplace=False)
    images, _ = _data(SEED + 3, 3)
    for batch in images:
        model(paddle.to_tensor(batch))
    out = {
        "ptq26.conv0_act": model.features[0].activation_quanter.scales().numpy(),
        "ptq26.conv0_weight": model.features[0].weight_quanter.scales().numpy(),
        "ptq26.fc2_act": model.fc[2].activation_quanter.scales().numpy(),
    }
    converted = ptq.convert(model, inplace=False)
    _record_state(converted, out, "ptq26_converted.")
    _outputs(paddle, converted, out, "ptq26_converted.")
    return out


def run_all(paddle):
    out = {}
    out.update(qat20_cases(paddle, "channel_wise_abs_max"))
    out.update(qat20_cases(paddle, "abs_max"))
    out.update(qat26_cases(paddle))
    out.update(ptq26_cases(paddle))
    return out

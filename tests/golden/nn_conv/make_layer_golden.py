"""Record what real Paddle 2.6 layers compute from given weights, as golden cases for tests/nn/test_layer_golden.py:
conv/pool/resize layers, RNNs, attention and Transformer layers, and short SGD trainings of a small CNN and an
LSTM classifier.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/nn_conv/make_layer_golden.py

It writes layers.json (each case: the layer class, its constructor arguments, the forward arguments) and
layers.npz (per case: every parameter by state_dict name, the inputs, each output, a cotangent per output, and
the gradients of sum(out_i * cot_i) for every float input and parameter). A training case stores the starting
parameters, the batch and the loss of each step.
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)
paddle.set_default_dtype("float64")


def F(*shape):
    return {"float": list(shape)}


def I(values):  # noqa: E743
    return {"int": values}


# name -> (class in paddle.nn, constructor kwargs, forward args as specs: F(shape) float tensor, I(list) int64
# tensor, a list of specs for a tuple, None, or a plain value under {"value": v})
CASES = {
    "Conv2D_reflect": (
        "Conv2D",
        dict(in_channels=2, out_channels=3, kernel_size=3, padding=1, padding_mode="reflect"),
        [F(2, 2, 5, 4)],
    ),
    "Conv2D_circular_stride": (
        "Conv2D",
        dict(in_channels=2, out_channels=2, kernel_size=[3, 2], stride=2, padding=2, padding_mode="circular"),
        [F(1, 2, 5, 6)],
    ),
    "Conv1D_replicate": (
        "Conv1D",
        dict(in_channels=2, out_channels=3, kernel_size=3, padding=2, padding_mode="replicate", data_format="NLC"),
        [F(2, 6, 2)],
    ),
    "Conv2DTranspose_output_size": (
        "Conv2DTranspose",
        dict(in_channels=2, out_channels=3, kernel_size=3, stride=2, padding=1),
        [F(1, 2, 3, 3), {"value": [6, 5]}],
    ),
    "Conv3DTranspose_groups": (
        "Conv3DTranspose",
        dict(in_channels=4, out_channels=2, kernel_size=2, groups=2, stride=[1, 2, 1]),
        [F(1, 4, 2, 2, 3)],
    ),
    "UpsamplingBilinear2D": ("UpsamplingBilinear2D", dict(size=[5, 7]), [F(1, 2, 3, 4)]),
    "UpsamplingNearest2D": ("UpsamplingNearest2D", dict(scale_factor=2), [F(1, 2, 3, 2)]),
    "MaxPool2D_mask": ("MaxPool2D", dict(kernel_size=2, return_mask=True), [F(1, 2, 4, 6)]),
    "Pad2D_reflect": ("Pad2D", dict(padding=[1, 0, 2, 1], mode="reflect"), [F(1, 1, 4, 3)]),
    # ---- recurrent ----
    "SimpleRNNCell": ("SimpleRNNCell", dict(input_size=3, hidden_size=4), [F(2, 3), F(2, 4)]),
    "LSTMCell": ("LSTMCell", dict(input_size=3, hidden_size=4), [F(2, 3), [F(2, 4), F(2, 4)]]),
    "GRUCell": ("GRUCell", dict(input_size=3, hidden_size=4), [F(2, 3), F(2, 4)]),
    "SimpleRNN_relu": ("SimpleRNN", dict(input_size=3, hidden_size=4, activation="relu"), [F(2, 5, 3)]),
    "LSTM_2layer_bidirect": (
        "LSTM",
        dict(input_size=3, hidden_size=4, num_layers=2, direction="bidirect"),
        [F(2, 5, 3)],
    ),
    "LSTM_initial_states": (
        "LSTM",
        dict(input_size=3, hidden_size=4, num_layers=2),
        [F(3, 4, 3), [F(2, 3, 4), F(2, 3, 4)]],
    ),
    "LSTM_sequence_length": ("LSTM", dict(input_size=3, hidden_size=4), [F(3, 5, 3), None, I([5, 2, 4])]),
    "LSTM_bidirect_sequence_length": (
        "LSTM",
        dict(input_size=3, hidden_size=2, direction="bidirectional"),
        [F(2, 4, 3), None, I([4, 2])],
    ),
    "GRU_time_major_bidirect": (
        "GRU",
        dict(input_size=3, hidden_size=4, direction="bidirect", time_major=True),
        [F(5, 2, 3), F(2, 2, 4)],
    ),
    "GRU_2layer": ("GRU", dict(input_size=2, hidden_size=3, num_layers=2), [F(2, 4, 2)]),
    # ---- attention ----
    "MultiHeadAttention_self": ("MultiHeadAttention", dict(embed_dim=8, num_heads=2), [F(2, 5, 8)]),
    "MultiHeadAttention_kv_mask_weights": (
        "MultiHeadAttention",
        dict(embed_dim=8, num_heads=4, kdim=6, vdim=5, need_weights=True),
        [F(2, 3, 8), F(2, 4, 6), F(2, 4, 5), F(2, 4, 3, 4)],
    ),
    "TransformerEncoderLayer": (
        "TransformerEncoderLayer",
        dict(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0),
        [F(2, 5, 8)],
    ),
    "TransformerEncoderLayer_pre_gelu": (
        "TransformerEncoderLayer",
        dict(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, activation="gelu", normalize_before=True),
        [F(2, 5, 8), F(2, 1, 5, 5)],
    ),
    "TransformerDecoderLayer": (
        "TransformerDecoderLayer",
        dict(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0),
        [F(2, 4, 8), F(2, 5, 8), F(4, 4)],
    ),
    "Transformer": (
        "Transformer",
        dict(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=16, dropout=0.0),
        [F(2, 5, 8), F(2, 3, 8)],
    ),
}


def make(spec, record, key):
    if spec is None:
        return None
    if isinstance(spec, list):
        return tuple(make(s, record, f"{key}.{i}") for i, s in enumerate(spec))
    if "value" in spec:
        return spec["value"]
    if "int" in spec:
        value = np.array(spec["int"], dtype="int64")
        record[key] = value
        return paddle.to_tensor(value)
    value = rng.standard_normal(spec["float"])
    record[key] = value
    return paddle.to_tensor(value, stop_gradient=False)


def flatten(x):
    if isinstance(x, (list, tuple)):
        return [t for e in x for t in flatten(e)]
    return [x] if isinstance(x, paddle.Tensor) else []


def record_layers(arrays):
    cases = {}
    for name, (cls, kwargs, forward) in CASES.items():
        layer = getattr(paddle.nn, cls)(**kwargs)
        for param in layer.state_dict().values():
            value = rng.uniform(-0.5, 0.5, param.shape)
            param.set_value(value)
        for key, param in layer.state_dict().items():
            arrays[f"{name}.param.{key}"] = param.numpy()
        inputs = {}
        args = [make(spec, inputs, f"arg{i}") for i, spec in enumerate(forward)]
        for key, value in inputs.items():
            arrays[f"{name}.in.{key}"] = value
        outs = flatten(layer(*args))
        loss = 0
        for i, o in enumerate(outs):
            arrays[f"{name}.out.{i}"] = o.numpy()
            if o.dtype in (paddle.float32, paddle.float64):
                cot = rng.standard_normal(o.shape)
                arrays[f"{name}.cot.{i}"] = cot
                loss = loss + (o * paddle.to_tensor(cot)).sum()
        wrt = [t for t in flatten(args) if not t.stop_gradient]
        params = [p for _, p in layer.named_parameters()]
        grads = paddle.grad([loss], wrt + params, allow_unused=True)
        for i, g in enumerate(grads[: len(wrt)]):
            if g is not None:
                arrays[f"{name}.grad_in.{i}"] = g.numpy()
        for (key, _), g in zip(layer.named_parameters(), grads[len(wrt) :]):
            if g is not None:
                arrays[f"{name}.grad_param.{key}"] = g.numpy()
        cases[name] = {"cls": cls, "kwargs": kwargs, "forward": forward, "n_out": len(outs)}
        print(name, [o.shape for o in outs])
    return cases


# ---- training: the same start, the same batches, SGD; the losses must agree -------------------------------------


class SmallCNN(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(1, 4, 3)
        self.pool = paddle.nn.MaxPool2D(2)
        self.fc = paddle.nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        return self.fc(paddle.flatten(self.pool(paddle.nn.functional.relu(self.conv(x))), 1))


class LSTMClassifier(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm = paddle.nn.LSTM(4, 8)
        self.fc = paddle.nn.Linear(8, 3)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1])


TRAININGS = {"cnn": (SmallCNN, (8, 1, 8, 8), 5, 0.1), "lstm": (LSTMClassifier, (6, 5, 4), 3, 0.5)}
STEPS = 8


def record_training(arrays):
    paddle.set_default_dtype("float32")
    cases = {}
    for name, (cls, x_shape, classes, lr) in TRAININGS.items():
        paddle.seed(0)
        model = cls()
        for key, value in model.state_dict().items():
            arrays[f"train.{name}.param.{key}"] = value.numpy()
        x = rng.standard_normal(x_shape).astype("float32")
        y = rng.integers(0, classes, size=(x_shape[0],)).astype("int64")
        arrays[f"train.{name}.x"], arrays[f"train.{name}.y"] = x, y
        opt = paddle.optimizer.SGD(learning_rate=lr, parameters=model.parameters())
        losses = []
        for _ in range(STEPS):
            loss = paddle.nn.functional.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y))
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        arrays[f"train.{name}.losses"] = np.array(losses)
        cases[name] = {"lr": lr, "steps": STEPS}
        print(name, losses)
    return cases


def main():
    arrays = {}
    cases = record_layers(arrays)
    trainings = record_training(arrays)
    with open(os.path.join(HERE, "layers.json"), "w") as f:
        json.dump({"paddle_version": paddle.__version__, "cases": cases, "trainings": trainings}, f, indent=1)
    np.savez_compressed(os.path.join(HERE, "layers.npz"), **arrays)


if __name__ == "__main__":
    main()

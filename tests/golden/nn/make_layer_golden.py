"""Record how real Paddle 2.6 prints and names Layers, as golden cases for tests/nn/test_layer_print_golden.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/nn/make_layer_golden.py

Each snippet below is Paddle 2.x code that builds a model `m`; it runs unchanged under minipaddle (`paddle` is
bound to either framework). For each, under a fresh name counter, it records repr(m), the state_dict keys, the
parameters' names, trainable flags and shapes, the named sublayers and buffers, and full_name(). It writes
layers.json next to this file.
"""

import json
import os

SNIPPETS = {
    "linear": "m = paddle.nn.Linear(3, 4)",
    "linear_named_no_bias": "m = paddle.nn.Linear(3, 4, bias_attr=False, name='fc')",
    "linear_param_attr": "m = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name='my_w', learning_rate=0.5))",
    "sequential_conv_relu": """
m = paddle.nn.Sequential(
    paddle.nn.Conv2D(1, 6, 3, padding=1), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2, 2),
    paddle.nn.Conv2D(6, 16, 5), paddle.nn.ReLU(), paddle.nn.Flatten(), paddle.nn.Linear(16, 10))
""",
    "sequential_named": """
m = paddle.nn.Sequential(('fc1', paddle.nn.Linear(4, 8)), ('act', paddle.nn.Tanh()), ('fc2', paddle.nn.Linear(8, 1)))
""",
    "nested_custom": """
class Block(paddle.nn.Layer):
    def __init__(self, c):
        super().__init__()
        self.fc = paddle.nn.Linear(c, c)
        self.norm = paddle.nn.LayerNorm(c)
        self.drop = paddle.nn.Dropout(0.1)
        self.register_buffer('steps', paddle.zeros([1]))
        self.register_buffer('scratch', paddle.zeros([2]), persistable=False)

    def forward(self, x):
        return self.drop(self.norm(self.fc(x)))

class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = paddle.nn.Embedding(10, 4, padding_idx=0)
        self.blocks = paddle.nn.LayerList([Block(4) for _ in range(2)])
        self.heads = paddle.nn.LayerDict({'cls': paddle.nn.Linear(4, 3), 'act': paddle.nn.Softmax(axis=-1)})
        self.scale = self.create_parameter([1], default_initializer=paddle.nn.initializer.Constant(1.0))
        self.extra = paddle.nn.ParameterList([self.create_parameter([2, 2]) for _ in range(2)])

    def forward(self, x):
        return x

m = Net()
""",
    "norms_and_activations": """
m = paddle.nn.Sequential(
    paddle.nn.BatchNorm1D(4), paddle.nn.BatchNorm2D(3), paddle.nn.BatchNorm(3), paddle.nn.GroupNorm(2, 4),
    paddle.nn.InstanceNorm2D(3), paddle.nn.LocalResponseNorm(3), paddle.nn.LeakyReLU(0.2), paddle.nn.PReLU(3),
    paddle.nn.GELU(), paddle.nn.ELU(0.5), paddle.nn.Hardtanh(), paddle.nn.Softplus(), paddle.nn.SELU(),
    paddle.nn.LogSoftmax(1), paddle.nn.Maxout(2), paddle.nn.Dropout2D(), paddle.nn.AlphaDropout(0.1),
    paddle.nn.Identity(), paddle.nn.CosineSimilarity(), paddle.nn.PairwiseDistance(), paddle.nn.Bilinear(2, 3, 4),
    paddle.nn.CrossEntropyLoss(), paddle.nn.MSELoss())
""",
    "empty_containers": "m = paddle.nn.Sequential(paddle.nn.LayerList(), paddle.nn.LayerDict(), paddle.nn.Layer())",
    "batch_norm_named": "m = paddle.nn.BatchNorm2D(3, name='bn')",
}


def describe(paddle, source: str) -> dict:
    scope = {"paddle": paddle}
    exec(source, scope)  # noqa: S102 (our own snippets, run in both frameworks)
    m = scope["m"]
    return {
        "repr": repr(m),
        "state_dict": list(m.state_dict()),
        "parameters": [[n, p.name, bool(p.trainable), list(p.shape)] for n, p in m.named_parameters()],
        "sublayers": [n for n, _ in m.named_sublayers()],
        "buffers": [n for n, _ in m.named_buffers()],
        "full_name": m.full_name(),
    }


def main():
    import paddle

    out = {}
    for name, source in SNIPPETS.items():
        with paddle.utils.unique_name.guard():
            out[name] = {"source": source, **describe(paddle, source)}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.json")
    with open(path, "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": out}, f, indent=1)
    print(f"wrote {len(out)} cases")


if __name__ == "__main__":
    main()

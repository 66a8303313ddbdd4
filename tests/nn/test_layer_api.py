"""paddle.nn.Layer: registration of parameters, sublayers and buffers, hooks, state_dict and its warnings,
train/eval, apply, dtype casts, deepcopy, and the Layer scope every op records. Expected values are paddle 2.6's
(observed with /work/paddle-venv)."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import nn
from minipaddle.core.state import name_guard


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([2])
        self.b = self.create_parameter([2], is_bias=True)
        self.register_buffer("count", paddle.zeros([1]))
        self.register_buffer("cache", paddle.zeros([2]), persistable=False)

    def forward(self, x):
        return x * self.w + self.b


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(Block(), nn.Sequential(Block()))
        self.head = nn.Linear(2, 3)
        self.loose = [Block()]  # a plain list: not registered

    def forward(self, x):
        return self.head(self.loose[0](self.features(x)))


def test_names_follow_paddle_counters():
    with name_guard():
        block = Block()
        assert block.full_name() == "block_0"
        assert (block.w.name, block.b.name) == ("block_0.w_0", "block_0.b_0")
        assert nn.Layer().full_name() == "layer_0"
        assert nn.Layer("my_scope").full_name() == "my_scope_0"
        assert nn.BatchNorm1D(2).full_name() == "batch_norm1d_0"
        assert paddle.create_parameter([2], "float32").name == "create_parameter_0.w_0"
        assert paddle.create_parameter([2], "float32", is_bias=True).name == "create_parameter_1.b_0"
        assert paddle.create_parameter([2], "float64", name="my").name == "my"  # paddle 2.6: the name itself


def test_registration_and_traversal():
    net = Net()
    assert [n for n, _ in net.named_sublayers()] == ["features", "features.0", "features.1", "features.1.0", "head"]
    assert [n for n, _ in net.named_sublayers(prefix="m", include_self=True)][:2] == ["m", "m.features"]
    assert [n for n, _ in net.named_children()] == ["features", "head"]
    assert len(net.sublayers()) == 5 and net.sublayers(include_self=True)[0] is net
    assert [n for n, _ in net.named_parameters()] == [
        "features.0.w",
        "features.0.b",
        "features.1.0.w",
        "features.1.0.b",
        "head.weight",
        "head.bias",
    ]
    assert len(net.parameters(include_sublayers=False)) == 0
    assert [n for n, _ in net.named_buffers()] == [
        "features.0.count",
        "features.0.cache",
        "features.1.0.count",
        "features.1.0.cache",
    ]
    assert list(net.state_dict()) == [
        "features.0.w",
        "features.0.b",
        "features.0.count",
        "features.1.0.w",
        "features.1.0.b",
        "features.1.0.count",
        "head.weight",
        "head.bias",
    ]
    assert "cache" in Block().to_static_state_dict()
    assert net.features[0] is net.features._sub_layers["0"]  # fmt: skip


def test_shared_parameter_and_layer_come_once():
    net = nn.Layer()
    lin = nn.Linear(2, 2)
    net.a, net.b = lin, lin
    assert [n for n, _ in net.named_parameters()] == ["a.weight", "a.bias"]
    assert [n for n, _ in net.named_sublayers()] == ["a"]
    assert list(net.state_dict()) == ["a.weight", "a.bias", "b.weight", "b.bias"]  # as Paddle: no dedup here


def test_setattr_rules():
    block = Block()
    with pytest.raises(TypeError, match="assignment to parameter 'w' should be of type Parameter or None"):
        block.w = paddle.ones([2])
    with pytest.raises(KeyError, match="already exists"):
        block.register_buffer("w", paddle.ones([2]))
    with pytest.raises(KeyError, match="cannot contain '.'"):
        block.add_parameter("a.b", block.w)
    with pytest.raises(TypeError, match="must be a Parameter"):
        block.add_parameter("extra", paddle.ones([2]))
    block.t = paddle.ones([3])  # a plain tensor becomes a non-persistable buffer
    assert "t" in block._buffers and "t" not in block.state_dict()
    block.w = None
    assert block.w is None and "w" not in block.state_dict()
    del block.b
    assert "b" not in dir(block) and not hasattr(block, "b")
    with pytest.raises(ValueError, match="super"):

        class Broken(nn.Layer):
            def __init__(self):
                self.p = paddle.create_parameter([1], "float32")

        Broken()


def test_hooks_change_inputs_and_outputs_and_remove():
    block = Block()
    calls = []

    def pre(layer, inputs):
        calls.append(("pre", type(inputs)))
        return inputs[0] * 0  # a single value is wrapped in a tuple

    def post(layer, inputs, outputs):
        calls.append(("post", type(inputs)))
        return outputs + 1

    h1, h2 = block.register_forward_pre_hook(pre), block.register_forward_post_hook(post)
    np.testing.assert_allclose(block(paddle.ones([2])).numpy(), block.b.numpy() + 1)
    assert calls == [("pre", tuple), ("post", tuple)]
    h1.remove()
    h2.remove()
    h2.remove()  # removing twice is harmless
    np.testing.assert_allclose(block(paddle.ones([2])).numpy(), (block.w + block.b).numpy())


def test_state_dict_round_trip_and_warnings():
    a, b = Net(), Net()
    missing, unexpected = b.set_state_dict(a.state_dict())
    assert missing == [] and unexpected == []
    for (k, p), (_, q) in zip(a.state_dict().items(), b.state_dict().items()):
        np.testing.assert_array_equal(p.numpy(), q.numpy(), err_msg=k)
    weight = b.head.weight
    sd = a.state_dict()
    del sd["head.weight"]
    sd["head.bias"] = paddle.zeros([5])
    sd["extra"] = paddle.zeros([1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        missing, unexpected = b.set_state_dict(sd)
    assert missing == ["head.weight", "head.bias"] and unexpected == ["head.bias", "extra"]
    assert [str(w.message) for w in caught] == [
        "Skip loading for head.weight. head.weight is not found in the provided dict.",
        "Skip loading for head.bias. head.bias receives a shape [5], but the expected shape is [3].",
    ]
    assert b.head.weight is weight  # loaded in place: optimizers keep their parameters
    b.set_dict({"head.weight": np.ones([2, 3], "float32")})  # numpy values and the old alias work too
    np.testing.assert_array_equal(b.head.weight.numpy(), np.ones([2, 3]))
    by_name = {p.name: p.numpy() * 0 + 7 for p in b.parameters()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b.set_state_dict(by_name, use_structured_name=False)
    assert (b.head.bias.numpy() == 7).all()


def test_train_eval_apply_clear_gradients():
    net = Net()
    assert net.train() is None and all(layer.training for layer in net.sublayers(include_self=True))
    net.eval()
    assert not any(layer.training for layer in net.sublayers(include_self=True))
    seen = []
    assert net.apply(lambda layer: seen.append(type(layer).__name__)) is net
    assert seen == ["Block", "Block", "Sequential", "Sequential", "Linear", "Net"]
    net(paddle.ones([1, 2])).sum().backward()
    assert net.head.weight.grad is not None
    net.clear_gradients()
    assert not net.head.weight.grad.numpy().any()


def test_to_dtype_keeps_the_objects():
    net = Net()
    weight = net.head.weight
    assert net.to(dtype="float64") is net
    assert weight is net.head.weight and weight.dtype == paddle.float64 and weight.name.startswith("linear_")
    assert net.features[0].count.dtype == paddle.float64 and net.head._dtype == "float64"
    assert net(paddle.ones([1, 2], "float64")).dtype == paddle.float64
    net.float()
    assert net.head.weight.dtype == paddle.float32
    with pytest.raises(ValueError, match="CPU only"):
        net.to("gpu:0")


def test_deepcopy_gives_new_parameters_with_deepcopy_names():
    with name_guard():
        net = nn.Sequential(nn.Linear(2, 2))
        twin = copy.deepcopy(net)
    assert twin[0].weight is not net[0].weight
    assert (twin[0].weight.name, twin[0].bias.name) == ("linear_0.w_0_deepcopy_0", "linear_0.b_0_deepcopy_1")
    np.testing.assert_array_equal(twin[0].weight.numpy(), net[0].weight.numpy())
    assert twin.full_name() == net.full_name() and list(twin.state_dict()) == ["0.weight", "0.bias"]
    assert not twin[0].weight.stop_gradient and twin[0].weight.optimize_attr == {"learning_rate": 1.0}


def test_ops_record_the_layer_path():
    net = Net()
    y = net(paddle.ones([1, 2]))
    scopes = []
    node = y.grad_fn
    while node is not None:
        scopes.append((node.type, node.scope))
        node = next((t._node for t in node.inputs if t is not None and t._node is not None), None)
    loose = net.loose[0].full_name()  # a layer no parent registered goes by its full name
    assert scopes == [("add", "head"), ("matmul", "head"), ("add", loose), ("multiply", loose),
                      ("add", "features.1.0"), ("multiply", "features.1.0"), ("add", "features.0"),
                      ("multiply", "features.0")]  # fmt: skip
    # outside any layer the scope is empty again; the layer called from the top has the path ''
    assert (paddle.ones([1]) * paddle.to_tensor([2.0], stop_gradient=False)).grad_fn.scope == ""
    assert nn.Linear(2, 2)(paddle.ones([1, 2])).grad_fn.scope == ""
    # a registered layer called directly from the top keeps its own name
    assert net.head(paddle.ones([1, 2])).grad_fn.scope == "head"
    # hooks run inside the layer's scope too
    seen = []
    net.head.register_forward_post_hook(lambda layer, i, o: seen.append((o * 2).grad_fn.scope))
    net(paddle.ones([1, 2]))
    assert seen == ["head"]


def test_layer_list_and_dict_and_parameter_list():
    layers = nn.LayerList([nn.Linear(2, 2) for _ in range(3)])
    first, last = layers[0], layers[-1]
    layers.insert(1, nn.ReLU())
    assert [type(m).__name__ for m in layers] == ["Linear", "ReLU", "Linear", "Linear"]
    assert layers[0] is first and layers[3] is last and len(layers) == 4
    assert last._scope_name == "3"
    del layers[1]
    assert list(layers._sub_layers) == ["0", "1", "2"] and layers[2] is last
    assert isinstance(layers[1:], nn.LayerList) and len(layers[1:]) == 2
    layers.append(nn.Tanh()).extend([nn.Sigmoid()])
    assert len(layers) == 5
    with pytest.raises(IndexError, match="out of range"):
        layers[5]
    d = nn.LayerDict({"a": nn.ReLU()})
    d.update([("b", nn.Tanh())])
    d["c"] = nn.Sigmoid()
    assert list(d.keys()) == ["a", "b", "c"] and "b" in d and isinstance(d.pop("a"), nn.ReLU) and len(d) == 2
    with pytest.raises(ValueError, match="must be 2"):
        d.update([("x", nn.ReLU(), 1)])
    params = nn.ParameterList([paddle.create_parameter([1], "float32")])
    params.append(paddle.create_parameter([2], "float32"))
    assert [n for n, _ in params.named_parameters()] == ["0", "1"] and len(params) == 2
    with pytest.raises(TypeError, match="Parameters"):
        params.append(paddle.ones([1]))


def test_sequential_forms():
    from collections import OrderedDict

    seq = nn.Sequential(("fc", nn.Linear(2, 2)), ("act", nn.ReLU()))
    assert seq.fc is seq[0] is seq["fc"] and isinstance(seq[-1], nn.ReLU)
    od = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert list(od._sub_layers) == ["fc", "act"]
    assert isinstance(seq[0:1], nn.Sequential) and len(seq[0:1]) == 1
    with pytest.raises(IndexError):
        seq[2]
    with pytest.raises(TypeError, match="Layer"):
        nn.Sequential(nn.ReLU(), 3)
    x = paddle.to_tensor([[1.0, -1.0]])
    np.testing.assert_allclose(seq(x).numpy(), np.maximum(seq.fc(x).numpy(), 0))


def test_param_attr_and_create_parameter():
    attr = paddle.ParamAttr(name="fc_w", initializer=nn.initializer.Constant(0.5), learning_rate=0.1,
                            trainable=False, need_clip=False)  # fmt: skip
    fc = nn.Linear(2, 3, weight_attr=attr, bias_attr=False)
    assert fc.weight.name == "fc_w" and fc.bias is None and fc.weight.stop_gradient and not fc.weight.trainable
    assert fc.weight.optimize_attr == {"learning_rate": 0.1} and fc.weight.need_clip is False
    assert (fc.weight.numpy() == 0.5).all()
    assert nn.Linear(2, 2, weight_attr=nn.initializer.Constant(2.0)).weight.numpy().max() == 2.0
    assert nn.Linear(2, 2, weight_attr="named_w").weight.name == "named_w"
    with pytest.raises(TypeError, match="learning_rate"):
        paddle.ParamAttr(learning_rate="fast")
    with pytest.raises(ValueError, match="empty"):
        paddle.ParamAttr(name="")
    with pytest.raises(TypeError, match="default initializer"):
        paddle.create_parameter([2], "int32")
    p = paddle.create_parameter([2], "int32", default_initializer=nn.initializer.Constant(3))
    assert p.dtype == paddle.int32 and p.numpy().tolist() == [3, 3]
    with pytest.raises(ValueError, match="larger than 0"):
        paddle.create_parameter([0, 2], "float32")
    paddle.set_default_dtype("float64")
    try:
        assert nn.Linear(2, 2).weight.dtype == paddle.float64 and "dtype=float64" in repr(nn.Linear(2, 2))
    finally:
        paddle.set_default_dtype("float32")


def test_global_initializer_applies_unless_the_attr_names_one():
    init = nn.initializer
    init.set_global_initializer(init.Constant(0.25), init.Constant(0.5))
    try:
        fc = nn.Linear(2, 2)
        assert (fc.weight.numpy() == 0.25).all() and (fc.bias.numpy() == 0.5).all()
        own = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=init.Constant(1.0)))
        assert (own.weight.numpy() == 1.0).all()
        assert (nn.BatchNorm1D(2).weight.numpy() == 0.25).all()  # the global one wins over a layer's default
    finally:
        init.set_global_initializer(None)
    assert not (nn.Linear(2, 2).weight.numpy() == 0.25).all()
    with pytest.raises(TypeError, match="Initializer"):
        init.set_global_initializer("zeros")

"""Record what real Paddle 2.6's high-level API prints and returns, as golden cases for tests/hapi/.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/hapi/make_golden.py

Each snippet is Paddle 2.x code that runs unchanged under minipaddle (`paddle` is bound to either framework),
after PREAMBLE (a small dataset, an MLP with fixed weights, so that both frameworks compute the same numbers).
For each, under a fresh name counter and in a fresh temporary directory `tmpdir`, it records everything printed
(stdout, with `tmpdir` replaced by <TMP>; `fresh_names()` restarts the name counters, as
paddle.utils.unique_name.guard() does), the warnings raised, and `repr(result)` when the snippet sets
`result`. It writes cases.json next to this file. The vision models' parameter tables go to models.json.
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import warnings

PREAMBLE = """
import numpy as np

_rng = np.random.RandomState(0)
X = _rng.rand(40, 4).astype('float32')
Y = ((X.sum(1) * 1.7).astype('int64') % 3).reshape(-1, 1)


def dataset(n=40, labels=True):
    parts = [paddle.to_tensor(X[:n])] + ([paddle.to_tensor(Y[:n])] if labels else [])
    return paddle.io.TensorDataset(parts)


def fixed_weights(net, seed=1):
    r = np.random.RandomState(seed)
    net.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype('float32') for k, v in net.state_dict().items()})
    return net


def mlp(out=3):
    return fixed_weights(paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, out)))


def model(net=None, metrics='acc', lr=0.1, opt='sgd'):
    net = net or mlp()
    m = paddle.Model(net)
    if opt == 'sgd':
        o = paddle.optimizer.SGD(learning_rate=lr, parameters=net.parameters())
    else:
        o = paddle.optimizer.Adam(learning_rate=lr, parameters=net.parameters())
    m.prepare(o, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy() if metrics == 'acc' else metrics)
    return m


def r4(v):
    # numbers rounded to 4 places, so that float32 noise between frameworks does not matter
    if isinstance(v, dict):
        return {k: r4(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [r4(x) for x in v]
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, np.ndarray):
        return ['array', list(v.shape), str(v.dtype), r4(np.asarray(v).reshape(-1).tolist()[:6])]
    if isinstance(v, float):
        return round(v, 4)
    return v
"""

SNIPPETS = {
    # ---- fit ----
    "fit_verbose2": "m = model(); m.fit(dataset(), dataset(16), batch_size=8, epochs=2, log_freq=2, shuffle=False)",
    "fit_log_freq1_uneven": "m = model(); m.fit(dataset(), batch_size=16, epochs=1, log_freq=1, shuffle=False)",
    "fit_drop_last": (
        "m = model(); m.fit(dataset(), batch_size=16, epochs=2, log_freq=1, drop_last=True, shuffle=False)"
    ),
    "fit_topk": (
        "m = model(metrics=paddle.metric.Accuracy(topk=(1, 2)))\n"
        "m.fit(dataset(), dataset(24), batch_size=10, epochs=1, log_freq=2, shuffle=False)"
    ),
    "fit_dataloader": (
        "m = model()\n"
        "loader = paddle.io.DataLoader(dataset(), batch_size=10, shuffle=False)\n"
        "m.fit(loader, loader, epochs=2, log_freq=3)"
    ),
    "fit_eval_freq": "m = model(); m.fit(dataset(), dataset(20), batch_size=20, epochs=3, eval_freq=2, shuffle=False)",
    "fit_no_metrics": "m = model(metrics=None); m.fit(dataset(), dataset(20), batch_size=20, epochs=1, shuffle=False)",
    "fit_verbose0": "m = model(); m.fit(dataset(), dataset(20), batch_size=20, epochs=2, verbose=0, shuffle=False)",
    "fit_adam_weights": (
        "m = model(opt='adam', lr=0.05)\n"
        "m.fit(dataset(), batch_size=8, epochs=3, verbose=0, shuffle=False)\n"
        "result = r4([float(p.numpy().sum()) for p in m.parameters()])"
    ),
    "fit_small_values": (
        "m = model(lr=2.0)\nm.fit(dataset(), dataset(), batch_size=40, epochs=6, log_freq=1, shuffle=False)"
    ),
    # ---- evaluate / predict ----
    "evaluate": "m = model(); result = r4(m.evaluate(dataset(), batch_size=16))",
    "evaluate_log_freq1": "m = model(); result = r4(m.evaluate(dataset(), batch_size=16, log_freq=1))",
    "evaluate_verbose0": "m = model(); result = r4(m.evaluate(dataset(), batch_size=16, verbose=0))",
    "evaluate_topk": (
        "m = model(metrics=paddle.metric.Accuracy(topk=(1, 2)))\nresult = r4(m.evaluate(dataset(), batch_size=40))"
    ),
    "predict": "m = model(); out = m.predict(dataset(labels=False), batch_size=16); result = r4(out)",
    "predict_stack": "m = model(); result = r4(m.predict(dataset(labels=False), batch_size=16, stack_outputs=True))",
    "predict_with_labels": "m = model(); result = r4(m.predict(dataset(), batch_size=40, verbose=0))",
    "predict_log_freq_even": (
        "m = model(); result = r4(m.predict(dataset(32, labels=False), batch_size=8, stack_outputs=True, verbose=2))"
    ),
    # ---- batches ----
    "train_batch": "m = model(); result = r4(m.train_batch([X[:8]], [Y[:8]]))",
    "train_batch_no_metric": "m = model(metrics=None); result = r4(m.train_batch([X[:8]], [Y[:8]]))",
    "eval_batch": "m = model(); result = r4(m.eval_batch([X[:8]], [Y[:8]]))",
    "predict_batch": "m = model(); result = r4(m.predict_batch([X[:3]]))",
    "train_batch_tensors": (
        "m = model(); result = r4(m.train_batch([paddle.to_tensor(X[:8])], [paddle.to_tensor(Y[:8])]))"
    ),
    # ---- callbacks ----
    "callback_hooks": """
class Recorder(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def _rec(self, name, *args):
        # the step or epoch, and for the train/eval batch ends the keys of logs (Paddle shares one logs dict
        # between runs, so other keys may linger in it: only these are always there)
        logs = args[-1] if args and isinstance(args[-1], dict) else None
        arg = args[0] if args and not isinstance(args[0], dict) and args[0] is not None else None
        keys = None
        if name in ('on_train_batch_end', 'on_eval_batch_end'):
            keys = sorted(k for k in logs if k in ('loss', 'acc', 'step', 'batch_size'))
        if name == 'on_eval_begin':
            keys = [logs['steps'], logs['metrics']]
        self.calls.append([name, arg, keys])

    def on_train_begin(self, logs=None): self._rec('on_train_begin', logs)
    def on_train_end(self, logs=None): self._rec('on_train_end', logs)
    def on_epoch_begin(self, epoch, logs=None): self._rec('on_epoch_begin', epoch, logs)
    def on_epoch_end(self, epoch, logs=None): self._rec('on_epoch_end', epoch, logs)
    def on_train_batch_begin(self, step, logs=None): self._rec('on_train_batch_begin', step, logs)
    def on_train_batch_end(self, step, logs=None): self._rec('on_train_batch_end', step, logs)
    def on_eval_begin(self, logs=None): self._rec('on_eval_begin', logs)
    def on_eval_end(self, logs=None): self._rec('on_eval_end', logs)
    def on_eval_batch_begin(self, step, logs=None): self._rec('on_eval_batch_begin', step, logs)
    def on_eval_batch_end(self, step, logs=None): self._rec('on_eval_batch_end', step, logs)
    def on_predict_begin(self, logs=None): self._rec('on_predict_begin', logs)
    def on_predict_end(self, logs=None): self._rec('on_predict_end', logs)
    def on_predict_batch_begin(self, step, logs=None): self._rec('on_predict_batch_begin', step, logs)
    def on_predict_batch_end(self, step, logs=None): self._rec('on_predict_batch_end', step, logs)

rec = Recorder()
m = model()
m.fit(dataset(), dataset(20), batch_size=20, epochs=2, verbose=0, shuffle=False, callbacks=[rec])
m.evaluate(dataset(20), batch_size=20, verbose=0, callbacks=rec)
m.predict(dataset(20, labels=False), batch_size=20, verbose=0, callbacks=[rec])
result = [rec.calls, sorted(rec.params), rec.model is m]
""",
    "progbar_logger_explicit": (
        "m = model()\n"
        "m.fit(dataset(), batch_size=10, epochs=1, log_freq=10, shuffle=False,\n"
        "      callbacks=[paddle.callbacks.ProgBarLogger(log_freq=1, verbose=2)])"
    ),
    "early_stopping_loss": (
        "m = model(lr=3.0)\n"
        "es = paddle.callbacks.EarlyStopping(monitor='loss', patience=1, verbose=1, save_best_model=False)\n"
        "m.fit(dataset(), dataset(), batch_size=40, epochs=8, verbose=0, shuffle=False, callbacks=[es])\n"
        "result = [es.stopped_epoch, es.wait_epoch, round(float(es.best_value), 4), m.stop_training]"
    ),
    "early_stopping_acc_save": (
        "m = model(lr=3.0)\n"
        "es = paddle.callbacks.EarlyStopping(monitor='acc', mode='max', patience=2, verbose=1, min_delta=0.01)\n"
        "m.fit(dataset(), dataset(), batch_size=40, epochs=10, verbose=0, shuffle=False, save_dir=tmpdir,\n"
        "      save_freq=100, callbacks=[es])\n"
        "result = [es.stopped_epoch, round(float(es.best_value), 4), "
        "sorted(n for n in os.listdir(tmpdir) if not n.endswith('.pdset'))]"
    ),
    "early_stopping_baseline": (
        "m = model()\n"
        "es = paddle.callbacks.EarlyStopping(monitor='loss', patience=0, baseline=0.01, save_best_model=False)\n"
        "m.fit(dataset(), dataset(), batch_size=40, epochs=3, verbose=0, shuffle=False, callbacks=[es])\n"
        "result = [es.stopped_epoch, es.best_value]"
    ),
    "early_stopping_bad_monitor": (
        "m = model()\n"
        "es = paddle.callbacks.EarlyStopping(monitor='f1', save_best_model=False)\n"
        "m.fit(dataset(), dataset(), batch_size=40, epochs=1, verbose=0, callbacks=[es])\n"
        "es2 = paddle.callbacks.EarlyStopping(mode='sideways')\n"
        "result = es2.monitor_op.__name__"
    ),
    "early_stopping_no_eval": (
        "m = model()\n"
        "m.fit(dataset(), batch_size=40, epochs=1, verbose=0, callbacks=[paddle.callbacks.EarlyStopping()])"
    ),
    "model_checkpoint": (
        "m = model()\n"
        "m.fit(dataset(), batch_size=20, epochs=3, verbose=0, save_dir=tmpdir, save_freq=2, shuffle=False)\n"
        "result = sorted(n for n in os.listdir(tmpdir) if not n.endswith('.pdset'))"
    ),
    "model_checkpoint_callback": (
        "m = model()\n"
        "cb = paddle.callbacks.ModelCheckpoint(save_freq=1, save_dir=os.path.join(tmpdir, 'ck'))\n"
        "m.fit(dataset(), batch_size=40, epochs=2, verbose=0, callbacks=[cb])\n"
        "result = sorted(n for n in os.listdir(os.path.join(tmpdir, 'ck')) if not n.endswith('.pdset'))"
    ),
    "lr_scheduler_by_step": (
        "net = mlp()\n"
        "sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)\n"
        "m = paddle.Model(net)\n"
        "m.prepare(paddle.optimizer.SGD(learning_rate=sched, parameters=net.parameters()), "
        "paddle.nn.CrossEntropyLoss())\n"
        "m.fit(dataset(), batch_size=8, epochs=2, verbose=0, shuffle=False)\n"
        "result = [sched.last_epoch, round(sched.get_lr(), 6)]"
    ),
    "lr_scheduler_by_epoch": (
        "net = mlp()\n"
        "sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)\n"
        "m = paddle.Model(net)\n"
        "m.prepare(paddle.optimizer.SGD(learning_rate=sched, parameters=net.parameters()), "
        "paddle.nn.CrossEntropyLoss())\n"
        "cb = paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)\n"
        "m.fit(dataset(), batch_size=8, epochs=3, verbose=0, shuffle=False, callbacks=[cb])\n"
        "result = [sched.last_epoch, round(sched.get_lr(), 6)]"
    ),
    "lr_scheduler_both": (
        "try:\n"
        "    paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)\n"
        "except ValueError as e:\n"
        "    result = str(e)"
    ),
    "reduce_lr_on_plateau": (
        "m = model(lr=3.0)\n"
        "cb = paddle.callbacks.ReduceLROnPlateau(monitor='loss', factor=0.5, patience=1, verbose=1, min_lr=0.5)\n"
        "m.fit(dataset(), dataset(), batch_size=40, epochs=8, verbose=0, shuffle=False, callbacks=[cb])\n"
        "result = [round(m._optimizer.get_lr(), 6), cb.wait, cb.cooldown_counter]"
    ),
    "reduce_lr_on_plateau_cooldown": (
        "m = model(lr=3.0)\n"
        "cb = paddle.callbacks.ReduceLROnPlateau(monitor='acc', factor=0.1, patience=1, cooldown=2, min_delta=0.5)\n"
        "m.fit(dataset(), dataset(), batch_size=40, epochs=6, verbose=0, shuffle=False, callbacks=[cb])\n"
        "result = [round(m._optimizer.get_lr(), 6), cb.wait, cb.cooldown_counter]"
    ),
    "reduce_lr_on_plateau_bad_factor": (
        "try:\n    paddle.callbacks.ReduceLROnPlateau(factor=1.0)\nexcept ValueError as e:\n    result = str(e)"
    ),
    # ---- save / load ----
    "save_load": (
        "m = model()\n"
        "m.fit(dataset(), batch_size=20, epochs=1, verbose=0, shuffle=False)\n"
        "path = os.path.join(tmpdir, 'sub', 'm')\n"
        "m.save(path)\n"
        "m2 = model(net=mlp().__class__(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3)))\n"
        "m2.load(path + '.pdparams')\n"
        "same = all(np.allclose(a.numpy(), b.numpy()) for a, b in zip(m.parameters(), m2.parameters()))\n"
        "result = [sorted(n for n in os.listdir(os.path.dirname(path)) if not n.endswith('.pdset')), same, "
        "r4(m2.evaluate(dataset(), batch_size=40, verbose=0))]"
    ),
    "load_mismatch_raises": (
        "m = model(); path = os.path.join(tmpdir, 'm'); m.save(path)\n"
        "m2 = model(net=mlp(out=4))\n"
        "try:\n"
        "    m2.load(path)\n"
        "except ValueError as e:\n"
        "    result = str(e)"
    ),
    "load_skip_mismatch": (
        "m = model(); path = os.path.join(tmpdir, 'm'); m.save(path)\n"
        "m2 = model(net=mlp(out=4))\n"
        "m2.load(path, skip_mismatch=True)\n"
        "result = [np.allclose(m.parameters()[0].numpy(), m2.parameters()[0].numpy()),\n"
        "          np.allclose(m.parameters()[2].numpy()[:, :3], m2.parameters()[2].numpy()[:, :3])]"
    ),
    "load_missing_raises": (
        "m = model(); path = os.path.join(tmpdir, 'm'); m.save(path)\n"
        "net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3), "
        "paddle.nn.Linear(3, 3))\n"
        "m2 = model(net=fixed_weights(net))\n"
        "try:\n"
        "    m2.load(path)\n"
        "except ValueError as e:\n"
        "    result = str(e)"
    ),
    "load_resumes_optimizer": """
m = model(opt='adam', lr=0.05)
m.fit(dataset(), batch_size=20, epochs=1, verbose=0, shuffle=False)
path = os.path.join(tmpdir, 'm')
m.save(path)
m.fit(dataset(), batch_size=20, epochs=1, verbose=0, shuffle=False)
a = r4([float(p.numpy().sum()) for p in m.parameters()])
# a new model in a fresh name scope, as a new process would have: optimizer state keys are parameter names
with fresh_names():
    m2 = model(opt='adam', lr=0.05)
    m2.load(path)
    m2.fit(dataset(), batch_size=20, epochs=1, verbose=0, shuffle=False)
with fresh_names():
    m3 = model(opt='adam', lr=0.05)
    m3.load(path, reset_optimizer=True)
    m3.fit(dataset(), batch_size=20, epochs=1, verbose=0, shuffle=False)
b = r4([float(p.numpy().sum()) for p in m2.parameters()])
c = r4([float(p.numpy().sum()) for p in m3.parameters()])
result = [sorted(n for n in os.listdir(tmpdir) if not n.endswith('.pdset')), a == b, a == c]
""",
    "save_sgd_no_pdopt": (
        "m = model(); path = os.path.join(tmpdir, 'm'); m.save(path)\n"
        "result = sorted(n for n in os.listdir(tmpdir) if not n.endswith('.pdset'))"
    ),
    # ---- summary ----
    "summary_lenet": "result = paddle.summary(paddle.vision.models.LeNet(), (1, 1, 28, 28))",
    "summary_lenet_batch_none": "result = paddle.summary(paddle.vision.models.LeNet(), (None, 1, 28, 28))",
    "summary_mlp_bn": (
        "net = paddle.nn.Sequential(paddle.nn.Linear(4, 16), paddle.nn.BatchNorm1D(16), paddle.nn.ReLU(),\n"
        "                           paddle.nn.Dropout(0.5), paddle.nn.Linear(16, 3))\n"
        "result = paddle.summary(net, (-1, 4))"
    ),
    "summary_custom_two_inputs": """
class TwoIn(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.a = paddle.nn.Linear(4, 5)
        self.b = paddle.nn.Linear(3, 5)
        self.head = paddle.nn.Sequential(paddle.nn.Linear(5, 2), paddle.nn.Sigmoid())

    def forward(self, x, y):
        return self.head(self.a(x) + self.b(y)), self.a(x)

result = paddle.summary(TwoIn(), [(2, 4), (2, 3)], dtypes=['float32', 'float32'])
""",
    "summary_input_tensor": (
        "net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU(),\n"
        "                           paddle.nn.AdaptiveAvgPool2D(1), paddle.nn.Flatten(), paddle.nn.Linear(4, 2))\n"
        "result = paddle.summary(net, input=paddle.rand([2, 3, 8, 8]))"
    ),
    "summary_inputspec": (
        "result = paddle.summary(paddle.vision.models.LeNet(),\n"
        "                        paddle.static.InputSpec([None, 1, 28, 28], 'float32', 'image'))"
    ),
    "summary_frozen": (
        "net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.Linear(8, 2))\n"
        "net[0].weight.trainable = False\n"
        "result = paddle.summary(net, (1, 4))"
    ),
    "summary_single_layer": "result = paddle.summary(paddle.nn.Linear(3, 2), (1, 3))",
    "summary_int_size": "result = paddle.summary(paddle.nn.Linear(3, 2), 3)",
    "summary_two_unknown": (
        "try:\n    paddle.summary(paddle.nn.Linear(3, 2), (None, -1, 3))\nexcept ValueError as e:\n    result = str(e)"
    ),
    "model_summary": (
        "net = paddle.vision.models.LeNet()\n"
        "m = paddle.Model(net, inputs=[paddle.static.InputSpec([None, 1, 28, 28], 'float32', 'image')])\n"
        "result = m.summary()"
    ),
    "summary_resnet18_small": "result = paddle.summary(paddle.vision.models.resnet18(num_classes=10), (1, 3, 32, 32))",
    "summary_mobilenet_v2_small": (
        "result = paddle.summary(paddle.vision.models.mobilenet_v2(scale=0.25, num_classes=5), (1, 3, 16, 16))"
    ),
    # ---- flops ----
    "flops_lenet": "result = paddle.flops(paddle.vision.models.LeNet(), [1, 1, 28, 28], print_detail=True)",
    "flops_lenet_quiet": "result = paddle.flops(paddle.vision.models.LeNet(), [1, 1, 28, 28])",
    "flops_cnn_bn": (
        "net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3, padding=1, groups=1), paddle.nn.BatchNorm2D(4),\n"
        "    paddle.nn.ReLU6(), paddle.nn.Conv2D(4, 4, 3, groups=4, bias_attr=False), paddle.nn.LeakyReLU(),\n"
        "    paddle.nn.AvgPool2D(2), paddle.nn.AdaptiveAvgPool2D(2), paddle.nn.Flatten(), paddle.nn.Dropout(),\n"
        "    paddle.nn.Linear(16, 3))\n"
        "result = paddle.flops(net, [2, 3, 10, 10], print_detail=True)"
    ),
    "flops_custom_ops": """
def count_flatten(m, x, y):
    m.total_ops += 7

net = paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.Flatten(), paddle.nn.Linear(6, 2))
result = paddle.flops(net, [3, 4], custom_ops={paddle.nn.Flatten: count_flatten}, print_detail=True)
""",
    "flops_resnet18_small": "result = paddle.flops(paddle.vision.models.resnet18(num_classes=10), [1, 3, 32, 32])",
    "flops_not_a_layer": "result = paddle.flops('net', [1, 3])",
}

# name -> source building `m`, for the parameter tables (state_dict keys, parameter names, shapes, counts)
MODELS = {
    "LeNet": "m = paddle.vision.models.LeNet()",
    "LeNet_features_only": "m = paddle.vision.models.LeNet(num_classes=0)",
    "resnet18": "m = paddle.vision.models.resnet18()",
    "resnet34": "m = paddle.vision.models.resnet34()",
    "resnet50": "m = paddle.vision.models.resnet50()",
    "resnet101": "m = paddle.vision.models.resnet101()",
    "resnet152": "m = paddle.vision.models.resnet152()",
    "resnet18_headless": "m = paddle.vision.models.resnet18(num_classes=0, with_pool=False)",
    "ResNet_basic_18_c10": (
        "m = paddle.vision.models.ResNet(paddle.vision.models.resnet.BasicBlock, 18, num_classes=10)"
    ),
    "vgg11": "m = paddle.vision.models.vgg11()",
    "vgg11_bn": "m = paddle.vision.models.vgg11(batch_norm=True)",
    "vgg13": "m = paddle.vision.models.vgg13()",
    "vgg16": "m = paddle.vision.models.vgg16()",
    "vgg16_bn": "m = paddle.vision.models.vgg16(batch_norm=True, num_classes=10)",
    "vgg19": "m = paddle.vision.models.vgg19()",
    "vgg19_bn_headless": "m = paddle.vision.models.vgg19(batch_norm=True, num_classes=0, with_pool=False)",
    "mobilenet_v1": "m = paddle.vision.models.mobilenet_v1()",
    "mobilenet_v1_025": "m = paddle.vision.models.mobilenet_v1(scale=0.25, num_classes=10)",
    "mobilenet_v2": "m = paddle.vision.models.mobilenet_v2()",
    "mobilenet_v2_05": "m = paddle.vision.models.mobilenet_v2(scale=0.5, num_classes=10)",
    "MobileNetV2_headless": "m = paddle.vision.models.MobileNetV2(scale=1.5, num_classes=0, with_pool=False)",
}

# forward shapes, on small inputs: name -> (source building m, input shape)
FORWARD = {
    "LeNet": ("m = paddle.vision.models.LeNet()", [2, 1, 28, 28]),
    "LeNet_features_only": ("m = paddle.vision.models.LeNet(num_classes=0)", [2, 1, 28, 28]),
    "resnet18": ("m = paddle.vision.models.resnet18(num_classes=10)", [1, 3, 32, 32]),
    "resnet50": ("m = paddle.vision.models.resnet50(num_classes=10)", [1, 3, 32, 32]),
    "resnet18_headless": ("m = paddle.vision.models.resnet18(num_classes=0, with_pool=False)", [1, 3, 64, 64]),
    "resnet18_pool_only": ("m = paddle.vision.models.resnet18(num_classes=0)", [1, 3, 32, 32]),
    "vgg11_bn": ("m = paddle.vision.models.vgg11(batch_norm=True, num_classes=7)", [1, 3, 32, 32]),
    "mobilenet_v1_025": ("m = paddle.vision.models.mobilenet_v1(scale=0.25, num_classes=10)", [1, 3, 32, 32]),
    "mobilenet_v2_05": ("m = paddle.vision.models.mobilenet_v2(scale=0.5, num_classes=10)", [1, 3, 32, 32]),
    "mobilenet_v2_headless": (
        "m = paddle.vision.models.mobilenet_v2(scale=0.35, num_classes=0, with_pool=False)",
        [1, 3, 32, 32],
    ),
}


def run_snippet(paddle, source: str, fresh_names) -> dict:
    """Run PREAMBLE + source with `paddle` bound; return {stdout, warnings, result}."""
    tmpdir = tempfile.mkdtemp(prefix="hapi_golden_")
    scope = {"paddle": paddle, "tmpdir": tmpdir, "os": os, "fresh_names": fresh_names}
    out = io.StringIO()
    with fresh_names(), warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        exec(PREAMBLE, scope)  # noqa: S102
        exec(source, scope)  # noqa: S102
    result = scope.get("result", None)
    if isinstance(result, dict):
        result = {k: (int(v) if hasattr(v, "dtype") else v) for k, v in result.items()}
    elif hasattr(result, "dtype"):
        result = result.item()
    return {
        "stdout": out.getvalue().replace(tmpdir, "<TMP>"),
        "warnings": [str(w.message).replace(tmpdir, "<TMP>") for w in caught if _ours(w)],
        "result": repr(result),
    }


def _ours(w) -> bool:
    """Warnings the high-level API raises (not numpy's or a framework's deprecation chatter)."""
    return issubclass(w.category, UserWarning) and not issubclass(w.category, DeprecationWarning)


def model_table(paddle, source: str, fresh_names) -> dict:
    scope = {"paddle": paddle}
    with fresh_names():
        exec(source, scope)  # noqa: S102
    m = scope["m"]
    names = {id(p): p.name for p in m.parameters()}
    table = [[k, names.get(id(v)), list(v.shape)] for k, v in m.state_dict().items()]
    n_params = sum(int(__import__("numpy").prod(p.shape)) for p in m.parameters())
    n_trainable = sum(int(__import__("numpy").prod(p.shape)) for p in m.parameters() if p.trainable)
    return {"source": source, "state_dict": table, "num_params": n_params, "num_trainable": n_trainable}


def forward_shape(paddle, source: str, shape, fresh_names) -> list:
    scope = {"paddle": paddle}
    with fresh_names():
        exec(source, scope)  # noqa: S102
    m = scope["m"]
    m.eval()
    return list(m(paddle.rand(shape)).shape)


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    if here in sys.path:
        sys.path.remove(here)
    import paddle

    assert paddle.__version__.startswith("2.6"), paddle.__version__
    fresh_names = paddle.utils.unique_name.guard
    paddle.seed(0)

    cases = {}
    for name, source in SNIPPETS.items():
        cases[name] = {"source": source, **run_snippet(paddle, source, fresh_names)}
        print(f"{name}: {len(cases[name]['stdout'])} chars, result {cases[name]['result'][:60]}")
    with open(os.path.join(here, "cases.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "preamble": PREAMBLE, "cases": cases}, f, indent=1)
        f.write("\n")

    models = {name: model_table(paddle, src, fresh_names) for name, src in MODELS.items()}
    shapes = {name: {"source": src, "input": shape, "output": forward_shape(paddle, src, shape, fresh_names)}
              for name, (src, shape) in FORWARD.items()}  # fmt: skip
    with open(os.path.join(here, "models.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "models": models, "forward": shapes}, f, indent=1)
        f.write("\n")
    print({k: v["num_params"] for k, v in models.items()})


if __name__ == "__main__":
    main()

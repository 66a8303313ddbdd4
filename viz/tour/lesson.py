"""The tour's story, step by step. Each step prints what it does (with the Paddle code that does it) and keeps
what the page will show. The code is plain Paddle 2.x: with `import paddle` instead, it runs the same (except
EmbeddedDigits, which is minipaddle's own dataset: MNIST without the download)."""

from __future__ import annotations

import contextlib
import io
import os
import time

import numpy as np

import minipaddle as paddle


def _title(text: str) -> None:
    print(f"\n== {text} " + "=" * max(0, 100 - len(text)))


def _code(text: str) -> None:
    """Show the Paddle code a step runs, indented like a listing."""
    print("\n".join("    " + line for line in text.strip("\n").split("\n")))


def _printed(fn, *args, **kwargs) -> tuple:
    """(fn's result, what fn printed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args, **kwargs)
    return result, out.getvalue()


def run(out_dir: str, train_samples: int, test_samples: int, epochs: int, batch_size: int, seed: int) -> dict:
    """Run the tour; return what the page shows (see page.py)."""
    start = time.time()
    paddle.seed(seed)
    shown = {"times": {}}

    _title("1. Data: digits drawn by minipaddle itself (no download)")
    _code("""
transform = paddle.vision.transforms.Normalize(mean=[127.5], std=[127.5], data_format='CHW')
train_data = paddle.vision.datasets.EmbeddedDigits(mode='train', transform=transform)
test_data = paddle.vision.datasets.EmbeddedDigits(mode='test', transform=transform)
""")
    t = time.time()
    transform = paddle.vision.transforms.Normalize(mean=[127.5], std=[127.5], data_format="CHW")
    train_data = paddle.vision.datasets.EmbeddedDigits(mode="train", transform=transform, num_samples=train_samples)
    test_data = paddle.vision.datasets.EmbeddedDigits(mode="test", transform=transform, num_samples=test_samples)
    image, label = train_data[0]
    print(f"{len(train_data)} training and {len(test_data)} test images; one is {image.dtype} {list(image.shape)} "
          f"with label {label.tolist()}  ({time.time() - t:.1f}s)")  # fmt: skip
    shown["times"]["data"] = time.time() - t

    _title("2. The model: LeNet, and paddle.summary of its layers")
    _code("""
net = paddle.vision.models.LeNet()
model = paddle.Model(net, inputs=[paddle.static.InputSpec([None, 1, 28, 28], 'float32', 'image')])
model.summary()
""")
    net = paddle.vision.models.LeNet()
    inputs = [paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")]
    model = paddle.Model(net, inputs=inputs)
    _, shown["summary"] = _printed(model.summary)
    print(shown["summary"], end="")
    shown["flops"], _ = _printed(paddle.flops, net, [1, 1, 28, 28])
    print(f"paddle.flops(net, [1, 1, 28, 28]): {shown['flops']:,} operations for one image")

    _title(f"3. Training: model.fit, {epochs} epoch(s), with a progress bar")
    _code(f"""
model.prepare(paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters()),
              paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
history = paddle.callbacks.History()        # every step's loss and accuracy, for the curve
model.fit(train_data, epochs={epochs}, batch_size={batch_size}, verbose=1, callbacks=[history])
""")
    t = time.time()
    model.prepare(paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())  # fmt: skip
    history = paddle.callbacks.History()
    model.fit(train_data, epochs=epochs, batch_size=batch_size, verbose=1, callbacks=[history])
    shown["history"] = history
    shown["times"]["fit"] = time.time() - t

    _title("4. Evaluation on the test images")
    _code("result = model.evaluate(test_data, batch_size=256, verbose=1)")
    t = time.time()
    result = model.evaluate(test_data, batch_size=256, verbose=1)
    shown["accuracy"] = float(result["acc"])
    print(f"test accuracy: {shown['accuracy']:.2%}  ({time.time() - t:.1f}s)")

    _title("5. Save, reload, and check the reloaded model scores the same")
    checkpoint = os.path.join(out_dir, "checkpoint", "lenet")
    _code(f"""
model.save('{checkpoint}')                  # lenet.pdparams (weights) and lenet.pdopt (Adam's state)
reloaded = paddle.Model(paddle.vision.models.LeNet(), inputs=inputs)
reloaded.prepare(loss=paddle.nn.CrossEntropyLoss(), metrics=paddle.metric.Accuracy())
reloaded.load('{checkpoint}')
""")
    model.save(checkpoint)
    reloaded = paddle.Model(paddle.vision.models.LeNet(), inputs=inputs)
    reloaded.prepare(loss=paddle.nn.CrossEntropyLoss(), metrics=paddle.metric.Accuracy())
    reloaded.load(checkpoint)
    shown["reloaded_accuracy"] = float(reloaded.evaluate(test_data, batch_size=256, verbose=0)["acc"])
    shown["checkpoint"] = checkpoint + ".pdparams"
    same = "the same" if shown["reloaded_accuracy"] == shown["accuracy"] else "NOT the same"
    print(f"files: {sorted(os.listdir(os.path.dirname(checkpoint)))}")
    print(f"reloaded model's test accuracy: {shown['reloaded_accuracy']:.2%} ({same} as before saving)")

    _title("6. An inference model: the network as a static Program, run by an Executor")
    exported = os.path.join(out_dir, "inference", "lenet")
    _code(f"""
model.save('{exported}', training=False)    # lenet.pdmodel (the Program) and lenet.pdiparams
paddle.enable_static()
exe = paddle.static.Executor()
program, feed_names, fetch_targets = paddle.static.load_inference_model('{exported}', exe)
logits, = exe.run(program, feed={{feed_names[0]: images}}, fetch_list=fetch_targets)
paddle.disable_static()
""")
    model.save(exported, training=False)
    images = np.stack([test_data[i][0] for i in range(min(256, len(test_data)))])
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feed_names, fetch_targets = paddle.static.load_inference_model(exported, exe)
        (logits,) = exe.run(program, feed={feed_names[0]: images}, fetch_list=fetch_targets)
    finally:
        paddle.disable_static()
    dynamic_logits = model.predict_batch([images])[0]
    gap = float(np.abs(logits - dynamic_logits).max())
    print(f"{len(program.global_block().ops)} ops in the Program; on {len(images)} test images its outputs differ "
          f"from the dynamic model's by at most {gap:.1e}")  # fmt: skip
    shown["program"] = program
    shown["samples"] = (images[:16, 0], logits[:16].argmax(axis=1), [int(test_data[i][1][0]) for i in range(16)])

    _title("7. Dynamic to static: a prediction function converted by paddle.jit.to_static")
    _code("""
@paddle.jit.to_static
def predict(x):
    probs = paddle.nn.functional.softmax(net(x))
    if probs.max() < 0.5:          # a Tensor condition: becomes a cond op in the Program
        probs = probs * 0          # unsure: say nothing
    return probs
""")
    t = time.time()
    net.eval()

    def predict(x):
        probs = paddle.nn.functional.softmax(net(x))
        if probs.max() < 0.5:
            probs = probs * 0
        return probs

    converted = paddle.jit.to_static(predict)
    batch_images = paddle.to_tensor(images[:8])
    gap = float(np.abs(converted(batch_images).numpy() - predict(batch_images).numpy()).max())
    ops = [op.type for op in converted.main_program.global_block().ops]
    print(f"one run_program op of {len(ops)} ops (with {ops.count('cond')} cond); outputs differ from dynamic mode "
          f"by at most {gap:.1e}  ({time.time() - t:.1f}s)")  # fmt: skip
    shown["to_static"] = converted

    # One training step's loss, for the page's autograd graph (folded by layer: features, fc).
    x = paddle.to_tensor(images[:8])
    y = paddle.to_tensor(np.array([[test_data[i][1][0]] for i in range(8)], dtype="int64"))
    net.train()
    shown["step_loss"] = paddle.nn.functional.cross_entropy(net(x), y)
    shown["net"] = net
    shown["times"]["total"] = time.time() - start
    return shown

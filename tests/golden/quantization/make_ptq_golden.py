"""Record paddle 2.6.2's static PostTrainingQuantization on a small saved LeNet (run with /work/paddle-venv/bin/python).

    /work/paddle-venv/bin/python tests/golden/quantization/make_ptq_golden.py

Writes ptq_lenet/model.pdmodel + model.pdiparams (the float model, saved by paddle), ptq.npz (the calibration and
evaluation images, the float logits, and per algorithm the thresholds Paddle found, the frozen weights and the
quantized model's logits) and ptq.json (per algorithm the quantized Program's ops, as make_static_golden.op_rows).
"""

import json
import os
import sys
import tempfile

import numpy.random  # noqa: F401  # isort: skip  (before paddle, as its wheel needs)
import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.static.quantization import PostTrainingQuantization  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_static_golden import op_rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "ptq_lenet")
ALGOS = ["abs_max", "avg", "min_max", "mse", "KL", "hist"]
BATCH, BATCHES = 8, 3


def network():
    x = paddle.static.data("image", [-1, 1, 16, 16], "float32")
    c = paddle.static.nn.conv2d(x, 4, 5, act="relu")
    p = paddle.nn.functional.max_pool2d(c, 2, 2)
    c2 = paddle.static.nn.conv2d(p, 8, 3, act="relu")
    p2 = paddle.nn.functional.max_pool2d(c2, 2, 2)
    return x, paddle.static.nn.fc(paddle.flatten(p2, 1), 10)


class Images(paddle.io.Dataset):
    def __init__(self, images):
        self.images = images

    def __getitem__(self, i):
        return self.images[i]

    def __len__(self):
        return len(self.images)


def main():
    paddle.enable_static()
    paddle.seed(5)
    rng = np.random.default_rng(41)
    images = np.abs(rng.normal(size=(BATCH * BATCHES, 1, 16, 16))).astype("float32")  # (non-negative: like pixels)
    evaluation = np.abs(rng.normal(size=(4, 1, 16, 16))).astype("float32")
    place, exe = paddle.CPUPlace(), paddle.static.Executor(paddle.CPUPlace())
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup):
        x, logits = network()
    exe.run(startup)
    os.makedirs(MODEL, exist_ok=True)
    paddle.static.save_inference_model(os.path.join(MODEL, "model"), [x], [logits], exe, program=main_p)
    arrays = {"images": images, "evaluation": evaluation}
    (arrays["float/logits"],) = exe.run(main_p, feed={"image": evaluation}, fetch_list=[logits])
    text = {}
    saved = tempfile.mkdtemp()
    for algo in ALGOS:
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            loader = paddle.io.DataLoader(Images(images), feed_list=[x], batch_size=BATCH, return_list=False,
                                          places=place)  # fmt: skip
            ptq = PostTrainingQuantization(executor=exe, model_dir=MODEL, model_filename="model.pdmodel",
                                           params_filename="model.pdiparams", data_loader=loader, batch_size=BATCH,
                                           batch_nums=BATCHES, algo=algo, scope=scope,
                                           quantizable_op_type=["conv2d", "mul", "pool2d"])  # fmt: skip
            program = ptq.quantize()
            if algo in ("KL", "hist"):
                found = ptq._quantized_var_threshold
            elif algo == "min_max":
                found = {**{f"{k}.min": v for k, v in ptq._quantized_var_min.items()},
                         **{f"{k}.max": v for k, v in ptq._quantized_var_max.items()}}  # fmt: skip
            else:
                found = ptq._quantized_threshold
            for k, v in found.items():
                arrays[f"{algo}/threshold/{k}"] = np.asarray(v, np.float64)
            text[algo] = op_rows(program, forward_only=False)
            for v in program.list_vars():  # (the parameters, and the channel scales the freeze made)
                if v.persistable and v.name not in ("feed", "fetch") and scope.find_var(v.name) is not None:
                    arrays[f"{algo}/param/{v.name}"] = np.array(scope.find_var(v.name).get_tensor())
            ptq.save_quantized_model(os.path.join(saved, algo))
            qprog, feeds, fetches = paddle.static.load_inference_model(os.path.join(saved, algo, "model"),
                                                                       exe)  # fmt: skip
            (arrays[f"{algo}/logits"],) = exe.run(qprog, feed={feeds[0]: evaluation}, fetch_list=fetches)
    np.savez_compressed(os.path.join(HERE, "ptq.npz"), **arrays)
    with open(os.path.join(HERE, "ptq.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    print(len(arrays), "arrays", {k: len(v) for k, v in text.items()})


if __name__ == "__main__":
    main()

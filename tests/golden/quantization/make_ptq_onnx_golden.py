"""Record paddle 2.6.2's PostTrainingQuantization(onnx_format=True) on the saved LeNet of make_ptq_golden.py
(run with /work/paddle-venv/bin/python after it; reads ptq_lenet and ptq.npz's images, writes nothing else).

    /work/paddle-venv/bin/python tests/golden/quantization/make_ptq_onnx_golden.py

Writes ptq_onnx.npz (per algorithm the saved model's persistable values: the int8 weights, the scales and zero
points, and its logits on the evaluation images) and ptq_onnx.json (per algorithm the saved Program's op types).
"""

import json
import os
import tempfile

import numpy.random  # noqa: F401  # isort: skip  (before paddle, as its wheel needs)
import numpy as np  # noqa: E402
import paddle  # noqa: E402
from make_ptq_golden import Images  # noqa: E402
from paddle.static.quantization import PostTrainingQuantization  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "ptq_lenet")
ALGOS = ["abs_max", "KL"]
BATCH, BATCHES = 8, 3


def main():
    paddle.enable_static()
    given = np.load(os.path.join(HERE, "ptq.npz"))
    images, evaluation = given["images"], given["evaluation"]
    exe = paddle.static.Executor(paddle.CPUPlace())
    arrays, text, saved = {}, {}, tempfile.mkdtemp()

    for algo in ALGOS:
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            float_program, _, _ = paddle.static.load_inference_model(os.path.join(MODEL, "model"), exe)
            loader = paddle.io.DataLoader(Images(images), feed_list=[float_program.global_block().var("image")],
                                          batch_size=BATCH, return_list=False, places=paddle.CPUPlace())  # fmt: skip
            ptq = PostTrainingQuantization(executor=exe, model_dir=MODEL, model_filename="model.pdmodel",
                                           params_filename="model.pdiparams", data_loader=loader,
                                           batch_nums=BATCHES, algo=algo, scope=scope, onnx_format=True,
                                           quantizable_op_type=["conv2d", "mul", "pool2d"])  # fmt: skip
            ptq.quantize()
            ptq.save_quantized_model(os.path.join(saved, algo))
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(os.path.join(saved, algo, "model"), exe)
            text[algo] = [op.type for op in program.global_block().ops if op.type not in ("feed", "fetch")]
            for v in program.list_vars():
                if v.persistable and v.name not in ("feed", "fetch"):
                    arrays[f"{algo}/param/{v.name}"] = np.array(paddle.static.global_scope().find_var(v.name)
                                                                .get_tensor())  # fmt: skip
            (arrays[f"{algo}/logits"],) = exe.run(program, feed={feeds[0]: evaluation}, fetch_list=fetches)
    np.savez_compressed(os.path.join(HERE, "ptq_onnx.npz"), **arrays)
    with open(os.path.join(HERE, "ptq_onnx.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    print(len(arrays), "arrays", {k: len(v) for k, v in text.items()})


if __name__ == "__main__":
    main()

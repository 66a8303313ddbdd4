"""Keep two channel-wise quantized models as paddle 2.6.2 saves them: PostTrainingQuantization (abs_max, weights
channel_wise_abs_max) of the saved LeNet of make_ptq_golden.py, in the onnx_format and in the legacy format (run
with /work/paddle-venv/bin/python after make_ptq_golden.py).

    /work/paddle-venv/bin/python tests/golden/quantization/make_ptq_saved_files.py

Paddle writes some values with a shape other than the one its Program declares: the per-channel weight scales
`w@scale` as [1, C] where the variable is [C], and output scales as [] where it is [1] (PTQ sets them with
`np.array([value])`, and load_combine keeps any shape). Writes ptq_saved/{onnx,legacy}/model.pdmodel +
.pdiparams, and ptq_saved.npz (per format: every persistable value as paddle reads the files back, keyed
`{format}/value/{name}`, its declared shape `{format}/declared/{name}`, and the logits on the evaluation images).
"""

import os

import numpy.random  # noqa: F401  # isort: skip  (before paddle, as its wheel needs)
import numpy as np  # noqa: E402
import paddle  # noqa: E402
from make_ptq_golden import Images  # noqa: E402
from paddle.static.quantization import PostTrainingQuantization  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "ptq_lenet")
OUT = os.path.join(HERE, "ptq_saved")
BATCH, BATCHES = 8, 3


def main():
    paddle.enable_static()
    given = np.load(os.path.join(HERE, "ptq.npz"))
    exe = paddle.static.Executor(paddle.CPUPlace())
    arrays = {}
    for name, onnx_format in (("onnx", True), ("legacy", False)):
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            float_program, _, _ = paddle.static.load_inference_model(os.path.join(MODEL, "model"), exe)
            image = float_program.global_block().var("image")
            loader = paddle.io.DataLoader(Images(given["images"]), feed_list=[image], batch_size=BATCH,
                                          return_list=False, places=paddle.CPUPlace())  # fmt: skip
            ptq = PostTrainingQuantization(executor=exe, model_dir=MODEL, model_filename="model.pdmodel",
                                           params_filename="model.pdiparams", data_loader=loader, batch_nums=BATCHES,
                                           algo="abs_max", scope=scope, onnx_format=onnx_format,
                                           weight_quantize_type="channel_wise_abs_max",
                                           quantizable_op_type=["conv2d", "mul", "pool2d"])  # fmt: skip
            ptq.quantize()
            ptq.save_quantized_model(os.path.join(OUT, name), model_filename="model.pdmodel",
                                     params_filename="model.pdiparams")  # fmt: skip
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(os.path.join(OUT, name, "model"), exe)
            for v in program.list_vars():
                if v.persistable and v.name not in ("feed", "fetch"):
                    arrays[f"{name}/value/{v.name}"] = np.array(paddle.static.global_scope().find_var(v.name)
                                                                .get_tensor())  # fmt: skip
                    arrays[f"{name}/declared/{v.name}"] = np.array(v.shape, np.int64)
            (arrays[f"{name}/logits"],) = exe.run(program, feed={feeds[0]: given["evaluation"]}, fetch_list=fetches)
    np.savez_compressed(os.path.join(HERE, "ptq_saved.npz"), **arrays)
    odd = [k for k in arrays if "/value/" in k and arrays[k].shape != tuple(arrays[k.replace("/value/", "/declared/")])]
    print(len(arrays), "arrays;", len(odd), "values shaped otherwise than declared, e.g.", odd[:3])


if __name__ == "__main__":
    main()

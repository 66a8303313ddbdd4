"""Record paddle 2.6.2's quant_aware(test, config={'quant_post_first': True}, for_test=True, calib_config=...)
(run with /work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_quant_post_first_golden.py

quant_post_first calibrates the test Program first with PostTrainingQuantizationProgram (freeze_model False,
batch_nums 10, the calib_config's algo; legacy fake ops, 'range_abs_max' activations by default), then puts
output-scale observers on it that start from the calibrated scales (OutScaleForTrainingPass(scale_dict)).
Paddle's PostTrainingQuantizationProgram takes only a paddle.io.DataLoader and calibrates in the global scope
(it hands its scope to the base class as model_dir). Per algo (ALGOS) writes quant_post_first.json (the ops; the
returned scale_dict) and quant_post_first.npz (the start weights, the data, every scale variable, the logits of
the returned Program on the calibration data's first batch).
"""

import json
import os

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.quantization import quant_aware

HERE = os.path.dirname(os.path.abspath(__file__))
ALGOS = ("abs_max", "KL")
BATCHES, BATCH = 12, 4


def network():
    """The network tests/quantization/test_quant_post_first.py builds in minipaddle."""
    x = paddle.static.data("image", [-1, 1, 6, 6], "float32")
    c = paddle.static.nn.conv2d(x, 2, 3, act="relu")
    return x, paddle.static.nn.fc(paddle.flatten(c, 1), 3)


def rows(program):
    out = []
    for op in program.global_block().ops:
        attrs = {k: op.attr(k) for k in ("quant_axis", "is_test", "bit_length", "moving_rate", "quantization_type",
                                          "window_size", "quant_bits", "max_range") if op.has_attr(k)}  # fmt: skip
        out.append({"type": op.type, "inputs": {k: op.input(k) for k in op.input_names if op.input(k)},
                    "outputs": {k: op.output(k) for k in op.output_names if op.output(k)}, "attrs": attrs})  # fmt: skip
    return out


def main():
    paddle.enable_static()
    rng = np.random.default_rng(28)
    data = rng.normal(size=(BATCHES, BATCH, 1, 6, 6)).astype("float32")
    text, arrays, params = {}, {"data": data}, None

    class Samples(paddle.io.Dataset):
        def __len__(self):
            return BATCHES * BATCH

        def __getitem__(self, i):
            return data.reshape(-1, 1, 6, 6)[i]

    for algo in ALGOS:
        main_p, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():
            x, logits = network()
        test = main_p.clone(for_test=True)
        exe = paddle.static.Executor(paddle.CPUPlace())
        scope = paddle.static.global_scope()
        exe.run(startup)
        if params is None:
            params = {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main_p.all_parameters()}
            arrays.update({f"param/{k}": v for k, v in params.items()})
            text["params"] = list(params)
        for name, value in params.items():
            scope.find_var(name).get_tensor().set(value, paddle.CPUPlace())
        loader = paddle.io.DataLoader(Samples(), feed_list=[x], batch_size=BATCH, return_list=False, shuffle=False)
        calib = {"feed_list": ["image"], "fetch_list": [logits], "data_loader": loader, "algo": algo}
        q, scale_dict, _, _ = quant_aware(test, paddle.CPUPlace(), {"quant_post_first": True}, for_test=True,
                                          calib_config=calib, return_scale_dict=True)  # fmt: skip
        text[algo] = {"ops": rows(q), "scale_dict": {k: v for k, v in scale_dict.items()}}
        for v in q.list_vars():
            if v.persistable and v.name.endswith("@scale"):
                arrays[f"{algo}/{v.name}"] = np.array(scope.find_var(v.name).get_tensor())
        (arrays[f"{algo}/logits"],) = exe.run(q, feed={"image": data[0]}, fetch_list=[logits.name])
    with open(os.path.join(HERE, "quant_post_first.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "quant_post_first.npz"), **arrays)
    print(len(arrays), "arrays;", {a: len(text[a]["ops"]) for a in ALGOS})


if __name__ == "__main__":
    main()

"""Record what real Paddle 2.6 builds and computes for the vision models beyond LeNet/ResNet/VGG/MobileNetV1-2,
as golden cases for tests/vision/test_model_zoo.py.

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/vision_models/make_golden.py

For every case (a constructor call binding `m`, run under fresh name counters) it records the state_dict table
([key, parameter name, shape] in order) and the parameter counts. For the cases with an input shape it also
loads the fixed weights of `fixed_state` (the same numbers in both frameworks, no file needed), runs the model in
eval mode on `fixed_input` and stores the output(s) in outputs.npz. This module imports paddle only in main(), so
the tests can import fixed_state and fixed_input from it.
"""

import json
import os
import sys
import zlib

import numpy as np

M = "m = paddle.vision.models."
# name -> (source binding `m`, input shape for the forward check or None)
CASES = {
    "alexnet": (M + "alexnet()", None),
    "AlexNet_headless": (M + "AlexNet(num_classes=0)", [1, 3, 64, 64]),
    "squeezenet1_0": (M + "squeezenet1_0(num_classes=10)", [1, 3, 64, 64]),
    "squeezenet1_1": (M + "squeezenet1_1()", None),
    "SqueezeNet_1_1_no_pool": (M + "SqueezeNet('1.1', num_classes=10, with_pool=False)", [1, 3, 64, 64]),
    "shufflenet_v2_x0_25": (M + "shufflenet_v2_x0_25(num_classes=10)", [1, 3, 64, 64]),
    "shufflenet_v2_x0_33": (M + "shufflenet_v2_x0_33()", None),
    "shufflenet_v2_x0_5": (M + "shufflenet_v2_x0_5()", None),
    "shufflenet_v2_x1_0": (M + "shufflenet_v2_x1_0()", None),
    "shufflenet_v2_x1_5": (M + "shufflenet_v2_x1_5()", None),
    "shufflenet_v2_x2_0": (M + "shufflenet_v2_x2_0()", None),
    "shufflenet_v2_swish": (M + "shufflenet_v2_swish(num_classes=10)", [1, 3, 64, 64]),
    "ShuffleNetV2_headless": (M + "ShuffleNetV2(scale=0.5, act='swish', num_classes=0, with_pool=False)", None),
    "mobilenet_v3_small": (M + "mobilenet_v3_small()", None),
    "mobilenet_v3_small_05": (M + "mobilenet_v3_small(scale=0.5, num_classes=10)", [1, 3, 64, 64]),
    "mobilenet_v3_large": (M + "mobilenet_v3_large()", None),
    "mobilenet_v3_large_035": (M + "mobilenet_v3_large(scale=0.35, num_classes=10)", [1, 3, 64, 64]),
    "MobileNetV3Large_headless": (M + "MobileNetV3Large(scale=0.75, num_classes=0, with_pool=False)", None),
    "densenet121": (M + "densenet121(num_classes=10)", [1, 3, 64, 64]),
    "densenet161": (M + "densenet161()", None),
    "densenet169": (M + "densenet169()", None),
    "densenet201": (M + "densenet201()", None),
    "densenet264": (M + "densenet264()", None),
    "DenseNet_bn2_dropout": (M + "DenseNet(layers=121, bn_size=2, dropout=0.2, num_classes=0)", None),
    "googlenet": (M + "googlenet()", None),
    "GoogLeNet_headless": (M + "GoogLeNet(num_classes=0, with_pool=False)", [1, 3, 64, 64]),
    "inception_v3": (M + "inception_v3(num_classes=10)", [1, 3, 75, 75]),
    "InceptionV3_headless": (M + "InceptionV3(num_classes=0, with_pool=False)", None),
    "resnext50_32x4d": (M + "resnext50_32x4d(num_classes=10)", [1, 3, 32, 32]),
    "resnext50_64x4d": (M + "resnext50_64x4d()", None),
    "resnext101_32x4d": (M + "resnext101_32x4d()", None),
    "resnext101_64x4d": (M + "resnext101_64x4d()", None),
    "resnext152_32x4d": (M + "resnext152_32x4d()", None),
    "resnext152_64x4d": (M + "resnext152_64x4d()", None),
    "wide_resnet50_2": (M + "wide_resnet50_2()", None),
    "wide_resnet101_2": (M + "wide_resnet101_2()", None),
}


def fixed_state(table):
    """{key: float32 array} from [key, name, shape] rows: a seed per key (so the order does not matter), weights
    scaled by 1/sqrt(fan-in) so that deep networks stay in range, positive running variances."""
    state = {}
    for key, _, shape in table:
        r = np.random.RandomState(zlib.crc32(key.encode()))
        if "variance" in key:
            a = r.uniform(0.5, 1.5, shape)
        elif len(shape) == 4:  # conv weight [out, in / groups, kh, kw]
            a = r.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))
        elif len(shape) == 2:  # linear weight [in, out]
            a = r.standard_normal(shape) / np.sqrt(shape[0])
        else:
            a = r.uniform(-0.2, 0.2, shape) + (1.0 if key.endswith("weight") else 0.0)
        state[key] = a.astype("float32")
    return state


def fixed_input(shape):
    return np.random.RandomState(0).uniform(-1, 1, shape).astype("float32")


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    if here in sys.path:
        sys.path.remove(here)
    import paddle

    assert paddle.__version__.startswith("2.6"), paddle.__version__
    tables, outputs = {}, {}
    for name, (source, shape) in CASES.items():
        scope = {"paddle": paddle}
        with paddle.utils.unique_name.guard():
            exec(source, scope)  # noqa: S102 (the constructor call)
        m = scope["m"]
        names = {id(p): p.name for p in m.parameters()}
        table = [[k, names.get(id(v)), list(v.shape)] for k, v in m.state_dict().items()]
        tables[name] = {
            "source": source,
            "input": shape,
            "state_dict": table,
            "num_params": int(sum(np.prod(p.shape) for p in m.parameters())),
            "num_trainable": int(sum(np.prod(p.shape) for p in m.parameters() if p.trainable)),
        }
        if shape is not None:
            m.set_state_dict(fixed_state(table))
            m.eval()
            out = m(paddle.to_tensor(fixed_input(shape)))
            for i, o in enumerate(out if isinstance(out, list) else [out]):
                outputs[f"{name}/{i}"] = o.numpy()
        print(name, tables[name]["num_params"])
    with open(os.path.join(here, "models.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "models": tables}, f, indent=0)
        f.write("\n")
    np.savez_compressed(os.path.join(here, "outputs.npz"), **outputs)


if __name__ == "__main__":
    main()

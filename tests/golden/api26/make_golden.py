"""Record paddle 2.6's public names: each module's __all__ (its public attributes where it has none) and
paddle.Tensor's public attributes. Run with a Python that has paddlepaddle 2.6 (not the project venv), from a
folder outside the repository:

    cd /tmp && /path/to/paddle-venv/bin/python /path/to/minipaddle/tests/golden/api26/make_golden.py
"""

import importlib
import json
from pathlib import Path

import paddle

MODULES = [
    "paddle", "paddle.linalg", "paddle.nn", "paddle.nn.functional", "paddle.nn.initializer", "paddle.nn.utils",
    "paddle.optimizer", "paddle.optimizer.lr", "paddle.autograd", "paddle.fft", "paddle.signal", "paddle.distribution",
    "paddle.io", "paddle.metric", "paddle.vision.models", "paddle.vision.ops", "paddle.vision.transforms",
    "paddle.vision.datasets", "paddle.static", "paddle.static.nn", "paddle.geometric", "paddle.text", "paddle.audio",
    "paddle.audio.functional", "paddle.audio.features", "paddle.sparse", "paddle.incubate", "paddle.utils",
    "paddle.hub", "paddle.jit", "paddle.amp", "paddle.distributed", "paddle.quantization", "paddle.inference",
    "paddle.onnx", "paddle.callbacks", "paddle.regularizer", "paddle.device",
]  # fmt: skip


def main() -> None:
    names = {"paddle.Tensor": sorted(n for n in dir(paddle.Tensor) if not n.startswith("_"))}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        public = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
        names[module_name] = sorted(set(public))
    out = Path(__file__).with_name("names.json")
    out.write_text(json.dumps({"paddle_version": paddle.__version__, "names": names}, indent=1) + "\n")
    print(f"wrote {out}: {sum(len(v) for v in names.values())} names")


if __name__ == "__main__":
    main()

"""Record what paddle 2.6.2's ImperativeQuantAware.save_quantized_model writes (the legacy format: fake
quant-dequant ops kept, thresholds as op attributes) for the 10-step QAT LeNet of cases.py (channel-wise weights):
saved_legacy.json holds the saved program's ops in order, each with its Paddle input/output slots that are not
empty and its quantization attributes (`*_threshold`, `with_quant_attr`), and the saved model's output on the
fixed eval batch. tests/quantization/test_saved_paddle.py compares minipaddle's saved file with it.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/quantization/make_saved_golden.py
"""

import json
import sys
import tempfile
import warnings
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository, for tests.golden_files

import numpy as np  # noqa: E402

from tests.golden_files import GOLDEN_ROOT, load_cases  # noqa: E402

HERE = GOLDEN_ROOT / "quantization"
QUANT_ATTRS = ("with_quant_attr", "skip_quant")


def _note(name: str) -> bool:
    return name in QUANT_ATTRS or name.endswith("_threshold")


def _value(v):
    if isinstance(v, (list, tuple)):
        return [float(x) for x in v]
    return v if isinstance(v, bool) else float(v)


def main():
    import paddle

    warnings.filterwarnings("ignore")
    cases = load_cases("quantization")
    net, quanter = cases.qat20_trained(paddle, "channel_wise_abs_max")
    net.eval()
    with tempfile.TemporaryDirectory() as tmp:
        prefix = str(Path(tmp) / "lenet")
        spec = [paddle.static.InputSpec([None, 1, 28, 28], "float32")]
        quanter.save_quantized_model(net, prefix, input_spec=spec)
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        ops = []
        for op in program.global_block().ops:
            if op.type in ("feed", "fetch"):
                continue
            notes = {a: _value(op.attr(a)) for a in op.attr_names if _note(a) and op.attr(a) is not False}
            inputs = sorted(s for s in op.input_names if op.input(s))
            outputs = sorted(s for s in op.output_names if op.output(s))
            ops.append({"type": op.type, "inputs": inputs, "outputs": outputs, "quant_attrs": notes})
        (out,) = exe.run(program, feed={feeds[0]: cases.eval_input()}, fetch_list=fetches)
        paddle.disable_static()
    record = {"ops": ops, "eval_out": np.asarray(out).tolist()}
    (HERE / "saved_legacy.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {len(ops)} ops")


if __name__ == "__main__":
    main()

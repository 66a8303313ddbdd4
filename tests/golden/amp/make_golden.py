"""Record paddle 2.6's AMP lists (what it answers on a CPU too) into lists.json.

Run with the paddle 2.6 venv from the repository root: /work/paddle-venv/bin/python tests/golden/amp/make_golden.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.amp import AutoMixedPrecisionLists
from paddle.static.amp.bf16 import AutoMixedPrecisionListsBF16
from paddle.static.amp.fp16_lists import gray_list


def main() -> None:
    white, black = paddle.amp.white_list(), paddle.amp.black_list()
    bf16 = AutoMixedPrecisionListsBF16()
    static = AutoMixedPrecisionLists()
    out = {
        "white_list": {d: {lv: sorted(s) for lv, s in per.items()} for d, per in white.items()},
        "black_list": {d: {lv: sorted(s) for lv, s in per.items()} for d, per in black.items()},
        "static_gray_list": sorted(gray_list),
        "static_black_list": sorted(static.black_list),
        "static_white_list": sorted(static.white_list),
        "bf16_fp32_list": sorted(bf16.fp32_list),
        "bf16_bf16_list": sorted(bf16.bf16_list),
        "bf16_bits_of_1.5_2.25_3_4.1": paddle.to_tensor([1.5, 2.25, 3.0, 4.1]).astype("bfloat16").numpy().tolist(),
        "grad_scaler_defaults": [
            paddle.amp.GradScaler.__init__.__defaults__,
            paddle.amp.AmpScaler.__init__.__defaults__,
        ],
    }
    path = Path(__file__).resolve().parent / "lists.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()

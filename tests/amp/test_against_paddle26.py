"""paddle.amp against what paddle 2.6.2 answers (tests/golden/amp/lists.json, recorded by make_golden.py there):
the lists, static AMP's lists, bfloat16's bits, GradScaler's defaults."""

from __future__ import annotations

import inspect

import numpy as np

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "amp" / "lists.json")


def test_white_and_black_lists_are_paddles():
    for name, fn in (("white_list", paddle.amp.white_list), ("black_list", paddle.amp.black_list)):
        got = {d: {lv: sorted(s) for lv, s in per.items()} for d, per in fn().items()}
        assert got == GOLDEN[name]


def test_static_lists_are_paddles():
    assert sorted(paddle.static.amp.fp16_lists.gray_list) == GOLDEN["static_gray_list"]
    assert sorted(paddle.static.amp.AutoMixedPrecisionLists().black_list) == GOLDEN["static_black_list"]
    assert sorted(paddle.static.amp.AutoMixedPrecisionLists().white_list) == GOLDEN["static_white_list"]
    bf16 = paddle.static.amp.bf16.AutoMixedPrecisionListsBF16()
    assert sorted(bf16.fp32_list) == GOLDEN["bf16_fp32_list"] and sorted(bf16.bf16_list) == GOLDEN["bf16_bf16_list"]


def test_bfloat16_bits_and_scaler_defaults():
    bits = paddle.to_tensor([1.5, 2.25, 3.0, 4.1]).astype("bfloat16").numpy().view(np.uint16).tolist()
    assert bits == GOLDEN["bf16_bits_of_1.5_2.25_3_4.1"]
    for cls, defaults in zip((paddle.amp.GradScaler, paddle.amp.AmpScaler), GOLDEN["grad_scaler_defaults"]):
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [p.default for p in params] == defaults

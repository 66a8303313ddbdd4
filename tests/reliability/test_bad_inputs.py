"""Bad input gets a clear error of Python's own type that names the function (DESIGN.md wall 3).

The cases the reliability review found: each raised a raw internal error (AttributeError, IndexError from inside
minipaddle, ZeroDivisionError, OverflowError, numpy's text, a raw MemoryError) or was silently accepted."""

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F

t0 = paddle.to_tensor(2.0)
m = paddle.to_tensor(np.ones((3, 3), "float32"))
x4 = paddle.to_tensor(np.ones((1, 3, 4, 4), "float32"))
idx = paddle.to_tensor([0])
LABEL = paddle.to_tensor([1, -1, 1])
NAN, INF = float("nan"), float("inf")
GNLL_NAN_MESSAGE = r"gaussian_nll_loss: epsilon must be a number <= 3.40282e\+38 \(the largest float32\), got nan"
CEL, CEL_F, GNLL = paddle.nn.CosineEmbeddingLoss, F.cosine_embedding_loss, paddle.nn.GaussianNLLLoss
HUGE = 10**20
P_OK, P_OUT, P_NAN = (paddle.to_tensor([p, 0.5]) for p in (1.0, 1.5, NAN))

CASES = [
    ("BatchNorm2D(None)", lambda: paddle.nn.BatchNorm2D(3)(None), TypeError, r"BatchNorm2D: input must be a Tensor"),
    ("gather on 0-D", lambda: paddle.gather(t0, idx), ValueError, r"gather: x must have at least 1 dim"),
    ("index_select on 0-D", lambda: paddle.index_select(t0, idx), ValueError, r"index_select: x must have"),
    ("solve on 0-D", lambda: paddle.linalg.solve(t0, t0), ValueError, r"solve: x must be a matrix"),
    ("group_norm on 0-D", lambda: F.group_norm(t0, 2), ValueError, r"group_norm: x must have at least 2"),
    ("label_smooth on 0-D", lambda: F.label_smooth(t0), ValueError, r"label_smooth: label must have"),
    ("label_smooth empty", lambda: F.label_smooth(paddle.zeros([0])), ValueError, r"label_smooth: .*one class"),
    ("Conv2D(0, 4, 3)", lambda: paddle.nn.Conv2D(0, 4, 3), ValueError, r"Conv2D: in_channels must be a positive"),
    ("Conv2D(-3, 4, 3)", lambda: paddle.nn.Conv2D(-3, 4, 3), ValueError, r"Conv2D: in_channels must be a positive"),
    ("Conv2D(None, 4, 3)", lambda: paddle.nn.Conv2D(None, 4, 3), TypeError, r"Conv2D: in_channels .* got NoneType"),
    ("Conv2D(3, 0, 3)", lambda: paddle.nn.Conv2D(3, 0, 3), ValueError, r"Conv2D: out_channels must be a positive"),
    ("zeros([-2, 3])", lambda: paddle.zeros([-2, 3]), ValueError, r"zeros: shape must not have negative"),
    ("zeros huge", lambda: paddle.zeros([10**6, 10**7]), ValueError, r"zeros: shape \[1000000, 10000000\] has"),
    ("ones huge", lambda: paddle.ones([HUGE]), ValueError, r"ones: shape .* more than"),
    ("tril diagonal huge", lambda: paddle.tril(m, diagonal=HUGE), ValueError, r"tril: an argument is too large"),
    ("max_pool2d stride huge", lambda: F.max_pool2d(x4, 2, stride=HUGE), ValueError, r"max_pool2d: every stride"),
    ("item huge", lambda: m.item(HUGE), IndexError, r"Tensor.item: index .* out of range for shape \[3, 3\]"),
    ("repeat_interleave huge", lambda: paddle.repeat_interleave(m, HUGE), ValueError, r"repeat_interleave: shape"),
    ("interpolate inf", lambda: F.interpolate(x4, scale_factor=float("inf")), ValueError, r"interpolate: scale_f"),
    ("full None", lambda: paddle.full([2, 3], None), TypeError, r"full: fill_value must be a number"),
    ("full_like None", lambda: paddle.full_like(m, None), TypeError, r"full_like: fill_value must be a number"),
    ("layer_norm epsilon -1", lambda: F.layer_norm(m, [3], epsilon=-1.0), ValueError, r"layer_norm: epsilon"),
    ("clip min NaN", lambda: paddle.clip(m, min=float("nan")), ValueError, r"clip: min and max must be numbers"),
    ("transpose [-2, 3]", lambda: paddle.transpose(m, [-2, 3]), ValueError, r"transpose: perm must be a permut"),
    ("sort 0-D axis 5", lambda: paddle.sort(t0, axis=5), ValueError, r"sort: axis 5 is out of range"),
    ("to_tensor objects", lambda: paddle.to_tensor(np.array([object()])), TypeError, r"to_tensor: data must hold"),
    # paddle 2.6 refuses these in its Layer, infer-meta or clip kernel; a NaN slipped past minipaddle's `<` checks
    ("CosineEmbeddingLoss inf", lambda: CEL(margin=INF), ValueError, r"CosineEmbeddingLoss: .*\[-1, 1\], got inf"),
    ("CosineEmbeddingLoss NaN", lambda: CEL(margin=NAN), ValueError, r"CosineEmbeddingLoss: margin .* got nan"),
    ("cosine_embedding_loss inf", lambda: CEL_F(m, m, LABEL, margin=INF), ValueError, r"cosine_embedding_loss: m"),
    ("cosine_embedding_loss NaN", lambda: CEL_F(m, m, LABEL, margin=NAN), ValueError, r"_loss: margin .* got nan"),
    ("gaussian_nll_loss NaN", lambda: F.gaussian_nll_loss(m, m, m, epsilon=NAN), ValueError, GNLL_NAN_MESSAGE),
    ("gaussian_nll_loss inf", lambda: F.gaussian_nll_loss(m, m, m, epsilon=INF), ValueError, r"_loss: epsilon .* inf"),
    ("GaussianNLLLoss NaN", lambda: GNLL(epsilon=NAN)(m, m, m), ValueError, r"gaussian_nll_loss: epsilon .* got nan"),
    ("GaussianNLLLoss inf", lambda: GNLL(epsilon=INF)(m, m, m), ValueError, r"gaussian_nll_loss: epsilon .* got inf"),
    ("rrelu upper NaN", lambda: F.rrelu(m, upper=NAN), ValueError, r"rrelu: upper must be a number in"),
    ("rrelu lower NaN", lambda: F.rrelu(m, lower=NAN), ValueError, r"rrelu: lower must be a number in"),
    ("rrelu eval upper NaN", lambda: F.rrelu(m, upper=NAN, training=False), ValueError, r"rrelu: upper"),
    ("RReLU upper NaN", lambda: paddle.nn.RReLU(upper=NAN)(m), ValueError, r"rrelu: upper must be"),
    ("RReLU lower NaN", lambda: paddle.nn.RReLU(lower=NAN)(m), ValueError, r"rrelu: lower must be"),
    # paddle 2.6's bce kernel refuses a value outside [0, 1] (NaN included); minipaddle gave NaN without a word
    ("binary_cross_entropy 1.5", lambda: F.binary_cross_entropy(P_OUT, P_OK), ValueError, r"in \[0, 1\], got 1.5"),
    ("binary_cross_entropy NaN", lambda: F.binary_cross_entropy(P_NAN, P_OK), ValueError, r"\[0, 1\], got nan"),
    ("BCELoss NaN", lambda: paddle.nn.BCELoss()(P_NAN, P_OK), ValueError, r"binary_cross_entropy: input must hold"),
    ("triplet distance NaN", lambda: F.triplet_margin_with_distance_loss(m * NAN, m, m), ValueError, r"or NaN"),
]


@pytest.mark.parametrize("what, call, error, message", CASES, ids=[c[0] for c in CASES])
def test_bad_input_gets_a_clear_error(what, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_valid_neighbours_still_work():
    assert paddle.sort(t0, axis=0).item() == 2.0 and paddle.sort(t0, axis=-1).item() == 2.0  # as paddle 2.6
    assert paddle.transpose(m, [-1, 0]).shape == [3, 3]
    assert paddle.full([2], paddle.to_tensor(3.0)).numpy().tolist() == [3.0, 3.0]
    assert paddle.full([2], True, dtype="bool").numpy().tolist() == [True, True]
    assert paddle.zeros([0, 3]).shape == [0, 3]
    assert paddle.clip(m, min=0.0).shape == [3, 3]
    assert F.layer_norm(paddle.to_tensor([[1.0, 2.0, 4.0]]), [3], epsilon=0.0).shape == [1, 3]
    assert paddle.nn.Conv2D(np.int64(3), 4, 3).weight.shape == [4, 3, 3, 3]
    for margin in (-1, 1.0):  # the ends of the margin's range
        assert F.cosine_embedding_loss(m, m, LABEL, margin=margin).shape == []
        assert paddle.nn.CosineEmbeddingLoss(margin=margin)(m, m, LABEL).shape == []
    # an epsilon of -inf clips nothing and passes (as paddle 2.6); the largest float32 clips everything to itself
    assert F.gaussian_nll_loss(m, m, m, epsilon=float("-inf")).item() == 0.0
    assert np.isclose(F.gaussian_nll_loss(m, m, m, epsilon=3.4e38).item(), 0.5 * np.log(np.float32(3.4e38)))
    assert paddle.allclose(F.rrelu(m - 2, lower=0.5, upper=0.5), (m - 2) * 0.5).item()  # lower == upper is valid


def test_a_static_program_refuses_probabilities_outside_0_1_when_it_runs():
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [2], "float32")
            loss = F.binary_cross_entropy(x, paddle.full([2], 1.0))
        exe = paddle.static.Executor()
        assert exe.run(main, feed={"x": np.array([1.0, 0.5], "float32")}, fetch_list=[loss])[0] > 0
        with pytest.raises(ValueError, match=r"binary_cross_entropy: .* got -0.5"):
            exe.run(main, feed={"x": np.array([1.0, -0.5], "float32")}, fetch_list=[loss])
    finally:
        paddle.disable_static()


def test_probabilities_at_the_ends_of_0_1_still_give_a_loss():
    # 0 and 1 are valid probabilities; each log is clamped at -100 (as paddle 2.6), so the loss is finite
    loss = F.binary_cross_entropy(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 0.0]), reduction="none")
    assert loss.numpy().tolist() == [100.0, 100.0]
    assert F.binary_cross_entropy(paddle.zeros([0]), paddle.zeros([0]), reduction="sum").item() == 0.0
